"""RAMs (Funcs of more than 64 elements updated at computed coordinates, memories/ram.py) beyond one constant
initial value: words that start at a compile-time table (a function of the coordinates, or a constant Func), and
an update whose reduction is unrolled (run serially, one read-modify-write per cycle). Bit-exact on both
simulators."""

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
def test_a_ram_starts_at_a_compile_time_table(init, simulator, build_dir):
    out, inputs = _histogram(12, 7, init)
    design = hl.compile(out, name=f"ram_{init}")
    (ram,) = [b for b in design.report["buffers"] if b["name"] == "hist"]
    assert ram["level"] == "mem_tile", ram
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
    ref = np.asarray(design.reference_output(inputs))
    assert len(set(ref.tolist())) > 100  # the table shows through the unwritten words


def test_a_ram_with_a_table_is_lint_clean_and_latch_free(tmp_path):
    out, _ = _histogram(8, 4, "func")
    assert_lint_clean_and_latch_free(hl.compile(out, name="ram_table_lint"), tmp_path)


def test_a_ram_initialised_from_an_input_is_refused():
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 4)], "r")
    hist[b] = hw_input[b % 8, 0]
    hist[hl.clamp(hl.i32(hw_input[r.x, r.y]), 0, 255)] += hl.u16(1)
    hw_output[b] = hist[b]
    output[b] = hw_output[b]
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, 256)
    hw_output.compute_root().split(b, bo, bi, 256).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    with pytest.raises(hl.HalideError, match=r"whose elements start at values known at compile time .* reads "
                                             r"hw_input; initialise it without hw_input"):
        hl.compile(output, name="ram_from_input")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_unrolled_scatter_runs_serially_with_a_note(simulator, build_dir):
    img = random_image(8, 5, seed=11)
    img[1, :] = 40  # the lanes of one step collide on an element (and consecutive steps update it again)
    img[3, 0:4] = [7, 7, 8, 7]
    out, inputs = _histogram(8, 5, "func", unroll=4, image=img)
    design = hl.compile(out, name="ram_unrolled")
    (note,) = design.report["notes"]
    assert note.startswith("hist.update(0).unroll(rxi) at ") and "runs serially: 'hist' is a RAM" in note, note
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles and res.cycles >= 8 * 5 + 256  # one pixel per cycle, then readout
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=4)
