"""RAMs (Funcs of more than 64 elements updated at computed coordinates, memories/ram.py) beyond one constant
initial value and one serial update: words that start at a compile-time table (a function of the coordinates, or
a constant Func), several updates in sequence (scatters, and updates at the pure coordinates), and an update whose
reduction is unrolled (run serially, one read-modify-write per cycle). Bit-exact on both simulators."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image

from conftest import SIMULATORS, assert_lint_clean_and_latch_free


def _histogram(w: int, h: int, init: str = "coords", seed: int = 53, unroll: int = 0, image=None):
    """`hist(clamp(in(x, y), 0, 255)) += 1` over a w x h image, `hist` starting at a table: "coords" its
    coordinate times 3 (wrapping in UInt(16)), "func" a constant Func's values, "signed" an Int(16) of the
    coordinate that goes below zero."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, w), hl.Range(0, h)], "r")
    at = hl.clamp(hl.i32(hw_input[r.x, r.y]), 0, 255)
    if init == "func":
        table = hl.Func("table")
        table[x] = hl.u16((x * x) % 1000 + 7)
        table.compute_root()
        hist[b] = table[b]
    elif init == "signed":
        hist[b] = hl.i16(b) - 100
    else:
        hist[b] = hl.u16(b * 3)
    hist[at] += hl.i16(1) if init == "signed" else hl.u16(1)
    if unroll:
        rxo, rxi = hl.RVar("rxo"), hl.RVar("rxi")
        hist.update(0).split(r.x, rxo, rxi, unroll).unroll(rxi)
    hw_output[b] = hist[b]
    output[b] = hw_output[b]
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, 256)
    hw_output.compute_root().split(b, bo, bi, 256).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    return output, {"input": random_image(w, h, seed=seed) if image is None else image}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("init", ["coords", "func", "signed"])
def test_a_ram_starts_at_a_compile_time_table(init, simulator, compile_shared, build_dir):
    out, inputs = _histogram(12, 7, init)
    design = compile_shared(out, name=f"ram_{init}")
    (ram,) = [b for b in design.report["buffers"] if b["name"] == "hist"]
    assert ram["level"] == "mem_tile", ram
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
    ref = np.asarray(design.reference_output(inputs))
    assert len(set(ref.tolist())) > 100  # the table shows through the unwritten words


def test_a_ram_with_a_table_is_lint_clean_and_latch_free(tmp_path):
    out, _ = _histogram(8, 4, "func")
    assert_lint_clean_and_latch_free(hl.compile(out, name="ram_table_lint"), tmp_path)


def _started_from_the_input(index, bins: int = 256):
    """`bins` bins starting at the input's row 1 read at `index(b)`, then a histogram of the 8x4 corner."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 4)], "r")
    hist[b] = hw_input[index(b), 1] * 2
    hist[hl.clamp(hl.i32(hw_input[r.x, r.y]), 0, bins - 1)] += hl.u16(1)
    hw_output[b] = hist[b]
    output[b] = hw_output[b]
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, bins)
    hw_output.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_ram_started_from_the_input_writes_it_in_a_first_pass(simulator, compile_shared, build_dir):
    """hist(b) = hw_input(255 - b, 1) * 2: the RAM starts at zero and its pure definition runs as a first update
    through the update port, every word written before the scatter (Halide's order), bit-exact."""
    design = compile_shared(_started_from_the_input(lambda b: 255 - b), name="ram_from_input")
    (ram,) = [b for b in design.report["buffers"] if b["name"] == "hist"]
    assert ram["level"] == "mem_tile", ram
    design.check({"input": random_image(256, 4, seed=5)}, simulator=simulator, build_dir=build_dir,
                 bubbles=0.2, backpressure=0.2)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("index", "bins", "width"), [(lambda b: b % 8, 256, 8), (lambda b: b / 2, 256, 128),
                                                (lambda b: b % 3 + b / 3, 258, 88), (lambda b: b % 3, 256, 8)],
                         ids=["mod8", "div2", "mod3", "mod3_rounded"])
