"""Autoprobe39's programs (session 39): pipelines of 4 to 8 stages as a researcher writes them with no schedule,
mixing stencils, pointwise stages, up and down samples, ROM lookups and several inputs, each in module m
(`mainspring` or `halide`) returning (output, {name: ImageParam}) with estimates set at odd sizes. Reductions,
histograms, Tuples, scans, channels and budgets in autoprobe39_more.py. The AUTO dict (algorithm, size,
autoscheduler keys[, bounds]) is test_autoprobe39.py's.

Figures: docs/benchmarks-history.md "Helper autoprobe39, session 39"."""

import numpy as np
from autoprobe39_more import MORE
from probe_common import estimate, u8_input, xy

# line buffers at k lanes hold rows rounded up to whole transfers of k
WHOLE_TRANSFER_ROWS = 4

# a gamma of 1/2 over 256 entries, as a lens-shading or display table is shipped: a constant Buffer (a ROM)
GAMMA = np.array([min(255, round(16 * i ** 0.5)) for i in range(256)], dtype=np.uint8)
# 8 posterisation levels, a table of 32 entries read at the top 5 bits
LEVELS = np.array([(i // 4) * 36 for i in range(32)], dtype=np.uint8)


def denoise_sharpen(m, w, h):
    """Coring: a 3x3 box (u16), the detail (centre less box mean, i16), small details zeroed, then the box mean plus
    twice the cored detail, clamped (4 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    box, detail, cored, out = m.Func("box"), m.Func("detail"), m.Func("cored"), m.Func("crisp")
    box[x, y] = sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9
    detail[x, y] = m.i16(inp[x + 1, y + 1]) - m.i16(box[x, y])
    cored[x, y] = m.select(m.abs(detail[x, y]) < 4, m.i16(0), detail[x, y])
    out[x, y] = m.u8(m.clamp(m.i16(box[x, y]) + 2 * cored[x, y], 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def canny_lite(m, w, h):
    """A 1-2-1 blur by rows then columns, central differences, |gx| + |gy|, then a threshold at 40 (6 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    bx, by, gx, gy, mag, out = (m.Func(n) for n in ("bx", "by", "gx", "gy", "mag", "edge"))
    bx[x, y] = m.u16(inp[x, y]) + 2 * m.u16(inp[x + 1, y]) + m.u16(inp[x + 2, y])
    by[x, y] = (bx[x, y] + 2 * bx[x, y + 1] + bx[x, y + 2]) / 16
    gx[x, y] = m.i16(by[x + 2, y + 1]) - m.i16(by[x, y + 1])
    gy[x, y] = m.i16(by[x + 1, y + 2]) - m.i16(by[x + 1, y])
    mag[x, y] = m.abs(gx[x, y]) + m.abs(gy[x, y])
    out[x, y] = m.select(mag[x, y] > 40, m.u8(255), m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def gamma_unsharp(m, w, h):
    """A gamma table (a constant Buffer, a ROM) read at each pixel, a 3x3 binomial of it, then unsharp masking by
    it, clamped (4 stages)."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    table = m.Buffer(GAMMA)
    lut, g, blur, out = m.Func("lut"), m.Func("g"), m.Func("gblur"), m.Func("gsharp")
    lut[i] = table[i]
    g[x, y] = m.u16(lut[m.i32(inp[x, y])])
    taps = {(0, 0): 1, (1, 0): 2, (2, 0): 1, (0, 1): 2, (1, 1): 4, (2, 1): 2, (0, 2): 1, (1, 2): 2, (2, 2): 1}
    blur[x, y] = sum(k * g[x + i, y + j] for (i, j), k in taps.items()) / 16
    out[x, y] = m.u8(m.clamp(2 * m.i16(g[x + 1, y + 1]) - m.i16(blur[x, y]), 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def tone_curve_blend(m, w, h):
    """A computed tone curve (a Func of 256 entries) of the 1x2 mean of two exposures, blended with the longer one by
    its own brightness (5 stages, two inputs)."""
    short, long_ = u8_input(m, "short"), u8_input(m, "long")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    curve, mean, toned, weight, out = (m.Func(n) for n in ("curve", "mean2", "toned", "weight", "fused"))
    curve[i] = m.u8(m.min(m.u16(i) * 3 / 2, 255))
    mean[x, y] = (m.u16(short[x, y]) + m.u16(short[x + 1, y]) + 1) / 2
    toned[x, y] = m.u16(curve[m.i32(mean[x, y])])
    weight[x, y] = m.u16(long_[x, y]) / 2
    out[x, y] = m.u8((toned[x, y] * weight[x, y] + m.u16(long_[x, y]) * (128 - weight[x, y])) / 128)
    estimate(out, w, h)
    return out, {"short": short, "long": long_}


def grad_two_scales(m, w, h):
    """Gradient magnitude at full resolution plus that of the 2x2-mean half resolution image upsampled by nearest
    (5 stages: a downsample, a stencil on it, an upsample, a stencil, a sum)."""
    inp = u8_input(m)
    x, y = xy(m)
    half, ghalf, gfull, out = m.Func("half"), m.Func("ghalf"), m.Func("gfull"), m.Func("gsum")
    half[x, y] = (m.u16(inp[2 * x, 2 * y]) + m.u16(inp[2 * x + 1, 2 * y]) + m.u16(inp[2 * x, 2 * y + 1])
                  + m.u16(inp[2 * x + 1, 2 * y + 1])) / 4
    ghalf[x, y] = m.absd(half[x + 1, y], half[x, y]) + m.absd(half[x, y + 1], half[x, y])
    gfull[x, y] = m.u16(m.absd(inp[x + 1, y], inp[x, y])) + m.u16(m.absd(inp[x, y + 1], inp[x, y]))
    out[x, y] = m.u8(m.min(gfull[x, y] + ghalf[x / 2, y / 2], 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def range_row5(m, w, h):
    """A 1x5 range filter along rows: weights from a 16-entry table read at |tap - centre| >> 4, the weighted mean
    (5 stages: the table, the differences' weights, their sum, the weighted sum, the quotient)."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    wt, num, den, out = m.Func("wt"), m.Func("num"), m.Func("den"), m.Func("ranged")
    wt[i] = m.u16(16 - i)

    def weight(k):
        return wt[m.i32(m.absd(inp[x + k, y], inp[x + 2, y]) >> 4)]

    num[x, y] = sum(weight(k) * m.u16(inp[x + k, y]) for k in range(5))
    den[x, y] = sum(weight(k) for k in range(5))
    out[x, y] = m.u8(num[x, y] / den[x, y])
    estimate(out, w, h)
    return out, {"inp": inp}


def morph_gradient_sep(m, w, h):
    """Separable 3x3 erosion and dilation (four Funcs), their difference, then its 1x3 row maximum (6 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    ex, ey, dx, dy, grad, out = (m.Func(n) for n in ("ex", "ey", "dx", "dy", "mgrad", "mgmax"))
    ex[x, y] = m.min(inp[x, y], m.min(inp[x + 1, y], inp[x + 2, y]))
    ey[x, y] = m.min(ex[x, y], m.min(ex[x, y + 1], ex[x, y + 2]))
    dx[x, y] = m.max(inp[x, y], m.max(inp[x + 1, y], inp[x + 2, y]))
    dy[x, y] = m.max(dx[x, y], m.max(dx[x, y + 1], dx[x, y + 2]))
    grad[x, y] = dy[x, y] - ey[x, y]
    out[x, y] = m.max(grad[x, y], m.max(grad[x + 1, y], grad[x + 2, y]))
    estimate(out, w, h)
    return out, {"inp": inp}


def yuv_luma_sharpen(m, w, h):
    """Three planes as three images: luma and a chroma difference, a 4-neighbour Laplacian sharpen of luma, the
    chroma's 1x2 mean added back (6 stages, three inputs)."""
    r, g, b = u8_input(m, "r"), u8_input(m, "g"), u8_input(m, "b")
    x, y = xy(m)
    luma, chroma, lap, sharp, cmean, out = (m.Func(n) for n in ("luma", "chroma", "lap", "sharp", "cmean", "yout"))
    luma[x, y] = (m.u16(r[x, y]) * 77 + m.u16(g[x, y]) * 150 + m.u16(b[x, y]) * 29) >> 8
    chroma[x, y] = m.i16(b[x, y]) - m.i16(luma[x, y])
    lap[x, y] = 4 * m.i16(luma[x + 1, y + 1]) - m.i16(luma[x, y + 1]) - m.i16(luma[x + 2, y + 1]) \
        - m.i16(luma[x + 1, y]) - m.i16(luma[x + 1, y + 2])
    sharp[x, y] = m.i16(luma[x + 1, y + 1]) + lap[x, y] / 2
    cmean[x, y] = (chroma[x + 1, y + 1] + chroma[x + 2, y + 1]) / 2
    out[x, y] = m.u8(m.clamp(sharp[x, y] + cmean[x, y] / 4, 0, 255))
    estimate(out, w, h)
    return out, {"r": r, "g": g, "b": b}


def pyramid2_box(m, w, h):
    """Two pyramid levels, each a 1-2-1 blur along x and y of the level above taken every other pixel, then a 3x3
    box of the second (5 stages, a chain of x / 2 and x / 4)."""
    inp = u8_input(m)
    x, y = xy(m)
    d1, d2, box, out = m.Func("d1"), m.Func("d2"), m.Func("box2"), m.Func("level2")
    d1[x, y] = (m.u16(inp[2 * x, 2 * y]) * 4 + m.u16(inp[2 * x + 1, 2 * y]) * 2 + m.u16(inp[2 * x, 2 * y + 1]) * 2
                + m.u16(inp[2 * x + 1, 2 * y + 1]) * 8) / 16
    d2[x, y] = (d1[2 * x, 2 * y] * 4 + d1[2 * x + 1, 2 * y] * 2 + d1[2 * x, 2 * y + 1] * 2
                + d1[2 * x + 1, 2 * y + 1] * 8) / 16
    box[x, y] = sum(d2[x + i, y + j] for i in range(3) for j in range(3)) / 9
    out[x, y] = m.u8(box[x, y])
    estimate(out, w, h)
    return out, {"inp": inp}


def up_then_sobel(m, w, h):
    """A 3x3 box of the image, upsampled 2x by nearest, then Sobel's |gx| on the upsample, saturated (4 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    box, up, gx, out = m.Func("sbox"), m.Func("sup"), m.Func("sgx"), m.Func("upsobel")
    box[x, y] = sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9
    up[x, y] = box[x / 2, y / 2]
    gx[x, y] = (m.i16(up[x + 2, y]) + 2 * m.i16(up[x + 2, y + 1]) + m.i16(up[x + 2, y + 2])
                - m.i16(up[x, y]) - 2 * m.i16(up[x, y + 1]) - m.i16(up[x, y + 2]))
    out[x, y] = m.u8(m.min(m.abs(gx[x, y]), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def sad2_disparity(m, w, h):
    """Block matching over two disparities: 3x3 SADs of left against right at 0 and 2, the better disparity times
    100 (5 stages, two inputs)."""
    left, right = u8_input(m, "left"), u8_input(m, "right")
    x, y = xy(m)
    d0, d2, s0, s2, out = (m.Func(n) for n in ("ad0", "ad2", "sad0", "sad2", "disp"))
    d0[x, y] = m.u16(m.absd(left[x, y], right[x, y]))
    d2[x, y] = m.u16(m.absd(left[x, y], right[x + 2, y]))
    s0[x, y] = sum(d0[x + i, y + j] for i in range(3) for j in range(3))
    s2[x, y] = sum(d2[x + i, y + j] for i in range(3) for j in range(3))
    out[x, y] = m.select(s2[x, y] < s0[x, y], m.u8(200), m.u8(0))
    estimate(out, w, h)
    return out, {"left": left, "right": right}


def guided_lite(m, w, h):
    """A guided-filter-like step in integers: 3x3 means of I, p, I*p and I*I, then a = cov / (var + 16) scaled by
    64, and p's mean plus a times I's deviation (7 stages, two inputs)."""
    guide, src = u8_input(m, "guide"), u8_input(m, "src")
    x, y = xy(m)
    mi, mp, mip, mii, a, out = (m.Func(n) for n in ("mi", "mp", "mip", "mii", "coef", "guided"))

    def box(f):
        return sum(f(x + i, y + j) for i in range(3) for j in range(3)) / 9

    mi[x, y] = box(lambda u, v: m.i32(guide[u, v]))
    mp[x, y] = box(lambda u, v: m.i32(src[u, v]))
    mip[x, y] = box(lambda u, v: m.i32(guide[u, v]) * m.i32(src[u, v]))
    mii[x, y] = box(lambda u, v: m.i32(guide[u, v]) * m.i32(guide[u, v]))
    a[x, y] = (mip[x, y] - mi[x, y] * mp[x, y]) * 64 / (mii[x, y] - mi[x, y] * mi[x, y] + 16)
    out[x, y] = m.u8(m.clamp(mp[x, y] + a[x, y] * (m.i32(guide[x + 1, y + 1]) - mi[x, y]) / 64, 0, 255))
    estimate(out, w, h)
    return out, {"guide": guide, "src": src}


def temporal_median_box(m, w, h):
    """The median of three frames, a 3x3 box of it, then the pixels of the middle frame that differ from it by more
    than 24 kept (4 stages, three inputs)."""
    f0, f1, f2 = u8_input(m, "f0"), u8_input(m, "f1"), u8_input(m, "f2")
    x, y = xy(m)
    med, box, diff, out = m.Func("tmed"), m.Func("tbox"), m.Func("tdiff"), m.Func("moving")
    lo, hi = m.min(f0[x, y], f1[x, y]), m.max(f0[x, y], f1[x, y])
    med[x, y] = m.max(lo, m.min(hi, f2[x, y]))
    box[x, y] = m.u8(sum(m.u16(med[x + i, y + j]) for i in range(3) for j in range(3)) / 9)
    diff[x, y] = m.absd(f1[x + 1, y + 1], box[x, y])
    out[x, y] = m.select(diff[x, y] > 24, f1[x + 1, y + 1], m.u8(0))
    estimate(out, w, h)
    return out, {"f0": f0, "f1": f1, "f2": f2}


def census_hamming(m, w, h):
    """The census transforms (4-neighbour bits) of two images, xored, then the popcount of the 1x3 row's xors
    summed (5 stages, two inputs)."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    ca, cb, xr, pc, out = (m.Func(n) for n in ("ca", "cb", "cxor", "pop", "hamming"))

    def census(im):
        c = im[x + 1, y + 1]
        return ((m.select(im[x, y + 1] < c, m.u8(1), m.u8(0)) << 3) | (m.select(im[x + 2, y + 1] < c, m.u8(1),
                m.u8(0)) << 2) | (m.select(im[x + 1, y] < c, m.u8(1), m.u8(0)) << 1)
                | m.select(im[x + 1, y + 2] < c, m.u8(1), m.u8(0)))

    ca[x, y] = census(a)
    cb[x, y] = census(b)
    xr[x, y] = ca[x, y] ^ cb[x, y]
    pc[x, y] = (xr[x, y] & 1) + ((xr[x, y] >> 1) & 1) + ((xr[x, y] >> 2) & 1) + ((xr[x, y] >> 3) & 1)
    out[x, y] = pc[x, y] + pc[x + 1, y] + pc[x + 2, y]
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def posterise_edges(m, w, h):
    """Posterisation by a table of 8 levels (a constant Buffer read at the top 5 bits), then 255 where a level
    differs from its right or lower neighbour's, else the level (4 stages)."""
    inp = u8_input(m)
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    table = m.Buffer(LEVELS)
    lut, post, edge, out = m.Func("levels"), m.Func("post"), m.Func("pedge"), m.Func("cartoon")
    lut[i] = table[i]
    post[x, y] = lut[m.i32(inp[x, y] >> 3)]
    edge[x, y] = (post[x, y] != post[x + 1, y]) | (post[x, y] != post[x, y + 1])
    out[x, y] = m.select(edge[x, y], m.u8(255), post[x, y])
    estimate(out, w, h)
    return out, {"inp": inp}


def dog_cascade(m, w, h):
    """A 3x3 binomial, a second 3x3 binomial of it (a 5x5 in all), their difference's magnitude, then a threshold at
    6 (5 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    b1, b2, dog, mag, out = (m.Func(n) for n in ("b1", "b2", "dogd", "dogm", "blobs"))
    k = {(0, 0): 1, (1, 0): 2, (2, 0): 1, (0, 1): 2, (1, 1): 4, (2, 1): 2, (0, 2): 1, (1, 2): 2, (2, 2): 1}
    b1[x, y] = sum(c * m.u16(inp[x + i, y + j]) for (i, j), c in k.items()) / 16
    b2[x, y] = sum(c * b1[x + i, y + j] for (i, j), c in k.items()) / 16
    dog[x, y] = m.i16(b1[x + 1, y + 1]) - m.i16(b2[x, y])
    mag[x, y] = m.abs(dog[x, y])
    out[x, y] = m.select(mag[x, y] > 6, m.u8(255), m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def down_blur_up_add(m, w, h):
    """A Laplacian-pyramid reconstruction step: the 2x2 mean downsample, a 1x3 and 3x1 blur of it, upsampled by
    nearest and added to the detail of the full image against its own 2x2 mean (6 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    dn, bx, by, detail, out = (m.Func(n) for n in ("dn", "dbx", "dby", "ddet", "recon"))
    dn[x, y] = (m.u16(inp[2 * x, 2 * y]) + m.u16(inp[2 * x + 1, 2 * y]) + m.u16(inp[2 * x, 2 * y + 1])
                + m.u16(inp[2 * x + 1, 2 * y + 1])) / 4
    bx[x, y] = (dn[x, y] + dn[x + 1, y] + dn[x + 2, y]) / 3
    by[x, y] = (bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 3
    detail[x, y] = m.i16(inp[x, y]) - m.i16(dn[x / 2, y / 2])
    out[x, y] = m.u8(m.clamp(m.i16(by[x / 2, y / 2]) + detail[x, y], 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def mask_composite(m, w, h):
    """A mask from a third image (3x3 max of its threshold at 128: a dilation), its 1x3 soft edge, then a blend of
    two images by it (5 stages, three inputs)."""
    fg, bg, key = u8_input(m, "fg"), u8_input(m, "bg"), u8_input(m, "key")
    x, y = xy(m)
    hard, dil, soft, out = m.Func("hard"), m.Func("dil"), m.Func("soft"), m.Func("comp")
    hard[x, y] = m.select(key[x, y] > 128, m.u16(255), m.u16(0))
    dil[x, y] = m.max(m.max(m.max(hard[x, y], hard[x + 1, y]), m.max(hard[x + 2, y], hard[x, y + 1])),
                      m.max(m.max(hard[x + 1, y + 1], hard[x + 2, y + 1]),
                            m.max(hard[x, y + 2], m.max(hard[x + 1, y + 2], hard[x + 2, y + 2]))))
    soft[x, y] = (dil[x, y] + 2 * dil[x + 1, y] + dil[x + 2, y]) / 4
    out[x, y] = m.u8((m.u16(fg[x + 2, y + 1]) * soft[x, y] + m.u16(bg[x + 2, y + 1]) * (255 - soft[x, y])) / 255)
    estimate(out, w, h)
    return out, {"fg": fg, "bg": bg, "key": key}


AUTO = {
    "denoise_sharpen_13x7": (denoise_sharpen, (13, 7), {}),
    "canny_lite_15x9": (canny_lite, (15, 9), {}),
    "canny_lite_14x7_l2": (canny_lite, (14, 7), {"lanes": "2"}),
    "gamma_unsharp_13x7": (gamma_unsharp, (13, 7), {}),
    "tone_curve_blend_11x5": (tone_curve_blend, (11, 5), {}),
    "grad_two_scales_14x8": (grad_two_scales, (14, 8), {}),
    "range_row5_13x5": (range_row5, (13, 5), {}),
    "morph_gradient_sep_13x7": (morph_gradient_sep, (13, 7), {}),
    "morph_gradient_sep_15x7_l3": (morph_gradient_sep, (15, 7), {"lanes": "3"}),
    "yuv_luma_sharpen_11x7": (yuv_luma_sharpen, (11, 7), {}),
    "pyramid2_box_5x3": (pyramid2_box, (5, 3), {}),
    "up_then_sobel_14x8": (up_then_sobel, (14, 8), {}),
    "sad2_disparity_13x7": (sad2_disparity, (13, 7), {}),
    "guided_lite_11x7": (guided_lite, (11, 7), {}),
    "temporal_median_box_13x7": (temporal_median_box, (13, 7), {}),
    "census_hamming_13x7": (census_hamming, (13, 7), {}),
    "posterise_edges_13x7": (posterise_edges, (13, 7), {}),
    "dog_cascade_13x9": (dog_cascade, (13, 9), {}),
    # gap: the image's stream holds 104 words for a minimum of 88 (read at 2 x and at x by the upsample's reader)
    "down_blur_up_add_14x10": (down_blur_up_add, (14, 10), {}, {"words_over_min": 16}),
    "mask_composite_13x7_l2": (mask_composite, (13, 7), {"lanes": "2"}),
    **MORE,
}
