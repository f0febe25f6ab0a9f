"""Autoprobe14a's programs (session 30): ML-style and multi-stage algorithms written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output, {name: ImageParam}) with
estimates set: a fully connected layer over a small vector (weights a 2-D ImageParam), a convolution to 3 planar
output channels (weights a constant 3-D Func), a 3x3 convolution over 3 input channels with ReLU, a convolution
then ReLU then 2x2 max pooling, a residual block (two branches rejoining), a five-stage stencil chain, a 1x1
convolution (4 to 2 channels, weights an ImageParam) and a per-channel scale and bias.

The two findings fixed: a fully connected layer (`acc(j) += vec(r) * w(r, j)`, a 1-D output) was refused by hwlower,
the autoscheduler's own schedule: its weights stream, whose dimension before the output's x is a row's inputs, was
both streamed down its columns (as a transposed image) and unrolled whole; a convolution to planar output channels
(`acc(x, y, k)`, its channels computed together) ran its output plane after plane, holding the producer's other
planes (163 words for 39 at 13x5, 234 cycles for 111; at 2 lanes 337 words for 48, 129 cycles for 62): the output
now takes the planes its producer makes together, unrolled. Figures: BENCHMARKS.md "Helper autoprobe14a, session
30"."""

from probe_common import estimate, u8_input, xy


def fully_connected(m, w, h):
    """Fully connected: an 8-vector (u8) times i16 weights (i, j) from an ImageParam, w outputs (i32), ReLU."""
    vec = m.ImageParam(m.UInt(8), 1, "vec")
    wts = m.ImageParam(m.Int(16), 2, "wts")
    j = m.Var("j")
    r = m.RDom([(0, 8)], "r")
    acc, out = m.Func("acc"), m.Func("fc")
    acc[j] = m.i32(0)
    acc[j] += m.i32(vec[r.x]) * m.i32(wts[r.x, j])
    out[j] = m.max(acc[j], 0)
    out.set_estimates([(0, w)])
    return out, {"vec": vec, "wts": wts}


def conv_3d_out(m, w, h):
    """3x3 convolution to 3 planar output channels (x, y, k), weights a constant 3-D Func of (tap, k), u16, u8."""
    inp = u8_input(m)
    x, y, k, i, j = m.Var("x"), m.Var("y"), m.Var("k"), m.Var("i"), m.Var("j")
    wt, acc, out = m.Func("wt"), m.Func("acc"), m.Func("o")
    wt[i, j, k] = m.u16((i + 2 * j + 3 * k) % 4)
    r = m.RDom([(0, 3), (0, 3)], "r")
    acc[x, y, k] = m.u16(0)
    acc[x, y, k] += wt[r.x, r.y, k] * m.u16(inp[x + r.x, y + r.y])
    out[x, y, k] = m.u8(acc[x, y, k] >> 4)
    estimate(out, w, h, 3)
    return out, {"inp": inp}


