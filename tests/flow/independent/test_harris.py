"""harris_generator.cpp (harris_color in the reference's CI): default schedule 0 ("sch5 with all buffers")."""

import pytest
from porting import params, rand_image, run

import mainspring as hl

i16, i32 = hl.i16, hl.i32


def harris(tile=58, schedule=0, block_size=3, shiftk=4, threshold=1, repeat_edge=False):
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    padded16, padded = hl.Func("padded16"), hl.Func("padded")
    if repeat_edge:
        clamped = hl.BoundaryConditions.repeat_edge(input)
        padded[x, y] = clamped[x, y]
    else:
        padded[x, y] = input[x + 3, y + 3]
    padded16[x, y] = hl.cast(hl.Int(16), padded[x, y])
    grad_x_unclamp, grad_y_unclamp = hl.Func("grad_x_unclamp"), hl.Func("grad_y_unclamp")
    grad_x, grad_y = hl.Func("grad_x"), hl.Func("grad_y")
    kernel_x, kernel_y = hl.Func("kernel_x"), hl.Func("kernel_y")
    r = hl.RDom([(-1, 3), (-1, 3)])
    if schedule in (1, 2):
        grad_x_unclamp[x, y] = hl.cast(hl.Int(16), -padded16[x - 1, y - 1] + padded16[x + 1, y - 1]
                                       - 2 * padded16[x - 1, y] + 2 * padded16[x + 1, y]
                                       - padded16[x - 1, y + 1] + padded16[x + 1, y + 1])
        grad_y_unclamp[x, y] = hl.cast(hl.Int(16), padded16[x - 1, y + 1] - padded16[x - 1, y - 1]
                                       + 2 * padded16[x, y + 1] - 2 * padded16[x, y - 1]
                                       + padded16[x + 1, y + 1] - padded16[x + 1, y - 1])
    else:
        kernel_x[x, y] = i16(0)
        kernel_x[-1, -1] = i16(-1); kernel_x[-1, 0] = i16(-2); kernel_x[-1, 1] = i16(-1)
        kernel_x[1, -1] = i16(1); kernel_x[1, 0] = i16(2); kernel_x[1, 1] = i16(1)
        kernel_y[x, y] = i16(0)
        kernel_y[-1, 1] = i16(1); kernel_y[0, 1] = i16(2); kernel_y[1, 1] = i16(1)
        kernel_y[-1, -1] = i16(-1); kernel_y[0, -1] = i16(-2); kernel_y[1, -1] = i16(-1)
        grad_x_unclamp[x, y] = i16(0)
        grad_x_unclamp[x, y] += padded16[x + r.x, y + r.y] * i16(kernel_x[r.x, r.y])
        grad_y_unclamp[x, y] = i16(0)
        grad_y_unclamp[x, y] += padded16[x + r.x, y + r.y] * i16(kernel_y[r.x, r.y])
    grad_x[x, y] = hl.clamp(grad_x_unclamp[x, y], -180, 180)
    grad_y[x, y] = hl.clamp(grad_y_unclamp[x, y], -180, 180)
    lxx, lyy, lxy = hl.Func("lxx"), hl.Func("lyy"), hl.Func("lxy")
    lxx[x, y] = hl.cast(hl.Int(16), grad_x[x, y]) * hl.cast(hl.Int(16), grad_x[x, y]) >> 6
    lyy[x, y] = hl.cast(hl.Int(16), grad_y[x, y]) * hl.cast(hl.Int(16), grad_y[x, y]) >> 6
    lxy[x, y] = hl.cast(hl.Int(16), grad_x[x, y]) * hl.cast(hl.Int(16), grad_y[x, y]) >> 6
    lgxx, lgyy, lgxy = hl.Func("lgxx"), hl.Func("lgyy"), hl.Func("lgxy")
    box = hl.RDom([(-(block_size // 2), block_size), (-(block_size // 2), block_size)])
    if schedule in (1, 2):
        for lg, l in ((lgxx, lxx), (lgyy, lyy), (lgxy, lxy)):
            lg[x, y] = (l[x - 1, y - 1] + l[x, y - 1] + l[x + 1, y - 1] + l[x - 1, y] + l[x, y] + l[x + 1, y]
                        + l[x - 1, y + 1] + l[x, y + 1] + l[x + 1, y + 1])
    else:
        lgxx[x, y] += lxx[x + box.x, y + box.y]
        lgyy[x, y] += lyy[x + box.x, y + box.y]
        lgxy[x, y] += lxy[x + box.x, y + box.y]
    lgxx8 = lgxx[x, y] >> 6
    lgyy8 = lgyy[x, y] >> 6
    lgxy8 = lgxy[x, y] >> 6
    cim = hl.Func("cim")
    det = lgxx8 * lgyy8 - lgxy8 * lgxy8
    cim[x, y] = det - ((lgxx8 + lgyy8) * (lgxx8 + lgyy8) >> shiftk)
    hw_output = hl.Func("hw_output")
    is_max = ((cim[x, y] > cim[x - 1, y - 1]) & (cim[x, y] > cim[x, y - 1])
              & (cim[x, y] > cim[x + 1, y - 1]) & (cim[x, y] > cim[x - 1, y])
              & (cim[x, y] > cim[x + 1, y]) & (cim[x, y] > cim[x - 1, y + 1])
              & (cim[x, y] > cim[x, y + 1]) & (cim[x, y] > cim[x + 1, y + 1]))
    cim_output = hl.Func("cim_output")
    cim_output[x, y] = hl.cast(hl.Int(16), hl.select(is_max & (cim[x, y] >= threshold), 255, 0))
    hw_output[x, y] = cim_output[x, y]
    output = hl.Func("output")
    output[x, y] = hl.cast(hl.UInt(8), hw_output[x, y])

    if schedule == 8:  # end at cim: the accelerator's output is cim, the rest on the host
        cim.compute_root()
        cim.tile(x, y, xo, yo, xi, yi, tile + 2, tile + 2).hw_accelerate(xi, xo)
        for f in (grad_x, grad_y, lxx, lyy, lxy, lgxx, lgyy, lgxy, kernel_x, kernel_y):
            f.compute_at(cim, xo)
    else:
        hw_output.compute_root()
        hw_output.tile(x, y, xo, yo, xi, yi, tile, tile).hw_accelerate(xi, xo)
    if schedule == 8:
        kernel_x.unroll(x).unroll(y)
        kernel_y.unroll(x).unroll(y)
        grad_x_unclamp.update().unroll(r.x).unroll(r.y)
        grad_y_unclamp.update().unroll(r.x).unroll(r.y)
        lgxx.update().unroll(box.x).unroll(box.y)
        lgyy.update().unroll(box.x).unroll(box.y)
        lgxy.update().unroll(box.x).unroll(box.y)
    elif schedule in (3, 4):
        for f in (grad_x, grad_y, lxx, lyy, lxy, lgxx, lgyy, lgxy, cim, cim_output):
            f.compute_at(hw_output, xo)
        kernel_x.compute_at(hw_output, xo).store_in(hl.MemoryType.ROM)
        kernel_y.compute_at(hw_output, xo).store_in(hl.MemoryType.ROM)
        if schedule == 3:
            kernel_x.unroll(x, 3).unroll(y, 3)
            kernel_y.unroll(x, 3).unroll(y, 3)
        else:
            kernel_x.unroll(x).unroll(y)
            kernel_y.unroll(x).unroll(y)
            grad_x_unclamp.update().unroll(r.x)
            grad_y_unclamp.update().unroll(r.x)
        lgxx.unroll(x, 3).unroll(y, 3)
        lgxy.unroll(x, 3).unroll(y, 3)
        lgyy.unroll(x, 3).unroll(y, 3)
        if schedule == 4:
            lgxx.update().unroll(box.x)
            lgyy.update().unroll(box.x)
            lgxy.update().unroll(box.x)
    elif schedule == 6:  # unroll all, 2 pixels per cycle
        hw_output.unroll(xi, 2)
        padded16.unroll(x, 2)   # the generator's padded16.in().unroll(x, 2): an inline wrapper (Halide refuses)
        for f in (grad_x_unclamp, grad_y_unclamp, lxx, lyy, lxy, lgxx, lgyy, lgxy, cim, cim_output):
            f.unroll(x, 2)
        for f in (grad_x_unclamp, grad_y_unclamp, lxx, lyy, lxy, lgxx, lgyy, lgxy, cim, cim_output, kernel_x,
                  kernel_y):
            f.compute_at(hw_output, xo)
        kernel_x.unroll(x).unroll(y)
        kernel_y.unroll(x).unroll(y)
        grad_x_unclamp.update().unroll(r.x).unroll(r.y).unroll(x, 2)
        grad_y_unclamp.update().unroll(r.x).unroll(r.y).unroll(x, 2)
        lgxx.update().unroll(box.x).unroll(box.y).unroll(x, 2)
        lgyy.update().unroll(box.x).unroll(box.y).unroll(x, 2)
        lgxy.update().unroll(box.x).unroll(box.y).unroll(x, 2)
    elif schedule == 2:
        lgxx.compute_at(hw_output, xo)
        lgyy.compute_at(hw_output, xo)
        lgxy.compute_at(hw_output, xo)
    elif schedule in (5, 7):
        for f in (grad_x, grad_y, lxx, lyy, lxy, lgxx, lgyy, lgxy, cim, cim_output):
            f.compute_at(hw_output, xo)
        kernel_x.compute_at(hw_output, xo)
        kernel_y.compute_at(hw_output, xo)
        kernel_x.unroll(x).unroll(y)
        kernel_y.unroll(x).unroll(y)
        grad_x_unclamp.update().unroll(r.x).unroll(r.y)
        grad_y_unclamp.update().unroll(r.x).unroll(r.y)
        lgxx.update().unroll(box.x).unroll(box.y)
        lgyy.update().unroll(box.x).unroll(box.y)
        lgxy.update().unroll(box.x).unroll(box.y)
    elif schedule == 0:
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
    output.bound(x, 0, tile)
    output.bound(y, 0, tile)
    n = tile + 6 if not repeat_edge else tile
    return output, {"input": rand_image(n, n, seed=9)}


def harris_default():
    return harris(58)


def harris_small():
    return harris(16)


def harris_sched1_no_buffers():
    return harris(16, schedule=1) + (hl.CGRA(num_pes=1024),)


def harris_sched2_few_buffers():
    return harris(16, schedule=2) + (hl.CGRA(num_pes=1024),)


def harris_sched5():
    return harris(16, schedule=5)


def harris_repeat_edge():
    return harris(16, repeat_edge=True)


def harris_sched3_rom_unroll_y():
    return harris(16, schedule=3)


def harris_sched4_unroll_some():
    return harris(16, schedule=4)


def harris_sched6_two_pixels():
    return harris(16, schedule=6)


def harris_sched7_large_tile():
    return harris(122, schedule=7)


def harris_sched8_end_at_cim():
    return harris(16, schedule=8)


CASES = {f.__name__: f for f in (harris_default, harris_small, harris_sched1_no_buffers, harris_sched2_few_buffers,
                                 harris_sched5, harris_repeat_edge, harris_sched3_rom_unroll_y,
                                 harris_sched4_unroll_some, harris_sched6_two_pixels, harris_sched7_large_tile,
                                 harris_sched8_end_at_cim)}
XFAIL: dict[str, str] = {}
SLOW = ("harris_default", "harris_sched7_large_tile", "harris_sched1_no_buffers", "harris_sched6_two_pixels")


@pytest.mark.parametrize("case,simulator", params(CASES, XFAIL, SLOW), indirect=["simulator"])
def test_harris(case, simulator):
    run(case, CASES[case], simulator)
