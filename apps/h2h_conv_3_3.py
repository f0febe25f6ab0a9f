"""Port of the reference system's `conv_3_3` test (Halide-to-Hardware, apps/hardware_benchmarks/tests/conv_3_3;
see ../shared/h2h/README.md): a 3x3 convolution with constant weights (a constant Func: zero plus nine updates at
constant coordinates, two of them zero) computed inside the accelerator, as the generator schedules it; its
reads at the unrolled reduction's coordinates fold into the kernel. 64x64 in, 62x62 out."""

from __future__ import annotations

import mainspring as hl

from .common import accelerate, autoschedule, random_image

NAME = "h2h_conv_3_3"
DEFAULT_SIZE = (62, 62)
KSIZE = 3
WEIGHTS = {(0, 0): 11, (0, 1): 12, (0, 2): 13, (1, 0): 0, (1, 1): 0, (1, 2): 16, (2, 0): 17, (2, 1): 18, (2, 2): 19}


def build(width: int = 62, height: int = 62, auto: bool = False):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    kernel, conv = hl.Func("kernel"), hl.Func("conv")
    r = hl.RDom([hl.Range(0, KSIZE), hl.Range(0, KSIZE)], "r")
    kernel[x, y] = 0
    for (i, j), w in WEIGHTS.items():
        kernel[i, j] = w
    conv[x, y] = hl.u16(0)
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    conv[x, y] += hl.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = conv[x, y]
    output[x, y] = hl.u8(hw_output[x, y])

    if auto:  # the algorithm as written, scheduled by mainspring/autoschedule.py
        autoschedule(output, width, height)
    else:
        accelerate(output, hw_output, width, height, [kernel, conv], hw_input)
        conv.update().unroll(r.x, KSIZE).unroll(r.y, KSIZE)
    return output, {"input": random_image(width + KSIZE - 1, height + KSIZE - 1, seed=13)}