def conv_cin3_const(m, w, h):
    """3x3 conv over 3 input channels (x, y, c), weights a constant Func of (dx, dy, c), i32 acc, ReLU, u8 >> 4."""
    inp = u8_input(m, dims=3)
    x, y, i, j, c = m.Var("x"), m.Var("y"), m.Var("i"), m.Var("j"), m.Var("c")
    wt, conv, out = m.Func("wt"), m.Func("conv"), m.Func("relu")
    wt[i, j, c] = m.i32((i * 3 + j * 5 + c * 7) % 9) - 4
    r = m.RDom([(0, 3), (0, 3), (0, 3)], "r")
    conv[x, y] = m.i32(0)
    conv[x, y] += wt[r.x, r.y, r.z] * m.i32(inp[x + r.x, y + r.y, r.z])
    out[x, y] = m.u8(m.clamp(conv[x, y] >> 4, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def conv_relu_pool(m, w, h):
    """3x3 conv (constant 2-D weights, i16), ReLU, then 2x2 max pool stride 2."""
    inp = u8_input(m)
    x, y, i, j = m.Var("x"), m.Var("y"), m.Var("i"), m.Var("j")
    k, conv, relu, pool = m.Func("k"), m.Func("conv"), m.Func("relu"), m.Func("pool")
    k[i, j] = m.i16(i - j)
    r = m.RDom([(0, 3), (0, 3)], "r")
    conv[x, y] = m.i16(0)
    conv[x, y] += k[r.x, r.y] * m.i16(inp[x + r.x, y + r.y])
    relu[x, y] = m.max(conv[x, y], 0)
    pool[x, y] = m.u8(m.min(m.max(relu[2*x, 2*y], relu[2*x+1, 2*y], relu[2*x, 2*y+1], relu[2*x+1, 2*y+1]), 255))
    estimate(pool, w, h)
    return pool, {"inp": inp}


def residual(m, w, h):
    """Residual block: two 3x3 box convs in a chain, added back to the input (branches rejoin), ReLU-clamped u8."""
    inp = u8_input(m)
    x, y = xy(m)
    a, b, out = m.Func("a"), m.Func("b"), m.Func("res")
    a[x, y] = sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) // 9
    b[x, y] = m.i16(sum(a[x + i, y + j] for i in range(3) for j in range(3))) - m.i16(9 * 64)
    out[x, y] = m.u8(m.clamp(m.i16(inp[x + 2, y + 2]) + (b[x, y] >> 3), 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def chain5(m, w, h):
    """Five-stage chain: blur x, blur y, gradient x, absolute, threshold+max with the blur."""
    inp = u8_input(m)
    x, y = xy(m)
    s1, s2, s3, s4, s5 = (m.Func(n) for n in ("bx", "by", "gx", "mag", "edge"))
    s1[x, y] = m.u16(inp[x, y]) + 2 * m.u16(inp[x + 1, y]) + m.u16(inp[x + 2, y])
    s2[x, y] = (s1[x, y] + 2 * s1[x, y + 1] + s1[x, y + 2]) >> 4
    s3[x, y] = m.i16(s2[x + 2, y]) - m.i16(s2[x, y])
    s4[x, y] = m.u16(m.abs(s3[x, y]))
    s5[x, y] = m.u8(m.select(s4[x, y + 1] > 8, 255, m.min(s2[x + 1, y + 1], 254)))
    estimate(s5, w, h)
    return s5, {"inp": inp}


def pointwise1x1(m, w, h):
    """1x1 conv: 4 input channels to 2 output channels, weights a 2-D ImageParam (ci, co) i16, i32 acc, ReLU >> 8."""
    inp = u8_input(m, dims=3)
    wts = m.ImageParam(m.Int(16), 2, "wts")
    x, y, k = m.Var("x"), m.Var("y"), m.Var("k")
    r = m.RDom([(0, 4)], "r")
    acc, out = m.Func("acc"), m.Func("pw")
    acc[x, y, k] = m.i32(0)
    acc[x, y, k] += m.i32(wts[r.x, k]) * m.i32(inp[x, y, r.x])
    out[x, y, k] = m.u8(m.clamp(acc[x, y, k] >> 8, 0, 255))
    estimate(out, w, h, 2)
    return out, {"inp": inp, "wts": wts}


def batchnorm(m, w, h):
    """Per-channel scale and bias from constant Funcs over 3 channels, clamp to u8 (x, y, c)."""
    inp = u8_input(m, dims=3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    scale, bias, out = m.Func("scale"), m.Func("bias"), m.Func("bn")
    scale[c] = m.i16(3 + 2 * c)
    bias[c] = m.i16(-20 * c)
    out[x, y, c] = m.u8(m.clamp((m.i16(inp[x, y, c]) * scale[c] >> 2) + bias[c], 0, 255))
    estimate(out, w, h, 3)
    return out, {"inp": inp}


# (algorithm, size, autoscheduler keys)
AUTO = {"fully_connected_16": (fully_connected, (16, 1), {}),
        "conv_3d_out_13x5": (conv_3d_out, (13, 5), {}),
        "conv_3d_out_13x5_l2": (conv_3d_out, (13, 5), {"lanes": "2"}),
        "conv_cin3_const_13x7_l2": (conv_cin3_const, (13, 7), {"lanes": "2"}),
        "conv_relu_pool_7x5_l2": (conv_relu_pool, (7, 5), {"lanes": "2"}),
        "residual_15x7_l3": (residual, (15, 7), {"lanes": "3"}),
        "chain5_19x7_l2": (chain5, (19, 7), {"lanes": "2"}),
        "pointwise1x1_9x5_l2": (pointwise1x1, (9, 5), {"lanes": "2"}),
        "batchnorm_13x5_l2": (batchnorm, (13, 5), {"lanes": "2"})}