def test_a_ram_started_from_the_input_at_a_divided_index_splits_its_first_pass(simulator, compile_shared, build_dir,
                                                                               index, bins, width):
    """hist(b) = hw_input(b % 8, 1) * 2: the first pass runs b in steps of 8 (b = 8 * b_o + b_i), where b % 8 = b_i
    and b / 8 = b_o are affine (as a user's hist.split(b, bo, bi, 8) would make them); by 3 over 258 bins too, and
    over 256 bins, whose box rounds up to 258 (86 whole steps, as a RoundUp split would)."""
    design = compile_shared(_started_from_the_input(index, bins), name="ram_from_input_divided")
    (ram,) = [b for b in design.report["buffers"] if b["name"] == "hist"]
    assert ram["level"] == "mem_tile", ram
    res = design.check({"input": random_image(width, 4, seed=6)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize(("index", "bins"), [(lambda b: (b + 1) % 8, 256)], ids=["sum"])
def test_a_ram_started_from_the_input_at_an_index_no_split_serves_is_refused(index, bins):
    """(b + 1) % 8 (not one coordinate's steps): refused as before."""
    with pytest.raises(hl.HalideError, match=r"whose elements start at values known at compile time .* reads "
                                             r"hw_input at an index divided by a constant that is not one coordinate "
                                             r"over whole steps \(its box is \[0, 255\]\); initialise it without "
                                             r"hw_input"):
        hl.compile(_started_from_the_input(index, bins), name="ram_from_input")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_unrolled_scatter_runs_serially_with_a_note(simulator, compile_shared, build_dir):
    img = random_image(8, 5, seed=11)
    img[1, :] = 40  # the lanes of one step collide on an element (and consecutive steps update it again)
    img[3, 0:4] = [7, 7, 8, 7]
    out, inputs = _histogram(8, 5, "func", unroll=4, image=img)
    design = compile_shared(out, name="ram_unrolled")
    (note,) = design.report["notes"]
    assert note.startswith("hist.update(0).unroll(rxi) at ") and "runs serially: 'hist' is a RAM" in note, note
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles and res.cycles >= 8 * 5 + 256  # one pixel per cycle, then readout
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=4)


def _updated(w: int, h: int, updates: str):
    """A 256-bin histogram (starting at its coordinates) updated in sequence, one update per letter of `updates`:
    "s" a scatter of +1 over the image, "t" a scatter of +5 at 255 minus the pixels of row 2 (its own RDom), "p"
    `hist(b) = hist(b) * 2 + 1` (at the pure coordinates), "m" `hist(b) = max(hist(b), table(b))`."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    table = hl.Func("table")
    table[x] = hl.u16((x * 37) % 256 + 20)
    table.compute_root()
    hist[b] = hl.u16(b)
    for u in updates:
        if u == "s":
            r = hl.RDom([hl.Range(0, w), hl.Range(0, h)], "r")
            hist[hl.clamp(hl.i32(hw_input[r.x, r.y]), 0, 255)] += hl.u16(1)
        elif u == "t":
            r2 = hl.RDom([hl.Range(0, w)], "r2")
            hist[255 - hl.i32(hw_input[r2.x, 2])] += hl.u16(5)
        elif u == "p":
            hist[b] = hist[b] * 2 + 1
        else:
            hist[b] = hl.max(hist[b], table[b])
    hw_output[b] = hist[b]
    output[b] = hw_output[b]
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, 256)
    hw_output.compute_root().split(b, bo, bi, 256).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    img = random_image(w, h, seed=17)
    img[2, :] = 9  # row 2's bin: the second scatter's first step reads the element the first one wrote last
    img[h - 1, w - 1] = 9
    return output, {"input": img}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("updates", ["st", "sp", "spt", "mst"])
def test_a_ram_updated_several_times_in_sequence(updates, simulator, compile_shared, build_dir):
    out, inputs = _updated(8, 6, updates)
    design = compile_shared(out, name=f"ram_{updates}")
    rep = design.report
    assert rep["mem_tiles"] <= 2 + ("m" in updates), rep  # the RAM, the image a second scatter reads, a ROM
    (ram,) = [b for b in rep["buffers"] if b["name"] == "hist"]
    assert ram["level"] == "mem_tile", ram
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    # each update's steps one per cycle, one after another, then the readout (a few cycles of latency each)
    steps = {"s": 48, "t": 8, "p": 256, "m": 256}
    assert res.cycles <= sum(steps[u] for u in updates) + 256 + 6 * len(updates) + 8, res.cycles
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=6)


def test_a_ram_updated_twice_is_lint_clean_and_latch_free(tmp_path):
    out, _ = _updated(4, 3, "spt")
    assert_lint_clean_and_latch_free(hl.compile(out, name="ram_twice_lint"), tmp_path)


def test_the_checker_refuses_an_update_started_before_the_one_before_it_is_done():
    import dataclasses as dc

    from mainspring.memories import MemoryCheckError, check_plan

    out, _ = _updated(8, 6, "st")
    design = hl.compile(out, name="ram_check")
    nest, plan = design.program.nest, design.plan
    check_plan(nest, plan)
    (ram,) = [b for b in plan.buffers if b.name == "hist"]
    first, second = ram.write_ports
    early = 48 // 2  # the second update moved into the first's steps, its ports with it
    op = plan.op(second.op)
    ports = (first, dc.replace(second, controller=second.controller.shifted(-early)))
    bad = dc.replace(plan, ops=tuple(dc.replace(s, delay=s.delay - early) if s is op else s for s in plan.ops),
                     buffers=tuple(dc.replace(b, write_ports=ports) if b is ram else b for b in plan.buffers))
    with pytest.raises(MemoryCheckError, match=r"buffer 'hist': write port hist.w1 reads its first element in cycle "
                                               r"\d+, before the update before it is done"):
        check_plan(nest, bad)
