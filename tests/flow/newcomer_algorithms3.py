"""A third round of algorithms written as a newcomer writes them for a CPU (issue 11; session 25's probes): two
and three input images, min/max networks, a table indexed by `absd`, scans, planar channels, resampling chains,
`mirror_interior`, weights from `exp`/`cos`, and signed 8-bit input. Each is written in module m (`mainspring` or
`halide`) and returns (output, its realize size, its ImageParams)."""


def blend(m, width, height):
    """Two images blended by a third, per-pixel weight: (a * w + b * (256 - w)) >> 8."""
    a, b = m.ImageParam(m.UInt(8), 2, "a"), m.ImageParam(m.UInt(8), 2, "b")
    w = m.ImageParam(m.UInt(8), 2, "w")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("blend")
    wt = m.u16(w[x, y])
    out[x, y] = m.u8((m.u16(a[x, y]) * wt + m.u16(b[x, y]) * (256 - wt)) >> 8)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [a, b, w]


def difference_mask(m, width, height):
    """The absolute difference of two images, blurred 3x1, thresholded to 0 / 255."""
    a, b = m.ImageParam(m.UInt(8), 2, "a"), m.ImageParam(m.UInt(8), 2, "b")
    x, y = m.Var("x"), m.Var("y")
    diff, out = m.Func("diff"), m.Func("changed")
    diff[x, y] = m.u16(m.absd(a[x, y], b[x, y]))
    out[x, y] = m.select(diff[x - 1, y] + diff[x, y] + diff[x + 1, y] > 60, m.u8(255), m.u8(0))
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [a, b]


def masked_blur(m, width, height):
    """A 3x3 box blur where a mask image is bright, the image itself elsewhere."""
    image, mask = m.ImageParam(m.UInt(8), 2, "image"), m.ImageParam(m.UInt(8), 2, "mask")
    x, y = m.Var("x"), m.Var("y")
    blur, out = m.Func("blur"), m.Func("masked")
    blur[x, y] = m.u8(sum(m.u16(image[x + i, y + j]) for i in (-1, 0, 1) for j in (-1, 0, 1)) / 9)
    out[x, y] = m.select(mask[x, y] > 127, blur[x, y], image[x, y])
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image, mask]


def median_network(m, width, height):
    """An exact 3x3 median by the 19 compare-exchanges of Paeth's sorting network."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("median9")
    p = [image[x + i, y + j] for j in (-1, 0, 1) for i in (-1, 0, 1)]
    pairs = [(1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8), (0, 3), (5, 8), (4, 7),
             (3, 6), (1, 4), (2, 5), (4, 7), (4, 2), (6, 4), (4, 2)]
    for i, j in pairs:
        p[i], p[j] = m.min(p[i], p[j]), m.max(p[i], p[j])
    out[x, y] = p[4]
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def range_weighted(m, width, height):
    """A bilateral-like 3x1 filter: each neighbour weighted by a table of 256 range weights read at its `absd`
    from the centre, normalised by the weights' sum."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    lut, num, den, out = m.Func("range_lut"), m.Func("num"), m.Func("den"), m.Func("range_weighted")
    lut[i] = m.u16(255 - m.min(i, 255))
    weight = [lut[m.i32(m.absd(image[x + k, y], image[x, y]))] for k in (-1, 0, 1)]
    num[x, y] = sum(m.u32(w) * m.u32(image[x + k, y]) for w, k in zip(weight, (-1, 0, 1)))
    den[x, y] = sum(m.u32(w) for w in weight)
    out[x, y] = m.u8(num[x, y] / den[x, y])
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def histogram_cdf(m, width, height):
    """A 16-bin histogram of the image, then its cumulative sum over the bins."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    b = m.Var("b")
    r = m.RDom([(0, width), (0, height)])
    s = m.RDom([(1, 15)])
    hist, cdf = m.Func("hist"), m.Func("cdf")
    hist[b] = m.u16(0)
    hist[m.i32(image[r.x, r.y] >> 4)] += m.u16(1)
    cdf[b] = hist[b]
    cdf[s.x] = cdf[s.x - 1] + hist[s.x]
    cdf.set_estimates([(0, 16)])
    return cdf, [16], [image]


def blur7_rounded(m, width, height):
    """A separable binomial 7-tap blur (1 6 15 20 15 6 1) in u16, each pass rounded: (sum + 32) >> 6."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    bx, by = m.Func("blur_x7"), m.Func("blur_y7")
    taps = (1, 6, 15, 20, 15, 6, 1)
    bx[x, y] = (sum(t * image[x + k - 3, y] for k, t in enumerate(taps)) + 32) >> 6
    by[x, y] = (sum(t * bx[x, y + k - 3] for k, t in enumerate(taps)) + 32) >> 6
    by.set_estimates([(0, width), (0, height)])
    return by, [width, height], [image]


