"""Autoprobe22's programs (session 36): image-processing algorithms written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output, {name: ImageParam}) with
estimates set (more in autoprobe22_more.py: reductions over RDoms, channels, several images, other types).

Figures: BENCHMARKS.md "Helper autoprobe22, session 36"."""

from autoprobe22_more import (
    argb_to_rgb,
    argmin_tuple_row,
    channel_swap,
    chroma_up2,
    col_max,
    div_by_image,
    down3_max,
    frame_avg3,
    global_min_sub,
    hist8_weighted,
    i8_scale,
    i32_input_sum,
    interleave_uv,
    lbp_cross,
    mask_select,
    mul_hi,
    per_plane_filters,
    plane_mirror_diff,
    plane_neighbours,
    plane_rotate,
    rdom_count3x3,
    rdom_max5x5,
    rdom_where_ring,
    rgb_chroma,
    rgb_luma_blur,
    row_iir,
    row_mean_sub,
    row_runmax,
    row_total,
    sat_sub,
    ssd3x3,
    two_rates,
    u16_input_top,
    up3_nearest,
    wrap_cast,
)
from probe_common import estimate, u8_input, xy

# line buffers at k lanes hold rows rounded up to whole transfers of k: erode5_sep's 4 rows of 13 at 3 lanes are 4
# rows of 15 (63 words for 55), diag_max5's 4 rows of 17 at 2 lanes 4 rows of 18
WHOLE_TRANSFER_ROWS = 4


