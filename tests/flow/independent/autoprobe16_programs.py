"""Autoprobe16's programs (session 32): image-processing algorithms written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output, {name: ImageParam}) with
estimates set: nearest-neighbour upsamples of a blur, a downsample then upsample chain, integral images (one 2-D
scan, and a row scan over a column scan, both `+=`), a box filter from an integral image, a difference of
Gaussians, RGB to YCbCr and back, normalisation by the frame's maximum, an unsharp mask, a Sobel magnitude (also
in GLB tiles), box filters at odd sizes, a morphological opening, a 2x2 mean downsample twice and a bilinear 2x
upsample.

The findings fixed: a Func read at an upsampled coordinate (`up(x, y) = blur(x / 2, y / 2)`) was inlined, so its
reader read the image at divided coordinates and held it in 92 words, 5 memory tiles at 14x10 (5,786 words, 6 tiles
at 1920x1080): it is now buffered (autoschedule_buffers.has_reuse: a stencil of a stream, each value read by 2 x 2
pixels), 30 words in 2 tiles (2,890); an integral image as one 2-D scan that reads the element it stores (`s(r.x,
r.y) += ...`) was two ops, each step waiting for the memory (24 words and 137 cycles for 45 at 9x5; 3,846 words and
3 cycles a pixel at 1920x1080): hwlower/scans.py makes it one op, 12 words and 46 cycles (1,923 words, a pixel a
cycle), as it does a column scan that reads the element it stores (`c(x, r) += c(x, r - 1)`: 13 words for 24 at
9x5); at k lanes a row scan that reads the element it stores (`+=`), or a 2-D scan, was left at one lane by the
autoscheduler, which compile refused: its RVar along x is unrolled with x (autoschedule_lanes.row_scan); a row scan
over a buffered column scan was refused at 1920x1080, the memory model taking the column scan's rows for the frame's
(2,142 memory tiles): it holds a row (autoschedule_memory._scan_rows), 1,926 words at 2 lanes.
Figures: BENCHMARKS.md "Helper autoprobe16, session 32"."""

from probe_common import estimate, u8_input, xy


def up_blur(m, w, h):
    """A 3x3 box blur (one stage, u16 sums), upsampled by 2 (nearest neighbour)."""
    inp = u8_input(m)
    x, y = xy(m)
    blur, up = m.Func("blur"), m.Func("up")
    blur[x, y] = m.u8(sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9)
    up[x, y] = blur[x / 2, y / 2]
    estimate(up, w, h)
    return up, {"inp": inp}


def up_blur_sep(m, w, h):
    """A separable 1-2-1 blur, then upsampled by 2 (nearest) with a gain of 3/2 clamped."""
    inp = u8_input(m)
    x, y = xy(m)
    bx, by, up = m.Func("bx"), m.Func("by"), m.Func("up")
    bx[x, y] = m.u16(inp[x, y]) + 2 * m.u16(inp[x + 1, y]) + m.u16(inp[x + 2, y])
    by[x, y] = (bx[x, y] + 2 * bx[x, y + 1] + bx[x, y + 2]) >> 4
    up[x, y] = m.u8(m.min(by[x / 2, y / 2] * 3 / 2, 255))
    estimate(up, w, h)
    return up, {"inp": inp}


def down_up(m, w, h):
    """A 2x2 mean downsample, then a nearest upsample back, minus the input: the detail lost (i16)."""
    inp = u8_input(m)
    x, y = xy(m)
    dn, out = m.Func("dn"), m.Func("detail")
    dn[x, y] = (m.u16(inp[2 * x, 2 * y]) + m.u16(inp[2 * x + 1, 2 * y]) + m.u16(inp[2 * x, 2 * y + 1])
                + m.u16(inp[2 * x + 1, 2 * y + 1])) / 4
    out[x, y] = m.i16(inp[x, y]) - m.i16(dn[x / 2, y / 2])
    estimate(out, w, h)
    return out, {"inp": inp}


def integral2d(m, w, h):
    """An integral image as one 2-D scan over 1..w-1 x 1..h-1 that reads the element it stores (u16 wraps)."""
    inp = u8_input(m)
    x, y = xy(m)
    s, out = m.Func("s"), m.Func("integral")
    s[x, y] = m.u16(inp[x, y])
    r = m.RDom([(1, w - 1), (1, h - 1)], "r")
    s[r.x, r.y] += s[r.x - 1, r.y] + s[r.x, r.y - 1] - s[r.x - 1, r.y - 1]
    out[x, y] = s[x, y]
    estimate(out, w, h)
    return out, {"inp": inp}


