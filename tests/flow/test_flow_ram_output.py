"""A table updated at computed coordinates that is itself the accelerator's output (a histogram written as a
newcomer writes it, no copy-out): past LANE_ELEMENTS it is a RAM exactly as if the user had written
`out(b) = hist(b)` (hwlower/output_copy.py: the RAM is an internal buffer, `hist_acc`, and a copy op streams it
out in the pure definition's order after the last update). Autoscheduled and hand scheduled, counts, max and sum
updates, starting at a constant, at a compile-time table or at the input's values; bit-exact on both simulators,
and its PEs and words those of the hand copy-out's."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image

from conftest import SIMULATORS

W, H = 12, 6


def _streamed(image):
    x, y = hl.Var("x"), hl.Var("y")
    src = hl.Func("hw_input")
    src[x, y] = image[x, y]
    return src


def _hist(src, bins: int, update: str, init: str):
    """hist(b) = init; hist(clamp(src(r), 0, bins - 1)) op= ... over a W x H image."""
    b = hl.Var("b")
    r = hl.RDom([(0, W), (0, H)], "r")
    hist = hl.Func("hist")
    hist[b] = {"zero": hl.u16(0), "coords": hl.u16(b * 3 % 50), "input": hl.u16(src[b % 4, 0]) * 2}[init]
    at = hl.clamp(hl.i32(src[r.x, r.y]), 0, bins - 1)
    if update == "count":
        hist[at] += hl.u16(1)
    elif update == "max":
        hist[at] = hl.max(hist[at], hl.u16(r.x + r.y))
    else:
        hist[at] = hist[at] + hl.u16(src[r.x, r.y]) / 2
    return hist


def _table(bins: int, update: str = "count", init: str = "zero", schedule: str = "auto", copy: bool = False,
           lanes: int = 1):
    """`_hist` of the image as the output. `schedule`: "auto" (apply_autoscheduler) or "hand"
    (hist.compute_root().split(b, ...).hw_accelerate, the image streamed in, hist.unroll(bi, lanes)); `copy`: the
    output is `out(b) = hist(b)` (with "auto", the accelerator's output; with "hand", a host copy)."""
    image = hl.ImageParam(hl.UInt(8), 2, "image")
    b = hl.Var("b")
    src = _streamed(image) if schedule == "hand" else image
    hist = _hist(src, bins, update, init)
    out = hist
    if copy:
        out = hl.Func("out")
        out[b] = hist[b]
    if schedule == "auto":
        out.set_estimates([(0, bins)])
        hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    else:
        bo, bi = hl.Var("bo"), hl.Var("bi")
        out.bound(b, 0, bins)
        hist.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
        if lanes > 1:
            hist.unroll(bi, lanes)
        src.compute_root().stream_to_accelerator()
    return out


def _copied_out(bins: int, update: str, init: str, schedule: str):
    """The same table with the copy-out written by hand as the accelerator's output (`hw_output(b) = hist(b)`)."""
    if schedule == "auto":
        return _table(bins, update, init, "auto", copy=True)
    b = hl.Var("b")
    src = _streamed(hl.ImageParam(hl.UInt(8), 2, "image"))
    hist = _hist(src, bins, update, init)
    hw_output, out = hl.Func("hw_output"), hl.Func("out")
    hw_output[b] = hist[b]
    out[b] = hw_output[b]
    bo, bi = hl.Var("bo"), hl.Var("bi")
    out.bound(b, 0, bins)
    hw_output.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
    src.compute_root().stream_to_accelerator()
    return out


def _cost(design) -> tuple[int, int]:
    return design.report["pes"], sum(b["words"] for b in design.report["buffers"])


def _inputs(seed: int, bins: int) -> dict:
    img = random_image(W, H, seed=seed)
    img[1, 2:6] = min(bins - 1, 9)  # consecutive steps update one element (forwarded)
    return {"image": img}


CASES = [(16, "count", "zero", "auto"), (100, "count", "zero", "auto"), (256, "count", "zero", "auto"),
         (16, "max", "coords", "auto"), (100, "sum", "input", "auto"),
         (16, "count", "zero", "hand"), (100, "max", "zero", "hand"), (256, "sum", "coords", "hand"),
         (100, "count", "input", "hand")]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("bins", "update", "init", "schedule"), CASES, ids=["-".join(map(str, c)) for c in CASES])
