"""Port of the reference system's `rom` test (Halide-to-Hardware, apps/hardware_benchmarks/tests/rom; see
../shared/h2h/README.md): a 1024-entry gamma curve computed in float32 (`pow`) and cast to uint16, read at a
data-dependent index (the input times 7, clamped to [0, 1023]). The curve is a constant table: read at a
computed coordinate it becomes a ROM (1024 words, one memory tile), initialised with the values the reference
computes exactly as Halide 21 does. 64x64, with the generator's Clockwork schedule
(`curve.compute_at(hw_output, yi).unroll(x)`: there the unroll of the table's own loop does not mean lanes)."""

from __future__ import annotations

import mainspring as hl

from .common import autoschedule, random_image

NAME = "h2h_rom"
DEFAULT_SIZE = (64, 64)
GAMMA, CONTRAST = 1.0, 1.0  # rom_generator.cpp's globals (camera_pipeline's are 2 and 50)


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    return in_width, in_height


def build(width: int = 64, height: int = 64, auto: bool = False, **extra: str):
    """The generator's schedule, or with `auto` its algorithm scheduled by mainspring/autoschedule.py (`extra`:
    the autoscheduler's keys, e.g. max_pes="4")."""
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y]) * hl.i16(7)  # a large ROM (1024)
    curve, lookup = hl.Func("curve"), hl.Func("lookup")
    xf = x / hl.f32(1024.0)
    g = hl.pow(xf, hl.f32(1.0 / GAMMA))
    b = hl.f32(2.0) - hl.pow(hl.f32(2.0), hl.f32(CONTRAST / 100.0))
    a = hl.f32(2.0) - hl.f32(2.0) * b
    val = hl.select(g > 0.5, 1.0 - (a * (1.0 - g) * (1.0 - g) + b * (1.0 - g)), a * g * g + b * g)
    curve[x] = hl.u16(hl.clamp(val * 256.0, 0.0, 255.0))
    in_val = hl.clamp(hw_input[x, y], hl.i16(0), hl.i16(1023))
    lookup[x, y] = curve[in_val]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = lookup[x, y]
    output[x, y] = hl.u8(hw_output[x, y])

    inputs = {"input": random_image(width, height, seed=31)}
    if auto:
        autoschedule(output, width, height, **extra)
        return output, inputs
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    curve.compute_at(hw_output, yi).unroll(x)  # synthesize curve to a ROM
    hw_input.stream_to_accelerator()
    return output, inputs