def prewitt_mag(m, w, h):
    """Prewitt's derivatives (1 1 1 smoothing), |gx| + |gy| saturated to u8, i16 inside."""
    inp = u8_input(m)
    x, y = xy(m)
    v, out = m.Func("v"), m.Func("prewitt")
    v[x, y] = m.i16(inp[x, y])
    gx = sum(v[x + 2, y + j] - v[x, y + j] for j in range(3))
    gy = sum(v[x + i, y + 2] - v[x + i, y] for i in range(3))
    out[x, y] = m.u8(m.min(m.abs(gx) + m.abs(gy), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def roberts_cross(m, w, h):
    """Roberts' cross: |in(x, y) - in(x + 1, y + 1)| + |in(x + 1, y) - in(x, y + 1)|, saturated."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("roberts")
    d1 = m.u16(m.absd(inp[x, y], inp[x + 1, y + 1]))
    d2 = m.u16(m.absd(inp[x + 1, y], inp[x, y + 1]))
    out[x, y] = m.u8(m.min(d1 + d2, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def compass4(m, w, h):
    """The largest of four directional differences across the centre (horizontal, vertical, two diagonals)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("compass")
    pairs = (((0, 1), (2, 1)), ((1, 0), (1, 2)), ((0, 0), (2, 2)), ((2, 0), (0, 2)))
    d = [m.absd(inp[x + a, y + b], inp[x + c, y + e]) for (a, b), (c, e) in pairs]
    out[x, y] = m.max(m.max(d[0], d[1]), m.max(d[2], d[3]))
    estimate(out, w, h)
    return out, {"inp": inp}


def gauss5_sep(m, w, h):
    """A 5-tap binomial (1 4 6 4 1) along rows then columns, u16 inside, repeat_edge."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp)
    taps = (1, 4, 6, 4, 1)
    rows, out = m.Func("rows"), m.Func("gauss5")
    rows[x, y] = sum(t * m.u16(c[x + k - 2, y]) for k, t in enumerate(taps))
    out[x, y] = m.u8((sum(t * rows[x, y + k - 2] for k, t in enumerate(taps)) + 128) >> 8)
    estimate(out, w, h)
    return out, {"inp": inp}


def box3_twice(m, w, h):
    """A 3x3 box blur applied twice (each u16 sum / 9 back to u8), over the image's interior."""
    inp = u8_input(m)
    x, y = xy(m)
    b1, out = m.Func("b1"), m.Func("b2")
    b1[x, y] = m.u8(sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9)
    out[x, y] = m.u8(sum(m.u16(b1[x + i, y + j]) for i in range(3) for j in range(3)) / 9)
    estimate(out, w, h)
    return out, {"inp": inp}


def midrange3(m, w, h):
    """The midrange of each 3x3 window, (max + min) / 2, its max and min separable Funcs."""
    inp = u8_input(m)
    x, y = xy(m)
    hmax, hmin, out = m.Func("hmax"), m.Func("hmin"), m.Func("midrange")
    hmax[x, y] = m.max(m.max(inp[x, y], inp[x + 1, y]), inp[x + 2, y])
    hmin[x, y] = m.min(m.min(inp[x, y], inp[x + 1, y]), inp[x + 2, y])
    top = m.max(m.max(hmax[x, y], hmax[x, y + 1]), hmax[x, y + 2])
    bottom = m.min(m.min(hmin[x, y], hmin[x, y + 1]), hmin[x, y + 2])
    out[x, y] = m.u8((m.u16(top) + m.u16(bottom)) >> 1)
    estimate(out, w, h)
    return out, {"inp": inp}


def trimmed_mean5(m, w, h):
    """A 1x5 trimmed mean along rows: the sum less the largest and smallest, over 3 (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("trimmed")
    vals = [inp[x + i, y] for i in range(5)]
    hi, lo = vals[0], vals[0]
    for v in vals[1:]:
        hi, lo = m.max(hi, v), m.min(lo, v)
    out[x, y] = m.u8((sum(m.u16(v) for v in vals) - m.u16(hi) - m.u16(lo)) / 3)
    estimate(out, w, h)
    return out, {"inp": inp}


def gamma_sq(m, w, h):
    """A square-law tone curve, v * v / 255 (u16 inside), then a 1x2 mean along the row."""
    inp = u8_input(m)
    x, y = xy(m)
    g, out = m.Func("g"), m.Func("gsq")
    g[x, y] = m.u8(m.u16(inp[x, y]) * m.u16(inp[x, y]) / 255)
    out[x, y] = m.u8((m.u16(g[x, y]) + m.u16(g[x + 1, y]) + 1) >> 1)
    estimate(out, w, h)
    return out, {"inp": inp}


def abs_lap4(m, w, h):
    """The magnitude of the 4-neighbour Laplacian, constant_exterior 0, saturated (i16 inside)."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    out = m.Func("alap")
    lap = 4 * m.i16(c[x, y]) - m.i16(c[x - 1, y]) - m.i16(c[x + 1, y]) - m.i16(c[x, y - 1]) - m.i16(c[x, y + 1])
    out[x, y] = m.u8(m.min(m.abs(lap), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def clamp_coords(m, w, h):
    """A 3x3 cross mean whose reads clamp their coordinates by hand (m.clamp, not a boundary condition)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("cross")

    def at(i, j):
        return m.u16(inp[m.clamp(x + i, 0, w - 1), m.clamp(y + j, 0, h - 1)])

    out[x, y] = m.u8((at(0, 0) * 4 + at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1) + 4) >> 3)
    estimate(out, w, h)
    return out, {"inp": inp}


def bayer_red_nn(m, w, h):
    """An RGGB mosaic's red plane by nearest neighbour at full size: in((x / 2) * 2, (y / 2) * 2)."""
    raw = u8_input(m, "raw")
    x, y = xy(m)
    out = m.Func("red")
    out[x, y] = raw[(x / 2) * 2, (y / 2) * 2]
    estimate(out, w, h)
    return out, {"raw": raw}


def down2_then_blur(m, w, h):
    """Every other pixel each way, then a 3x3 1-2-1 blur at the low rate (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    d, out = m.Func("d"), m.Func("lowblur")
    d[x, y] = inp[2 * x, 2 * y]
    s = sum(m.u16(d[x + i, y + j]) * ((2 - abs(i - 1)) * (2 - abs(j - 1))) for i in range(3) for j in range(3))
    out[x, y] = m.u8((s + 8) >> 4)
    estimate(out, w, h)
    return out, {"inp": inp}


def nearest_up2(m, w, h):
    """A nearest-neighbour upsample by 2 both ways, in(x / 2, y / 2), plus 1 saturated."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("up2")
    out[x, y] = m.u8(m.min(m.u16(inp[x / 2, y / 2]) + 1, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def rotate180(m, w, h):
    """The image turned half a turn: in(w - 1 - x, h - 1 - y)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("turned")
    out[x, y] = inp[w - 1 - x, h - 1 - y]
    estimate(out, w, h)
    return out, {"inp": inp}


def flip_v(m, w, h):
    """The image upside down, in(x, h - 1 - y), halved."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("flipped")
    out[x, y] = inp[x, h - 1 - y] >> 1
    estimate(out, w, h)
    return out, {"inp": inp}


def crop_offset(m, w, h):
    """A window of the image 3 columns and 2 rows in, inverted: 255 - in(x + 3, y + 2)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("crop")
    out[x, y] = 255 - inp[x + 3, y + 2]
    estimate(out, w, h)
    return out, {"inp": inp}


def col_absdiff(m, w, h):
    """The absolute difference down each column, |in(x, y + 1) - in(x, y)|, doubled with saturation."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("vdiff")
    out[x, y] = m.u8(m.min(2 * m.u16(m.absd(inp[x, y + 1], inp[x, y])), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def edge_dilate(m, w, h):
    """Edges (|gx| + |gy| of central differences over 24) as 0 / 255, then dilated by a 3x3 square."""
    inp = u8_input(m)
    x, y = xy(m)
    edge, out = m.Func("edge"), m.Func("thick")
    gx = m.i16(inp[x + 2, y + 1]) - m.i16(inp[x, y + 1])
    gy = m.i16(inp[x + 1, y + 2]) - m.i16(inp[x + 1, y])
    edge[x, y] = m.select(m.abs(gx) + m.abs(gy) > 24, m.u8(255), m.u8(0))
    v = edge[x, y]
    for i in range(3):
        for j in range(3):
            v = m.max(v, edge[x + i, y + j])
    out[x, y] = v
    estimate(out, w, h)
    return out, {"inp": inp}


def structure_trace(m, w, h):
    """The trace of the structure tensor: gx^2 + gy^2 (central differences, i32) summed over 3x3, >> 6, saturated."""
    inp = u8_input(m)
    x, y = xy(m)
    e, out = m.Func("energy"), m.Func("trace")
    gx = m.i32(inp[x + 2, y + 1]) - m.i32(inp[x, y + 1])
    gy = m.i32(inp[x + 1, y + 2]) - m.i32(inp[x + 1, y])
    e[x, y] = gx * gx + gy * gy
    out[x, y] = m.u8(m.min(sum(e[x + i, y + j] for i in range(3) for j in range(3)) >> 6, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def tone_pw(m, w, h):
    """A piecewise-linear tone curve by selects: shadows lifted, mid-tones kept, highlights compressed."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("tone")
    v = m.u16(inp[x, y])
    out[x, y] = m.u8(m.select(v < 64, v * 3 / 2, v < 192, v + 32, 224 + (v - 192) / 2))
    estimate(out, w, h)
    return out, {"inp": inp}


def avg4_round(m, w, h):
    """The rounded mean of the four neighbours by two levels of halving_add's rounding cousin (u16 (a + b + 1) >> 1)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("avg4")

    def ravg(a, b):
        return m.u8((m.u16(a) + m.u16(b) + 1) >> 1)

    out[x, y] = ravg(ravg(inp[x, y + 1], inp[x + 2, y + 1]), ravg(inp[x + 1, y], inp[x + 1, y + 2]))
    estimate(out, w, h)
    return out, {"inp": inp}


def tile_repeat(m, w, h):
    """The image's top-left 4x4 tile repeated: in(x % 4, y % 4)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("tiled")
    out[x, y] = inp[x % 4, y % 4]
    estimate(out, w, h)
    return out, {"inp": inp}


def lerp_blur(m, w, h):
    """The image and its 1x3 blur mixed by a fixed weight with m.lerp (u8 weight 96 of 255)."""
    inp = u8_input(m)
    x, y = xy(m)
    b, out = m.Func("b"), m.Func("mixed")
    b[x, y] = m.u8((m.u16(inp[x, y]) + m.u16(inp[x + 1, y]) + m.u16(inp[x + 2, y])) / 3)
    out[x, y] = m.lerp(inp[x + 1, y], b[x, y], m.u8(96))
    estimate(out, w, h)
    return out, {"inp": inp}


def erode5_sep(m, w, h):
    """An erosion by a 5x5 square as a row min of 5 then a column min of 5, repeat_edge."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp)
    rmin, out = m.Func("rmin"), m.Func("eroded5")
    v = c[x - 2, y]
    for i in range(-1, 3):
        v = m.min(v, c[x + i, y])
    rmin[x, y] = v
    u = rmin[x, y - 2]
    for j in range(-1, 3):
        u = m.min(u, rmin[x, y + j])
    out[x, y] = u
    estimate(out, w, h)
    return out, {"inp": inp}


def edge_preserve(m, w, h):
    """An edge-preserving smooth: the 3x3 box where the local gradient is small, else the pixel itself."""
    inp = u8_input(m)
    x, y = xy(m)
    box, grad, out = m.Func("box"), m.Func("grad"), m.Func("smooth")
    box[x, y] = m.u8(sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9)
    grad[x, y] = m.u16(m.absd(inp[x + 2, y + 1], inp[x, y + 1])) + m.u16(m.absd(inp[x + 1, y + 2], inp[x + 1, y]))
    out[x, y] = m.select(grad[x, y] < 20, box[x, y], inp[x + 1, y + 1])
    estimate(out, w, h)
    return out, {"inp": inp}


def xor_cross(m, w, h):
    """The xor of the four neighbours with the centre."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("xored")
    out[x, y] = inp[x + 1, y + 1] ^ inp[x, y + 1] ^ inp[x + 2, y + 1] ^ inp[x + 1, y] ^ inp[x + 1, y + 2]
    estimate(out, w, h)
    return out, {"inp": inp}


def diag_max5(m, w, h):
    """The largest of 5 pixels along the anti-diagonal through each pixel, over the interior."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("dmax")
    v = inp[x + 4, y]
    for k in range(1, 5):
        v = m.max(v, inp[x + 4 - k, y + k])
    out[x, y] = v
    estimate(out, w, h)
    return out, {"inp": inp}


AUTO = {
    "prewitt_mag_13x7": (prewitt_mag, (13, 7), {}),
    "prewitt_mag_13x7_l2": (prewitt_mag, (13, 7), {"lanes": "2"}),
    "roberts_cross_15x5_l3": (roberts_cross, (15, 5), {"lanes": "3"}),
    "compass4_13x7": (compass4, (13, 7), {}),
    "gauss5_sep_13x9": (gauss5_sep, (13, 9), {}),
    "gauss5_sep_13x9_l2": (gauss5_sep, (13, 9), {"lanes": "2"}),
    "box3_twice_11x7": (box3_twice, (11, 7), {}),
    "midrange3_13x7_l2": (midrange3, (13, 7), {"lanes": "2"}),
    "trimmed_mean5_17x5": (trimmed_mean5, (17, 5), {}),
    "gamma_sq_15x5_l3": (gamma_sq, (15, 5), {"lanes": "3"}),
    "abs_lap4_13x7": (abs_lap4, (13, 7), {}),
    "clamp_coords_13x7": (clamp_coords, (13, 7), {}),
    "bayer_red_nn_12x6": (bayer_red_nn, (12, 6), {}),
    "down2_then_blur_6x4": (down2_then_blur, (6, 4), {}),
    "nearest_up2_14x6": (nearest_up2, (14, 6), {}),
    "rotate180_9x5": (rotate180, (9, 5), {}),
    # read bottom row first: the whole frame and 2 words (57); the minimum, 46, holds 4 rows with the last passing
    # by (a shortfall: BENCHMARKS.md "Helper autoprobe22, session 36")
    "flip_v_11x5": (flip_v, (11, 5), {}, {"words_over_min": 11}),
    "crop_offset_13x5_l2": (crop_offset, (13, 5), {"lanes": "2"}),
    "col_absdiff_11x5_l4": (col_absdiff, (11, 5), {"lanes": "4"}),
    "edge_dilate_13x7": (edge_dilate, (13, 7), {}),
    "structure_trace_13x7": (structure_trace, (13, 7), {}),
    "tone_pw_19x3_l4": (tone_pw, (19, 3), {"lanes": "4"}),
    "avg4_round_13x5": (avg4_round, (13, 5), {}),
    "tile_repeat_12x8": (tile_repeat, (12, 8), {}),
    "lerp_blur_13x5": (lerp_blur, (13, 5), {}),
    "erode5_sep_13x9": (erode5_sep, (13, 9), {}),
    "erode5_sep_13x9_l3": (erode5_sep, (13, 9), {"lanes": "3"}),
    "edge_preserve_13x7": (edge_preserve, (13, 7), {}),
    "xor_cross_13x5": (xor_cross, (13, 5), {}),
    "diag_max5_13x7_l2": (diag_max5, (13, 7), {"lanes": "2"}),
    "frame_avg3_13x5_l2": (frame_avg3, (13, 5), {"lanes": "2"}),
    "mask_select_13x5": (mask_select, (13, 5), {}),
    "sat_sub_17x3_l3": (sat_sub, (17, 3), {"lanes": "3"}),
    "mul_hi_13x5": (mul_hi, (13, 5), {}),
    "div_by_image_11x5": (div_by_image, (11, 5), {}),
    "ssd3x3_11x7": (ssd3x3, (11, 7), {}),
    "row_total_13x5": (row_total, (13, 5), {}),
    "col_max_9x7": (col_max, (9, 7), {}),
    "global_min_sub_11x5": (global_min_sub, (11, 5), {}),
    "hist8_weighted_13x5": (hist8_weighted, (13, 5), {}),
    "row_runmax_13x5": (row_runmax, (13, 5), {}),
    "row_iir_13x5": (row_iir, (13, 5), {}),
    "rdom_count3x3_13x7": (rdom_count3x3, (13, 7), {}),
    "rdom_max5x5_13x9": (rdom_max5x5, (13, 9), {}),
    "rdom_max5x5_13x9_l2": (rdom_max5x5, (13, 9), {"lanes": "2"}),
    "i8_scale_13x5": (i8_scale, (13, 5), {}),
    "u16_input_top_13x5_l2": (u16_input_top, (13, 5), {"lanes": "2"}),
    "wrap_cast_13x5": (wrap_cast, (13, 5), {}),
    "lbp_cross_13x7": (lbp_cross, (13, 7), {}),
    "rgb_chroma_13x5": (rgb_chroma, (13, 5), {}),
    "rgb_luma_blur_13x7": (rgb_luma_blur, (13, 7), {}),
    "channel_swap_11x5": (channel_swap, (11, 5), {}),
    "channel_swap_11x5_l2": (channel_swap, (11, 5), {"lanes": "2"}),
    "argb_to_rgb_13x5": (argb_to_rgb, (13, 5), {}),
    "argb_to_rgb_13x5_l2": (argb_to_rgb, (13, 5), {"lanes": "2"}),
    "plane_mirror_diff_11x5": (plane_mirror_diff, (11, 5), {}),
    "plane_rotate_11x5": (plane_rotate, (11, 5), {}),
    "plane_neighbours_13x5": (plane_neighbours, (13, 5), {}),
    "plane_rotate_11x5_l2": (plane_rotate, (11, 5), {"lanes": "2"}),
    "per_plane_filters_13x5": (per_plane_filters, (13, 5), {}),
    "rdom_where_ring_13x7": (rdom_where_ring, (13, 7), {}),
    "row_mean_sub_13x5": (row_mean_sub, (13, 5), {}),
    "col_max_10x5_l2": (col_max, (10, 5), {"lanes": "2"}),
    "up3_nearest_15x6_l3": (up3_nearest, (15, 6), {"lanes": "3"}),
    "down3_max_5x3": (down3_max, (5, 3), {}),
    "i32_input_sum_11x5": (i32_input_sum, (11, 5), {}),
    "argmin_tuple_row_13x5": (argmin_tuple_row, (13, 5), {}),
    "two_rates_14x5": (two_rates, (14, 5), {}),
    "interleave_uv_14x5": (interleave_uv, (14, 5), {}),
    "chroma_up2_14x6": (chroma_up2, (14, 6), {}),
}
