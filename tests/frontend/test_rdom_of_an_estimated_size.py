"""An RDom over an input's size (`input.width()`) inside the accelerator (issue 8, gaps19): Halide 21 takes the size
when the pipeline runs; a design's loops are fixed at compile time, and nothing the compile knows fixes the image's
size (the output's bounds give the region read, not the buffer's; an estimate is a guess), so the compile asks for
`set_bounds` (catalogue rdom_of_image_size). With an estimate given, the suggested bound is the estimate's, and it
compiles."""

from __future__ import annotations

import pytest

import mainspring as hl


def _summed(estimate: bool, bound: bool) -> hl.Func:
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    if estimate:
        inp.dim(0).set_estimate(0, 12)
    if bound:
        inp.dim(0).set_bounds(0, 12)
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    r = hl.RDom([hl.Range(0, inp.width())], "r")
    hw_input[x, y] = inp[x, y]
    hw_output[x, y] = hl.u16(0)
    hw_output[x, y] += hw_input[r.x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 4).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 4).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


def test_an_estimate_is_not_a_size_but_the_fix_takes_it():
    with pytest.raises(hl.ScheduleError, match=r"dim\(0\).set_bounds gives \(its set_estimate\(0, 12\) is a guess, "
                                               r"not its size\); .*input.dim\(0\).set_bounds\(0, 12\)\)"):
        hl.compile(_summed(estimate=True, bound=False), name="summed")
    design = hl.compile(_summed(estimate=True, bound=True), name="summed")
    assert design.program.output_box == [(0, 3), (0, 3)]
