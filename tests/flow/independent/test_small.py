"""Single-stage and small generators: cascade, conv_3_3, rom, accumulation, down_sample, up_sample, histogram."""

import numpy as np
import pytest
from porting import params, rand_image, run

import mainspring as hl

u8, u16, i16, i32 = hl.u8, hl.u16, hl.i16, hl.i32


def _vars(*names):
    return [hl.Var(n) for n in names]


# ---------------------------------------------------------------- cascade (schedule GeneratorParam default 1)
def cascade(in_size=64, schedule=1, repeat_edge=False):
    out_x = out_y = in_size - 4
    x, y = _vars("x", "y")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    kernel = hl.Func("kernel")
    r = hl.RDom([(0, 3), (0, 3)])
    r2 = hl.RDom([(0, 3), (0, 3)])
    kernel[x, y] = 0
    kernel[0, 0] = 1; kernel[0, 1] = 2; kernel[0, 2] = 1
    kernel[1, 0] = 2; kernel[1, 1] = 4; kernel[1, 2] = 2
    kernel[2, 0] = 1; kernel[2, 1] = 2; kernel[2, 2] = 1
    conv1, conv1_shift, conv2 = hl.Func("conv1"), hl.Func("conv1_shift"), hl.Func("conv2")
    hw_input = hl.Func("hw_input")
    src = hl.BoundaryConditions.repeat_edge(input) if repeat_edge else input
    hw_input[x, y] = hl.cast(hl.UInt(16), src[x, y])
    if schedule in (1, 2):
        conv1[x, y] = u16(0)
        conv1[x, y] += u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    else:
        conv1[x, y] = (u16(kernel[0, 0]) * hw_input[x, y] + u16(kernel[1, 0]) * hw_input[x + 1, y]
                       + u16(kernel[2, 0]) * hw_input[x + 2, y] + u16(kernel[0, 1]) * hw_input[x + 0, y + 1]
                       + u16(kernel[1, 1]) * hw_input[x + 1, y + 1] + u16(kernel[2, 1]) * hw_input[x + 2, y + 1]
                       + u16(kernel[0, 2]) * hw_input[x + 0, y + 2] + u16(kernel[1, 2]) * hw_input[x + 1, y + 2]
                       + u16(kernel[2, 2]) * hw_input[x + 2, y + 2])
    conv1_shift[x, y] = conv1[x, y] / 16
    if schedule in (1, 2):
        conv2[x, y] = u16(0)
        conv2[x, y] += u16(kernel[r2.x, r2.y]) * conv1_shift[x + r2.x, y + r2.y]
    else:
        conv2[x, y] = (u16(kernel[0, 0]) * conv1_shift[x, y] + u16(kernel[1, 0]) * conv1_shift[x + 1, y]
                       + u16(kernel[2, 0]) * conv1_shift[x + 2, y] + u16(kernel[0, 1]) * conv1_shift[x + 0, y + 1]
                       + u16(kernel[1, 1]) * conv1_shift[x + 1, y + 1] + u16(kernel[2, 1]) * conv1_shift[x + 2, y + 1]
                       + u16(kernel[0, 2]) * conv1_shift[x + 0, y + 2] + u16(kernel[1, 2]) * conv1_shift[x + 1, y + 2]
                       + u16(kernel[2, 2]) * conv1_shift[x + 2, y + 2])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = conv2[x, y] / 16
    output = hl.Func("output")
    output[x, y] = hl.cast(hl.UInt(8), hw_output[x, y])

    if schedule == 2:
        xii, xio, yii, yio, xi, xo, yi, yo = _vars("xii", "xio", "yii", "yio", "xi", "xo", "yi", "yo")
        output.bound(x, 0, out_x).bound(y, 0, out_y)
        glb = hw_output.in_()
        glb.compute_root().tile(x, y, xo, yo, xi, yi, 360, 360).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
        hw_output.tile(x, y, xio, yio, xii, yii, 60, 60).compute_at(glb, xo)
        conv2.compute_at(hw_output, xio)
        conv2.update().unroll(r2.x).unroll(r2.y)
        conv1.compute_at(hw_output, xio)
        conv1.update().unroll(r.x).unroll(r.y)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
        kernel.compute_at(hw_output, xio)
    else:
        xi, yi, xo, yo = _vars("xi", "yi", "xo", "yo")
        output.bound(x, 0, out_x)
        output.bound(y, 0, out_y)
        hw_output.compute_root()
        hw_output.tile(x, y, xo, yo, xi, yi, out_x, out_y).hw_accelerate(xi, xo)
        if schedule == 1:
            conv2.store_at(hw_output, xo).compute_at(hw_output, xo)
            conv2.update().unroll(r2.x).unroll(r2.y)
            conv1_shift.store_at(hw_output, xo).compute_at(hw_output, xo)
            conv1.store_at(hw_output, xo).compute_at(hw_output, xo)
            conv1.update().unroll(r.x).unroll(r.y)
        kernel.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    h = in_size if not repeat_edge else in_size - 4
    return output, {"input": rand_image(in_size if not repeat_edge else in_size - 4, h, seed=2)}


