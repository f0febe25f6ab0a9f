"""Seed 002's gaussian: a 3x3 blur with weights 24/30/37 (summing to 256), uint16 inside, 64x64 in, 62x62 out."""

from __future__ import annotations

from types import SimpleNamespace

import mainspring as hl

from .common import accelerate, autoschedule, random_image
from .lanes import input_width, unroll_lanes

NAME = "gaussian"
DEFAULT_SIZE = (62, 62)


def weights(wx, wy):
    """The 3x3 kernel of seed 002's printed loop nest: 24 at corners, 30 at edges, 37 at the centre."""
    return hl.u16(hl.select(wy == 1, hl.select(wx == 1, 37, 30), hl.select(wx == 1, 30, 24)))


def algorithm() -> SimpleNamespace:
    """The Funcs of the algorithm, not yet scheduled (seed 002's names); `output` is the host's uint8 copy."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    kernel = hl.Func("kernel")
    kernel[x, y] = weights(x, y)
    win = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "win")
    blur_unnormalized = hl.Func("blur_unnormalized")
    blur_unnormalized[x, y] = hl.u16(0)
    blur_unnormalized[x, y] += kernel[win.x, win.y] * hw_input[x + win.x, y + win.y]
    blur = hl.Func("blur")
    blur[x, y] = blur_unnormalized[x, y] / 256
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = blur[x, y]
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])
    return SimpleNamespace(x=x, y=y, input=input_, hw_input=hw_input, kernel=kernel, win=win,
                           blur_unnormalized=blur_unnormalized, blur=blur, hw_output=hw_output, output=output)


def build(width: int = 62, height: int = 62, lanes: int = 1, auto: bool = False):
    """Seed 002's hand schedule, or with `auto` the automatic one (mainspring/autoschedule.py)."""
    a = algorithm()
    output, hw_output, hw_input, win = a.output, a.hw_output, a.hw_input, a.win
    blur_unnormalized, blur = a.blur_unnormalized, a.blur
    if auto:
        autoschedule(output, width, height, lanes)
    else:
        blur_unnormalized.update().unroll(win.x).unroll(win.y)
        accelerate(output, hw_output, width, height, [blur_unnormalized, blur], hw_input)
        unroll_lanes(lanes, hw_output, [blur_unnormalized, blur], hw_input)
    return output, {"input": random_image(input_width(width, lanes, (2,)), height + 2, seed=2)}
