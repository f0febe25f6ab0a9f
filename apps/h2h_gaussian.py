"""Port of the reference system's `gaussian` generator (Halide-to-Hardware, apps/hardware_benchmarks/apps/
gaussian; see ../shared/h2h/README.md): a 3x3 gaussian (sigma 1.5) whose weights are computed in floating
point (`exp`, normalised to 256) and cast to uint16, as the generator writes them. The weights are a constant
Func: the reference evaluates them exactly as Halide 21 does, and they fold into the kernel.

The schedule: the generator's Clockwork schedules (GeneratorParam schedule, default 3) tile a 1920-class
frame through GLB tiles with lanes; this port keeps its algorithm and uses the generator's single-tile shape at
the default 64x64 input (62x62 out): one accelerator tile, blur_unnormalized's reduction unrolled, blur and
blur_unnormalized buffered, `lanes` pixels per cycle (the generator's `myunroll`)."""

from __future__ import annotations

import math

import mainspring as hl

from .common import random_image
from .lanes import input_width, unroll_lanes

NAME = "h2h_gaussian"
DEFAULT_SIZE = (62, 62)
BLOCK = 3
SIGMA = 1.5


def build(width: int = 62, height: int = 62, lanes: int = 1):
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    win = hl.RDom([hl.Range(0, BLOCK), hl.Range(0, BLOCK)], "win")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    kernel_f = hl.Func("kernel_f")
    kernel_f[x] = hl.exp(-x * x / hl.f32(2 * SIGMA * SIGMA)) / hl.f32(math.sqrt(2 * math.pi) * SIGMA)
    total = None
    for i in range(BLOCK):
        for j in range(BLOCK):
            term = kernel_f[i - BLOCK // 2] * kernel_f[j - BLOCK // 2]
            total = term if total is None else term + total
    kernel = hl.Func("kernel")
    kernel[x, y] = hl.u16(kernel_f[x - BLOCK // 2] * kernel_f[y - BLOCK // 2] * 256.0 / total)
    blur_unnormalized, blur = hl.Func("blur_unnormalized"), hl.Func("blur")
    blur_unnormalized[x, y] = hl.u16(0)
    blur_unnormalized[x, y] += kernel[win.x, win.y] * hw_input[x + win.x, y + win.y]
    blur[x, y] = blur_unnormalized[x, y] / 256
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = blur[x, y]
    output[x, y] = hl.u8(hw_output[x, y])

    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    blur_unnormalized.update().unroll(win.x, BLOCK).unroll(win.y, BLOCK)
    blur_unnormalized.compute_at(hw_output, xo)
    blur.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()
    unroll_lanes(lanes, hw_output, [blur_unnormalized, blur], hw_input)
    return output, {"input": random_image(input_width(width, lanes, (2,)), height + 2, seed=29)}
