"""Programs the proof tests share."""

from __future__ import annotations

import mainspring as hl
from mainspring.apps.common import accelerate, random_image


def divisions(width=8, height=6):
    """Unsharp-like: a signed blur divided by 7, a 32-bit sharpen divided by -3 and taken modulo 5, an unsigned
    normalisation by 10 (every division a multiply-high sequence in the kernels)."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(i[x, y])
    blur = hl.Func("blur")
    blur[x, y] = (hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]) / 7
    sharp = hl.Func("sharp")
    centre = hl.i32(hw_input[x + 1, y]) * 1000
    sharp[x, y] = (centre - hl.i32(blur[x, y]) * 777) / -3 + (centre % 5)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = hl.u16(hl.clamp(sharp[x, y], 0, 65535)) / hl.u16(10)
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    accelerate(output, hw_output, width, height, [blur, sharp], hw_input)
    return output, {"input": random_image(width + 2, height, seed=5)}
