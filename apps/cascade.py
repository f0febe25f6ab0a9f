"""Two chained 3x3 box blurs (divide by 9 each), uint16 inside: 64x64 in, 60x60 out."""

from __future__ import annotations

import mainspring as hl

from .common import accelerate, autoschedule, random_image
from .lanes import input_width, unroll_lanes

NAME = "cascade"
DEFAULT_SIZE = (60, 60)


def build(width: int = 60, height: int = 60, lanes: int = 1, auto: bool = False):
    """The hand schedule, or with `auto` the automatic one (mainspring/autoschedule.py)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    win = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "win")
    conv1 = hl.Func("conv1")
    conv1[x, y] = hl.u16(0)
    conv1[x, y] += hw_input[x + win.x, y + win.y]
    blur1 = hl.Func("blur1")
    blur1[x, y] = conv1[x, y] / 9
    conv2 = hl.Func("conv2")
    conv2[x, y] = hl.u16(0)
    conv2[x, y] += blur1[x + win.x, y + win.y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = conv2[x, y] / 9
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])

    if auto:
        autoschedule(output, width, height, lanes)
    else:
        conv1.update().unroll(win.x).unroll(win.y)
        conv2.update().unroll(win.x).unroll(win.y)
        accelerate(output, hw_output, width, height, [conv1, blur1, conv2], hw_input)
        unroll_lanes(lanes, hw_output, [conv1, blur1, conv2], hw_input)
    return output, {"input": random_image(input_width(width, lanes, (2, 2)), height + 4, seed=3)}
