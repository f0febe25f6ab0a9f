"""More of autoprobe20's programs (session 35): channels, 1-D signals, small conv layers, algorithms over several
images, written with no schedule (see autoprobe20_programs.py)."""

import numpy as np
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



def tuple_mixed(m, w, h):
    """A Tuple output of mixed types: (u8 max of 1x3, i16 difference of ends)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("mixed")
    out[x, y] = (m.max(inp[x, y], inp[x + 1, y], inp[x + 2, y]), m.i16(inp[x + 2, y]) - m.i16(inp[x, y]))
    estimate(out, w, h)
    return out, {"inp": inp}


def chan_first(m, w, h):
    """An interleaved RGB image (c, x, y) to gray (u8)."""
    rgb = m.ImageParam(m.UInt(8), 3, "rgb")
    x, y = xy(m)
    out = m.Func("gray")
    out[x, y] = m.u8((m.u16(rgb[0, x, y]) * 77 + m.u16(rgb[1, x, y]) * 150 + m.u16(rgb[2, x, y]) * 29) >> 8)
    estimate(out, w, h)
    return out, {"rgb": rgb}


def bounded_mid(m, w, h):
    """A bound on the output and an estimate on nothing else, the stage before it read at x - 2 (a negative
    offset, the image read from x = -2)."""
    inp = u8_input(m)
    x, y = xy(m)
    s, out = m.Func("s"), m.Func("o")
    s[x, y] = m.u16(inp[x, y]) * 3
    out[x, y] = m.u8((s[x - 2, y] + s[x, y - 1]) >> 3)
    out.bound(x, 0, w).bound(y, 0, h)
    return out, {"inp": inp}


W9 = np.array([1, 3, 5, 7, 9, 7, 5, 3, 1], dtype=np.uint8)


def buffer_taps(m, w, h):
    """A 9-tap FIR whose taps come from a named constant Buffer read at an RDom (sum 41)."""
    inp = u8_input(m)
    x, y = xy(m)
    taps = m.Buffer(W9, "taps9")
    r = m.RDom([(0, 9)], "r")
    acc, out = m.Func("acc"), m.Func("fir")
    acc[x, y] = m.u16(0)
    acc[x, y] += m.u16(taps[r.x]) * m.u16(inp[x + r.x, y])
    out[x, y] = m.u8(acc[x, y] / 41)
    estimate(out, w, h)
    return out, {"inp": inp}


def unnamed_two(m, w, h):
    """Two unnamed constant Buffers: a gain and an offset table, by the pixel's top 3 bits."""
    inp = u8_input(m)
    x, y = xy(m)
    gain = m.Buffer(np.array([1, 2, 3, 4, 4, 3, 2, 1], dtype=np.uint8))
    off = m.Buffer(np.array([9, 8, 7, 6, 5, 4, 3, 2], dtype=np.uint8))
    out = m.Func("go")
    k = m.i32(inp[x, y] >> 5)
    out[x, y] = m.u8(m.min(m.u16(inp[x, y] & 31) * m.u16(gain[k]) + m.u16(off[k]), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def down3(m, w, h):
    """A 3x3 mean sampled every third pixel (stride 3 each way)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("d3")
    out[x, y] = m.u8(sum(m.u16(inp[3 * x + i, 3 * y + j]) for i in range(3) for j in range(3)) / 9)
    estimate(out, w, h)
    return out, {"inp": inp}


def argmin_col(m, w, h):
    """For each column, the row of its darkest pixel (argmin over y), one row out."""
    inp = u8_input(m)
    x = m.Var("x")
    r = m.RDom([(0, h)], "r")
    out = m.Func("amin")
    out[x] = m.u8(m.argmin(inp[x, r.x])[0])
    out.set_estimates([(0, w)])
    return out, {"inp": inp}


def posterise_func(m, w, h):
    """Posterise by a lookup Func of 8 levels computed inside, at the pixel's top 3 bits."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    lv, out = m.Func("lv"), m.Func("post")
    lv[i] = m.u8(i * 36)
    out[x, y] = lv[m.i32(inp[x, y] >> 5)]
    estimate(out, w, h)
    return out, {"inp": inp}


def masked_mean3(m, w, h):
    """A Tuple Func (sum, count) over the 3x3 pixels above 64, then their mean (0 where none)."""
    inp = u8_input(m)
    x, y = xy(m)
    sc, out = m.Func("sc"), m.Func("mmean")
    taps = [inp[x + i, y + j] for i in range(3) for j in range(3)]
    s = sum(m.select(t > 64, m.u16(t), m.u16(0)) for t in taps)
    n = sum(m.select(t > 64, m.u16(1), m.u16(0)) for t in taps)
    sc[x, y] = (s, n)
    out[x, y] = m.u8(m.select(sc[x, y][1] == 0, m.u16(0), m.u16(sc[x, y][0] / m.max(sc[x, y][1], 1))))
    estimate(out, w, h)
    return out, {"inp": inp}


def normalise_local_max(m, w, h):
    """Each pixel over its 3x3 maximum: 255 * v / (max + 1), a division by a value computed per pixel (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    mx, out = m.Func("mx"), m.Func("nlm")
    mx[x, y] = m.max(inp[x, y], inp[x + 1, y], inp[x + 2, y])
    big = m.max(mx[x, y], mx[x, y + 1], mx[x, y + 2])
    out[x, y] = m.u8(m.u16(inp[x + 1, y + 1]) * 255 / (m.u16(big) + 1))
    estimate(out, w, h)
    return out, {"inp": inp}


def sobel_diag(m, w, h):
    """Sobel along the two diagonals (kernels 0 1 2 / -1 0 1 / -2 -1 0 and its mirror), max of magnitudes, u8."""
    inp = u8_input(m)
    x, y = xy(m)
    v, out = m.Func("v"), m.Func("diag")
    v[x, y] = m.i16(inp[x, y])
    d1 = v[x + 1, y] + 2 * v[x + 2, y] + v[x + 2, y + 1] - v[x, y + 1] - 2 * v[x, y + 2] - v[x + 1, y + 2]
    d2 = v[x + 1, y] + 2 * v[x, y] + v[x, y + 1] - v[x + 2, y + 1] - 2 * v[x + 2, y + 2] - v[x + 1, y + 2]
    out[x, y] = m.u8(m.min(m.max(m.abs(d1), m.abs(d2)) >> 2, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def row_min(m, w, h):
    """Each row's minimum over the frame's width (an RDom), an output of one column."""
    inp = u8_input(m)
    y = m.Var("y")
    r = m.RDom([(0, w)], "r")
    out = m.Func("rmin")
    out[y] = m.minimum(inp[r.x, y])
    out.set_estimates([(0, h)])
    return out, {"inp": inp}


def col_iir(m, w, h):
    """A first-order recursive smoother down each column: s(x, y) = (s(x, y - 1) + in(x, y)) / 2, by a scan."""
    inp = u8_input(m)
    x, y = xy(m)
    s, out = m.Func("s"), m.Func("iir")
    s[x, y] = m.u16(inp[x, y])
    r = m.RDom([(1, h - 1)], "r")
    s[x, r.x] = (s[x, r.x - 1] + m.u16(inp[x, r.x])) >> 1
    out[x, y] = m.u8(s[x, y])
    estimate(out, w, h)
    return out, {"inp": inp}


def dilate5_rdom(m, w, h):
    """A 5x5 dilation as two RDom maxima (rows, then columns), over the interior."""
    inp = u8_input(m)
    x, y = xy(m)
    r, k = m.RDom([(0, 5)], "r"), m.RDom([(0, 5)], "k")
    rows, out = m.Func("rows"), m.Func("dil5")
    rows[x, y] = m.maximum(inp[x + r.x, y])
    out[x, y] = m.maximum(rows[x, y + k.x])
    estimate(out, w, h)
    return out, {"inp": inp}


def hysteresis_lite(m, w, h):
    """Edges kept where strong (> 200), or weak (> 100) beside a strong one in the 3x3 around."""
    inp = u8_input(m)
    x, y = xy(m)
    strong, out = m.Func("strong"), m.Func("hyst")
    strong[x, y] = m.select(inp[x, y] > 200, m.u8(1), m.u8(0))
    near = strong[x, y]
    for i in range(3):
        for j in range(3):
            near = m.max(near, strong[x + i, y + j])
    c = inp[x + 1, y + 1]
    out[x, y] = m.select((c > 200) | ((c > 100) & (near == 1)), m.u8(255), m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


KERNEL5 = np.array([[1, 2, 3, 2, 1], [2, -4, 6, -4, 2], [3, 6, 8, 6, 3], [2, -4, 6, -4, 2], [1, 2, 3, 2, 1]],
                   dtype=np.int16)


def conv5_table(m, w, h):
    """A 5x5 convolution with signed weights from a named constant Buffer, over an RDom (i32), u8 saturated."""
    inp = u8_input(m)
    x, y = xy(m)
    k = m.Buffer(KERNEL5, "kernel5")
    r = m.RDom([(0, 5), (0, 5)], "r")
    acc, out = m.Func("acc"), m.Func("conv5")
    acc[x, y] = m.i32(0)
    acc[x, y] += m.i32(k[r.x, r.y]) * m.i32(inp[x + r.x, y + r.y])
    out[x, y] = m.u8(m.clamp(acc[x, y] >> 5, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def u16_bin2(m, w, h):
    """A u16 image binned 2x2 (u32 sum >> 2): half the size each way."""
    inp = m.ImageParam(m.UInt(16), 2, "inp")
    x, y = xy(m)
    out = m.Func("bin2")
    out[x, y] = m.u16((m.u32(inp[2 * x, 2 * y]) + m.u32(inp[2 * x + 1, 2 * y]) + m.u32(inp[2 * x, 2 * y + 1])
                       + m.u32(inp[2 * x + 1, 2 * y + 1])) >> 2)
    estimate(out, w, h)
    return out, {"inp": inp}


def sobel_xy_outputs(m, w, h):
    """Sobel's gx and gy as two outputs (i16) of one u8 image, sharing its i16 copy."""
    inp = u8_input(m)
    x, y = xy(m)
    v, gx, gy = m.Func("v"), m.Func("gx"), m.Func("gy")
    v[x, y] = m.i16(inp[x, y])
    gx[x, y] = (v[x + 2, y] + 2 * v[x + 2, y + 1] + v[x + 2, y + 2]) - (v[x, y] + 2 * v[x, y + 1] + v[x, y + 2])
    gy[x, y] = (v[x, y + 2] + 2 * v[x + 1, y + 2] + v[x + 2, y + 2]) - (v[x, y] + 2 * v[x + 1, y] + v[x + 2, y])
    estimate(gx, w, h)
    estimate(gy, w, h)
    return [gx, gy], {"inp": inp}


def minmax2_tuple_out(m, w, h):
    """A Tuple output: the 2x2 minimum and maximum (u8, u8)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("mm2")
    t = [inp[x + i, y + j] for i in range(2) for j in range(2)]
    out[x, y] = (m.min(m.min(t[0], t[1]), m.min(t[2], t[3])), m.max(m.max(t[0], t[1]), m.max(t[2], t[3])))
    estimate(out, w, h)
    return out, {"inp": inp}


def blur_bounded(m, w, h):
    """A 3x3 box (u16) with the output's size from bound() alone, and a 1x2 mean before it."""
    inp = u8_input(m)
    x, y = xy(m)
    pair, out = m.Func("pair"), m.Func("box3")
    pair[x, y] = (m.u16(inp[x, y]) + m.u16(inp[x + 1, y])) >> 1
    out[x, y] = m.u8(sum(pair[x + i, y + j] for i in range(3) for j in range(3)) / 9)
    out.bound(x, 0, w).bound(y, 0, h)
    return out, {"inp": inp}


# (algorithm, size, autoscheduler keys[, bounds]), for test_autoprobe20.py