def sobel_planar_rgb(m, width, height):
    """A Sobel magnitude (|gx| + |gy|) of the sum of a planar 3-channel image's channels."""
    image = m.ImageParam(m.UInt(8), 3, "rgb")
    x, y = m.Var("x"), m.Var("y")
    grey, out = m.Func("grey"), m.Func("sobel_rgb")
    grey[x, y] = m.i16(image[x, y, 0]) + m.i16(image[x, y, 1]) + m.i16(image[x, y, 2])
    gx = (grey[x + 1, y - 1] + 2 * grey[x + 1, y] + grey[x + 1, y + 1]
          - grey[x - 1, y - 1] - 2 * grey[x - 1, y] - grey[x - 1, y + 1])
    gy = (grey[x - 1, y + 1] + 2 * grey[x, y + 1] + grey[x + 1, y + 1]
          - grey[x - 1, y - 1] - 2 * grey[x, y - 1] - grey[x + 1, y - 1])
    out[x, y] = m.u16(m.abs(gx) + m.abs(gy))
    out.set_estimates([(1, width - 2), (1, height - 2)])
    return out, [width - 2, height - 2], [image]


def downsample_then_blur(m, width, height):
    """A 2x2 box downsample, then a 3x3 box blur of the half-size image."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    down, out = m.Func("down"), m.Func("down_blur")
    down[x, y] = (m.u16(image[2 * x, 2 * y]) + m.u16(image[2 * x + 1, 2 * y]) + m.u16(image[2 * x, 2 * y + 1])
                  + m.u16(image[2 * x + 1, 2 * y + 1])) >> 2
    out[x, y] = m.u8(sum(down[x + i, y + j] for i in (-1, 0, 1) for j in (-1, 0, 1)) / 9)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def upsample_then_blur(m, width, height):
    """A nearest-neighbour upsample by 2, then a 3x3 (1 2 1) binomial blur of it."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    up, out = m.Func("up"), m.Func("up_blur")
    up[x, y] = m.u16(image[x / 2, y / 2])
    w = (1, 2, 1)
    out[x, y] = m.u8(sum(w[i] * w[j] * up[x + i - 1, y + j - 1] for i in range(3) for j in range(3)) >> 4)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def select_chain(m, width, height):
    """A chain of `select`s comparing two images: the brighter where they differ much, their mean where close,
    and 0 where both are dark."""
    a, b = m.ImageParam(m.UInt(8), 2, "a"), m.ImageParam(m.UInt(8), 2, "b")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("select_chain")
    pa, pb = a[x, y], b[x, y]
    mean = m.u8((m.u16(pa) + m.u16(pb)) / 2)
    out[x, y] = m.select(m.max(pa, pb) < 16, m.u8(0),
                         pa > pb + 32, pa, pb > pa + 32, pb, mean)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [a, b]


