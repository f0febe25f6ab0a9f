"""Bounds inference over many boxes with shared intervals (`bounds.SharedBounds`, used for the thousands of runs of
an array under a GLB level): every box's inferred boxes are those of a fresh inference, and an index is bounded
once per distinct range of the variables it reads, not once per box."""

from __future__ import annotations

import itertools

import mainspring as hl
from mainspring.frontend.bounds import SharedBounds, calls_in, func_value_bounds, infer_boxes
from mainspring.frontend.pipeline import Pipeline


def _pipeline() -> Pipeline:
    """Reads at clamped, halved, shifted and coupled indices, and a table read at a Func's values."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "inp")
    f = hl.Func("f")
    f[x, y] = hl.u16(inp[hl.clamp(x - 1, 0, 40), y]) + inp[x // 2, y + 1]
    lut = hl.Func("lut")
    lut[x] = hl.u8(x * 3)
    g = hl.Func("g")
    g[x, y] = f[x, y] + f[x + 2, y - 1] + f[x + y, y // 2] + lut[hl.u8(f[x, y] >> 8)]
    g.compute_root()
    f.compute_root()
    lut.compute_root()
    return Pipeline(g)


def test_shared_intervals_give_each_box_a_fresh_inference():
    pipe = _pipeline()
    scalars = lambda p: None  # noqa: E731 - no scalar parameter
    shared = SharedBounds(scalars, func_value_bounds(pipe, scalars))
    boxes = [[(x0, x0 + 15), (y0, y0 + 7)] for x0, y0 in itertools.product(range(-8, 72, 16), range(0, 48, 8))]
    for box in boxes:
        fresh = infer_boxes(pipe, [list(b) for b in box], scalars, output_bounds=False)
        assert infer_boxes(pipe, [list(b) for b in box], scalars, output_bounds=False, shared=shared) == fresh, box
    # g's indices of x alone (or y alone) take 5 (6) ranges over the 30 boxes; f's box couples both (it is read
    # at x + y), so f's own indices take up to 30: fewer than half the intervals of a Bounder per box
    per_box = sum(len(c.args) for fn in pipe.order for d in pipe.definitions(fn) for c in calls_in(d))
    assert 0 < len(shared) < len(boxes) * per_box / 2, (len(shared), per_box)


def test_an_interval_depends_only_on_the_variables_read():
    x, y = hl.Var("x"), hl.Var("y")
    shared = SharedBounds(lambda p: None)
    f = hl.Func("h")
    f[x, y] = x * 2 - 1
    pipe = Pipeline(f)
    (d,) = pipe.definitions(pipe.output)
    e = d.value
    assert shared(e, {"x": (0, 9), "y": (0, 0)}) == (-1, 17)
    assert shared(e, {"x": (0, 9), "y": (5, 100)}) == (-1, 17)
    assert len(shared) == 1
    assert shared(e, {"x": (1, 9), "y": (5, 100)}) == (1, 17)
    assert len(shared) == 2
