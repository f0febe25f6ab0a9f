"""Port of the reference system's `down_sample` test (Halide-to-Hardware, apps/hardware_benchmarks/tests/
down_sample; see ../shared/h2h/README.md): a 2x2 max pool at stride 2 (`maximum` over an RDom, an inline
reduction), 64x64 in, 32x32 out, with the generator's Clockwork schedule."""

from __future__ import annotations

import mainspring as hl

from .common import accelerate, autoschedule, random_image

NAME = "h2h_down_sample"
DEFAULT_SIZE = (32, 32)
STRIDE = 2


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    return in_width // STRIDE, in_height // STRIDE


def build(width: int = 32, height: int = 32, auto: bool = False):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    r = hl.RDom([hl.Range(0, STRIDE), hl.Range(0, STRIDE)], "r")
    hw_input, max_pool = hl.Func("hw_input"), hl.Func("max_pool")
    hw_input[x, y] = hl.u16(input_[x, y])
    max_pool[x, y] = hl.maximum(hw_input[x * STRIDE + r.x, y * STRIDE + r.y])
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = max_pool[x, y]
    output[x, y] = hl.u8(hw_output[x, y])

    if auto:  # the algorithm as written, scheduled by mainspring/autoschedule.py
        autoschedule(output, width, height)
    else:
        accelerate(output, hw_output, width, height, [max_pool], hw_input)
    return output, {"input": random_image(width * STRIDE, height * STRIDE, seed=19)}
