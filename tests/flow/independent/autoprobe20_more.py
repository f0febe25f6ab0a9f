"""More of autoprobe20's programs (session 35): channels, 1-D signals, small conv layers and algorithms over several
images, written with no schedule (see autoprobe20_programs.py)."""

from probe_common import estimate, u8_input, xy


def ycocg_r(m, w, h):
    """Planar RGB to the lossless YCoCg-R (i16 planes out): co = r - b, t = b + co >> 1, cg = g - t, y = t + cg >> 1."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    co, t, cg, out = m.Func("co"), m.Func("t"), m.Func("cg"), m.Func("ycocg")
    co[x, y] = m.i16(rgb[x, y, 0]) - m.i16(rgb[x, y, 2])
    t[x, y] = m.i16(rgb[x, y, 2]) + (co[x, y] >> 1)
    cg[x, y] = m.i16(rgb[x, y, 1]) - t[x, y]
    out[x, y, c] = m.select(c == 0, t[x, y] + (cg[x, y] >> 1), c == 1, co[x, y], cg[x, y])
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def bayer_bin_rgb(m, w, h):
    """An RGGB mosaic binned to half-size RGB planes: r and b taken, the two greens averaged (x, y, c out)."""
    raw = u8_input(m, "raw")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("rgb")
    r, b = raw[2 * x, 2 * y], raw[2 * x + 1, 2 * y + 1]
    g = m.u8((m.u16(raw[2 * x + 1, 2 * y]) + m.u16(raw[2 * x, 2 * y + 1]) + 1) >> 1)
    out[x, y, c] = m.select(c == 0, r, c == 1, g, b)
    estimate(out, w, h, 3)
    return out, {"raw": raw}


def false_colour(m, w, h):
    """A gray image coloured by a 3-channel ramp: red rises, blue falls, green peaks mid-range (x, y, c out)."""
    inp = u8_input(m)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("colour")
    v = inp[x, y]
    green = m.u8(m.min(m.u16(m.select(v < 128, v, 255 - v)) * 2, 255))
    out[x, y, c] = m.select(c == 0, v, c == 1, green, 255 - v)
    estimate(out, w, h, 3)
    return out, {"inp": inp}


def split_planes(m, w, h):
    """Three outputs, one a plane of a planar RGB image, each its plane's 1x2 mean."""
    rgb = u8_input(m, "rgb", 3)
    x, y = xy(m)
    outs = [m.Func(n) for n in ("red", "green", "blue")]
    for k, f in enumerate(outs):
        f[x, y] = m.u8((m.u16(rgb[x, y, k]) + m.u16(rgb[x + 1, y, k])) >> 1)
        estimate(f, w, h)
    return outs, {"rgb": rgb}


def fir5_1d(m, w, h):
    """A 5-tap FIR over a 1-D signal (i16 taps -1 4 10 4 -1, sum 16), u8 saturated, repeat_edge."""
    sig = u8_input(m, "sig", 1)
    x = m.Var("x")
    c = m.BoundaryConditions.repeat_edge(sig)
    out = m.Func("fir5")
    s = sum(t * m.i16(c[x + k - 2]) for k, t in enumerate((-1, 4, 10, 4, -1)))
    out[x] = m.u8(m.clamp(s >> 4, 0, 255))
    out.set_estimates([(0, w)])
    return out, {"sig": sig}


def iir1_1d(m, w, h):
    """A first-order IIR over a 1-D signal, y(n) = (3 y(n - 1) + 4 x(n)) >> 2 in u16, by a serial scan."""
    sig = u8_input(m, "sig", 1)
    x = m.Var("x")
    s, out = m.Func("state"), m.Func("iir")
    s[x] = m.u16(sig[x]) * 4
    r = m.RDom([(1, w - 1)], "n")
    s[r.x] = (3 * s[r.x - 1] + 4 * m.u16(sig[r.x])) >> 2
    out[x] = m.u8(s[x] >> 2)
    out.set_estimates([(0, w)])
    return out, {"sig": sig}


def conv3x3_2to2_relu(m, w, h):
    """A 3x3 conv layer, 2 input channels (x, y, c) to 2 outputs k, weights from a Func of constants, ReLU, u8."""
    inp = u8_input(m, "inp", 3)
    x, y, k = m.Var("x"), m.Var("y"), m.Var("k")
    i, j, c = m.Var("i"), m.Var("j"), m.Var("c")
    wts, conv, out = m.Func("wts"), m.Func("conv"), m.Func("relu")
    wts[i, j, c, k] = m.i16((i * 3 + j + c * 2 + k * 5) % 7 - 3)
    r = m.RDom([(0, 3), (0, 3), (0, 2)], "r")
    conv[x, y, k] = m.i32(0)
    conv[x, y, k] += m.i32(wts[r.x, r.y, r.z, k]) * m.i32(inp[x + r.x, y + r.y, r.z])
    out[x, y, k] = m.u8(m.min(m.max(conv[x, y, k] >> 3, 0), 255))
    estimate(out, w, h, 2)
    return out, {"inp": inp}


def maxpool2(m, w, h):
    """2x2 max pooling, stride 2, of a 3x3 box mean (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    box, out = m.Func("box"), m.Func("pool")
    box[x, y] = sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9
    out[x, y] = m.u8(m.max(m.max(box[2 * x, 2 * y], box[2 * x + 1, 2 * y]),
                           m.max(box[2 * x, 2 * y + 1], box[2 * x + 1, 2 * y + 1])))
    estimate(out, w, h)
    return out, {"inp": inp}


def maxpool3s2(m, w, h):
    """3x3 max pooling, stride 2, by an RDom maximum, of a ReLU'd difference of the image and 100."""
    inp = u8_input(m)
    x, y = xy(m)
    relu, out = m.Func("relu"), m.Func("pool3")
    relu[x, y] = m.u8(m.max(m.i16(inp[x, y]) - 100, 0))
    r = m.RDom([(0, 3), (0, 3)], "r")
    out[x, y] = m.maximum(relu[2 * x + r.x, 2 * y + r.y])
    estimate(out, w, h)
    return out, {"inp": inp}


def median3_frames(m, w, h):
    """The median of three frames at each pixel (a temporal median) by min/max."""
    a, b, c = u8_input(m, "a"), u8_input(m, "b"), u8_input(m, "c")
    x, y = xy(m)
    out = m.Func("tmed")
    p, q, s = a[x, y], b[x, y], c[x, y]
    out[x, y] = m.max(m.min(p, q), m.min(m.max(p, q), s))
    estimate(out, w, h)
    return out, {"a": a, "b": b, "c": c}


def sad3x3(m, w, h):
    """A block match cost: the sum over 3x3 of two images' absolute differences (u16), >> 3, u8."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    d, out = m.Func("d"), m.Func("sad")
    d[x, y] = m.u16(m.absd(a[x, y], b[x + 1, y]))
    out[x, y] = m.u8(m.min(sum(d[x + i, y + j] for i in range(3) for j in range(3)) >> 3, 255))
    estimate(out, w, h)
    return out, {"a": a, "b": b}
