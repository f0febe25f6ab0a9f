"""Autoprobe14b's programs (session 30): image-processing algorithms written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output or [outputs], {name:
ImageParam}) with estimates set: thresholds at the frame's mean (a Func of no dimensions, `total[()]`) and at a
histogram's peak (`argmax` with no free Var), a contrast stretch by the frame's inline minimum and maximum,
interleaved RGB to planar YUV and planar to interleaved BGR, a census transform, a vignette gain from per-pixel
coordinates, a local-Laplacian-like level (down, up, detail), a separable 7-tap binomial, a 9-tap RDom box, and
an unsharp mask over mirror_image and a Sobel magnitude over mirror_interior (tall frames).

The findings fixed: a Func of no dimensions (Halide's `total[()] = ...`, and the Func of an inline reduction with no
free Var, `hl.argmax(hist[k])`, `hl.minimum(inp[r.x, r.y])`) crashed the reference and the autoscheduler (a call
with no arguments was taken for a scalar Param): it is now one element, read at 0. And a frame over mirror_image or
mirror_interior taller than about 260 rows was refused by the autoscheduler (hundreds of memory tiles by its
model, for a design of one or two): bounds inference took a reflection at the first row, and mirror_image's select
anywhere, to span every row; the model now also counts the rows at a row below the edges, and a comparison its
intervals decide bounds one branch of a select.
AUTO lists the cases test_autoprobes.py runs (they were test_autoprobe14b.py's). Figures: BENCHMARKS.md "Helper
autoprobe14b, session 30"."""

from probe_common import estimate, u8_input, xy


def rgb_to_planar_yuv(m, w, h):
    """Interleaved RGB in(c, x, y) to planar YUV out(x, y, c), c outermost, i32 BT.601 integer."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    r, g, b = (m.i32(rgb[k, x, y]) for k in range(3))
    yv = (66 * r + 129 * g + 25 * b + 128) >> 8
    u = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128
    v = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128
    out = m.Func("yuv")
    out[x, y, c] = m.u8(m.clamp(m.select(c == 0, yv + 16, c == 1, u, v), 0, 255))
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def planar_to_interleaved(m, w, h):
    """Planar RGB in(x, y, c) swapped to BGR interleaved out(c, x, y) with a per-channel gain."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("bgr")
    out[c, x, y] = m.u8(m.min(m.u16(rgb[x, y, 2 - c]) * m.u16(c + 3) / 4, 255))
    out.set_estimates([(0, 3), (0, w), (0, h)])
    return out, {"rgb": rgb}