def integral_rc(m, w, h):
    """An integral image as a row scan over a column scan, both `+=` (u32 sums)."""
    inp = u8_input(m)
    x, y = xy(m)
    c, s = m.Func("col"), m.Func("rows")
    c[x, y] = m.u32(inp[x, y])
    ry = m.RDom([(1, h - 1)], "ry")
    c[x, ry.x] += c[x, ry.x - 1]
    s[x, y] = c[x, y]
    rx = m.RDom([(1, w - 1)], "rx")
    s[rx.x, y] += s[rx.x - 1, y]
    estimate(s, w, h)
    return s, {"inp": inp}


def diagonal_scan(m, w, h):
    """A 2-D scan reading the row above at x and x + 1 (`s(r.x, r.y) += s(r.x + 1, r.y - 1) + s(r.x, r.y - 1)`):
    one op too, its reads all of rows done."""
    inp = u8_input(m)
    x, y = xy(m)
    s, out = m.Func("s"), m.Func("diag")
    s[x, y] = m.u16(inp[x, y])
    r = m.RDom([(0, w - 1), (1, h - 1)], "r")
    s[r.x, r.y] += s[r.x + 1, r.y - 1] + s[r.x, r.y - 1]
    out[x, y] = s[x, y]
    estimate(out, w, h)
    return out, {"inp": inp}


def box_from_integral(m, w, h):
    """A 4x4 box sum from a column-scanned then row-scanned integral image (u16, wrapping), four reads of it."""
    inp = u8_input(m)
    x, y = xy(m)
    c, s, out = m.Func("col"), m.Func("integ"), m.Func("box")
    c[x, y] = m.u16(inp[x, y])
    ry = m.RDom([(1, h + 3)], "ry")
    c[x, ry.x] = c[x, ry.x - 1] + m.u16(inp[x, ry.x])
    s[x, y] = c[x, y]
    rx = m.RDom([(1, w + 3)], "rx")
    s[rx.x, y] = s[rx.x - 1, y] + c[rx.x, y]
    out[x, y] = m.u8((s[x + 4, y + 4] - s[x, y + 4] - s[x + 4, y] + s[x, y]) >> 4)
    estimate(out, w, h)
    return out, {"inp": inp}


