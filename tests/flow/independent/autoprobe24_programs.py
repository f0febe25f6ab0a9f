"""Autoprobe24's programs (session 38): image-processing algorithms written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output, {name: ImageParam}) with
estimates set. Stencils, pointwise chains, up and down samples here; reductions, histograms, Tuples, several
outputs and channels in autoprobe24_more.py. The AUTO dict (algorithm, size, autoscheduler keys[, bounds]) is
test_autoprobe24.py's.

Figures: BENCHMARKS.md "Helper autoprobe24, session 38"."""

from autoprobe24_more import MORE
from probe_common import estimate, u8_input, xy

# line buffers at k lanes hold rows rounded up to whole transfers of k
WHOLE_TRANSFER_ROWS = 4


def laplace5(m, w, h):
    """The 5-point Laplacian's magnitude, |4 c - n - s - e - w| saturated to u8 (i16 inside)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("lap5")

    def v(i, j):
        return m.i16(inp[x + i, y + j])

    lap = 4 * v(1, 1) - v(1, 0) - v(1, 2) - v(0, 1) - v(2, 1)
    out[x, y] = m.u8(m.min(m.abs(lap), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def sharpen3(m, w, h):
    """Unsharp masking by a 3x3 box: 2 c - box, clamped to u8, the box a Func of its own (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    box, out = m.Func("box"), m.Func("sharp")
    box[x, y] = sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9
    out[x, y] = m.u8(m.clamp(2 * m.i16(inp[x + 1, y + 1]) - m.i16(box[x, y]), 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def sobel_thresh(m, w, h):
    """Sobel's |gx| + |gy| against a threshold of 96: 255 on an edge, 0 elsewhere."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("edges")

    def v(i, j):
        return m.i16(inp[x + i, y + j])

    gx = v(2, 0) + 2 * v(2, 1) + v(2, 2) - v(0, 0) - 2 * v(0, 1) - v(0, 2)
    gy = v(0, 2) + 2 * v(1, 2) + v(2, 2) - v(0, 0) - 2 * v(1, 0) - v(2, 0)
    out[x, y] = m.select(m.abs(gx) + m.abs(gy) > 96, m.u8(255), m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def dog3_5(m, w, h):
    """A difference of boxes, 3x3 less 5x5 (both u16 means), offset by 128 and clamped, over the interior."""
    inp = u8_input(m)
    x, y = xy(m)
    small, large, out = m.Func("small"), m.Func("large"), m.Func("dog")
    small[x, y] = sum(m.u16(inp[x + i, y + j]) for i in range(1, 4) for j in range(1, 4)) / 9
    large[x, y] = sum(m.u16(inp[x + i, y + j]) for i in range(5) for j in range(5)) / 25
    out[x, y] = m.u8(m.clamp(m.i16(small[x, y]) - m.i16(large[x, y]) + 128, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def emboss(m, w, h):
    """An emboss along the diagonal: in(x + 2, y + 2) - in(x, y) + 128, clamped (i16 inside)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("emboss")
    out[x, y] = m.u8(m.clamp(m.i16(inp[x + 2, y + 2]) - m.i16(inp[x, y]) + 128, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def open3(m, w, h):
    """A morphological opening: a 3x3 erosion then a 3x3 dilation of it, each separable (four Funcs)."""
    inp = u8_input(m)
    x, y = xy(m)
    ex, ey, dx, out = m.Func("ex"), m.Func("ey"), m.Func("dx"), m.Func("opened")
    ex[x, y] = m.min(m.min(inp[x, y], inp[x + 1, y]), inp[x + 2, y])
    ey[x, y] = m.min(m.min(ex[x, y], ex[x, y + 1]), ex[x, y + 2])
    dx[x, y] = m.max(m.max(ey[x, y], ey[x + 1, y]), ey[x + 2, y])
    out[x, y] = m.max(m.max(dx[x, y], dx[x, y + 1]), dx[x, y + 2])
    estimate(out, w, h)
    return out, {"inp": inp}


def grad_quadrant(m, w, h):
    """The quadrant of the central-difference gradient, 0 to 3 by the signs of gx and gy, times 64."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("quad")
    gx = m.i16(inp[x + 2, y + 1]) - m.i16(inp[x, y + 1])
    gy = m.i16(inp[x + 1, y + 2]) - m.i16(inp[x + 1, y])
    q = m.select(gx >= 0, m.select(gy >= 0, 0, 3), m.select(gy >= 0, 1, 2))
    out[x, y] = m.u8(q * 64)
    estimate(out, w, h)
    return out, {"inp": inp}


def box5_sep(m, w, h):
    """A 5x5 box by rows then columns (u16 sums), divided by 25, over the interior."""
    inp = u8_input(m)
    x, y = xy(m)
    rows, out = m.Func("rows5"), m.Func("box5")
    rows[x, y] = sum(m.u16(inp[x + i, y]) for i in range(5))
    out[x, y] = m.u8(sum(rows[x, y + j] for j in range(5)) / 25)
    estimate(out, w, h)
    return out, {"inp": inp}


def local_contrast3(m, w, h):
    """Each 3x3 window's max less its min, the max and min as Funcs of their own."""
    inp = u8_input(m)
    x, y = xy(m)
    hi, lo, out = m.Func("hi"), m.Func("lo"), m.Func("contrast")
    taps = [(i, j) for i in range(3) for j in range(3)]
    mx, mn = inp[x, y], inp[x, y]
    for i, j in taps[1:]:
        mx, mn = m.max(mx, inp[x + i, y + j]), m.min(mn, inp[x + i, y + j])
    hi[x, y], lo[x, y] = mx, mn
    out[x, y] = hi[x, y] - lo[x, y]
    estimate(out, w, h)
    return out, {"inp": inp}


def sigma3(m, w, h):
    """A sigma filter along the row: the mean of the 1x3 neighbours within 20 of the centre (the centre counts)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("sigma")
    c = m.i16(inp[x + 1, y])
    total, count = m.u16(inp[x + 1, y]), m.u16(1)
    for i in (0, 2):
        v = m.i16(inp[x + i, y])
        near = m.abs(v - c) <= 20
        total = total + m.select(near, m.u16(inp[x + i, y]), m.u16(0))
        count = count + m.select(near, m.u16(1), m.u16(0))
    out[x, y] = m.u8(total / count)
    estimate(out, w, h)
    return out, {"inp": inp}


def census3(m, w, h):
    """A 3x3 census transform: one bit for each of the 8 neighbours below the centre."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("census")
    c = inp[x + 1, y + 1]
    ring = [(i, j) for j in range(3) for i in range(3) if (i, j) != (1, 1)]
    out[x, y] = sum(m.select(inp[x + i, y + j] < c, m.u8(1 << k), m.u8(0)) for k, (i, j) in enumerate(ring))
    estimate(out, w, h)
    return out, {"inp": inp}


def blur121_edge(m, w, h):
    """A 1-2-1 blur down the columns then along the rows over repeat_edge (u16 inside)."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp)
    by, out = m.Func("by"), m.Func("b121")
    by[x, y] = m.u16(c[x, y - 1]) + 2 * m.u16(c[x, y]) + m.u16(c[x, y + 1])
    out[x, y] = m.u8((by[x - 1, y] + 2 * by[x, y] + by[x + 1, y] + 8) >> 4)
    estimate(out, w, h)
    return out, {"inp": inp}


def box3_zero_pad(m, w, h):
    """A 3x3 box over constant_exterior(in, 0): the border's windows count zeros (u16 / 9)."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    out = m.Func("box0")
    out[x, y] = m.u8(sum(m.u16(c[x + i, y + j]) for i in range(-1, 2) for j in range(-1, 2)) / 9)
    estimate(out, w, h)
    return out, {"inp": inp}


def blur_mirror(m, w, h):
    """A 3x3 binomial over mirror_image (u16 inside, rounded)."""
    inp = u8_input(m)
    x, y = xy(m)
    c = m.BoundaryConditions.mirror_image(inp)
    out = m.Func("bmirror")
    k = (1, 2, 1)
    out[x, y] = m.u8((sum(k[i] * k[j] * m.u16(c[x + i - 1, y + j - 1]) for i in range(3) for j in range(3)) + 8)
                     >> 4)
    estimate(out, w, h)
    return out, {"inp": inp}


def high_boost(m, w, h):
    """High-boost: the centre plus 3/2 of its difference from a 1x3 row mean, then a gamma-ish square, clamped."""
    inp = u8_input(m)
    x, y = xy(m)
    mean, boost, out = m.Func("mean"), m.Func("boost"), m.Func("hboost")
    mean[x, y] = (m.i16(inp[x, y]) + m.i16(inp[x + 1, y]) + m.i16(inp[x + 2, y])) / 3
    boost[x, y] = m.clamp(m.i16(inp[x + 1, y]) + (3 * (m.i16(inp[x + 1, y]) - mean[x, y])) / 2, 0, 255)
    out[x, y] = m.u8((boost[x, y] * boost[x, y]) / 255)
    estimate(out, w, h)
    return out, {"inp": inp}


def harris_lite(m, w, h):
    """A Harris-like corner score on central differences (/ 4): det - (trace / 16)^2 of 3x3 sums (i32, no
    overflow: Halide leaves i32's undefined), >> 10, clamped."""
    inp = u8_input(m)
    x, y = xy(m)
    gx, gy, out = m.Func("gx"), m.Func("gy"), m.Func("corner")
    gx[x, y] = (m.i32(inp[x + 2, y + 1]) - m.i32(inp[x, y + 1])) >> 2
    gy[x, y] = (m.i32(inp[x + 1, y + 2]) - m.i32(inp[x + 1, y])) >> 2
    sxx = sum(gx[x + i, y + j] * gx[x + i, y + j] for i in range(3) for j in range(3))
    syy = sum(gy[x + i, y + j] * gy[x + i, y + j] for i in range(3) for j in range(3))
    sxy = sum(gx[x + i, y + j] * gy[x + i, y + j] for i in range(3) for j in range(3))
    trace = (sxx + syy) >> 4
    score = (sxx * syy - sxy * sxy) - trace * trace
    out[x, y] = m.u8(m.clamp(score >> 10, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def diag_blur(m, w, h):
    """A blur along the main diagonal, the mean of in(x + i, y + i) for i < 4 (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("diag")
    out[x, y] = m.u8((sum(m.u16(inp[x + i, y + i]) for i in range(4)) + 2) >> 2)
    estimate(out, w, h)
    return out, {"inp": inp}


def fir7_col(m, w, h):
    """A 7-tap FIR down the columns (1 2 3 4 3 2 1, u16), / 16."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("fir7c")
    taps = (1, 2, 3, 4, 3, 2, 1)
    out[x, y] = m.u8(sum(t * m.u16(inp[x, y + k]) for k, t in enumerate(taps)) >> 4)
    estimate(out, w, h)
    return out, {"inp": inp}


def fir7_row(m, w, h):
    """A 7-tap FIR along the rows with signed taps (-1 0 9 16 9 0 -1), i16 inside, / 32 clamped."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("fir7r")
    taps = (-1, 0, 9, 16, 9, 0, -1)
    s = sum(t * m.i16(inp[x + k, y]) for k, t in enumerate(taps) if t)
    out[x, y] = m.u8(m.clamp((s + 16) >> 5, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def contrast_stretch(m, w, h):
    """Video range to full range: (v - 16) * 255 / 219, clamped (i32 inside)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("full")
    out[x, y] = m.u8(m.clamp((m.i32(inp[x, y]) - 16) * 255 / 219, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def tone_knee(m, w, h):
    """A three-segment tone curve by select: shadows lifted, midtones kept, highlights compressed."""
    inp = u8_input(m)
    x, y = xy(m)
    lin, out = m.Func("lin"), m.Func("knee")
    lin[x, y] = m.u16(inp[x, y])
    v = lin[x, y]
    out[x, y] = m.u8(m.select(v < 64, v * 3 / 2, v < 192, v + 32, 224 + (v - 192) / 2))
    estimate(out, w, h)
    return out, {"inp": inp}


def band_pass(m, w, h):
    """Pixels within [lo, hi] = [40, 200] kept, others 0, then doubled halfway: a chain of three Funcs."""
    inp = u8_input(m)
    x, y = xy(m)
    band, scaled, out = m.Func("band"), m.Func("scaled"), m.Func("bp")
    band[x, y] = m.select((inp[x, y] >= 40) & (inp[x, y] <= 200), inp[x, y], m.u8(0))
    scaled[x, y] = m.u16(band[x, y]) * 3
    out[x, y] = m.u8(scaled[x, y] >> 1 & 255)
    estimate(out, w, h)
    return out, {"inp": inp}


def inv_add(m, w, h):
    """(255 - a) + b, saturated, of two images."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    out = m.Func("invadd")
    out[x, y] = m.u8(m.min(m.u16(255 - a[x, y]) + m.u16(b[x, y]), 255))
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def alpha_blend(m, w, h):
    """a over b by a third image's alpha: (a al + b (255 - al) + 127) / 255 (u16)."""
    a, b, al = u8_input(m, "a"), u8_input(m, "b"), u8_input(m, "al")
    x, y = xy(m)
    out = m.Func("blend")
    wa = m.u16(al[x, y])
    out[x, y] = m.u8((m.u16(a[x, y]) * wa + m.u16(b[x, y]) * (255 - wa) + 127) / 255)
    estimate(out, w, h)
    return out, {"a": a, "b": b, "al": al}


def bitplane_mix(m, w, h):
    """Bit games: the high nibble of a xored with b's low nibble shifted up, or'd with a popcount."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    out = m.Func("bits")
    out[x, y] = ((a[x, y] & 0xF0) ^ (b[x, y] << 4)) | m.u8(m.popcount(a[x, y] & b[x, y]) >> 1)
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def square_u16(m, w, h):
    """A u16 output: the square of each pixel's difference from its right neighbour."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("sq16")
    d = m.i16(inp[x + 1, y]) - m.i16(inp[x, y])
    out[x, y] = m.u16(d * d)
    estimate(out, w, h)
    return out, {"inp": inp}


def down2_avg(m, w, h):
    """A 2x2 mean of stride 2 (u16, rounded)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("half")
    s = sum(m.u16(inp[2 * x + i, 2 * y + j]) for i in range(2) for j in range(2))
    out[x, y] = m.u8((s + 2) >> 2)
    estimate(out, w, h)
    return out, {"inp": inp}


def up2_linear_x(m, w, h):
    """A linear upsample by 2 along rows: even columns copy, odd ones average their two neighbours."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("up2x")
    even = inp[x / 2, y]
    odd = m.u8((m.u16(inp[x / 2, y]) + m.u16(inp[x / 2 + 1, y]) + 1) >> 1)
    out[x, y] = m.select(x % 2 == 0, even, odd)
    estimate(out, w, h)
    return out, {"inp": inp}


def down2_x(m, w, h):
    """A horizontal decimation by 2 with a 1-2-1 anti-alias (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("dec2x")
    out[x, y] = m.u8((m.u16(inp[2 * x, y]) + 2 * m.u16(inp[2 * x + 1, y]) + m.u16(inp[2 * x + 2, y]) + 2) >> 2)
    estimate(out, w, h)
    return out, {"inp": inp}


def up2_blur(m, w, h):
    """A nearest upsample by 2 both ways, then a 1x3 row mean of it (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    up, out = m.Func("up"), m.Func("upblur")
    up[x, y] = inp[x / 2, y / 2]
    out[x, y] = m.u8((m.u16(up[x, y]) + m.u16(up[x + 1, y]) + m.u16(up[x + 2, y])) / 3)
    estimate(out, w, h)
    return out, {"inp": inp}


def pyr_down(m, w, h):
    """A pyramid level: a 3x3 binomial (u16), then every other pixel both ways."""
    inp = u8_input(m)
    x, y = xy(m)
    blur, out = m.Func("pblur"), m.Func("pyr")
    k = (1, 2, 1)
    blur[x, y] = sum(k[i] * k[j] * m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3))
    out[x, y] = m.u8((blur[2 * x, 2 * y] + 8) >> 4)
    estimate(out, w, h)
    return out, {"inp": inp}


def lap_level(m, w, h):
    """A Laplacian-pyramid level: the image less its 2x2-mean downsample upsampled by nearest, offset by 128."""
    inp = u8_input(m)
    x, y = xy(m)
    down, out = m.Func("down"), m.Func("lap")
    down[x, y] = (sum(m.u16(inp[2 * x + i, 2 * y + j]) for i in range(2) for j in range(2)) + 2) >> 2
    out[x, y] = m.u8(m.clamp(m.i16(inp[x, y]) - m.i16(down[x / 2, y / 2]) + 128, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def down3_up3(m, w, h):
    """Down by 3 (the mean of a 1x3 row), then nearest up by 3 along x: a row's blocks flattened."""
    inp = u8_input(m)
    x, y = xy(m)
    d, out = m.Func("d3"), m.Func("blocks")
    d[x, y] = m.u8((m.u16(inp[3 * x, y]) + m.u16(inp[3 * x + 1, y]) + m.u16(inp[3 * x + 2, y])) / 3)
    out[x, y] = d[x / 3, y]
    estimate(out, w, h)
    return out, {"inp": inp}


AUTO = {
    "laplace5_13x7": (laplace5, (13, 7), {}),
    "laplace5_13x7_l2": (laplace5, (13, 7), {"lanes": "2"}),
    "sharpen3_13x7": (sharpen3, (13, 7), {}),
    "sobel_thresh_15x7_l3": (sobel_thresh, (15, 7), {"lanes": "3"}),
    "dog3_5_13x9": (dog3_5, (13, 9), {}),
    "emboss_11x7": (emboss, (11, 7), {}),
    "open3_13x9": (open3, (13, 9), {}),
    "open3_13x9_l2": (open3, (13, 9), {"lanes": "2"}),
    "grad_quadrant_13x7": (grad_quadrant, (13, 7), {}),
    "box5_sep_13x9_pes13": (box5_sep, (13, 9), {"max_pes": "13"}),
    "local_contrast3_13x7": (local_contrast3, (13, 7), {}),
    "sigma3_13x5": (sigma3, (13, 5), {}),
    "census3_13x7": (census3, (13, 7), {}),
    "blur121_edge_13x7": (blur121_edge, (13, 7), {}),
    "blur121_edge_16x8_l4": (blur121_edge, (16, 8), {"lanes": "4"}),
    "box3_zero_pad_11x7": (box3_zero_pad, (11, 7), {}),
    "blur_mirror_13x7": (blur_mirror, (13, 7), {}),
    "high_boost_13x5": (high_boost, (13, 5), {}),
    "harris_lite_11x7": (harris_lite, (11, 7), {}),
    # 52 words for 46: a shortfall (BENCHMARKS.md "Helper autoprobe24, session 38")
    "diag_blur_13x7": (diag_blur, (13, 7), {}, {"words_over_min": 6}),
    "fir7_col_11x11": (fir7_col, (11, 11), {}),
    "fir7_row_15x5_l3": (fir7_row, (15, 5), {"lanes": "3"}),
    "contrast_stretch_13x5_l4": (contrast_stretch, (13, 5), {"lanes": "4"}),
    "tone_knee_13x5": (tone_knee, (13, 5), {}),
    "band_pass_13x5": (band_pass, (13, 5), {}),
    "inv_add_13x5_l2": (inv_add, (13, 5), {"lanes": "2"}),
    "alpha_blend_11x5": (alpha_blend, (11, 5), {}),
    "bitplane_mix_13x5": (bitplane_mix, (13, 5), {}),
    "square_u16_13x5": (square_u16, (13, 5), {}),
    "down2_avg_8x6": (down2_avg, (8, 6), {}),
    "up2_linear_x_14x5": (up2_linear_x, (14, 5), {}),
    "down2_x_7x5": (down2_x, (7, 5), {}),
    "up2_blur_12x6": (up2_blur, (12, 6), {}),
    "pyr_down_6x5": (pyr_down, (6, 5), {}),
    "lap_level_12x8": (lap_level, (12, 8), {}),
    "down3_up3_12x5": (down3_up3, (12, 5), {}),
    "box3_zero_pad_16x16_glb": (box3_zero_pad, (16, 16), {"use_glb": "true", "glb_tile": "8x8"}),
    "laplace5_16x8_mem1": (laplace5, (16, 8), {"max_mem_tiles": "1"}),
    **MORE,
}
