"""Autoprobe20's programs (session 35): image-processing and signal algorithms written with no schedule, as issue
11's acceptance programs are, each in module m (`mainspring` or `halide`) returning (output, {name: ImageParam})
with estimates set or the output bounded (more in autoprobe20_more.py: channels, 1-D signals, several images).

The findings fixed: an unnamed constant hl.Buffer was named in schedule_source by its counter name (`funcs["b0"]`),
which a fresh copy names otherwise (a KeyError on pasting). Figures: BENCHMARKS.md "Helper autoprobe20, session
35"."""

import numpy as np
from autoprobe20_more import (
    argmin_col,
    bayer_bin_rgb,
    blur_bounded,
    bounded_mid,
    buffer_taps,
    chan_first,
    col_iir,
    conv3x3_2to2_relu,
    conv5_table,
    dilate5_rdom,
    down3,
    false_colour,
    fir5_1d,
    hysteresis_lite,
    iir1_1d,
    masked_mean3,
    maxpool2,
    maxpool3s2,
    median3_frames,
    minmax2_tuple_out,
    normalise_local_max,
    posterise_func,
    row_min,
    sad3x3,
    sobel_diag,
    sobel_xy_outputs,
    split_planes,
    tuple_mixed,
    u16_bin2,
    ycocg_r,
)
from probe_common import estimate, u8_input, xy


