"""Port of the reference system's `unsharp` generator (Halide-to-Hardware, apps/hardware_benchmarks/apps/unsharp;
see ../shared/h2h/README.md): unsharp masking of a 3-channel 8-bit image, 64x64 in, 58x58 out, with the default
hardware schedule (Clockwork target, GeneratorParam schedule = 0).

As the reference writes it:
- the 7x7 gaussian weights are computed in float (`exp`, `sqrtf`) and normalised into a uint16 table known at
  compile time (a constant Func: the reference evaluates it as Halide 21 does, and the unrolled blur reads it at
  constant coordinates, so each weight is a constant of its kernel);
- `rom_div_lookup` (256 / x) is computed at the accelerator and unrolled: the reference system's ROM idiom. The
  ratio reads it at a computed coordinate (`max(gray, 1)`), so it is a ROM;
- the channels: `hw_input(c, x, y)` and `hw_output(c, x, y)` have c innermost and unrolled, so every transfer of
  the input and output streams carries the three channels of one pixel. The generator unrolls c of
  `hw_input.in()`, an inline wrapper, which Halide refuses; the port unrolls `hw_input` itself.

`mul1` is called but not defined in the generator's file; this port uses camera_pipeline's definition,
`i16((i32(a) * i32(b)) >> 8)`.
"""

from __future__ import annotations

import math

import numpy as np

import mainspring as hl

from .common import parrot_output

NAME = "h2h_unsharp"
DEFAULT_SIZE = (58, 58)
BLOCK = 7


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    return in_width - BLOCK + 1, in_height - BLOCK + 1


def _mul1(a, b):
    return hl.i16((hl.i32(a) * hl.i32(b)) >> 8)