def dog(m, w, h):
    """Difference of Gaussians: a 3x3 binomial minus a 5x5 binomial (separable), i16, offset to u8."""
    inp = u8_input(m)
    x, y = xy(m)
    g3x, g3, g5x, g5, out = (m.Func(n) for n in ("g3x", "g3", "g5x", "g5", "dog"))
    g3x[x, y] = m.u16(inp[x + 1, y]) + 2 * m.u16(inp[x + 2, y]) + m.u16(inp[x + 3, y])
    g3[x, y] = (g3x[x, y + 1] + 2 * g3x[x, y + 2] + g3x[x, y + 3]) >> 4
    g5x[x, y] = (m.u16(inp[x, y]) + 4 * m.u16(inp[x + 1, y]) + 6 * m.u16(inp[x + 2, y]) + 4 * m.u16(inp[x + 3, y])
                 + m.u16(inp[x + 4, y]))
    g5[x, y] = (m.u32(g5x[x, y]) + 4 * m.u32(g5x[x, y + 1]) + 6 * m.u32(g5x[x, y + 2]) + 4 * m.u32(g5x[x, y + 3])
                + m.u32(g5x[x, y + 4])) >> 8
    out[x, y] = m.u8(m.clamp(m.i16(g3[x, y]) - m.i16(g5[x, y]) + 128, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def ycbcr_round_trip(m, w, h):
    """Planar RGB (x, y, c) to YCbCr (BT.601 full range, i32 fixed point) and back to planar RGB, clamped."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    ycc, out = m.Func("ycc"), m.Func("rgb_out")
    r, g, b = (m.i32(rgb[x, y, k]) for k in range(3))
    ycc[x, y, c] = m.select(c == 0, (77 * r + 150 * g + 29 * b + 128) >> 8,
                            c == 1, ((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128,
                            ((128 * r - 107 * g - 21 * b + 128) >> 8) + 128)
    yv, cb, cr = ycc[x, y, 0], ycc[x, y, 1] - 128, ycc[x, y, 2] - 128
    out[x, y, c] = m.u8(m.clamp(m.select(c == 0, yv + ((359 * cr) >> 8),
                                         c == 1, yv - ((88 * cb + 183 * cr) >> 8),
                                         yv + ((454 * cb) >> 8)), 0, 255))
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def normalise_max(m, w, h):
    """Each pixel scaled by 255 over the frame's maximum (a whole-frame reduction, then the map), u8."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, w), (0, h)], "r")
    peak, out = m.Func("peak"), m.Func("norm")
    peak[()] = m.u16(1)
    peak[()] = m.max(peak[()], m.u16(inp[r.x, r.y]))
    out[x, y] = m.u8(m.u16(inp[x, y]) * 255 / peak[()])
    estimate(out, w, h)
    return out, {"inp": inp}


def unsharp(m, w, h):
    """Unsharp mask: a 3x3 binomial blur, sharpened = in + 3/2 (in - blur), clamped to u8."""
    inp = u8_input(m)
    x, y = xy(m)
    bx, blur, out = m.Func("bx"), m.Func("blur"), m.Func("sharp")
    bx[x, y] = m.u16(inp[x, y]) + 2 * m.u16(inp[x + 1, y]) + m.u16(inp[x + 2, y])
    blur[x, y] = m.i16((bx[x, y] + 2 * bx[x, y + 1] + bx[x, y + 2] + 8) >> 4)
    centre = m.i16(inp[x + 1, y + 1])
    out[x, y] = m.u8(m.clamp(centre + (3 * (centre - blur[x, y])) / 2, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def sobel_mag(m, w, h):
    """Sobel magnitude |gx| + |gy| (i16 gradients), saturated to u8."""
    inp = u8_input(m)
    x, y = xy(m)
    gx, gy, out = m.Func("gx"), m.Func("gy"), m.Func("mag")

    def p(i, j):
        return m.i16(inp[x + i, y + j])

    gx[x, y] = (p(2, 0) + 2 * p(2, 1) + p(2, 2)) - (p(0, 0) + 2 * p(0, 1) + p(0, 2))
    gy[x, y] = (p(0, 2) + 2 * p(1, 2) + p(2, 2)) - (p(0, 0) + 2 * p(1, 0) + p(2, 0))
    out[x, y] = m.u8(m.min(m.abs(gx[x, y]) + m.abs(gy[x, y]), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def box5(m, w, h):
    """A 5x5 box mean from two separable 5-tap sums (u16), rounded."""
    inp = u8_input(m)
    x, y = xy(m)
    sx, out = m.Func("sx"), m.Func("box5")
    sx[x, y] = sum(m.u16(inp[x + i, y]) for i in range(5))
    out[x, y] = m.u8((sum(sx[x, y + j] for j in range(5)) + 12) / 25)
    estimate(out, w, h)
    return out, {"inp": inp}


def box7_rdom(m, w, h):
    """A 7x7 box sum over an RDom (one reduction, u16), then >> 6."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 7), (0, 7)], "r")
    acc, out = m.Func("acc"), m.Func("box7")
    acc[x, y] = m.u16(0)
    acc[x, y] += m.u16(inp[x + r.x, y + r.y])
    out[x, y] = m.u8(m.min(acc[x, y] >> 6, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def opening(m, w, h):
    """A morphological opening: a 3x3 erosion (min), then a 3x3 dilation (max)."""
    inp = u8_input(m)
    x, y = xy(m)
    ero, dil = m.Func("erode"), m.Func("dilate")
    ero[x, y] = m.min(*[inp[x + i, y + j] for i in range(3) for j in range(3)])
    dil[x, y] = m.max(*[ero[x + i, y + j] for i in range(3) for j in range(3)])
    estimate(dil, w, h)
    return dil, {"inp": inp}


def pyramid2(m, w, h):
    """Two 2x2 mean downsamples in a row: out(x, y) is the mean of a 4x4 block, through a half-size level."""
    inp = u8_input(m)
    x, y = xy(m)
    d1, d2 = m.Func("d1"), m.Func("d2")
    d1[x, y] = (m.u16(inp[2 * x, 2 * y]) + m.u16(inp[2 * x + 1, 2 * y]) + m.u16(inp[2 * x, 2 * y + 1])
                + m.u16(inp[2 * x + 1, 2 * y + 1]) + 2) >> 2
    d2[x, y] = m.u8((d1[2 * x, 2 * y] + d1[2 * x + 1, 2 * y] + d1[2 * x, 2 * y + 1] + d1[2 * x + 1, 2 * y + 1]
                     + 2) >> 2)
    estimate(d2, w, h)
    return d2, {"inp": inp}


def bilinear_up(m, w, h):
    """A bilinear 2x upsample: each output the mean of its two nearest input pixels along x and y (weights 3:1)."""
    inp = u8_input(m)
    x, y = xy(m)
    ux, out = m.Func("ux"), m.Func("bilinear")
    ux[x, y] = m.select(x % 2 == 0, 3 * m.u16(inp[x / 2, y]) + m.u16(inp[x / 2 + 1, y]),
                        m.u16(inp[x / 2, y]) + 3 * m.u16(inp[x / 2 + 1, y]))
    out[x, y] = m.u8(m.select(y % 2 == 0, 3 * ux[x, y / 2] + ux[x, y / 2 + 1],
                              ux[x, y / 2] + 3 * ux[x, y / 2 + 1]) >> 4)
    estimate(out, w, h)
    return out, {"inp": inp}


def sobel_copied(m, w, h):
    """The Sobel magnitude as seed 002 writes an output for the GLB: hw_output computed, the output its copy."""
    mag, images = sobel_mag(m, w, h)
    x, y = xy(m)
    out = m.Func("sobel_out")
    out[x, y] = mag[x, y]
    estimate(out, w, h)
    return out, images


# (algorithm, size, autoscheduler keys)
AUTO = {"up_blur_14x10": (up_blur, (14, 10), {}),
        "up_blur_14x10_l2": (up_blur, (14, 10), {"lanes": "2"}),
        "up_blur_sep_18x8_l2": (up_blur_sep, (18, 8), {"lanes": "2"}),
        "down_up_14x10": (down_up, (14, 10), {}),
        "down_up_14x10_l2": (down_up, (14, 10), {"lanes": "2"}),
        "integral2d_9x5": (integral2d, (9, 5), {}),
        "integral_rc_11x6_l2": (integral_rc, (11, 6), {"lanes": "2"}),
        "diagonal_scan_9x5": (diagonal_scan, (9, 5), {}),
        "diagonal_scan_9x5_l2": (diagonal_scan, (9, 5), {"lanes": "2"}),
        "box_from_integral_9x6_l2": (box_from_integral, (9, 6), {"lanes": "2"}),
        "dog_15x7": (dog, (15, 7), {}),
        "ycbcr_round_trip_11x5_l2": (ycbcr_round_trip, (11, 5), {"lanes": "2"}),
        "normalise_max_13x7_l2": (normalise_max, (13, 7), {"lanes": "2"}),
        "unsharp_17x9_pes40": (unsharp, (17, 9), {"max_pes": "40"}),
        "unsharp_33x9_mem1": (unsharp, (33, 9), {"max_mem_tiles": "1"}),
        "sobel_mag_19x7_l3": (sobel_mag, (19, 7), {"lanes": "3"}),
        "sobel_copied_40x12_glb20x6": (sobel_copied, (40, 12), {"use_glb": "true", "glb_tile": "20x6"}),
        "box5_21x9_l2": (box5, (21, 9), {"lanes": "2"}),
        "box7_rdom_13x7": (box7_rdom, (13, 7), {}),
        "opening_17x7_l2": (opening, (17, 7), {"lanes": "2"}),
        "pyramid2_7x5_l2": (pyramid2, (7, 5), {"lanes": "2"}),
        # ux inlined since autoprobe39 (autoschedule_resampled.py): 22 words for 35 and 130 cycles for 151 at 14x8
        # (20 PEs for 15, 2 memory tiles for 1), 49 words for 90 at 40x8; the image's stream, read at 4 places,
        # holds 5 words over its minimum (21 for 16, 47 for 42)
        "bilinear_up_14x8": (bilinear_up, (14, 8), {}, {"words_over_min": 5}),
        "bilinear_up_40x8_l2": (bilinear_up, (40, 8), {"lanes": "2"}, {"words_over_min": 5})}
