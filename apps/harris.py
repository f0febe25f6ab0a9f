"""Harris corners: Sobel gradients, their products, 3x3 box sums, the corner response and a 3x3 non-maximum
suppression; 64x64 in, 58x58 out. Fixed point: int16 gradients, int32 response."""

from __future__ import annotations

import mainspring as hl

from .common import accelerate, autoschedule, random_image
from .lanes import input_width, unroll_lanes

NAME = "harris"
DEFAULT_SIZE = (58, 58)
THRESHOLD = 1


def _box3(name: str, f: hl.Func, x, y, unroll: bool = True) -> hl.Func:
    win = hl.RDom([hl.Range(-1, 3), hl.Range(-1, 3)], f"{name}_win")
    s = hl.Func(name)
    s[x, y] = hl.i32(0)
    s[x, y] += hl.i32(f[x + win.x, y + win.y])
    if unroll:
        s.update().unroll(win.x).unroll(win.y)
    return s


def build(width: int = 58, height: int = 58, lanes: int = 1, auto: bool = False):
    """The hand schedule, or with `auto` the automatic one (mainspring/autoschedule.py)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x + 3, y + 3])  # the output's (0, 0) sits 3 pixels inside the input
    p = hw_input
    grad_x = hl.Func("grad_x")
    grad_x[x, y] = ((p[x + 1, y - 1] - p[x - 1, y - 1]) + 2 * (p[x + 1, y] - p[x - 1, y])
                    + (p[x + 1, y + 1] - p[x - 1, y + 1]))
    grad_y = hl.Func("grad_y")
    grad_y[x, y] = ((p[x - 1, y + 1] - p[x - 1, y - 1]) + 2 * (p[x, y + 1] - p[x, y - 1])
                    + (p[x + 1, y + 1] - p[x + 1, y - 1]))
    lxx, lyy, lxy = hl.Func("lxx"), hl.Func("lyy"), hl.Func("lxy")
    lxx[x, y] = hl.i16((hl.i32(grad_x[x, y]) * grad_x[x, y]) >> 7)
    lyy[x, y] = hl.i16((hl.i32(grad_y[x, y]) * grad_y[x, y]) >> 7)
    lxy[x, y] = hl.i16((hl.i32(grad_x[x, y]) * grad_y[x, y]) >> 7)
    lgxx, lgyy, lgxy = (_box3(n, f, x, y, not auto) for n, f in (("lgxx", lxx), ("lgyy", lyy), ("lgxy", lxy)))
    cim = hl.Func("cim")
    sxx, syy, sxy = lgxx[x, y] >> 3, lgyy[x, y] >> 3, lgxy[x, y] >> 3
    det = sxx * syy - sxy * sxy
    trace = sxx + syy
    cim[x, y] = det - ((trace * trace) >> 4)
    hw_output = hl.Func("hw_output")
    c = cim[x, y]
    is_max = c > THRESHOLD
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                is_max = is_max & (c > cim[x + dx, y + dy])
    hw_output[x, y] = hl.select(is_max, hl.u8(255), hl.u8(0))
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]

    inner = [grad_x, grad_y, lxx, lyy, lxy, lgxx, lgyy, lgxy, cim]
    if auto:
        autoschedule(output, width, height, lanes)
    else:
        accelerate(output, hw_output, width, height, inner, hw_input)
        unroll_lanes(lanes, hw_output, inner, hw_input)
    return output, {"input": random_image(input_width(width, lanes, (2, 2, 2)), height + 6, seed=4)}
