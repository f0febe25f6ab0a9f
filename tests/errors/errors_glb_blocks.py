"""Catalogue cases: the lanes of seed 002's GLB output (memories/glb_output_lanes.py). Rows and channels unrolled in
the memory tiles compile since session 38 (an entry per block of lanes, memories/glb_blocks.py;
tests/flow/test_flow_glb_blocks.py, refused before as `glb_output_rows_unrolled`); lanes a step apart along x,
which no block of consecutive words holds, stay refused."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


@case("memories", "A GLB output whose memory tiles unroll the outer loop of a split of x", (
    "{blocks_tile}: Func 'hw_output_global_wrapper' (the GLB output): Func 'hw_output' writes 2 lanes of 'xa' a cycle "
    "(hw_output.unroll(xa)), words 2 apart in the GLB tile, but each GLB entry holds one cycle's lanes as a block of "
    "consecutive words along each dimension: remove hw_output.unroll(xa) (and the GLB copy's unroll of it), so that "
    "'xa' is computed in turn, or leave the GLB out (hw_accelerate on 'hw_output' itself)"), func="hw_output",
    simulate=True, note="Halide accepts it (the two lanes compute pixels 2 apart)")
def glb_output_lanes_apart():
    return _split_lanes(unroll_outer=True)


@glb_output_lanes_apart.fix
def _():
    return _split_lanes(unroll_outer=False)


def _split_lanes(unroll_outer):
    """A two-tap sum through seed 002's three levels, 8x4 in one memory tile whose x is split in two halves of 2."""
    x, y, xo, yo, xi, yi, xio, yio, xii, yii, xa, xb = (
        hl.Var(n) for n in "x y xo yo xi yi xio yio xii yii xa xb".split())
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = inp[x, y]
    hw_output[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 4)
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)  # <-blocks_tile
    hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 4, 4).split(xii, xa, xb, 2)
    if unroll_outer:
        hw_output.unroll(xa)
    hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(g, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return hl.compile(output, name="demo")
