"""RoundUp tails in bounds inference, against Halide: a Func whose loop is split with RoundUp (or, in an update,
a pure variable split with the Auto tail) is realised over the rounded-up loop, so its producers and the
inputs are read further; the visible output is unchanged (passes: bounds, reference)."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.oracle

N = 10  # output width; every program below unrolls by 4, so Funcs cover 12 columns and read the input to 12


def rounded(hl, n_in, tail="RoundUp", update=False):
    x = hl.Var("x")
    inp = hl.ImageParam(hl.UInt(8), 1, "inp")
    inp.set(hl.Buffer(np.arange(3, 3 + n_in, dtype=np.uint8)))
    f = hl.Func("f")
    f[x] = hl.u16(inp[x]) + inp[x + 1]
    if update:
        r = hl.RDom([hl.Range(0, 2)], "r")
        f[x] += hl.u16(inp[x + r.x])
    g = hl.Func("g")
    g[x] = f[x] * 2
    f.compute_root()
    f.unroll(x, 4, getattr(hl.TailStrategy, tail))
    if update:
        f.update().unroll(x, 4, getattr(hl.TailStrategy, tail))
    return np.asarray(g.realize([N]))


@pytest.mark.parametrize(("tail", "update"), [("RoundUp", False), ("Auto", True), ("RoundUp", True)])
def test_round_up_reads_the_input_as_far_as_halide(tail, update, halide):
    import mainspring

    for n_in in (12, 13):
        outcome = []
        for hl in (halide, mainspring):
            try:
                outcome.append(rounded(hl, n_in, tail, update))
            except Exception as e:  # noqa: BLE001 - either library's error type
                outcome.append("accessed at 12" in str(e))
        if n_in == 12:
            assert outcome == [True, True], "both refuse an input one column short of the rounded-up loop"
        else:
            assert np.array_equal(outcome[0], outcome[1])


def test_shift_inwards_does_not_grow_the_box(same_as_halide):
    same_as_halide(rounded, 11, "ShiftInwards")


def test_rounded_box_in_bounds_inference():
    import mainspring as hl
    from mainspring.frontend.bounds import infer_boxes
    from mainspring.frontend.pipeline import Pipeline

    x, y = hl.Var("x"), hl.Var("y")
    xo, xi = hl.Var("xo"), hl.Var("xi")
    inp = hl.ImageParam(hl.UInt(8), 2, "inp")
    f = hl.Func("f")
    f[x, y] = inp[x, y]
    g = hl.Func("g")
    g[x, y] = f[x, y] + f[x + 2, y]
    # 30 wide in tiles of 10 (the last tile shifts inward), each tile's 10 columns unrolled by 4: 12 columns.
    g.compute_root().split(x, xo, xi, 10).unroll(xi, 4, hl.TailStrategy.RoundUp)
    f.compute_root()
    required: dict = {}
    boxes, inputs = infer_boxes(Pipeline(g), [(0, 29), (0, 3)], lambda p: None, required=required)
    assert required["g"] == [(0, 29), (0, 3)] and boxes["g"] == [(0, 31), (0, 3)]
    assert boxes["f"] == [(0, 33), (0, 3)] and inputs["inp"] == [(0, 33), (0, 3)]


@pytest.mark.parametrize(("extent", "covered"), [(1, 2), (3, 4), (4, 4), (5, 5), (9, 9)])
def test_lanes_inside_a_split_wider_than_its_loop_round_the_loop_up(extent, covered):
    """A tile of 4 over 3 columns shrinks to 3 (as inside the accelerator: hwlower's loops), and its RoundUp lanes
    of 2 then cover 4 of them, not 3 (a memory tile of 4 over a GLB tile of 3 at 2 lanes read past its producer's
    box: docs/findings' session 18 program, now tests/flow/fuzz_cases/glb_memory_tile_odd_at_lanes.py)."""
    import mainspring as hl
    from mainspring.frontend.bounds import rounded_up

    x, xo, xi, xii, xiii = (hl.Var(n) for n in ("x", "xo", "xi", "xii", "xiii"))
    f = hl.Func("f")
    f[x] = x * 2
    f.compute_root().split(x, xo, xi, 4).split(xi, xii, xiii, 2, hl.TailStrategy.RoundUp)
    assert rounded_up(f.function(), [(0, extent - 1)]) == [(0, covered - 1)]
