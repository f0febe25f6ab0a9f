"""Autoprobe19's programs (session 34): image-processing algorithms written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output, {name: ImageParam}) with
estimates set (DNN layers and algorithms over several images in autoprobe19_more.py).

The findings fixed: the autoscheduler asked for the output's estimates where only `hw_output` was bounded (compile
takes that bound); at lanes not dividing that bound, hw_output's RoundUp tail was refused by compile (1 lane); a
table from a constant Buffer, or an image gathered at computed x and y, read at loaded values took no lanes. Figures:
BENCHMARKS.md "Helper autoprobe19, session 34"."""

import numpy as np
from autoprobe19_more import (
    absdiff_blur,
    alpha_blend,
    bayer_green,
    conv2in_relu_pool,
    depthwise3,
    fir7_rdom,
    pointwise_3to2,
)
from probe_common import estimate, u8_input, xy


def plus5(m, w, h):
    """A plus-shaped 5-point mean (centre weighted 4), u16 inside, repeat_edge."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp)
    out = m.Func("plus5")
    s = 4 * m.u16(c[x, y]) + m.u16(c[x - 1, y]) + m.u16(c[x + 1, y]) + m.u16(c[x, y - 1]) + m.u16(c[x, y + 1])
    out[x, y] = m.u8(s >> 3)
    estimate(out, w, h)
    return out, {"inp": inp}


def diamond13(m, w, h):
    """A diamond of radius 2 (13 taps, |i| + |j| <= 2): the maximum (a dilation by a diamond), over the image's
    interior."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("diamond")
    taps = [inp[x + 2 + i, y + 2 + j] for i in range(-2, 3) for j in range(-2, 3) if abs(i) + abs(j) <= 2]
    v = taps[0]
    for t in taps[1:]:
        v = m.max(v, t)
    out[x, y] = v
    estimate(out, w, h)
    return out, {"inp": inp}


def morph_gradient(m, w, h):
    """A 3x3 dilation minus a 3x3 erosion, each separable (row then column), constant_exterior 0."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    mxr, mnr, out = m.Func("mxr"), m.Func("mnr"), m.Func("mgrad")
    mxr[x, y] = m.max(c[x - 1, y], c[x, y], c[x + 1, y])
    mnr[x, y] = m.min(c[x - 1, y], c[x, y], c[x + 1, y])
    out[x, y] = m.max(mxr[x, y - 1], mxr[x, y], mxr[x, y + 1]) - m.min(mnr[x, y - 1], mnr[x, y], mnr[x, y + 1])
    estimate(out, w, h)
    return out, {"inp": inp}


def tophat(m, w, h):
    """A white top-hat: the image minus its opening by a 3x1 then 1x3 segment (erode, then dilate)."""
    inp = u8_input(m)
    x, y = xy(m)
    er, op, out = m.Func("er"), m.Func("op"), m.Func("tophat")
    er[x, y] = m.min(m.min(inp[x, y + 1], inp[x + 1, y + 1]), m.min(inp[x + 2, y + 1], m.min(inp[x + 1, y],
                                                                                          inp[x + 1, y + 2])))
    op[x, y] = m.max(m.max(er[x, y + 1], er[x + 1, y + 1]), m.max(er[x + 2, y + 1], m.max(er[x + 1, y],
                                                                                       er[x + 1, y + 2])))
    out[x, y] = inp[x + 2, y + 2] - op[x, y]
    estimate(out, w, h)
    return out, {"inp": inp}


def pyramid3(m, w, h):
    """Three 2x2 mean downsamples (u16 sums, rounded): the output is an eighth of the image each way."""
    inp = u8_input(m)
    x, y = xy(m)
    prev = inp
    funcs = [m.Func(f"l{k}") for k in range(3)]
    for f in funcs:
        f[x, y] = m.u8((m.u16(prev[2 * x, 2 * y]) + m.u16(prev[2 * x + 1, 2 * y]) + m.u16(prev[2 * x, 2 * y + 1])
                        + m.u16(prev[2 * x + 1, 2 * y + 1]) + 2) >> 2)
        prev = f
    estimate(funcs[-1], w, h)
    return funcs[-1], {"inp": inp}


def shift_by_column(m, w, h):
    """A shear whose shift is computed but bounded: out(x, y) = in(x, y + (x / 4) % 2), the columns in groups of
    4 a row apart. Not in AUTO: refused until session 35 (x / 4 then % 2 is two divisors of x, and its loop over x
    takes one); now a select of the reads at the offset's two values (hwlower/periodic_reads.py, test_inline20.py)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("shear")
    out[x, y] = inp[x, y + (x / 4) % 2]
    estimate(out, w, h)
    return out, {"inp": inp}


