"""Catalogue cases: channels through seed 002's GLB level (memories/glb_output_lanes.py): a colour output whose
memory tiles unroll rows, whose lanes are not consecutive words of the GLB tile (unrolled channels compile since
session 36: the GLB stores them innermost, memories/glb.py storage_order)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


@case("memories", "A 3-channel GLB output whose memory tiles unroll two rows", (
    "{glb_colour}: Func 'hw_output_global_wrapper' (the GLB output): Func 'hw_output' writes 2 lanes of 'yii' a "
    "cycle (hw_output.unroll(yii, 2)), words 8 apart in the GLB tile, but the GLB stores its tile x fastest and moves "
    "entries of consecutive words of x: remove hw_output.unroll(yii, 2) (and the GLB copy's unroll of it), so that "
    "'yii' is computed in turn and only x is unrolled, or leave the GLB out (hw_accelerate on 'hw_output' itself)"),
    func="hw_output", simulate=True)
def glb_output_rows_unrolled():
    return _colour(unroll_rows=True)


@glb_output_rows_unrolled.fix
def _():
    return _colour(unroll_rows=False)


def _colour(unroll_rows):
    """A gray input to 3 channels through seed 002's three levels, two lanes of x, 8x2."""
    x, y, c, xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in "x y c xo yo xi yi xio yio xii yii".split())
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.u16(inp[x, y])
    hw_output[x, y, c] = hl.u8((hw_input[x, y] * hl.u16(c + 1) + hw_input[x + 1, y]) >> 2)
    output[x, y, c] = hw_output[x, y, c]
    output.bound(x, 0, 8).bound(y, 0, 2).bound(c, 0, 3)
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 2).reorder(c, xi, yi, xo, yo)
    g.hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB).unroll(xi, 2)  # <-glb_colour
    hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 8, 2).reorder(c, xii, yii, xio, yio).unroll(xii, 2)
    if unroll_rows:
        g.unroll(yi, 2)
        hw_output.unroll(yii, 2)
    hw_input.in_().in_().compute_at(hw_output, xio).unroll(x, 2)
    hw_input.in_().compute_at(g, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return hl.compile(output, name="demo")
