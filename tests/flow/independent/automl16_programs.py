"""Automl16's programs (session 32): ML layers written with no schedule, as issue 11's acceptance programs are, each
in module m (`mainspring` or `halide`) returning (output, {name: ImageParam}) with estimates set: convolutions to
output planes k with their weights a 3-D or 4-D ImageParam read at k, a depthwise convolution (the input read at its
own channel; also added back to its input), a MobileNet block (depthwise, ReLU, then pointwise), a 1x1 convolution
over 8 planes, a fully connected layer, a convolution then ReLU then 2x2 max pooling to 2 planes, a channel concat.

The findings fixed (autoschedule_planes.py): a stream not read at the pixel (weights `w(r.x, r.y, c, k)`) let
no Func unroll its planes k, so the output ran plane after plane and held its input whole (the convolution at 11x5:
167 cycles and 1,067 words, now 119 and 115); a planar image read at 2 to 4 planes together counted a transfer a
plane (the 1x1 convolution over 8 planes: 1,036 cycles, now 422); a planar image read at its reader's own channel
(depthwise) was streamed plane after plane (335 cycles at 13x5, now 125; the MobileNet block 366, now 125). Figures:
BENCHMARKS.md "Helper automl16, session 32"."""

from probe_common import estimate


def conv_param(m, w, h):
    """3x3 conv over 2 input channels to 2 output planes k, weights a 4-D i8 ImageParam w(dx, dy, c, k), i32, ReLU."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    wts = m.ImageParam(m.Int(8), 4, "wts")
    x, y, k = m.Var("x"), m.Var("y"), m.Var("k")
    r = m.RDom([(0, 3), (0, 3), (0, 2)], "r")
    conv, out = m.Func("conv"), m.Func("out")
    conv[x, y, k] = m.i32(0)
    conv[x, y, k] += m.i32(wts[r.x, r.y, r.z, k]) * m.i32(inp[x + r.x, y + r.y, r.z])
    out[x, y, k] = m.u8(m.clamp(conv[x, y, k] >> 6, 0, 255))
    estimate(out, w, h, 2)
    return out, {"inp": inp, "wts": wts}


def depthwise3(m, w, h):
    """Depthwise 3x3 conv over 3 channels, weights a 3-D i16 ImageParam w(dx, dy, c), u8 out."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    wts = m.ImageParam(m.Int(16), 3, "wts")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    r = m.RDom([(0, 3), (0, 3)], "r")
    dw, out = m.Func("dw"), m.Func("out")
    dw[x, y, c] = m.i32(0)
    dw[x, y, c] += m.i32(wts[r.x, r.y, c]) * m.i32(inp[x + r.x, y + r.y, c])
    out[x, y, c] = m.u8(m.clamp(dw[x, y, c] >> 4, 0, 255))
    estimate(out, w, h, 3)
    return out, {"inp": inp, "wts": wts}


def mobilenet_block(m, w, h):
    """Depthwise 3x3 over 2 channels then pointwise 1x1 to 2 output channels, weights ImageParams, ReLU between."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    dww = m.ImageParam(m.Int(16), 3, "dww")
    pww = m.ImageParam(m.Int(16), 2, "pww")
    x, y, c, k = m.Var("x"), m.Var("y"), m.Var("c"), m.Var("k")
    r = m.RDom([(0, 3), (0, 3)], "r")
    q = m.RDom([(0, 2)], "q")
    dw, relu, pw, out = m.Func("dw"), m.Func("dw_relu"), m.Func("pw"), m.Func("out")
    dw[x, y, c] = m.i32(0)
    dw[x, y, c] += m.i32(dww[r.x, r.y, c]) * m.i32(inp[x + r.x, y + r.y, c])
    relu[x, y, c] = m.clamp(dw[x, y, c] >> 4, 0, 255)
    pw[x, y, k] = m.i32(0)
    pw[x, y, k] += m.i32(pww[q.x, k]) * relu[x, y, q.x]
    out[x, y, k] = m.u8(m.clamp(pw[x, y, k] >> 6, 0, 255))
    estimate(out, w, h, 2)
    return out, {"inp": inp, "dww": dww, "pww": pww}


def pointwise8(m, w, h):
    """1x1 conv over 8 input planes to 2 output planes, weights a 2-D i16 ImageParam w(c, k), ReLU."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    wts = m.ImageParam(m.Int(16), 2, "wts")
    x, y, k = m.Var("x"), m.Var("y"), m.Var("k")
    r = m.RDom([(0, 8)], "r")
    acc, out = m.Func("acc"), m.Func("out")
    acc[x, y, k] = m.i32(0)
    acc[x, y, k] += m.i32(wts[r.x, k]) * m.i32(inp[x, y, r.x])
    out[x, y, k] = m.u8(m.clamp(acc[x, y, k] >> 8, 0, 255))
    estimate(out, w, h, 2)
    return out, {"inp": inp, "wts": wts}