def warp_clamped(m, w, h):
    """A horizontal displacement read from a second image, clamped inside the frame: a data-dependent warp."""
    inp, disp = u8_input(m), u8_input(m, "disp")
    x, y = xy(m)
    out = m.Func("warp")
    out[x, y] = inp[m.clamp(x + m.i32(disp[x, y] >> 6) - 2, 0, w - 1), y]
    estimate(out, w, h)
    return out, {"inp": inp, "disp": disp}


def warp2d(m, w, h):
    """Both coordinates displaced by a second image, clamped inside the frame: a data-dependent 2-D gather."""
    inp, disp = u8_input(m), u8_input(m, "disp")
    x, y = xy(m)
    out = m.Func("warp2d")
    out[x, y] = inp[m.clamp(x + m.i32(disp[x, y] >> 6) - 2, 0, w - 1),
                    m.clamp(y + m.i32(disp[x, y] & 3) - 1, 0, h - 1)]
    estimate(out, w, h)
    return out, {"inp": inp, "disp": disp}


def lut_curve(m, w, h):
    """A tone curve computed as a Func of 256 entries (a square-law, u16), read at each pixel."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    lut, out = m.Func("curve"), m.Func("toned")
    lut[i] = m.u8((m.u32(i) * m.u32(i) + 127) / 255)
    out[x, y] = lut[m.i32(inp[x, y])]
    estimate(out, w, h)
    return out, {"inp": inp}


def hist16(m, w, h):
    """A 16-bin histogram of the image (u16 counts): the output is the 16 bins."""
    inp = u8_input(m)
    i = m.Var("i")
    r = m.RDom([(0, w), (0, h)], "r")
    hist = m.Func("hist")
    hist[i] = m.u16(0)
    hist[m.i32(inp[r.x, r.y] >> 4)] += m.u16(1)
    hist.set_estimates([(0, 16)])
    return hist, {"inp": inp}


def row_cumsum(m, w, h):
    """A running sum along each row (u16), by an RDom scan over x, then halved."""
    inp = u8_input(m)
    x, y = xy(m)
    s, out = m.Func("s"), m.Func("cum")
    s[x, y] = m.u16(inp[x, y])
    r = m.RDom([(1, w - 1)], "r")
    s[r.x, y] = s[r.x - 1, y] + m.u16(inp[r.x, y])
    out[x, y] = s[x, y] >> 1
    estimate(out, w, h)
    return out, {"inp": inp}


def col_runmax(m, w, h):
    """The running maximum down each column, by a scan over y that reads the element above."""
    inp = u8_input(m)
    x, y = xy(m)
    s = m.Func("runmax")
    s[x, y] = inp[x, y]
    r = m.RDom([(1, h - 1)], "r")
    s[x, r.x] = m.max(s[x, r.x - 1], s[x, r.x])
    estimate(s, w, h)
    return s, {"inp": inp}


def minmax_tuple(m, w, h):
    """A 3x3 (min, max) as one Tuple Func, then their difference (the local range)."""
    inp = u8_input(m)
    x, y = xy(m)
    mm, out = m.Func("mm"), m.Func("range")
    taps = [inp[x + i, y + j] for i in range(3) for j in range(3)]
    lo, hi = taps[0], taps[0]
    for t in taps[1:]:
        lo, hi = m.min(lo, t), m.max(hi, t)
    mm[x, y] = (lo, hi)
    out[x, y] = mm[x, y][1] - mm[x, y][0]
    estimate(out, w, h)
    return out, {"inp": inp}


def blur_and_edges(m, w, h):
    """Two outputs of one image: a 1-2-1 separable blur and a Sobel x magnitude (u8), sharing its u16 copy."""
    inp = u8_input(m)
    x, y = xy(m)
    v, bx, blur, edge = m.Func("v"), m.Func("bx"), m.Func("blur"), m.Func("edge")
    v[x, y] = m.u16(inp[x, y])
    bx[x, y] = v[x, y] + 2 * v[x + 1, y] + v[x + 2, y]
    blur[x, y] = m.u8((bx[x, y] + 2 * bx[x, y + 1] + bx[x, y + 2]) >> 4)
    gx = bx[x + 2, y] - bx[x, y]  # u16 wraps as Halide's does; made i16 below
    edge[x, y] = m.u8(m.min(m.abs(m.i16(gx)), 255))
    estimate(blur, w, h)
    estimate(edge, w, h)
    return [blur, edge], {"inp": inp}


def u16_square_clamp(m, w, h):
    """A u16 image squared in u32, >> 12, clamped to 4095: a 12-bit sensor's gamma 2 (u16 out)."""
    inp = m.ImageParam(m.UInt(16), 2, "inp")
    x, y = xy(m)
    out = m.Func("sq12")
    v = m.u32(inp[x, y] & 4095)
    out[x, y] = m.u16(m.min((v * v) >> 12, 4095))
    estimate(out, w, h)
    return out, {"inp": inp}