def cascade_default():
    return cascade(64)


def cascade_small():
    return cascade(20)


def cascade_inline():  # schedule 0
    return cascade(20, schedule=0)


def cascade_glb():  # schedule 2
    return cascade(64, schedule=2)


def cascade_repeat_edge():
    return cascade(20, repeat_edge=True)


# ---------------------------------------------------------------- conv_3_3
def conv_3_3(tile=62, reorder=False, glb=False):
    x, y = _vars("x", "y")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    kernel, conv = hl.Func("kernel"), hl.Func("conv")
    r = hl.RDom([(0, 3), (0, 3)])
    kernel[x, y] = 0
    kernel[0, 0] = 11; kernel[0, 1] = 12; kernel[0, 2] = 13
    kernel[1, 0] = 0; kernel[1, 1] = 0; kernel[1, 2] = 16
    kernel[2, 0] = 17; kernel[2, 1] = 18; kernel[2, 2] = 19
    conv[x, y] = u16(0)
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = u16(input[x, y])
    conv[x, y] += u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = conv[x, y]
    output = hl.Func("output")
    output[x, y] = hl.cast(hl.UInt(8), hw_output[x, y])
    xi, yi, xo, yo = _vars("xi", "yi", "xo", "yo")
    output.bound(x, 0, tile)
    output.bound(y, 0, tile)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, tile, tile).hw_accelerate(xi, xo)
    kernel.compute_at(hw_output, xo)
    conv.compute_at(hw_output, xo)
    if reorder:
        conv.update().reorder(r.y, r.x).unroll(r.x, 3).unroll(r.y, 3)
    else:
        conv.update().unroll(r.x, 3).unroll(r.y, 3)
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(tile + 2, tile + 2, seed=3)}


def conv_3_3_default():
    return conv_3_3(62)


def conv_3_3_small():
    return conv_3_3(14)


def conv_3_3_reorder():
    return conv_3_3(14, reorder=True)


# ---------------------------------------------------------------- rom
def rom(size=64, gamma=1.0, contrast=1.0, unroll_curve=True):
    x, y = _vars("x", "y")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.cast(hl.Int(16), input[x, y]) * i16(7)
    curve, lookup = hl.Func("curve"), hl.Func("lookup")
    xf = x / hl.f32(1024.0)
    g = hl.pow(xf, hl.f32(1.0 / gamma))
    b = hl.f32(2.0) - hl.f32(float(np.float32(2.0) ** np.float32(contrast / 100.0)))
    a = hl.f32(2.0) - hl.f32(2.0) * b
    val = hl.select(g > hl.f32(0.5), hl.f32(1.0) - (a * (hl.f32(1.0) - g) * (hl.f32(1.0) - g) + b * (hl.f32(1.0) - g)),
                    a * g * g + b * g)
    curve[x] = hl.cast(hl.UInt(16), hl.clamp(val * hl.f32(256.0), hl.f32(0.0), hl.f32(255.0)))
    in_val = hl.clamp(hw_input[x, y], i16(0), i16(1023))
    lookup[x, y] = curve[in_val]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = lookup[x, y]
    output = hl.Func("output")
    output[x, y] = hl.cast(hl.UInt(8), hw_output[x, y])
    xi, yi, xo, yo = _vars("xi", "yi", "xo", "yo")
    output.bound(x, 0, size)
    output.bound(y, 0, size)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, size, size).hw_accelerate(xi, xo)
    if unroll_curve:
        curve.compute_at(hw_output, yi).unroll(x)
    else:
        curve.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(size, size, seed=4)}


def rom_default():
    return rom(64)


def rom_small():
    return rom(16)


def rom_gamma():
    return rom(16, gamma=2.2, contrast=50.0)


def rom_curve_at_xo():
    return rom(16, unroll_curve=False)


# ---------------------------------------------------------------- accumulation
def accumulation(tile=62, unroll_ry=False):
    x, y = _vars("x", "y")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    kernel, conv = hl.Func("kernel"), hl.Func("conv")
    r = hl.RDom([(0, 3), (0, 3)])
    kernel[x] = x
    conv[x, y] = u16(0)
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = u16(input[x, y])
    conv[x, y] += u16(kernel[r.x + 3 * r.y]) * hw_input[x + r.x, y + r.y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = u8(conv[x, y])
    output = hl.Func("output")
    output[x, y] = u8(hw_output[x, y])
    xi, yi, xo, yo = _vars("xi", "yi", "xo", "yo")
    output.bound(x, 0, tile)
    output.bound(y, 0, tile)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, tile, tile).hw_accelerate(xi, xo)
    conv.store_at(hw_output, xo).compute_at(hw_output, xo)
    if unroll_ry:
        conv.update().unroll(r.y)
    kernel.compute_at(conv, x)
    kernel.unroll(x, 9)
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(tile + 2, tile + 2, seed=5)}


