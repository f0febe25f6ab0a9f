"""Port of the reference system's `pointwise` generator (Halide-to-Hardware, apps/hardware_benchmarks/apps/
pointwise; see ../shared/h2h/README.md): multiply by 2, 64x64, with its Clockwork schedule at the default
`myunroll` of 1 (`lanes` sets it: the generator's E64 modes use 8)."""

from __future__ import annotations

import mainspring as hl

from .common import autoschedule, random_image

NAME = "h2h_pointwise"
DEFAULT_SIZE = (64, 64)


def build(width: int = 64, height: int = 64, lanes: int = 1, auto: bool = False):
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, mult, hw_output, output = hl.Func("hw_input"), hl.Func("mult"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.u16(input_[x, y])
    mult[x, y] = hw_input[x, y] * 2
    hw_output[x, y] = mult[x, y]
    output[x, y] = hl.u8(hw_output[x, y])

    if auto:  # the algorithm as written, scheduled by mainspring/autoschedule.py
        autoschedule(output, width, height, lanes)
        return output, {"input": random_image(width, height, seed=17)}
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    hw_output.unroll(xi, lanes)
    mult.compute_at(hw_output, xo).unroll(x, lanes)
    hw_input.stream_to_accelerator()
    # The generator writes hw_input.in().unroll(x, unroll): an unroll of an inline wrapper, which Halide refuses
    # ("Cannot unroll dimension x.v0 of function hw_input_global_wrapper because the function is scheduled
    # inline"). The stream's lanes are the streamed Func's own loop: unroll it there.
    hw_input.unroll(x, lanes)
    return output, {"input": random_image(width, height, seed=17)}
