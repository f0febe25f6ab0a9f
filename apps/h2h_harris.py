"""Port of the reference system's `harris` generator (Halide-to-Hardware, apps/hardware_benchmarks/apps/harris;
see ../shared/h2h/README.md): Harris corner detection on a 64x64 image, 58x58 out, with the default hardware
schedule (GeneratorParam schedule = 0: "sch5 with all buffers, 1 pixel/cycle").

As the reference writes it: the Sobel kernels are constant Funcs (zero plus six updates at constant
coordinates) computed inside the accelerator and read at unrolled coordinates (folded into the kernels);
grad_x / grad_y are inlined into lxx, lyy and lxy, which are computed at the same loop (Halide's compute_at
legality through inlined Funcs); lgxx, lgyy, lgxy are reductions with an implicit pure definition, unrolled.
"""

from __future__ import annotations

import mainspring as hl

from .common import autoschedule, random_image

NAME = "h2h_harris"
DEFAULT_SIZE = (58, 58)
BLOCK_SIZE = 3
SHIFTK = 4  # k = 0.0625
THRESHOLD = 1


def build(width: int = 58, height: int = 58, auto: bool = False):
    """The generator's schedule, or with `auto` its algorithm scheduled by mainspring/autoschedule.py."""
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    padded, padded16 = hl.Func("padded"), hl.Func("padded16")
    padded[x, y] = input_[x + 3, y + 3]
    padded16[x, y] = hl.i16(padded[x, y])

    kernel_x, kernel_y = hl.Func("kernel_x"), hl.Func("kernel_y")
    kernel_x[x, y] = hl.i16(0)
    for (i, j), w in {(-1, -1): -1, (-1, 0): -2, (-1, 1): -1, (1, -1): 1, (1, 0): 2, (1, 1): 1}.items():
        kernel_x[i, j] = hl.i16(w)
    kernel_y[x, y] = hl.i16(0)
    for (i, j), w in {(-1, 1): 1, (0, 1): 2, (1, 1): 1, (-1, -1): -1, (0, -1): -2, (1, -1): -1}.items():
        kernel_y[i, j] = hl.i16(w)

    r = hl.RDom([hl.Range(-1, 3), hl.Range(-1, 3)], "r")
    grad_x_unclamp, grad_y_unclamp = hl.Func("grad_x_unclamp"), hl.Func("grad_y_unclamp")
    grad_x_unclamp[x, y] = hl.i16(0)
    grad_x_unclamp[x, y] += padded16[x + r.x, y + r.y] * hl.i16(kernel_x[r.x, r.y])
    grad_y_unclamp[x, y] = hl.i16(0)
    grad_y_unclamp[x, y] += padded16[x + r.x, y + r.y] * hl.i16(kernel_y[r.x, r.y])
    grad_x, grad_y = hl.Func("grad_x"), hl.Func("grad_y")
    grad_x[x, y] = hl.clamp(grad_x_unclamp[x, y], -180, 180)  # 180^2 cannot overflow 15 bits
    grad_y[x, y] = hl.clamp(grad_y_unclamp[x, y], -180, 180)

    lxx, lyy, lxy = hl.Func("lxx"), hl.Func("lyy"), hl.Func("lxy")
    lxx[x, y] = hl.i16(grad_x[x, y]) * hl.i16(grad_x[x, y]) >> 6
    lyy[x, y] = hl.i16(grad_y[x, y]) * hl.i16(grad_y[x, y]) >> 6
    lxy[x, y] = hl.i16(grad_x[x, y]) * hl.i16(grad_y[x, y]) >> 6

    box = hl.RDom([hl.Range(-(BLOCK_SIZE // 2), BLOCK_SIZE), hl.Range(-(BLOCK_SIZE // 2), BLOCK_SIZE)], "box")
    lgxx, lgyy, lgxy = hl.Func("lgxx"), hl.Func("lgyy"), hl.Func("lgxy")
    lgxx[x, y] += lxx[x + box.x, y + box.y]  # an implicit pure definition: zero
    lgyy[x, y] += lyy[x + box.x, y + box.y]
    lgxy[x, y] += lxy[x + box.x, y + box.y]
    lgxx8, lgyy8, lgxy8 = lgxx[x, y] >> 6, lgyy[x, y] >> 6, lgxy[x, y] >> 6

    cim = hl.Func("cim")
    det = lgxx8 * lgyy8 - lgxy8 * lgxy8
    cim[x, y] = det - ((lgxx8 + lgyy8) * (lgxx8 + lgyy8) >> SHIFTK)

    is_max = None
    for dx, dy in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]:
        term = cim[x, y] > cim[x + dx, y + dy]
        is_max = term if is_max is None else is_max & term
    cim_output, hw_output, output = hl.Func("cim_output"), hl.Func("hw_output"), hl.Func("output")
    cim_output[x, y] = hl.i16(hl.select(is_max & (cim[x, y] >= THRESHOLD), 255, 0))
    hw_output[x, y] = cim_output[x, y]
    output[x, y] = hl.u8(hw_output[x, y])

    inputs = {"input": random_image(width + 6, height + 6, seed=5)}
    if auto:
        autoschedule(output, width, height)
        return output, inputs
    # The schedule, as the generator writes it (Clockwork target, schedule 0).
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    for f in (lxx, lyy, lxy, lgxx, lgyy, lgxy, cim, cim_output):
        f.compute_at(hw_output, xo)
    kernel_x.compute_at(hw_output, xo)
    kernel_y.compute_at(hw_output, xo)
    kernel_x.unroll(x).unroll(y)
    kernel_y.unroll(x).unroll(y)
    grad_x_unclamp.compute_at(hw_output, xo)
    grad_y_unclamp.compute_at(hw_output, xo)
    grad_x_unclamp.update().unroll(r.x).unroll(r.y)
    grad_y_unclamp.update().unroll(r.x).unroll(r.y)
    lgxx.update().unroll(box.x).unroll(box.y)
    lgyy.update().unroll(box.x).unroll(box.y)
    lgxy.update().unroll(box.x).unroll(box.y)
    padded16.stream_to_accelerator()
    output.bound(x, 0, width).bound(y, 0, height)
    return output, inputs