def scharr_mag(m, w, h):
    """Scharr's 3-10-3 derivatives, |gx| + |gy| >> 4 saturated to u8 (i16 inside)."""
    inp = u8_input(m)
    x, y = xy(m)
    v, out = m.Func("v"), m.Func("scharr")
    v[x, y] = m.i16(inp[x, y])
    gx = (3 * (v[x + 2, y] - v[x, y]) + 10 * (v[x + 2, y + 1] - v[x, y + 1]) + 3 * (v[x + 2, y + 2] - v[x, y + 2]))
    gy = (3 * (v[x, y + 2] - v[x, y]) + 10 * (v[x + 1, y + 2] - v[x + 1, y]) + 3 * (v[x + 2, y + 2] - v[x + 2, y]))
    out[x, y] = m.u8(m.min((m.i32(m.abs(gx)) + m.i32(m.abs(gy))) >> 4, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def lap8_of_blur(m, w, h):
    """A Laplacian of Gaussian: a 1-2-1 separable blur (u16), then the 8-neighbour Laplacian of it (i16)."""
    inp = u8_input(m)
    x, y = xy(m)
    bx, b, out = m.Func("bx"), m.Func("b"), m.Func("log8")
    bx[x, y] = m.u16(inp[x, y]) + 2 * m.u16(inp[x + 1, y]) + m.u16(inp[x + 2, y])
    b[x, y] = m.i16((bx[x, y] + 2 * bx[x, y + 1] + bx[x, y + 2]) >> 4)
    ring = sum(b[x + i, y + j] for i in range(3) for j in range(3) if (i, j) != (1, 1))
    out[x, y] = 8 * b[x + 1, y + 1] - ring
    estimate(out, w, h)
    return out, {"inp": inp}


def _sort2(m, a, b):
    return m.min(a, b), m.max(a, b)


def median5_row(m, w, h):
    """The median of 5 along each row by a min/max network (Paeth's 7 exchanges), repeat_edge."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp)
    out = m.Func("med5")
    a, b, d, e, f = (c[x + i, y] for i in range(-2, 3))
    a, b = _sort2(m, a, b)
    d, e = _sort2(m, d, e)
    a, d = _sort2(m, a, d)  # a: not the median
    b, e = _sort2(m, b, e)  # e: not the median
    b, f = _sort2(m, b, f)
    d, f = m.min(d, f), m.max(d, f)
    out[x, y] = m.max(m.min(b, f), m.min(m.max(b, f), d))
    estimate(out, w, h)
    return out, {"inp": inp}


def median3_col(m, w, h):
    """The median of 3 down each column, max(min(a, b), min(max(a, b), c)), over the image's interior."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("med3v")
    a, b, c = inp[x, y], inp[x, y + 1], inp[x, y + 2]
    out[x, y] = m.max(m.min(a, b), m.min(m.max(a, b), c))
    estimate(out, w, h)
    return out, {"inp": inp}


RANGE = np.array([64, 60, 52, 42, 32, 23, 16, 10, 6, 4, 2, 1, 1, 0, 0, 0], dtype=np.uint8)


def range_weights_row(m, w, h):
    """A bilateral-like 1x3 filter: each neighbour weighted by a table of its difference to the centre (a constant
    Buffer of 16 weights at |d| >> 4), normalised by the weights' sum (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    table = m.Buffer(RANGE, "range_w")
    wt, out = m.Func("wt"), m.Func("bilat")
    wt[x, y] = m.u16(table[m.i32(m.absd(inp[x, y], inp[x + 1, y]) >> 4)])
    c = m.u16(inp[x + 1, y])
    wl, wr = wt[x, y], wt[x + 1, y]
    out[x, y] = m.u8((64 * c + wl * m.u16(inp[x, y]) + wr * m.u16(inp[x + 2, y])) / (64 + wl + wr))
    estimate(out, w, h)
    return out, {"inp": inp}


def unnamed_table(m, w, h):
    """A 16-entry tone table from a constant Buffer made with no name, read at the pixel's top 4 bits: its name
    comes from a counter, which a fresh copy of the algorithm takes further (the KeyError fixed)."""
    inp = u8_input(m)
    x, y = xy(m)
    table = m.Buffer(RANGE[::-1].copy() * 3)
    out = m.Func("toned")
    out[x, y] = table[m.i32(inp[x, y] >> 4)] + (inp[x, y] & 15)
    estimate(out, w, h)
    return out, {"inp": inp}


def close_cross(m, w, h):
    """A morphological closing by a 3x3 cross: dilate, then erode, constant_exterior 0."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    dil, out = m.Func("dil"), m.Func("closed")
    dil[x, y] = m.max(m.max(c[x, y], c[x - 1, y]), m.max(c[x + 1, y], m.max(c[x, y - 1], c[x, y + 1])))
    out[x, y] = m.min(m.min(dil[x, y], dil[x - 1, y]), m.min(dil[x + 1, y], m.min(dil[x, y - 1], dil[x, y + 1])))
    estimate(out, w, h)
    return out, {"inp": inp}


def open_close_rows(m, w, h):
    """An opening then a closing by a 1x3 segment along rows: four min/max stages chained."""
    inp = u8_input(m)
    x, y = xy(m)
    e1, d1, d2, out = m.Func("e1"), m.Func("d1"), m.Func("d2"), m.Func("oc")
    e1[x, y] = m.min(inp[x, y], inp[x + 1, y], inp[x + 2, y])
    d1[x, y] = m.max(e1[x, y], e1[x + 1, y], e1[x + 2, y])
    d2[x, y] = m.max(d1[x, y], d1[x + 1, y], d1[x + 2, y])
    out[x, y] = m.min(d2[x, y], d2[x + 1, y], d2[x + 2, y])
    estimate(out, w, h)
    return out, {"inp": inp}


def diff_of_boxes(m, w, h):
    """A 3x3 box mean minus a 5x5 box mean (i16), both of the same u16 copy, over the interior."""
    inp = u8_input(m)
    x, y = xy(m)
    v, out = m.Func("v"), m.Func("dob")
    v[x, y] = m.u16(inp[x, y])
    small = sum(v[x + 1 + i, y + 1 + j] for i in range(3) for j in range(3)) / 9
    big = sum(v[x + i, y + j] for i in range(5) for j in range(5)) / 25
    out[x, y] = m.i16(small) - m.i16(big)
    estimate(out, w, h)
    return out, {"inp": inp}


def rank3x3(m, w, h):
    """A local histogram piece: how many of the 3x3 neighbours lie below the centre (0..8), scaled by 32."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("rank")
    centre = inp[x + 1, y + 1]
    count = sum(m.select(inp[x + i, y + j] < centre, m.u8(1), m.u8(0)) for i in range(3) for j in range(3)
                if (i, j) != (1, 1))
    out[x, y] = m.u8(m.min(m.u16(count) * 32, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def col_cumsum_sq(m, w, h):
    """An integral of squares down each column (u32), by an RDom scan over y."""
    inp = u8_input(m)
    x, y = xy(m)
    s = m.Func("sqsum")
    s[x, y] = m.u32(inp[x, y]) * m.u32(inp[x, y])
    r = m.RDom([(1, h - 1)], "r")
    s[x, r.x] = s[x, r.x - 1] + m.u32(inp[x, r.x]) * m.u32(inp[x, r.x])
    estimate(s, w, h)
    return s, {"inp": inp}


def fir9_tri(m, w, h):
    """A 9-tap triangular filter along rows (1 2 3 4 5 4 3 2 1, sum 25), u16 inside, mirror_interior."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.mirror_interior(inp)
    out = m.Func("tri9")
    out[x, y] = m.u8(sum((5 - abs(k)) * m.u16(c[x + k, y]) for k in range(-4, 5)) / 25)
    estimate(out, w, h)
    return out, {"inp": inp}


def fir11_col(m, w, h):
    """An 11-tap vertical binomial-like filter from an RDom (weights 6 - |r - 5|), u16, over the interior."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 11)], "t")
    acc, out = m.Func("acc"), m.Func("v11")
    acc[x, y] = m.u16(0)
    acc[x, y] += m.u16(inp[x, y + r.x]) * m.u16(6 - m.abs(r.x - 5))
    out[x, y] = m.u8(acc[x, y] / 36)
    estimate(out, w, h)
    return out, {"inp": inp}


def sep7_binomial(m, w, h):
    """A 7-tap binomial (1 6 15 20 15 6 1) rows then columns, u32 inside, clamped reads (repeat_edge)."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp)
    taps = (1, 6, 15, 20, 15, 6, 1)
    rows, out = m.Func("rows"), m.Func("bin7")
    rows[x, y] = sum(t * m.u32(c[x + k - 3, y]) for k, t in enumerate(taps))
    out[x, y] = m.u8((sum(t * rows[x, y + k - 3] for k, t in enumerate(taps)) + 2048) >> 12)
    estimate(out, w, h)
    return out, {"inp": inp}


def gauss_pyr3(m, w, h):
    """Three levels of a Gaussian pyramid: each a 1-2-1 blur (both ways) sampled at even pixels (u16 sums)."""
    inp = u8_input(m)
    x, y = xy(m)
    prev = inp
    levels = [m.Func(f"g{k}") for k in range(3)]
    for f in levels:
        s = sum(m.u16(prev[2 * x + i, 2 * y + j]) * ((2 - abs(i - 1)) * (2 - abs(j - 1))) for i in range(3)
                for j in range(3))
        f[x, y] = m.u8((s + 8) >> 4)
        prev = f
    estimate(levels[-1], w, h)
    return levels[-1], {"inp": inp}


SHIFTS = np.array([0, 1, 3, 2, 0, 2, 1, 3, 0, 1, 2, 3], dtype=np.uint8)


def row_shift_table(m, w, h):
    """A warp by a constant table: each row shifted left by its entry of a named Buffer (0..3), clamped."""
    inp = u8_input(m)
    x, y = xy(m)
    shifts = m.Buffer(SHIFTS, "shifts")
    out = m.Func("warped")
    out[x, y] = inp[m.min(x + m.i32(shifts[y]), w - 1), y]
    estimate(out, w, h)
    return out, {"inp": inp}


def lut_interp(m, w, h):
    """A 17-entry curve computed as a Func (a cube law), interpolated linearly between entries by the low 4 bits."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    lut, out = m.Func("knots"), m.Func("interp")
    lut[i] = m.u16(m.min(m.u32(i * 16) * m.u32(i * 16) * m.u32(i * 16) / 65025, 255))
    v = inp[x, y]
    k, f = m.i32(v >> 4), m.u16(v & 15)
    out[x, y] = m.u8((lut[k] * (16 - f) + lut[k + 1] * f) >> 4)
    estimate(out, w, h)
    return out, {"inp": inp}


def unsharp_thresh(m, w, h):
    """Unsharp masking with a threshold: the 3x3 box's detail added twice where it exceeds 8 in magnitude."""
    inp = u8_input(m)
    x, y = xy(m)
    box, out = m.Func("box"), m.Func("usm")
    box[x, y] = m.i16(sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9)
    detail = m.i16(inp[x + 1, y + 1]) - box[x, y]
    out[x, y] = m.u8(m.clamp(m.select(m.abs(detail) > 8, m.i16(inp[x + 1, y + 1]) + 2 * detail,
                                      m.i16(inp[x + 1, y + 1])), 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def emboss_diag(m, w, h):
    """An emboss along the diagonal: in(x + 2, y + 2) - in(x, y) + 128, clamped (i16 inside)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("emboss")
    out[x, y] = m.u8(m.clamp(m.i16(inp[x + 2, y + 2]) - m.i16(inp[x, y]) + 128, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def motion_mask(m, w, h):
    """Two frames' absolute difference over 20 as a mask, then eroded by a 3x3 square (min of 9)."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    mask, out = m.Func("mask"), m.Func("eroded")
    mask[x, y] = m.select(m.absd(a[x, y], b[x, y]) > 20, m.u8(255), m.u8(0))
    v = mask[x, y]
    for i in range(3):
        for j in range(3):
            v = m.min(v, mask[x + i, y + j])
    out[x, y] = v
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def grad_orient4(m, w, h):
    """A gradient's orientation in 4 bins (0, 45, 90, 135 degrees) from central differences, by comparisons."""
    inp = u8_input(m)
    x, y = xy(m)
    gx, gy, out = m.Func("gx"), m.Func("gy"), m.Func("orient")
    gx[x, y] = m.i16(inp[x + 2, y + 1]) - m.i16(inp[x, y + 1])
    gy[x, y] = m.i16(inp[x + 1, y + 2]) - m.i16(inp[x + 1, y])
    ax, ay = m.abs(gx[x, y]), m.abs(gy[x, y])
    same = (gx[x, y] > 0) == (gy[x, y] > 0)
    out[x, y] = m.select(2 * ay < ax, m.u8(0), 2 * ax < ay, m.u8(2), same, m.u8(1), m.u8(3))
    estimate(out, w, h)
    return out, {"inp": inp}


def peaks_row(m, w, h):
    """Non-maximum suppression along rows: a pixel kept where it exceeds both neighbours, else 0."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("peaks")
    c = inp[x + 1, y]
    out[x, y] = m.select((c > inp[x, y]) & (c > inp[x + 2, y]), c, m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def checker_mix(m, w, h):
    """Two images interleaved on a checkerboard: select((x + y) % 2 == 0, a, b)."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    out = m.Func("checker")
    out[x, y] = m.select((x + y) % 2 == 0, a[x, y], b[x, y])
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def local_contrast(m, w, h):
    """Local contrast: (v - 3x3 mean) * 2 + 128, clamped, the mean a separable sum (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    rs, out = m.Func("rs"), m.Func("contrast")
    rs[x, y] = m.u16(inp[x, y]) + m.u16(inp[x + 1, y]) + m.u16(inp[x + 2, y])
    mean = m.i16((rs[x, y] + rs[x, y + 1] + rs[x, y + 2]) / 9)
    out[x, y] = m.u8(m.clamp((m.i16(inp[x + 1, y + 1]) - mean) * 2 + 128, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def bitplane7(m, w, h):
    """Bit-plane slicing: the top bit as 0 / 255, and the next as 0 / 127 (a u8 sum)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("planes")
    v = inp[x, y]
    out[x, y] = (v >> 7) * m.u8(128) + ((v >> 6) & 1) * m.u8(127)
    estimate(out, w, h)
    return out, {"inp": inp}


def gray_code(m, w, h):
    """The Gray code of each pixel, v ^ (v >> 1), xored with its right neighbour's."""
    inp = u8_input(m)
    x, y = xy(m)
    g, out = m.Func("g"), m.Func("gdiff")
    g[x, y] = inp[x, y] ^ (inp[x, y] >> 1)
    out[x, y] = g[x, y] ^ g[x + 1, y]
    estimate(out, w, h)
    return out, {"inp": inp}


def popcount8(m, w, h):
    """The number of set bits of each pixel, by adds of its shifted bits, times 31."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("bits")
    out[x, y] = sum((inp[x, y] >> k) & 1 for k in range(8)) * m.u8(31)
    estimate(out, w, h)
    return out, {"inp": inp}


def sat_add(m, w, h):
    """Two images added with saturation: u8(min(u16(a) + u16(b), 255))."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    out = m.Func("sat")
    out[x, y] = m.u8(m.min(m.u16(a[x, y]) + m.u16(b[x, y]), 255))
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def transpose(m, w, h):
    """The image transposed: out(x, y) = in(y, x)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("transposed")
    out[x, y] = inp[y, x]
    estimate(out, w, h)
    return out, {"inp": inp}


def hdown2_121(m, w, h):
    """A 1-2-1 filter along rows sampled at even columns: half the width, full height."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("hdown")
    out[x, y] = m.u8((m.u16(inp[2 * x, y]) + 2 * m.u16(inp[2 * x + 1, y]) + m.u16(inp[2 * x + 2, y]) + 2) >> 2)
    estimate(out, w, h)
    return out, {"inp": inp}


def hup2_linear(m, w, h):
    """A linear upsample by 2 along rows: even columns copy, odd ones average two neighbours."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("hup")
    a, b = m.u16(inp[x / 2, y]), m.u16(inp[x / 2 + 1, y])
    out[x, y] = m.u8(m.select(x % 2 == 0, a, (a + b + 1) >> 1))
    estimate(out, w, h)
    return out, {"inp": inp}


AUTO = {
    "scharr_mag_13x7": (scharr_mag, (13, 7), {}),
    "scharr_mag_13x7_l2": (scharr_mag, (13, 7), {"lanes": "2"}),
    "lap8_of_blur_11x7": (lap8_of_blur, (11, 7), {}),
    "median5_row_15x5_l3": (median5_row, (15, 5), {"lanes": "3"}),
    "median3_col_9x7": (median3_col, (9, 7), {}),
    "range_weights_row_13x5": (range_weights_row, (13, 5), {}),
    "close_cross_13x7": (close_cross, (13, 7), {}),
    "close_cross_13x7_l2": (close_cross, (13, 7), {"lanes": "2"}),
    "open_close_rows_17x5_l2": (open_close_rows, (17, 5), {"lanes": "2"}),
    "diff_of_boxes_11x9": (diff_of_boxes, (11, 9), {}),
    "rank3x3_13x7": (rank3x3, (13, 7), {}),
    "col_cumsum_sq_9x5": (col_cumsum_sq, (9, 5), {}),
    "col_cumsum_sq_9x5_l3": (col_cumsum_sq, (9, 5), {"lanes": "3"}),
    "fir9_tri_17x5": (fir9_tri, (17, 5), {}),
    "fir9_tri_17x5_l2": (fir9_tri, (17, 5), {"lanes": "2"}),
    "fir11_col_7x5": (fir11_col, (7, 5), {}),
    "sep7_binomial_13x9": (sep7_binomial, (13, 9), {}),
    "gauss_pyr3_3x2": (gauss_pyr3, (3, 2), {}),
    "row_shift_table_13x12": (row_shift_table, (13, 12), {}),
    "lut_interp_15x5": (lut_interp, (15, 5), {}),
    "unsharp_thresh_13x7": (unsharp_thresh, (13, 7), {}),
    "emboss_diag_19x5_l3": (emboss_diag, (19, 5), {"lanes": "3"}),
    "motion_mask_13x7": (motion_mask, (13, 7), {}),
    "grad_orient4_13x7": (grad_orient4, (13, 7), {}),
    "peaks_row_21x3_l4": (peaks_row, (21, 3), {"lanes": "4"}),
    "checker_mix_13x5_l2": (checker_mix, (13, 5), {"lanes": "2"}),
    "local_contrast_15x7": (local_contrast, (15, 7), {}),
    "bitplane7_23x3_l4": (bitplane7, (23, 3), {"lanes": "4"}),
    "gray_code_11x5": (gray_code, (11, 5), {}),
    "popcount8_13x5": (popcount8, (13, 5), {}),
    "sat_add_17x3_l3": (sat_add, (17, 3), {"lanes": "3"}),
    "transpose_7x9": (transpose, (7, 9), {}),
    "hdown2_121_9x5": (hdown2_121, (9, 5), {}),
    "hup2_linear_14x5": (hup2_linear, (14, 5), {}),
    "masked_mean3_13x7": (masked_mean3, (13, 7), {}),
    "normalise_local_max_11x7": (normalise_local_max, (11, 7), {}),
    "sobel_diag_13x7": (sobel_diag, (13, 7), {}),
    "row_min_11x5": (row_min, (11, 5), {}),
    "col_iir_9x7": (col_iir, (9, 7), {}),
    "dilate5_rdom_11x9": (dilate5_rdom, (11, 9), {}),
    "hysteresis_lite_13x7": (hysteresis_lite, (13, 7), {}),
    "conv5_table_9x7": (conv5_table, (9, 7), {}),
    "conv5_table_9x7_pes40": (conv5_table, (9, 7), {"max_pes": "40"}),
    "u16_bin2_7x4_l2": (u16_bin2, (7, 4), {"lanes": "2"}),
    "sobel_xy_outputs_13x7": (sobel_xy_outputs, (13, 7), {}),
    "minmax2_tuple_out_13x5": (minmax2_tuple_out, (13, 5), {}),
    "blur_bounded_13x7": (blur_bounded, (13, 7), {}),
    "blur_bounded_13x7_mem1": (blur_bounded, (13, 7), {"max_mem_tiles": "1"}),
    "ycocg_r_13x5": (ycocg_r, (13, 5), {}),
    "bayer_bin_rgb_6x4": (bayer_bin_rgb, (6, 4), {}),
    "false_colour_13x5": (false_colour, (13, 5), {}),
    "split_planes_11x5": (split_planes, (11, 5), {}),
    "fir5_1d_37": (fir5_1d, (37, 1), {}),
    "fir5_1d_37_l2": (fir5_1d, (37, 1), {"lanes": "2"}),
    "iir1_1d_29": (iir1_1d, (29, 1), {}),
    "conv3x3_2to2_relu_7x5": (conv3x3_2to2_relu, (7, 5), {}),
    "maxpool2_6x4": (maxpool2, (6, 4), {}),
    "maxpool3s2_6x4": (maxpool3s2, (6, 4), {}),
    "median3_frames_13x5_l2": (median3_frames, (13, 5), {"lanes": "2"}),
    "sad3x3_11x7": (sad3x3, (11, 7), {}),
    "lap8_of_blur_11x7_l2": (lap8_of_blur, (11, 7), {"lanes": "2"}),
    "range_weights_row_13x5_l2": (range_weights_row, (13, 5), {"lanes": "2"}),
    "diff_of_boxes_11x9_l3": (diff_of_boxes, (11, 9), {"lanes": "3"}),
    "sep7_binomial_13x9_l2": (sep7_binomial, (13, 9), {"lanes": "2"}),
    "sep7_binomial_13x9_pes47": (sep7_binomial, (13, 9), {"max_pes": "47"}),
    # 2 lanes at the output are 16 at the image (an eighth of its rate): rows held in whole transfers of 16 (160
    # words for 130 of the image, 64 for 50 of g0)
    "gauss_pyr3_3x2_l2": (gauss_pyr3, (3, 2), {"lanes": "2"}, {"words_over_min": 30}),
    "row_shift_table_13x12_l2": (row_shift_table, (13, 12), {"lanes": "2"}),
    "lut_interp_15x5_l2": (lut_interp, (15, 5), {"lanes": "2"}),
    "transpose_7x9_l2": (transpose, (7, 9), {"lanes": "2"}),
    "hup2_linear_14x5_l2": (hup2_linear, (14, 5), {"lanes": "2"}),
    "masked_mean3_13x7_l2": (masked_mean3, (13, 7), {"lanes": "2"}),
    "normalise_local_max_11x7_l3": (normalise_local_max, (11, 7), {"lanes": "3"}),
    "col_iir_9x7_l3": (col_iir, (9, 7), {"lanes": "3"}),
    "conv5_table_9x7_l2": (conv5_table, (9, 7), {"lanes": "2"}),
    "u16_bin2_7x4_l4": (u16_bin2, (7, 4), {"lanes": "4"}),
    "sobel_xy_outputs_13x7_l2": (sobel_xy_outputs, (13, 7), {"lanes": "2"}),
    "minmax2_tuple_out_13x5_l3": (minmax2_tuple_out, (13, 5), {"lanes": "3"}),
    "blur_bounded_13x7_l2": (blur_bounded, (13, 7), {"lanes": "2"}),
    "ycocg_r_13x5_l2": (ycocg_r, (13, 5), {"lanes": "2"}),
    "split_planes_11x5_l2": (split_planes, (11, 5), {"lanes": "2"}),
    "fir5_1d_37_l4": (fir5_1d, (37, 1), {"lanes": "4"}),
    "iir1_1d_29_l2": (iir1_1d, (29, 1), {"lanes": "2"}),
    "conv3x3_2to2_relu_7x5_pes50": (conv3x3_2to2_relu, (7, 5), {"max_pes": "50"}),
    # relu, computed by the host, streams 4 pixels a transfer: its rows of 13 held as 16 (40 words for 34)
    "maxpool3s2_6x4_l2": (maxpool3s2, (6, 4), {"lanes": "2"}, {"words_over_min": 6}),
    "fir9_tri_34x6_mem1": (fir9_tri, (34, 6), {"max_mem_tiles": "1"}),
    "close_cross_13x7_l4": (close_cross, (13, 7), {"lanes": "4"}),
    "open_close_rows_17x5_mem1": (open_close_rows, (17, 5), {"max_mem_tiles": "1"}),
    "tuple_mixed_13x5_l2": (tuple_mixed, (13, 5), {"lanes": "2"}),
    "chan_first_11x5_l2": (chan_first, (11, 5), {"lanes": "2"}),
    "bounded_mid_11x5_l2": (bounded_mid, (11, 5), {"lanes": "2"}),
    "buffer_taps_13x5_l2": (buffer_taps, (13, 5), {"lanes": "2"}),
    "down3_4x3_l2": (down3, (4, 3), {"lanes": "2"}),
    "argmin_col_9x5": (argmin_col, (9, 5), {}),
    "posterise_func_15x5_l4": (posterise_func, (15, 5), {"lanes": "4"}),
}
