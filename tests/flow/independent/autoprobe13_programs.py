"""Autoprobe13's programs (session 29): image-processing algorithms written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output or [outputs], {name:
ImageParam}) with estimates set: a cumulative sum down the columns (an RDom scan along y), a bilinear demosaic to
planar RGB, a range-weighted mean through a computed table, Canny's non-maximum suppression, a median of 3x3 by a
comparator network over mirror_interior, a histogram equalisation, i32 and u8 images mixed, a Gaussian pyramid
level down, seed 002's copy Funcs through the GLB, and value and saturation of a planar RGB image as two outputs.
AUTO lists the cases test_autoprobes.py runs.

The two findings fixed: a scan down the columns as the output (`s(x, r) = s(x, r - 1) + ...`) at 2 lanes was
refused by hwlower, the autoscheduler's own schedule (its update kept one lane under an output of two); a planar RGB
output whose planes read alike (demosaic's `select(c == 0, red, c == 1, green, blue)`) at 2 lanes ran plane after
plane, holding its producer whole (919 words for 50, 2.3x the cycles): its planes are now unrolled, a pixel's three
values per lane. The pyramid down at 1 lane banked its rows read at 2y + j as taps (0, 1) and (2, 3), each bank every
row (65 words for 43): its banks now pair taps on one grid, (0, 2) and (1, 3) (helper pyrdown, session 29)."""

from probe_common import u8_input, xy