def _weights(x, y):
    """kernel_f and the normalised uint16 kernel, in float32 as the generator computes them."""
    kernel_f, kernel = hl.Func("kernel_f"), hl.Func("kernel")
    # The generator's C++ floats: sigma = 1.5f, 2 * sigma * sigma = 4.5f, and sqrtf(2 * M_PI) * sigma (the double
    # 2 pi rounded to float, its float square root, times sigma in float).
    norm = np.float32(np.sqrt(np.float32(2 * math.pi))) * np.float32(1.5)
    kernel_f[x] = hl.exp(hl.f32(-1.0) * x * x / hl.f32(4.5)) / hl.f32(float(norm))
    total = None
    for i in range(BLOCK):
        for j in range(BLOCK):
            term = kernel_f[i - BLOCK // 2] * kernel_f[j - BLOCK // 2]
            total = term if total is None else term + total
    kernel[x, y] = hl.u16(kernel_f[x] * kernel_f[y] * hl.f32(256.0) / total)
    return kernel


def build(width: int = 58, height: int = 58, schedule: int = 0, tile: tuple[int, int] = (58, 58),
          tiles: int = 4, unroll: int = 3, auto: bool = False):
    """The generator's Clockwork schedules. 0: the default (one accelerator tile, 3 channels per cycle);
    1 and 2: host and GLB tiling, GLB tiles of `tiles` x `tiles` memory tiles of `tile` pixels (schedule 1: 58
    and 4, for a 1160x1160 output; schedule 2: 58x94 and 5), the channels unrolled in the GLB copies; 3: host tiles
    of one GLB tile of `tile` (the generator's 126x250), `unroll` pixels per cycle (default 3) with the channels,
    so 9-word transfers; 4: everything inline but the division ROM; 5: the blur,
    the ratio and gray buffered, the rest inline (4 and 5: one 58x58 accelerator tile, one channel per cycle).
    `auto`: no schedule, mainspring's automatic one."""
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 3, "input")
    kernel = _weights(x, y)

    hw_input = hl.Func("hw_input")
    hw_input[c, x, y] = hl.u16(input_[x + BLOCK // 2, y + BLOCK // 2, c])
    gray = hl.Func("gray")
    gray[x, y] = hl.u16((77 * hl.u16(hw_input[0, x, y]) + 150 * hl.u16(hw_input[1, x, y])
                         + 29 * hl.u16(hw_input[2, x, y])) >> 8)

    win = hl.RDom([hl.Range(-(BLOCK // 2), BLOCK), hl.Range(-(BLOCK // 2), BLOCK)], "win")
    blur_unnormalized, blur = hl.Func("blur_unnormalized"), hl.Func("blur")
    blur_unnormalized[x, y] += hl.u16(kernel[win.x, win.y] * gray[x + win.x, y + win.y])
    blur[x, y] = hl.u16(hl.clamp(hl.u8(blur_unnormalized[x, y] / 256), 0, 255))
    sharpen = hl.Func("sharpen")
    sharpen[x, y] = hl.u16(hl.clamp(2 * hl.i16(gray[x, y]) - hl.i16(blur[x, y]), 0, 255))

    rom_div_lookup, divisor, reciprocal, ratio = (hl.Func(n) for n in ("rom_div_lookup", "divisor", "reciprocal",
                                                                         "ratio"))
    rom_div_lookup[x] = hl.u16(hl.u32(1 << 8) / hl.u32(x))
    divisor[x, y] = hl.max(gray[x, y], hl.u16(1))
    reciprocal[x, y] = rom_div_lookup[divisor[x, y]]
    ratio[x, y] = sharpen[x, y] * reciprocal[x, y]

    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[c, x, y] = _mul1(ratio[x, y], hw_input[c, x, y])
    output[x, y, c] = hl.u8(hw_output[c, x, y])

    inner = (ratio, reciprocal, sharpen, blur_unnormalized, gray)
    if auto:  # the algorithm as written, scheduled by mainspring/autoschedule.py
        output.set_estimates([(0, width), (0, height), (0, 3)])
        hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    else:
        output.bound(x, 0, width).bound(y, 0, height).bound(c, 0, 3)
    if auto:
        pass
    elif schedule == 0:
        _schedule_default(hw_input, hw_output, inner, rom_div_lookup, blur_unnormalized, win, width, height)
    elif schedule in (1, 2):  # the same calls, the generator's sizes differ: 58x58 tiles in 4x4, 58x94 in 5x5
        _schedule_glb(hw_input, hw_output, inner, rom_div_lookup, blur_unnormalized, win, tile, tiles)
    elif schedule == 3:
        _schedule_unrolled(hw_input, hw_output, inner, rom_div_lookup, blur_unnormalized, win, tile, unroll)
    elif schedule in (4, 5):
        _schedule_buffers(hw_input, hw_output, rom_div_lookup, blur_unnormalized, ratio, gray, width, height,
                          schedule)
    else:
        raise ValueError(f"h2h_unsharp has schedules 0 to 5, not {schedule}")
    rng = np.random.default_rng(11)
    image = rng.integers(0, 256, size=(3, height + BLOCK - 1, width + BLOCK - 1), dtype=np.uint8)
    return output, {"input": image}


def _schedule_default(hw_input, hw_output, inner, rom_div_lookup, blur_unnormalized, win, width, height):
    """The generator's Clockwork schedule 0."""
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).reorder(xi, yi, xo, yo).hw_accelerate(xi, xo)
    hw_output.unroll(c)
    # The generator writes hw_input.in().unroll(c): an unroll of an inline wrapper, which Halide refuses ("Cannot
    # unroll dimension c of function hw_input_global_wrapper because the function is scheduled inline"). The
    # channels of the stream are the streamed Func's own loop: unroll it there.
    hw_input.unroll(c)
    for f in inner:
        f.compute_at(hw_output, xo)
    rom_div_lookup.compute_at(hw_output, xo).unroll(x)
    blur_unnormalized.update().unroll(win.x).unroll(win.y)
    hw_input.stream_to_accelerator()


def _schedule_buffers(hw_input, hw_output, rom_div_lookup, blur_unnormalized, ratio, gray, width, height, schedule):
    """The generator's Clockwork schedules 4 ("single buffer") and 5 ("all buffers")."""
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).reorder(xi, yi, xo, yo).hw_accelerate(xi, xo)
    if schedule == 4:
        rom_div_lookup.compute_at(hw_output, xo).unroll(x)
    else:
        for f in (blur_unnormalized, ratio, gray):
            f.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()


def _schedule_glb(hw_input, hw_output, inner, rom_div_lookup, blur_unnormalized, win, tile, tiles):
    """The generator's Clockwork schedule 1: host tiles of GLB tiles of memory tiles, channels unrolled."""
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    glb_out = hw_output.in_()
    glb_out.compute_root()
    glb_out.tile(x, y, xo, yo, xi, yi, tile[0] * tiles, tile[1] * tiles).reorder(c, xi, yi, xo, yo)
    glb_out.hw_accelerate(xi, xo)
    glb_out.unroll(c)
    hw_output.tile(x, y, xo, yo, xi, yi, tile[0], tile[1]).reorder(c, xi, yi, xo, yo)
    hw_output.compute_at(glb_out, xo)
    hw_output.store_in(hl.MemoryType.GLB)
    hw_output.unroll(c)
    for f in inner:
        f.compute_at(hw_output, xo)
    rom_div_lookup.compute_at(hw_output, xo).unroll(x)
    blur_unnormalized.update().unroll(win.x).unroll(win.y)
    hw_input.in_().compute_at(glb_out, xo)
    hw_input.in_().store_in(hl.MemoryType.GLB)
    hw_input.in_().unroll(c)
    hw_input.compute_root().accelerator_input()


def _schedule_unrolled(hw_input, hw_output, inner, rom_div_lookup, blur_unnormalized, win, tile, unroll):
    """The generator's Clockwork schedule 3 ("the big parrot with unroll"): host tiles of one GLB tile of one
    memory tile, `unroll` pixels of x per cycle, with their 3 channels."""
    c, x, xo = hl.Var("c"), hl.Var("x"), hl.Var("xo")
    up = hl.TailStrategy.RoundUp
    glb_out = parrot_output(hw_output, tile, unroll)
    for f in inner:
        f.compute_at(hw_output, xo).unroll(x, unroll, up)
    rom_div_lookup.compute_at(hw_output, xo).unroll(x)
    blur_unnormalized.update().unroll(win.x).unroll(win.y).unroll(x, unroll, up)
    mem_copy = hw_input.in_().in_()  # the memory tile
    mem_copy.compute_at(hw_output, xo)
    mem_copy.unroll(c).unroll(x, unroll, up)
    hw_input.in_().compute_at(glb_out, xo)  # the GLB level
    hw_input.in_().store_in(hl.MemoryType.GLB)
    hw_input.in_().unroll(c).unroll(x, unroll, up)
    hw_input.compute_root().accelerator_input()