def fully_connected(m, w, h):
    """Fully connected: a 4-vector of 3-channel pixels' sums (u8 image 4x1x3) times i16 weights w(i, c, j) from a 3-D
    ImageParam, w outputs, i32, ReLU."""
    vec = m.ImageParam(m.UInt(8), 2, "vec")
    wts = m.ImageParam(m.Int(16), 3, "wts")
    j = m.Var("j")
    r = m.RDom([(0, 4), (0, 2)], "r")
    acc, out = m.Func("acc"), m.Func("fc")
    acc[j] = m.i32(0)
    acc[j] += m.i32(vec[r.x, r.y]) * m.i32(wts[r.x, r.y, j])
    out[j] = m.max(acc[j], 0)
    out.set_estimates([(0, w)])
    return out, {"vec": vec, "wts": wts}


def conv_relu_pool(m, w, h):
    """3x3 conv of one channel to 2 planes (weights a 3-D i8 ImageParam w(dx, dy, k)), ReLU, 2x2 max pool stride 2."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    wts = m.ImageParam(m.Int(8), 3, "wts")
    x, y, k = m.Var("x"), m.Var("y"), m.Var("k")
    r = m.RDom([(0, 3), (0, 3)], "r")
    conv, relu, pool = m.Func("conv"), m.Func("relu"), m.Func("pool")
    conv[x, y, k] = m.i16(0)
    conv[x, y, k] += m.i16(wts[r.x, r.y, k]) * m.i16(inp[x + r.x, y + r.y])
    relu[x, y, k] = m.max(conv[x, y, k], 0)
    pool[x, y, k] = m.u8(m.min(m.max(relu[2 * x, 2 * y, k], relu[2 * x + 1, 2 * y, k], relu[2 * x, 2 * y + 1, k],
                                     relu[2 * x + 1, 2 * y + 1, k]), 255))
    estimate(pool, w, h, 2)
    return pool, {"inp": inp, "wts": wts}


def concat_channels(m, w, h):
    """Channel concat: a 3x3 box of channel 0 and a 3x3 max of channel 1 as the 2 planes of the output."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    box, mx, cat = m.Func("box"), m.Func("mx"), m.Func("cat")
    box[x, y] = m.u8(sum(m.u16(inp[x + i, y + j, 0]) for i in range(3) for j in range(3)) // 9)
    mx[x, y] = m.max(*[inp[x + i, y + j, 1] for i in range(3) for j in range(3)])
    cat[x, y, c] = m.select(c == 0, box[x, y], mx[x, y])
    estimate(cat, w, h, 2)
    return cat, {"inp": inp}

def dw_residual(m, w, h):
    """A depthwise 3x3 conv over 3 channels added back to its input (the output reads the input at its own plane)."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    wts = m.ImageParam(m.Int(16), 3, "wts")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    r = m.RDom([(0, 3), (0, 3)], "r")
    dw, out = m.Func("dw"), m.Func("out")
    dw[x, y, c] = m.i32(0)
    dw[x, y, c] += m.i32(wts[r.x, r.y, c]) * m.i32(inp[x + r.x, y + r.y, c])
    out[x, y, c] = m.u8(m.clamp(m.i32(inp[x + 1, y + 1, c]) + (dw[x, y, c] >> 4), 0, 255))
    estimate(out, w, h, 3)
    return out, {"inp": inp, "wts": wts}

# (algorithm, size, autoscheduler keys)
AUTO = {"conv_param_11x5": (conv_param, (11, 5), {}),
        "conv_param_11x5_l2": (conv_param, (11, 5), {"lanes": "2"}),
        "depthwise3_13x5": (depthwise3, (13, 5), {}),
        "mobilenet_11x5": (mobilenet_block, (11, 5), {}),
        "mobilenet_11x5_l2": (mobilenet_block, (11, 5), {"lanes": "2"}),
        "pointwise8_9x5": (pointwise8, (9, 5), {}),
        "fully_connected_6": (fully_connected, (6, 1), {}),
        "conv_relu_pool_7x5": (conv_relu_pool, (7, 5), {}),
        "concat_channels_13x5_l2": (concat_channels, (13, 5), {"lanes": "2"}),
        "dw_residual_13x5": (dw_residual, (13, 5), {})}
