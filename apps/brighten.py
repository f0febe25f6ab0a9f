"""Pointwise: double the brightness of an 8-bit image, saturating at 255 (uint16 inside)."""

from __future__ import annotations

import mainspring as hl

from .common import accelerate, autoschedule, random_image

NAME = "brighten"
DEFAULT_SIZE = (64, 64)


def build(width: int = 64, height: int = 64, auto: bool = False):
    """The hand schedule, or with `auto` the automatic one (mainspring/autoschedule.py)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    brighter = hl.Func("brighter")
    brighter[x, y] = hl.min(hw_input[x, y] * 2, hl.u16(255))
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = brighter[x, y]
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])
    if auto:
        autoschedule(output, width, height)
    else:
        accelerate(output, hw_output, width, height, [brighter], hw_input)
    return output, {"input": random_image(width, height, seed=1)}