def accumulation_default():
    return accumulation(62)


def accumulation_small():
    return accumulation(14)


def accumulation_unroll_ry():  # the CoreIR branch's conv.update().unroll(r.y)
    return accumulation(14, unroll_ry=True)


# ---------------------------------------------------------------- down_sample
def down_sample(size=32, use_argmax_form=False):
    x, y = _vars("x", "y")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    stride = 2
    max_pool = hl.Func("max_pool")
    r = hl.RDom([(0, stride), (0, stride)])
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = u16(input[x, y])
    if use_argmax_form:
        max_pool[x, y] = u16(0)
        max_pool[x, y] = hl.max(max_pool[x, y], hw_input[x * stride + r.x, y * stride + r.y])
    else:
        max_pool[x, y] = hl.maximum(hw_input[x * stride + r.x, y * stride + r.y])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = max_pool[x, y]
    output = hl.Func("output")
    output[x, y] = u8(hw_output[x, y])
    xi, yi, xo, yo = _vars("xi", "yi", "xo", "yo")
    output.bound(x, 0, size)
    output.bound(y, 0, size)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, size, size).hw_accelerate(xi, xo)
    max_pool.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(2 * size, 2 * size, seed=6)}


def down_sample_default():
    return down_sample(32)


def down_sample_small():
    return down_sample(8)


def down_sample_explicit_update():
    return down_sample(8, use_argmax_form=True)


# ---------------------------------------------------------------- up_sample
def up_sample(osize=124, implicit=True):
    x, y = _vars("x", "y")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    nearest_neighbor = hl.Func("nearest_neighbor")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.cast(hl.UInt(16), input[x + 1, y + 1])
    upx, upy = hl.Func("upx"), hl.Func("upy")
    if implicit:
        _ = hl._
        upx[x, y, _] = hw_input[(x // 2) - 1 + 2 * (x % 2), y, _] / 4 + 3 * hw_input[x // 2, y, _] / 4
        nearest_neighbor[x, y, _] = upx[x, (y // 2) - 1 + 2 * (y % 2), _] / 4 + 3 * upx[x, y // 2, _] / 4
    else:
        upx[x, y] = hw_input[(x // 2) - 1 + 2 * (x % 2), y] / 4 + 3 * hw_input[x // 2, y] / 4
        nearest_neighbor[x, y] = upx[x, (y // 2) - 1 + 2 * (y % 2)] / 4 + 3 * upx[x, y // 2] / 4
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = nearest_neighbor[x, y]
    output = hl.Func("output")
    output[x, y] = hl.cast(hl.UInt(8), hw_output[x, y])
    xi, yi, xo, yo = _vars("xi", "yi", "xo", "yo")
    output.bound(x, 0, osize)
    output.bound(y, 0, osize)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, osize, osize).hw_accelerate(xi, xo)
    hw_input.stream_to_accelerator()
    n = osize // 2 + 2
    return output, {"input": rand_image(n, n, seed=7)}


def up_sample_default():
    return up_sample(124)


def up_sample_small():
    return up_sample(16)


def up_sample_explicit_vars():
    return up_sample(16, implicit=False)


# ---------------------------------------------------------------- histogram
def histogram(inimgsize=64, bound_extent=True):
    x, y, b = _vars("x", "y", "b")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = u16(input[x, y])
    bin, hist = hl.Func("bin"), hl.Func("histogram")
    r = hl.RDom([(0, inimgsize), (0, inimgsize)])
    bin[x, y] = hl.clamp(i32(hw_input[x, y] & 0xf), 0, 15)
    hist[b] = u16(0)
    hist[bin[r.x, r.y]] += u16(1)
    hw_output = hl.Func("hw_output")
    hw_output[b] = hist[b]
    output = hl.Func("output")
    output[b] = u8(hw_output[b])
    xi, yi, xo, yo, bo, bi = _vars("xi", "yi", "xo", "yo", "bo", "bi")
    if bound_extent:
        hist.bound_extent(b, 16)
    output.bound(b, 0, 16)
    hw_output.compute_root()
    hw_output.split(b, bo, bi, 16).hw_accelerate(bi, bo)
    bin.compute_at(hw_output, bo)
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(inimgsize, inimgsize, seed=8)}


def histogram_default():
    return histogram(64)


def histogram_small():
    return histogram(16)


def histogram_no_bound_extent():
    return histogram(16, bound_extent=False)


CASES = {name: f for name, f in list(globals().items())
         if callable(f) and name.split("_")[0] in ("cascade", "conv", "rom", "accumulation", "down", "up", "histogram")
         and name not in ("cascade", "conv_3_3", "rom", "accumulation", "down_sample", "up_sample", "histogram")}
XFAIL: dict = {}
SLOW = ("cascade_default", "cascade_glb", "up_sample_default", "rom_default", "accumulation_default")


@pytest.mark.parametrize("case,simulator", params(CASES, XFAIL, SLOW), indirect=["simulator"])
def test_small(case, simulator):
    run(case, CASES[case], simulator)