def test_a_table_that_is_the_output_is_a_ram_as_its_copy_out_would_be(bins, update, init, schedule, simulator,
                                                                      compile_shared, build_dir):
    design = compile_shared(_table(bins, update, init, schedule), name=f"ram_out_{bins}_{update}_{init}_{schedule}")
    (ram,) = [b for b in design.report["buffers"] if b["name"] == "hist_acc"]
    assert ram["level"] == "mem_tile", ram
    assert not [b for b in design.report["buffers"] if b["level"] == "glb"]
    copied = compile_shared(_copied_out(bins, update, init, schedule),
                            name=f"ram_copied_{bins}_{update}_{init}_{schedule}")
    pes, words = _cost(design)
    copy_pes, copy_words = _cost(copied)
    assert pes <= copy_pes + 1 and words <= copy_words + 1, (pes, words, copy_pes, copy_words)
    inputs = _inputs(bins + len(update), bins)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles <= copied.check(inputs, simulator=simulator, build_dir=build_dir).cycles + 2
    ref = np.asarray(design.reference_output(inputs))
    assert ref.shape == (bins,) and ref.any()


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_hand_scheduled_table_copied_to_the_host_is_a_ram(simulator, compile_shared, build_dir):
    """hist.compute_root().split(b, ...).hw_accelerate(...) with `out(b) = hist(b)` on the host: the table,
    the accelerator's output, is a RAM under bubbles and backpressure."""
    design = compile_shared(_table(100, "count", "coords", "hand", copy=True), name="ram_out_host_copy")
    assert [b["level"] for b in design.report["buffers"] if b["name"] == "hist_acc"] == ["mem_tile"]
    design.check(_inputs(3, 100), simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("bins", "lanes", "level"), [(16, 2, "mem_tile"), (16, 4, "register"), (4, 1, "register")])
def test_an_output_streamed_in_more_lanes_than_a_ram_reads_stays_registers(bins, lanes, level, simulator,
                                                                          compile_shared, build_dir):
    """A RAM streams out at most 2 words per cycle (a memory tile's read ports): in 4 lanes, or at most
    LANE_ELEMENTS (4) bins, the output stays lanes of registers (at most 64 elements; past it the refusal
    `ram_output_in_four_lanes` in tests/errors)."""
    design = compile_shared(_table(bins, schedule="hand", lanes=lanes), name=f"ram_out_lanes_{bins}_{lanes}")
    assert [b["level"] for b in design.report["buffers"] if b["name"] == "hist_acc"] == [level]
    design.check(_inputs(5, bins), simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize("bins", [16, 100])
@pytest.mark.parametrize("copy", [False, True])
def test_a_table_streamed_out_in_host_tiles_of_its_bins_is_refused(bins, copy):
    """Host tiles of the bins (split(b, bo, bi, bins / 2)): each invocation holds the whole table, and would read
    it from the first one's origin (a wrong output before, with the copy-out too); refused with the fix."""
    image = hl.ImageParam(hl.UInt(8), 2, "image")
    b, bo, bi = hl.Var("b"), hl.Var("bo"), hl.Var("bi")
    src = _streamed(image)
    hist = _hist(src, bins, "count", "zero")
    out = hist
    if copy:
        out = hl.Func("out")
        out[b] = hist[b]
    out.bound(b, 0, bins)
    out.compute_root().split(b, bo, bi, bins // 2).hw_accelerate(bi, bo)
    src.compute_root().stream_to_accelerator()
    who = "'out' reads it" if copy else "it streams out"
    with pytest.raises(hl.HalideError, match=rf"Func 'hist'.update\(0\) writes at computed coordinates, .*{who} in "
                                             r"host tiles along b .*accelerate the whole table in one invocation"):
        hl.compile(out, name="ram_out_tiles")