def vignette(m, w, h):
    """Vignette correction with per-pixel coordinates: gain = 256 + ((x-cx)^2 + (y-cy)^2) >> 4."""
    inp = u8_input(m)
    x, y = xy(m)
    cx, cy = w // 2, h // 2
    out = m.Func("vig")
    d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy)
    out[x, y] = m.u8(m.min((m.i32(inp[x, y]) * (256 + (d2 >> 4))) >> 8, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def sep7(m, w, h):
    """Separable 7-tap binomial (1 6 15 20 15 6 1), u32 inside, repeat_edge, u8 out."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp)
    k = (1, 6, 15, 20, 15, 6, 1)
    bx, out = m.Func("bx"), m.Func("sep7")
    bx[x, y] = sum(k[i] * m.u16(c[x + i - 3, y]) for i in range(7))
    out[x, y] = m.u8((sum(k[i] * m.u32(bx[x, y + i - 3]) for i in range(7)) + 2048) >> 12)
    estimate(out, w, h)
    return out, {"inp": inp}


def box9_rdom_sep(m, w, h):
    """Separable 9-tap box through two 1-D RDoms (u16), mirror_image."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.mirror_image(inp)
    r = m.RDom([(-4, 9)], "r")
    bx, by, out = m.Func("bx"), m.Func("by"), m.Func("box9")
    bx[x, y] = m.sum(m.u16(c[x + r.x, y]))
    by[x, y] = m.sum(m.u32(bx[x, y + r.x]))
    out[x, y] = m.u8(by[x, y] / 81)
    estimate(out, w, h)
    return out, {"inp": inp}


def threshold_mean(m, w, h):
    """Global threshold at the frame's mean: a sum over the whole frame (RDom), then a binary image."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, w), (0, h)], "r")
    tot, out = m.Func("total"), m.Func("binary")
    tot[()] = m.u32(0)
    tot[()] += m.u32(inp[r.x, r.y])
    out[x, y] = m.select(m.u32(inp[x, y]) * (w * h) > tot[()], m.u8(255), m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def threshold_hist(m, w, h):
    """Threshold from a 8-bin histogram: the bin with the most pixels (argmax), pixels above its centre set."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    r = m.RDom([(0, w), (0, h)], "r")
    hist, out = m.Func("hist"), m.Func("bin")
    hist[i] = m.u16(0)
    hist[m.i32(inp[r.x, r.y] >> 5)] += m.u16(1)
    k = m.RDom([(0, 8)], "k")
    best = m.argmax(hist[k.x])[0]
    out[x, y] = m.select(m.i32(inp[x, y]) > best * 32 + 16, m.u8(255), m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def laplacian_level(m, w, h):
    """A local-Laplacian-like level: down = 2x2 mean at (2x, 2y), up = down(x/2, y/2), detail = in - up (i16)."""
    inp = u8_input(m)
    x, y = xy(m)
    down, up, out = m.Func("down"), m.Func("up"), m.Func("detail")
    down[x, y] = (m.u16(inp[2 * x, 2 * y]) + inp[2 * x + 1, 2 * y] + inp[2 * x, 2 * y + 1]
                  + inp[2 * x + 1, 2 * y + 1]) / 4
    up[x, y] = down[x / 2, y / 2]
    out[x, y] = m.i16(inp[x, y]) - m.i16(up[x, y])
    estimate(out, w, h)
    return out, {"inp": inp}


def census(m, w, h):
    """Census transform 3x3: 8 comparison bits with the centre, u8."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp)
    out = m.Func("census")
    taps = [(i, j) for j in (-1, 0, 1) for i in (-1, 0, 1) if (i, j) != (0, 0)]
    out[x, y] = sum(m.select(c[x + i, y + j] > c[x, y], m.u8(1 << b), m.u8(0)) for b, (i, j) in enumerate(taps))
    estimate(out, w, h)
    return out, {"inp": inp}


def contrast_stretch(m, w, h):
    """Contrast stretch by the frame's min and max (two RDom reductions), then a linear map to 0..255."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, w), (0, h)], "r")
    lo, hi, out = m.Func("lo"), m.Func("hi"), m.Func("stretch")
    lo[()] = m.minimum(inp[r.x, r.y])
    hi[()] = m.maximum(inp[r.x, r.y])
    rng = m.max(m.u16(hi[()]) - m.u16(lo[()]), 1)
    out[x, y] = m.u8((m.u16(inp[x, y]) - m.u16(lo[()])) * 255 / rng)
    estimate(out, w, h)
    return out, {"inp": inp}


def unsharp5(m, w, h):
    """Unsharp mask: separable 1-4-6-4-1, sharpened = clamp(2 in - blur), mirror_image."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.mirror_image(inp)
    k = (1, 4, 6, 4, 1)
    bx, by, out = m.Func("bx"), m.Func("by"), m.Func("sharp")
    bx[x, y] = sum(k[i] * m.u16(c[x + i - 2, y]) for i in range(5))
    by[x, y] = (sum(k[i] * m.u32(bx[x, y + i - 2]) for i in range(5)) + 128) >> 8
    out[x, y] = m.u8(m.clamp(2 * m.i32(c[x, y]) - m.i32(by[x, y]), 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def sobel_amax(m, w, h):
    """Sobel magnitude, alpha-max-plus-beta-min (max + min/2, sqrt-free), u8 saturated."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.mirror_interior(inp)
    gx, gy, out = m.Func("gx"), m.Func("gy"), m.Func("mag")
    gx[x, y] = m.abs(m.i16(c[x + 1, y - 1]) + 2 * m.i16(c[x + 1, y]) + m.i16(c[x + 1, y + 1])
                     - m.i16(c[x - 1, y - 1]) - 2 * m.i16(c[x - 1, y]) - m.i16(c[x - 1, y + 1]))
    gy[x, y] = m.abs(m.i16(c[x - 1, y + 1]) + 2 * m.i16(c[x, y + 1]) + m.i16(c[x + 1, y + 1])
                     - m.i16(c[x - 1, y - 1]) - 2 * m.i16(c[x, y - 1]) - m.i16(c[x + 1, y - 1]))
    hi = m.max(gx[x, y], gy[x, y])
    lo = m.min(gx[x, y], gy[x, y])
    out[x, y] = m.u8(m.min(hi + lo / 2, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


# test_autoprobes.py's cases: (algorithm, size, autoscheduler keys, bounds); each buffer within 3 words of its
# minimum also passes (a reduction's accumulator, a 1-word total in 3 registers, shows now that its map's stream
# is no longer held as a frame: twopass14)
_WITHIN_3 = {"words_over_min": 3}
AUTO = {"threshold_mean_13x7": (threshold_mean, (13, 7), {}, _WITHIN_3),
        "threshold_hist_13x7": (threshold_hist, (13, 7), {}, _WITHIN_3),
        "contrast_stretch_13x7_l2": (contrast_stretch, (13, 7), {"lanes": "2"}, _WITHIN_3),
        "rgb_to_planar_yuv_11x5_l2": (rgb_to_planar_yuv, (11, 5), {"lanes": "2"}, _WITHIN_3),
        "planar_to_interleaved_7x5_l3": (planar_to_interleaved, (7, 5), {"lanes": "3"}, _WITHIN_3),
        "census_17x9_l3": (census, (17, 9), {"lanes": "3"}, _WITHIN_3),
        "vignette_19x7_l4": (vignette, (19, 7), {"lanes": "4"}, _WITHIN_3),
        "laplacian_level_13x7_l2": (laplacian_level, (13, 7), {"lanes": "2"}, _WITHIN_3),
        "sep7_29x1": (sep7, (29, 1), {}, _WITHIN_3),
        "box9_rdom_sep_5x13": (box9_rdom_sep, (5, 13), {}, _WITHIN_3),
        "sobel_amax_24x270": (sobel_amax, (24, 270), {}, _WITHIN_3)}