def i16_laplace_sign(m, w, h):
    """An i16 image's 4-neighbour Laplacian, its sign (-1, 0, 1) times its magnitude halved, i16 out."""
    inp = m.ImageParam(m.Int(16), 2, "inp")
    x, y = xy(m)
    lap, out = m.Func("lap"), m.Func("signed")
    lap[x, y] = (4 * inp[x + 1, y + 1] - inp[x, y + 1] - inp[x + 2, y + 1] - inp[x + 1, y] - inp[x + 1, y + 2])
    out[x, y] = m.select(lap[x, y] > 0, lap[x, y] / 2, lap[x, y] < 0, -m.i16(m.abs(lap[x, y]) / 2), m.i16(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def u32_energy5(m, w, h):
    """The sum of squares over 5x5 (u32), as two 1-D RDom sums, the square root approximated by >> 4."""
    inp = u8_input(m)
    x, y = xy(m)
    sq, rows, out = m.Func("sq"), m.Func("rows"), m.Func("energy")
    sq[x, y] = m.u32(inp[x, y]) * m.u32(inp[x, y])
    r = m.RDom([(0, 5)], "r")
    rows[x, y] = m.sum(sq[x + r.x, y])
    k = m.RDom([(0, 5)], "k")
    out[x, y] = m.u32(m.sum(rows[x, y + k.x]) >> 4)
    estimate(out, w, h)
    return out, {"inp": inp}


def quantise4(m, w, h):
    """A select chain: four levels by three thresholds, each from a 1x3 mean."""
    inp = u8_input(m)
    x, y = xy(m)
    mean, out = m.Func("mean"), m.Func("quant")
    mean[x, y] = m.u8((m.u16(inp[x, y]) + m.u16(inp[x + 1, y]) + m.u16(inp[x + 2, y])) / 3)
    v = mean[x, y]
    out[x, y] = m.select(v < 40, m.u8(0), v < 110, m.u8(85), v < 200, m.u8(170), m.u8(255))
    estimate(out, w, h)
    return out, {"inp": inp}


def stretch_clamp(m, w, h):
    """A levels adjustment: (v - 30) * 5 / 3, clamped to 0..255, in i32."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("levels")
    out[x, y] = m.u8(m.clamp((m.i32(inp[x, y]) - 30) * 5 / 3, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def decimate32(m, w, h):
    """A strided read: every third column of every second row, averaged with the next row's."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("dec")
    out[x, y] = m.u8((m.u16(inp[3 * x, 2 * y]) + m.u16(inp[3 * x, 2 * y + 1]) + 1) >> 1)
    estimate(out, w, h)
    return out, {"inp": inp}


def odd_columns(m, w, h):
    """The odd columns only, minus the even: a horizontal Haar detail (i16)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("haar")
    out[x, y] = m.i16(inp[2 * x + 1, y]) - m.i16(inp[2 * x, y])
    estimate(out, w, h)
    return out, {"inp": inp}


def flip_h(m, w, h):
    """A horizontal mirror of the frame: out(x, y) = in(w - 1 - x, y)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("flip")
    out[x, y] = inp[w - 1 - x, y]
    estimate(out, w, h)
    return out, {"inp": inp}


def box3x5(m, w, h):
    """A 3-wide, 5-tall box mean (u16), mirror_image."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.mirror_image(inp)
    out = m.Func("box35")
    out[x, y] = m.u8(sum(m.u16(c[x + i, y + j]) for i in range(-1, 2) for j in range(-2, 3)) / 15)
    estimate(out, w, h)
    return out, {"inp": inp}


def mean_threshold_u16(m, w, h):
    """Pixels above the frame's mean (u32 sum / count), u16 image, 0 / 65535 out."""
    inp = m.ImageParam(m.UInt(16), 2, "inp")
    x, y = xy(m)
    r = m.RDom([(0, w), (0, h)], "r")
    total, out = m.Func("total"), m.Func("above")
    total[()] = m.u32(0)
    total[()] += m.u32(inp[r.x, r.y])
    out[x, y] = m.select(m.u32(inp[x, y]) * (w * h) > total[()], m.u16(65535), m.u16(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def hist_cdf(m, w, h):
    """A 8-bin histogram, its cumulative sum by a scan, and each pixel mapped through it (equalisation)."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    r = m.RDom([(0, w), (0, h)], "r")
    hist, cdf, out = m.Func("hist"), m.Func("cdf"), m.Func("eq")
    hist[i] = m.u16(0)
    hist[m.i32(inp[r.x, r.y] >> 5)] += m.u16(1)
    cdf[i] = hist[i]
    b = m.RDom([(1, 7)], "b")
    cdf[b.x] = cdf[b.x - 1] + hist[b.x]
    out[x, y] = m.u8(m.u32(cdf[m.i32(inp[x, y] >> 5)]) * 255 / (w * h))
    estimate(out, w, h)
    return out, {"inp": inp}


def census5(m, w, h):
    """A census transform over the 4 diagonal neighbours at distance 2: a 4-bit code, u8."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("census")
    centre = inp[x + 2, y + 2]
    bits = [m.select(inp[x + 2 + dx, y + 2 + dy] > centre, m.u8(1 << k), m.u8(0))
            for k, (dx, dy) in enumerate(((-2, -2), (2, -2), (-2, 2), (2, 2)))]
    out[x, y] = bits[0] | bits[1] | bits[2] | bits[3]
    estimate(out, w, h)
    return out, {"inp": inp}


def laplacian_detail(m, w, h):
    """One Laplacian-pyramid level: the image minus its 2x2-mean downsample upsampled by 2 (nearest), i16."""
    inp = u8_input(m)
    x, y = xy(m)
    dn, out = m.Func("dn"), m.Func("detail")
    dn[x, y] = (m.u16(inp[2 * x, 2 * y]) + m.u16(inp[2 * x + 1, 2 * y]) + m.u16(inp[2 * x, 2 * y + 1])
                + m.u16(inp[2 * x + 1, 2 * y + 1]) + 2) >> 2
    out[x, y] = m.i16(inp[x, y]) - m.i16(dn[x / 2, y / 2])
    estimate(out, w, h)
    return out, {"inp": inp}


def grad_l1(m, w, h):
    """|dx| + |dy| of central differences over constant_exterior 0 (u16 out)."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    out = m.Func("l1")
    out[x, y] = m.u16(m.absd(c[x + 1, y], c[x - 1, y])) + m.u16(m.absd(c[x, y + 1], c[x, y - 1]))
    estimate(out, w, h)
    return out, {"inp": inp}


def grad_l1_copied(m, w, h):
    """grad_l1 written as seed 002 writes a design for the GLB: the last stage copied by hw_output, then output."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    l1, hw_out, out = m.Func("l1"), m.Func("hw_output"), m.Func("output")
    l1[x, y] = m.u16(m.absd(c[x + 1, y], c[x - 1, y])) + m.u16(m.absd(c[x, y + 1], c[x, y - 1]))
    hw_out[x, y] = l1[x, y]
    out[x, y] = hw_out[x, y]
    estimate(out, w, h)
    return out, {"inp": inp}


def harris_lite(m, w, h):
    """A small corner response: products of central differences (>> 2), summed over 3x3 (i32), det - trace^2 / 16
    (each under 2^31: Halide's i32 overflow is undefined)."""
    inp = u8_input(m)
    x, y = xy(m)
    ix, iy, sxx, syy, sxy, out = (m.Func(n) for n in ("ix", "iy", "sxx", "syy", "sxy", "corner"))
    ix[x, y] = (m.i32(inp[x + 2, y + 1]) - m.i32(inp[x, y + 1])) >> 2
    iy[x, y] = (m.i32(inp[x + 1, y + 2]) - m.i32(inp[x + 1, y])) >> 2
    sxx[x, y] = sum(ix[x + i, y + j] * ix[x + i, y + j] for i in range(3) for j in range(3))
    syy[x, y] = sum(iy[x + i, y + j] * iy[x + i, y + j] for i in range(3) for j in range(3))
    sxy[x, y] = sum(ix[x + i, y + j] * iy[x + i, y + j] for i in range(3) for j in range(3))
    tr = sxx[x, y] + syy[x, y]
    out[x, y] = m.select(sxx[x, y] * syy[x, y] - sxy[x, y] * sxy[x, y] - ((tr * tr) >> 4) > 1000, m.u8(255),
                         m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def hw_output_bounded(m, w, h):
    """Seed 002's names with no schedule and no estimates: the bound on `hw_output` alone gives the size."""
    inp = u8_input(m)
    x, y = xy(m)
    hw_in, blur, hw_out, out = m.Func("hw_input"), m.Func("blur"), m.Func("hw_output"), m.Func("output")
    hw_in[x, y] = m.u16(inp[x, y])
    blur[x, y] = (hw_in[x, y] + hw_in[x + 1, y] + hw_in[x, y + 1] + hw_in[x + 1, y + 1]) >> 2
    hw_out[x, y] = blur[x, y]
    out[x, y] = m.u8(hw_out[x, y])
    hw_out.bound(x, 0, w).bound(y, 0, h)
    return out, {"inp": inp}


def output_bounded(m, w, h):
    """A 1-2-1 vertical blur with its output's size from bound() alone (no estimates)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("vblur")
    out[x, y] = m.u8((m.u16(inp[x, y]) + 2 * m.u16(inp[x, y + 1]) + m.u16(inp[x, y + 2])) >> 2)
    out.bound(x, 0, w).bound(y, 0, h)
    return out, {"inp": inp}


def rom_curve(m, w, h):
    """A 16-entry piecewise curve from a constant Buffer, indexed by the pixel's top 4 bits, plus its low bits."""
    inp = u8_input(m)
    x, y = xy(m)
    table = m.Buffer(CURVE, "curve_table")  # named: an unnamed Buffer's counter name differs on a fresh copy
    out = m.Func("pw_curve")
    v = inp[x, y]
    out[x, y] = m.u8(m.min(m.u16(table[m.i32(v >> 4)]) + m.u16(v & 15), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


CURVE = np.array([0, 30, 55, 78, 98, 116, 133, 148, 162, 175, 187, 198, 208, 218, 228, 238], dtype=np.uint8)


def rgb_gray_sharpen(m, w, h):
    """Interleaved-free planar RGB to gray (BT.601 integer weights, u16), then a 3x3 sharpen of the gray, clamped."""
    rgb = u8_input(m, "rgb", 3)
    x, y = xy(m)
    gray, out = m.Func("gray"), m.Func("sharp")
    gray[x, y] = m.i16((77 * m.u16(rgb[x, y, 0]) + 150 * m.u16(rgb[x, y, 1]) + 29 * m.u16(rgb[x, y, 2])) >> 8)
    s = 5 * gray[x + 1, y + 1] - gray[x, y + 1] - gray[x + 2, y + 1] - gray[x + 1, y] - gray[x + 1, y + 2]
    out[x, y] = m.u8(m.clamp(s, 0, 255))
    estimate(out, w, h)
    return out, {"rgb": rgb}


def upsample3(m, w, h):
    """A nearest upsample by 3 of a 1x2 mean: a divisor that is not a power of two."""
    inp = u8_input(m)
    x, y = xy(m)
    mean, out = m.Func("mean"), m.Func("up3")
    mean[x, y] = m.u8((m.u16(inp[x, y]) + m.u16(inp[x + 1, y])) >> 1)
    out[x, y] = mean[x / 3, y / 3]
    estimate(out, w, h)
    return out, {"inp": inp}


def row_argmax(m, w, h):
    """For each row, the column of its brightest pixel (argmax over an RDom along x), an output of one row."""
    inp = u8_input(m)
    y = m.Var("y")
    r = m.RDom([(0, w)], "r")
    out = m.Func("amax")
    out[y] = m.u8(m.argmax(inp[r.x, y])[0])
    out.set_estimates([(0, h)])
    return out, {"inp": inp}


def col_sum(m, w, h):
    """A column projection: each column's sum over the frame (u16), an output of one row."""
    inp = u8_input(m)
    x = m.Var("x")
    r = m.RDom([(0, h)], "r")
    out = m.Func("proj")
    out[x] = m.u16(0)
    out[x] += m.u16(inp[x, r.x])
    out.set_estimates([(0, w)])
    return out, {"inp": inp}


def tuple_out_grad(m, w, h):
    """A Tuple output (dx, dy) in i16 of a 2x2 mean: two Buffers from realize."""
    inp = u8_input(m)
    x, y = xy(m)
    mean, out = m.Func("mean"), m.Func("grad")
    mean[x, y] = m.i16((m.u16(inp[x, y]) + m.u16(inp[x + 1, y]) + m.u16(inp[x, y + 1]) + m.u16(inp[x + 1, y + 1]))
                       >> 2)
    out[x, y] = (mean[x + 1, y] - mean[x, y], mean[x, y + 1] - mean[x, y])
    estimate(out, w, h)
    return out, {"inp": inp}


# (algorithm, size, autoscheduler keys[, bounds]), for test_autoprobe19.py
AUTO = {
    "plus5_15x7": (plus5, (15, 7), {}),
    "plus5_15x7_l3": (plus5, (15, 7), {"lanes": "3"}),
    "diamond13_13x9": (diamond13, (13, 9), {}),
    # 5 rows of 14 words (whole transfers of 2) and their forwarding registers: 74 words for 66
    "diamond13_13x9_l2": (diamond13, (13, 9), {"lanes": "2"}, {"words_over_min": 8}),
    "morph_gradient_17x7_l2": (morph_gradient, (17, 7), {"lanes": "2"}),
    "tophat_11x7": (tophat, (11, 7), {}),
    "pyramid3_5x3": (pyramid3, (5, 3), {}),
    "pyramid3_6x4_l2": (pyramid3, (6, 4), {"lanes": "2"}),
    "warp_clamped_13x5": (warp_clamped, (13, 5), {}),
    "warp2d_13x5_l2": (warp2d, (13, 5), {"lanes": "2"}),
    "lut_curve_15x5": (lut_curve, (15, 5), {}),
    "lut_curve_15x5_l2": (lut_curve, (15, 5), {"lanes": "2"}),
    "hist16_13x7": (hist16, (13, 7), {}),
    "row_cumsum_11x5": (row_cumsum, (11, 5), {}),
    "row_cumsum_11x5_l2": (row_cumsum, (11, 5), {"lanes": "2"}),
    "col_runmax_9x7": (col_runmax, (9, 7), {}),
    "col_runmax_9x7_l3": (col_runmax, (9, 7), {"lanes": "3"}),
    "minmax_tuple_13x7": (minmax_tuple, (13, 7), {}),
    "minmax_tuple_13x7_l2": (minmax_tuple, (13, 7), {"lanes": "2"}),
    "blur_and_edges_15x7": (blur_and_edges, (15, 7), {}),
    "blur_and_edges_15x7_l2": (blur_and_edges, (15, 7), {"lanes": "2"}),
    "u16_square_clamp_21x3_l4": (u16_square_clamp, (21, 3), {"lanes": "4"}),
    "i16_laplace_sign_13x7": (i16_laplace_sign, (13, 7), {}),
    "u32_energy5_11x7": (u32_energy5, (11, 7), {}),
    "u32_energy5_11x7_pes20": (u32_energy5, (11, 7), {"max_pes": "20"}),
    "quantise4_17x5_l2": (quantise4, (17, 5), {"lanes": "2"}),
    "stretch_clamp_19x3_l3": (stretch_clamp, (19, 3), {"lanes": "3"}),
    "decimate32_7x4": (decimate32, (7, 4), {}),
    "odd_columns_9x5_l2": (odd_columns, (9, 5), {"lanes": "2"}),
    "conv2in_relu_pool_5x3": (conv2in_relu_pool, (5, 3), {}),
    "depthwise3_9x5": (depthwise3, (9, 5), {}),
    "pointwise_3to2_9x5": (pointwise_3to2, (9, 5), {}),
    "pointwise_3to2_9x5_l2": (pointwise_3to2, (9, 5), {"lanes": "2"}),
    "bayer_green_14x8": (bayer_green, (14, 8), {}),
    "bayer_green_14x8_l2": (bayer_green, (14, 8), {"lanes": "2"}),
    "alpha_blend_17x5_l2": (alpha_blend, (17, 5), {"lanes": "2"}),
    "absdiff_blur_13x7": (absdiff_blur, (13, 7), {}),
    "absdiff_blur_13x7_mem2": (absdiff_blur, (13, 7), {"max_mem_tiles": "2"}),
    "fir7_rdom_15x5": (fir7_rdom, (15, 5), {}),
    "fir7_rdom_15x5_pes17": (fir7_rdom, (15, 5), {"max_pes": "17"}),
    # a reversed row held as two (23 words for 12): the memory's addresses run one way
    "flip_h_11x5": (flip_h, (11, 5), {}, {"words_over_min": 11}),
    "box3x5_13x9": (box3x5, (13, 9), {}),
    "box3x5_13x9_l2": (box3x5, (13, 9), {"lanes": "2"}),
    "mean_threshold_u16_11x5": (mean_threshold_u16, (11, 5), {}),
    "hist_cdf_13x5": (hist_cdf, (13, 5), {}),
    "census5_15x7_l2": (census5, (15, 7), {"lanes": "2"}),
    "laplacian_detail_14x8_l2": (laplacian_detail, (14, 8), {"lanes": "2"}),
    # 3 lanes over 17 columns: constant_exterior's rows of 19 held in whole transfers of 3 (47 words for 42)
    "grad_l1_17x9_l3": (grad_l1, (17, 9), {"lanes": "3"}, {"words_over_min": 5}),
    "grad_l1_copied_17x9_glb": (grad_l1_copied, (17, 9), {"use_glb": "true"}),
    "grad_l1_copied_24x8_glb12x4": (grad_l1_copied, (24, 8), {"glb_tile": "12x4"}),
    "grad_l1_copied_24x8_glb12x4_l2": (grad_l1_copied, (24, 8), {"glb_tile": "12x4", "lanes": "2"}),
    "harris_lite_11x7": (harris_lite, (11, 7), {}),
    "hw_output_bounded_13x5": (hw_output_bounded, (13, 5), {}),
    "hw_output_bounded_13x5_l2": (hw_output_bounded, (13, 5), {"lanes": "2"}),
    "output_bounded_11x5": (output_bounded, (11, 5), {}),
    "rom_curve_15x5_l3": (rom_curve, (15, 5), {"lanes": "3"}),
    "rgb_gray_sharpen_13x7": (rgb_gray_sharpen, (13, 7), {}),
    "upsample3_12x9": (upsample3, (12, 9), {}),
    "row_argmax_9x5": (row_argmax, (9, 5), {}),
    "col_sum_11x5": (col_sum, (11, 5), {}),
    "col_sum_11x5_l2": (col_sum, (11, 5), {"lanes": "2"}),
    "tuple_out_grad_13x5_l2": (tuple_out_grad, (13, 5), {"lanes": "2"}),
}