def mirror_blur5(m, width, height):
    """A 5x1 then 1x5 box blur of the image mirrored at its edges (`mirror_interior`), over the whole image."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    mirrored = m.BoundaryConditions.mirror_interior(image, [(0, width), (0, height)])
    bx, out = m.Func("mbx"), m.Func("mirror_blur5")
    bx[x, y] = sum(m.u16(mirrored[x + k, y]) for k in range(-2, 3))
    out[x, y] = m.u8(sum(bx[x, y + k] for k in range(-2, 3)) / 25)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def gaussian_exp_weights(m, width, height):
    """A 5x5 Gaussian whose weights are computed with `exp` into a constant Func, then rounded to 8 bits."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    weight, total, out = m.Func("gauss_w"), m.Func("gauss_total"), m.Func("gaussian")
    weight[i] = m.u16(m.round(64.0 * m.exp(-m.f32(i * i) / 2.0)))
    r = m.RDom([(-2, 5), (-2, 5)])
    total[x, y] = m.u32(0)
    total[x, y] += m.u32(weight[r.x] * weight[r.y]) * m.u32(image[x + r.x, y + r.y])
    out[x, y] = m.u8(total[x, y] >> 14)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def cosine_window(m, width, height):
    """A 1x7 filter along x whose weights are a raised-cosine window, computed with `cos` in a constant Func."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    weight, out = m.Func("cos_w"), m.Func("cos_window")
    weight[i] = m.u16(m.round(32.0 + 32.0 * m.cos(m.f32(i) * 0.78125)))
    out[x, y] = m.u8(sum(weight[k] * m.u16(image[x + k, y]) for k in range(-3, 4)) >> 8)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def signed_laplacian_i8(m, width, height):
    """A signed 8-bit image's Laplacian sharpened and saturated back to i8: 5p - neighbours."""
    image = m.ImageParam(m.Int(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("sharp_i8")
    p = m.i16(image[x, y])
    s = m.i16(image[x - 1, y]) + m.i16(image[x + 1, y]) + m.i16(image[x, y - 1]) + m.i16(image[x, y + 1])
    out[x, y] = m.i8(m.clamp(5 * p - s, -128, 127))
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def signed_div_mod(m, width, height):
    """Signed 16-bit arithmetic over a signed 8-bit image: Halide's flooring `/` and `%` by constants (7, 5, and a
    negative divisor -3) and an arithmetic shift right of negative values."""
    image = m.ImageParam(m.Int(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("signed_div")
    d = m.i16(image[x + 1, y]) - m.i16(image[x - 1, y]) * 3
    out[x, y] = m.i16(d / 7 + (d % 5) - (d >> 2) + m.i16(image[x, y]) / -3)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]



def vignette(m, width, height):
    """A vignette: the image scaled by separable weights from `cos` of the distance to the centre, per column
    and per row (two coordinate-dependent tables)."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    wx, wy, out = m.Func("wx"), m.Func("wy"), m.Func("vignette")
    wx[x] = m.u16(m.round(255.0 * m.cos((m.f32(x) - 14.0) * 0.0625)))
    wy[y] = m.u16(m.round(255.0 * m.cos((m.f32(y) - 8.0) * 0.0625)))
    out[x, y] = m.u8((m.u32(image[x, y]) * m.u32(wx[x]) * m.u32(wy[y])) >> 16)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def bilateral_2d(m, width, height):
    """A 3x3 bilateral-like filter: range weights from `exp` in a table read at `absd` from the centre, two RDom
    sums (weighted pixels and weights), divided."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    lut, out = m.Func("rlut"), m.Func("bilateral")
    lut[i] = m.u16(m.round(255.0 * m.exp(-m.f32(i * i) / 800.0)))
    r = m.RDom([(-1, 3), (-1, 3)])
    num, den = m.Func("bnum"), m.Func("bden")
    w = lut[m.i32(m.absd(image[x + r.x, y + r.y], image[x, y]))]
    num[x, y] = m.u32(0)
    num[x, y] += m.u32(w) * m.u32(image[x + r.x, y + r.y])
    den[x, y] = m.u32(0)
    den[x, y] += m.u32(w)
    out[x, y] = m.u8(num[x, y] / den[x, y])
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def mirror_down(m, width, height):
    """A (1 2 1) horizontal filter at every second pixel of every second row of the image mirrored at its edges
    (`mirror_interior`): a 2x downsample reading x = -1."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    mirrored = m.BoundaryConditions.mirror_interior(image, [(0, 2 * width), (0, 2 * height)])
    out = m.Func("mirror_down")
    out[x, y] = m.u8((m.u16(mirrored[2 * x - 1, 2 * y]) + 2 * m.u16(mirrored[2 * x, 2 * y])
                      + m.u16(mirrored[2 * x + 1, 2 * y])) >> 2)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [image]


def signed_select(m, width, height):
    """A `select` chain over two signed 8-bit images: comparisons, a halving of a negative value, a negation."""
    a, b = m.ImageParam(m.Int(8), 2, "a"), m.ImageParam(m.Int(8), 2, "b")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("signed_select")
    out[x, y] = m.select(a[x, y] < b[x, y], a[x, y] - b[x, y] / 2, a[x, y] > 0, -a[x, y], m.max(a[x, y], b[x - 1, y]))
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], [a, b]

ALL = [blend, difference_mask, masked_blur, median_network, range_weighted, histogram_cdf, blur7_rounded,
       sobel_planar_rgb, downsample_then_blur, upsample_then_blur, select_chain, mirror_blur5,
       gaussian_exp_weights, cosine_window, signed_laplacian_i8, signed_div_mod,
       vignette, bilateral_2d, mirror_down, signed_select]
