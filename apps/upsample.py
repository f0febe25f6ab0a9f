"""Upsampling by 2 (the reference system's up_sample): each input pixel repeated in a 2x2 block, then a 2-tap
blend along x so the kernel does some work. `x / 2` indices are strip-mined by hwlower (x = 2 * xo + xi), so
the array reads each input pixel from a line buffer while it streams one output pixel per cycle."""

from __future__ import annotations

import mainspring as hl

from .common import accelerate, autoschedule, input_extent, random_image

NAME = "upsample"
DEFAULT_SIZE = (64, 64)


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    """The output size for an input size (used by the bench, whose sizes are input sizes)."""
    return 2 * in_width - 2, 2 * in_height


def build(width: int = 64, height: int = 64, auto: bool = False):
    """The hand schedule, or with `auto` the automatic one (mainspring/autoschedule.py)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    up = hl.Func("up")
    up[x, y] = hw_input[x / 2, y / 2] * 3 + hw_input[x / 2 + 1, y / 2]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = up[x, y] / 4
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])
    if auto:
        autoschedule(output, width, height)
    else:
        accelerate(output, hw_output, width, height, [up], hw_input)
    return output, {"input": random_image(*input_extent(output, "input"), seed=4)}
