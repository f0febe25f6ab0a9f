"""Autoprobe19's programs (session 34), continued: small DNN layers and algorithms over several images, written
with no schedule (autoprobe19_programs.py lists the cases)."""

from probe_common import estimate, u8_input, xy


def conv2in_relu_pool(m, w, h):
    """A 3x3 convolution over 2 input channels (i16 weights, i32 sums), ReLU, then a 2x2 max pool."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    x, y = xy(m)
    conv, pool = m.Func("conv"), m.Func("pool")
    wts = [[[1, -2, 1], [2, 3, -1], [0, 1, 2]], [[-1, 1, 0], [2, -3, 1], [1, 1, -2]]]
    conv[x, y] = m.max(sum(m.i32(inp[x + i, y + j, c]) * wts[c][j][i]
                           for c in range(2) for i in range(3) for j in range(3)), 0)
    pool[x, y] = m.max(m.max(conv[2 * x, 2 * y], conv[2 * x + 1, 2 * y]),
                       m.max(conv[2 * x, 2 * y + 1], conv[2 * x + 1, 2 * y + 1]))
    estimate(pool, w, h)
    return pool, {"inp": inp}


def depthwise3(m, w, h):
    """A depthwise 3x3 over 3 channels (x, y, c), a weight per channel and tap from a select, u16 >> 4."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("dw")
    wts = [(1, 2, 1), (2, 4, 2), (1, 2, 1)]
    acc = sum(m.u16(inp[x + i, y + j, c]) * m.u16(m.select(c == 0, wts[j][i], c == 1, 1, wts[i][j] + 1))
              for i in range(3) for j in range(3))
    out[x, y, c] = m.u8(acc >> 4)
    estimate(out, w, h, 3)
    return out, {"inp": inp}


def pointwise_3to2(m, w, h):
    """A 1x1 convolution from 3 channels to 2 (an RDom over c, i32), bias and ReLU, u8 saturated."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    x, y, k = m.Var("x"), m.Var("y"), m.Var("k")
    r = m.RDom([(0, 3)], "r")
    acc, out = m.Func("acc"), m.Func("pw")
    acc[x, y, k] = m.i32(m.select(k == 0, 10, -20))
    acc[x, y, k] += m.i32(inp[x, y, r.x]) * m.select(k == 0, 3 - r.x, 2 * r.x - 1)
    out[x, y, k] = m.u8(m.clamp(acc[x, y, k] >> 2, 0, 255))
    estimate(out, w, h, 2)
    return out, {"inp": inp}


def bayer_green(m, w, h):
    """Green at every pixel of an RGGB mosaic: kept where sampled, else the 4-neighbour mean (select on parity)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("green")
    avg = m.u8((m.u16(inp[x, y + 1]) + m.u16(inp[x + 2, y + 1]) + m.u16(inp[x + 1, y])
                + m.u16(inp[x + 1, y + 2]) + 2) >> 2)
    out[x, y] = m.select((x + y) % 2 == 1, inp[x + 1, y + 1], avg)
    estimate(out, w, h)
    return out, {"inp": inp}


def alpha_blend(m, w, h):
    """Two images blended by a third (alpha, u8): (a * alpha + b * (255 - alpha) + 127) / 255."""
    a, b, al = u8_input(m, "a"), u8_input(m, "b"), u8_input(m, "alpha")
    x, y = xy(m)
    out = m.Func("blend")
    t = m.u16(al[x, y])
    out[x, y] = m.u8((m.u16(a[x, y]) * t + m.u16(b[x, y]) * (255 - t) + 127) / 255)
    estimate(out, w, h)
    return out, {"a": a, "b": b, "alpha": al}


def absdiff_blur(m, w, h):
    """Motion: the absolute difference of two frames, then a 3x3 box of it (u16), thresholded to 0 / 255."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    d, out = m.Func("d"), m.Func("motion")
    d[x, y] = m.u16(m.absd(a[x, y], b[x, y]))
    s = sum(d[x + i, y + j] for i in range(3) for j in range(3))
    out[x, y] = m.select(s > 90, m.u8(255), m.u8(0))
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def fir7_rdom(m, w, h):
    """A 7-tap horizontal FIR with signed taps from an RDom (i32), u8 saturated."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 7)], "r")
    acc, out = m.Func("acc"), m.Func("fir")
    tap = m.select(r.x == 3, 20, r.x % 2 == 0, -1, 3)
    acc[x, y] = m.i32(0)
    acc[x, y] += m.i32(inp[x + r.x, y]) * tap
    out[x, y] = m.u8(m.clamp(acc[x, y] >> 5, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}