def col_prefix(m, w, h):
    """Cumulative sum down the columns with an RDom along y (u16), output u16."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(1, h - 1)], "r")
    s = m.Func("colsum")
    s[x, y] = m.u16(inp[x, y])
    s[x, r.x] = s[x, r.x - 1] + m.u16(inp[x, r.x])
    s.set_estimates([(0, w), (0, h)])
    return s, {"inp": inp}


def demosaic_rgb(m, w, h):
    """Bilinear demosaic of an RGGB mosaic to a planar RGB output (x, y, c), u16 sums, selects on parity."""
    raw = m.ImageParam(m.UInt(8), 2, "raw")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    v = m.Func("v")
    v[x, y] = m.u16(raw[x + 1, y + 1])
    ev_x, ev_y = (x % 2) == 0, (y % 2) == 0
    cross = (v[x - 1, y] + v[x + 1, y] + v[x, y - 1] + v[x, y + 1]) / 4
    diag = (v[x - 1, y - 1] + v[x + 1, y - 1] + v[x - 1, y + 1] + v[x + 1, y + 1]) / 4
    horiz = (v[x - 1, y] + v[x + 1, y]) / 2
    vert = (v[x, y - 1] + v[x, y + 1]) / 2
    red, green, blue, out = m.Func("red"), m.Func("green"), m.Func("blue"), m.Func("demosaic")
    red[x, y] = m.select(ev_x & ev_y, v[x, y], ev_y, horiz, ev_x, vert, diag)
    green[x, y] = m.select(ev_x == ev_y, cross, v[x, y])
    blue[x, y] = m.select(~ev_x & ~ev_y, v[x, y], ~ev_y, horiz, ~ev_x, vert, diag)
    out[x, y, c] = m.u8(m.select(c == 0, m.Expr(red[x, y]), c == 1, m.Expr(green[x, y]), m.Expr(blue[x, y])))
    out.set_estimates([(0, w), (0, h), (0, 3)])
    return out, {"raw": raw}


def bilateral_lut(m, w, h):
    """3x3 range-weighted mean: weights from a computed table of |centre - neighbour| (u8 index), u32 division."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    c = m.BoundaryConditions.repeat_edge(inp)
    wt, num, den, out = m.Func("wt"), m.Func("num"), m.Func("den"), m.Func("bilat")
    wt[i] = m.u16(m.max(0, 32 - i))
    taps = [(i_, j_) for j_ in (-1, 0, 1) for i_ in (-1, 0, 1)]
    num[x, y] = sum(m.u32(wt[m.i32(m.absd(c[x, y], c[x + a, y + b]))]) * m.u32(c[x + a, y + b]) for a, b in taps)
    den[x, y] = sum(m.u32(wt[m.i32(m.absd(c[x, y], c[x + a, y + b]))]) for a, b in taps)
    out[x, y] = m.u8(num[x, y] / den[x, y])
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def canny_nms(m, w, h):
    """Canny's non-maximum suppression: gradient magnitude, direction by |gx| vs |gy|, keep local maxima."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    gx, gy, mag, out = m.Func("gx"), m.Func("gy"), m.Func("mag"), m.Func("nms")
    gx[x, y] = m.i16(c[x+1, y]) - m.i16(c[x-1, y])
    gy[x, y] = m.i16(c[x, y+1]) - m.i16(c[x, y-1])
    mag[x, y] = m.u16(m.abs(gx[x, y]) + m.abs(gy[x, y]))
    horiz = m.abs(gx[x, y]) >= m.abs(gy[x, y])
    keep_h = (mag[x, y] >= mag[x-1, y]) & (mag[x, y] >= mag[x+1, y])
    keep_v = (mag[x, y] >= mag[x, y-1]) & (mag[x, y] >= mag[x, y+1])
    out[x, y] = m.select(m.select(horiz, keep_h, keep_v), mag[x, y], m.u16(0))
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def median9(m, w, h):
    """Median of 3x3 by the 19-comparator network (Paeth), u8, mirror_interior."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.mirror_interior(inp)
    out = m.Func("median9")
    p = [c[x + i, y + j] for j in (-1, 0, 1) for i in (-1, 0, 1)]

    def s(a, b):
        p[a], p[b] = m.min(p[a], p[b]), m.max(p[a], p[b])
    for a, b in ((1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8), (0, 3), (5, 8), (4, 7),
                 (3, 6), (1, 4), (2, 5), (4, 7), (4, 2), (6, 4), (4, 2)):
        s(a, b)
    out[x, y] = p[4]
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def histeq(m, w, h):
    """Histogram (16 bins, u16 counts) over the frame, its cumulative sum, each pixel mapped through it."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    r = m.RDom([(0, w), (0, h)], "r")
    hist, cdf, out = m.Func("hist"), m.Func("cdf"), m.Func("eq")
    hist[i] = m.u16(0)
    hist[m.i32(inp[r.x, r.y] >> 4)] += m.u16(1)
    k = m.RDom([(1, 15)], "k")
    cdf[i] = hist[i]
    cdf[k.x] = cdf[k.x - 1] + hist[k.x]
    out[x, y] = m.u8(m.u32(cdf[m.i32(inp[x, y] >> 4)]) * 255 / (w * h))
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def i32_mix(m, w, h):
    """i32 input and u8 mask: masked 3-tap vertical i32 sum, >> 2, to i16 saturated."""
    a = m.ImageParam(m.Int(32), 2, "a")
    mask = u8_input(m, "mask")
    x, y = xy(m)
    t, out = m.Func("t"), m.Func("mixed")
    t[x, y] = m.select(mask[x, y] > 127, a[x, y], -a[x, y])
    out[x, y] = m.i16(m.clamp((t[x, y] + t[x, y + 1] + t[x, y + 2]) >> 2, -32768, 32767))
    out.set_estimates([(0, w), (0, h)])
    return out, {"a": a, "mask": mask}


def pyr_down(m, w, h):
    """Gaussian pyramid down: separable 1-4-6-4-1 then keep every other pixel (u16 inside, u8 out)."""
    inp = u8_input(m)
    x, y = xy(m)
    bx, by, out = m.Func("bx"), m.Func("by"), m.Func("down")
    bx[x, y] = (m.u16(inp[x, y]) + 4*m.u16(inp[x+1, y]) + 6*m.u16(inp[x+2, y]) + 4*m.u16(inp[x+3, y])
                + m.u16(inp[x+4, y]))
    by[x, y] = (bx[x, y] + 4*bx[x, y+1] + 6*bx[x, y+2] + 4*bx[x, y+3] + bx[x, y+4] + 128) >> 8
    out[x, y] = m.u8(by[2*x, 2*y])
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def copies_sobel(m, w, h):
    """Seed 002 style copies: hw_input (i16), Sobel x, hw_output, output its u8 absolute value."""
    inp = u8_input(m)
    x, y = xy(m)
    hw_in, gx, hw_out, out = m.Func("hw_input"), m.Func("gx"), m.Func("hw_output"), m.Func("output")
    hw_in[x, y] = m.i16(inp[x, y])
    gx[x, y] = (hw_in[x + 2, y] + 2 * hw_in[x + 2, y + 1] + hw_in[x + 2, y + 2]
                - hw_in[x, y] - 2 * hw_in[x, y + 1] - hw_in[x, y + 2])
    hw_out[x, y] = m.u8(m.min(m.abs(gx[x, y]), 255))
    out[x, y] = hw_out[x, y]
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def value_sat(m, w, h):
    """HSV-ish from planar RGB: value = max(r, g, b), saturation = 255 (max - min) / max, as two outputs."""
    rgb = m.ImageParam(m.UInt(8), 3, "rgb")
    x, y = xy(m)
    hi, lo, val, sat = m.Func("hi"), m.Func("lo"), m.Func("val"), m.Func("sat")
    hi[x, y] = m.max(rgb[x, y, 0], rgb[x, y, 1], rgb[x, y, 2])
    lo[x, y] = m.min(rgb[x, y, 0], rgb[x, y, 1], rgb[x, y, 2])
    val[x, y] = hi[x, y]
    sat[x, y] = m.u8(m.u16(hi[x, y] - lo[x, y]) * 255 / m.max(m.u16(hi[x, y]), 1))
    val.set_estimates([(0, w), (0, h)])
    sat.set_estimates([(0, w), (0, h)])
    return [val, sat], {"rgb": rgb}


# (algorithm, size, autoscheduler keys), for test_autoprobes.py
AUTO = {"col_prefix_13x7_l2": (col_prefix, (13, 7), {"lanes": "2"}),
        "demosaic_rgb_18x8_l2": (demosaic_rgb, (18, 8), {"lanes": "2"}),
        "bilateral_lut_13x5_l2": (bilateral_lut, (13, 5), {"lanes": "2"}),
        "canny_nms_19x7_l2": (canny_nms, (19, 7), {"lanes": "2"}),
        "median9_17x9_l2": (median9, (17, 9), {"lanes": "2"}),
        "histeq_17x5": (histeq, (17, 5), {}),
        "i32_mix_17x5_l2": (i32_mix, (17, 5), {"lanes": "2"}),
        "pyr_down_9x5": (pyr_down, (9, 5), {}),
        "pyr_down_9x5_l2": (pyr_down, (9, 5), {"lanes": "2"}),
        "copies_sobel_31x9_glb11x9": (copies_sobel, (31, 9), {"glb_tile": "11x9"}),
        "value_sat_17x5_l2": (value_sat, (17, 5), {"lanes": "2"})}
