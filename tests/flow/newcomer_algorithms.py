"""Algorithms as a newcomer from the Halide tutorials writes them for a CPU, with no schedule and no copy Funcs
(issue 11), each in module m (`mainspring` or `halide`) so the reference can be checked against Halide 21's.
Each returns (output, its realize size, the image): an ImageParam the Funcs read directly."""

import contextlib
import importlib


@contextlib.contextmanager
def resampled_funcs_buffered():
    """The automatic schedule with every resampling Func buffered, for the tests of a buffered resampler's
    mechanism (its fill, its register banks): mainspring/autoschedule_resampled.py inlines one where that stores
    fewer words (bilinear_up's ux, since session 39)."""
    auto = importlib.import_module("mainspring.autoschedule")
    real = auto.inline_resampled
    auto.inline_resampled = lambda pipe, plan, *rest: plan
    try:
        yield
    finally:
        auto.inline_resampled = real



def box_blur(m, width, height):
    """A 3x3 box blur as an RDom sum, over 8-bit pixels widened to 16 bits."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(-1, 3), (-1, 3)])
    total, blur = m.Func("total"), m.Func("blur")
    total[x, y] = m.u16(0)
    total[x, y] += m.u16(image[x + r.x, y + r.y])
    blur[x, y] = m.u8(total[x, y] / 9)
    blur.set_estimates([(0, width), (0, height)])
    return blur, [width, height], image


def box_blur_9(m, width, height):
    """A 9x9 box blur as an inline `sum` over an RDom (81 points: a window larger than 64 taps)."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(-4, 9), (-4, 9)])
    blur = m.Func("blur")
    blur[x, y] = m.u8(m.sum(m.u16(image[x + r.x, y + r.y])) / 81)
    blur.set_estimates([(0, width), (0, height)])
    return blur, [width, height], image


def sobel(m, width, height):
    """Sobel magnitude |gx| + |gy| in signed 16 bits, two 3x3 kernels."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    gx, gy, mag = m.Func("gx"), m.Func("gy"), m.Func("mag")

    def p(dx, dy):
        return m.i16(image[x + dx, y + dy])

    gx[x, y] = (p(1, -1) + 2 * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2 * p(-1, 0) + p(-1, 1))
    gy[x, y] = (p(-1, 1) + 2 * p(0, 1) + p(1, 1)) - (p(-1, -1) + 2 * p(0, -1) + p(1, -1))
    mag[x, y] = m.u16(m.abs(gx[x, y]) + m.abs(gy[x, y]))
    mag.set_estimates([(0, width), (0, height)])
    return mag, [width, height], image


def median(m, width, height):
    """A 3x3 median by a min/max network: the median of each column's three, then the median of the columns'
    max, median and min (the classic 19-exchange shortcut: max of mins, min of maxes, median of medians)."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    lo, mid, hi, med = m.Func("lo"), m.Func("mid"), m.Func("hi"), m.Func("med")

    def col(dy):
        return image[x, y + dy]

    lo[x, y] = m.min(m.min(col(-1), col(0)), col(1))
    hi[x, y] = m.max(m.max(col(-1), col(0)), col(1))
    mid[x, y] = m.max(m.min(col(-1), col(0)), m.min(m.max(col(-1), col(0)), col(1)))

    def med3(f):
        a, b, c = f[x - 1, y], f[x, y], f[x + 1, y]
        return m.max(m.min(a, b), m.min(m.max(a, b), c))

    big_lo = m.max(m.max(lo[x - 1, y], lo[x, y]), lo[x + 1, y])
    small_hi = m.min(m.min(hi[x - 1, y], hi[x, y]), hi[x + 1, y])
    mm = med3(mid)
    med[x, y] = m.max(m.min(big_lo, mm), m.min(m.max(big_lo, mm), small_hi))
    med.set_estimates([(0, width), (0, height)])
    return med, [width, height], image


def max_pool(m, width, height):
    """A 2x2 max-pool: a downsample by a reduction (`maximum` over an RDom)."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(0, 2), (0, 2)])
    pool = m.Func("pool")
    pool[x, y] = m.maximum(image[2 * x + r.x, 2 * y + r.y])
    pool.set_estimates([(0, width), (0, height)])
    return pool, [width, height], image


def bilinear_up(m, width, height):
    """A bilinear 2x upsample with weights 3:1, along x then along y, in 16 bits."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    wide, ux, uy = m.Func("wide"), m.Func("ux"), m.Func("uy")
    wide[x, y] = m.u16(image[x, y])
    ux[x, y] = (3 * wide[x / 2, y] + wide[x / 2 + 2 * (x % 2) - 1, y] + 2) / 4
    uy[x, y] = m.u8((3 * ux[x, y / 2] + ux[x, y / 2 + 2 * (y % 2) - 1] + 2) / 4)
    uy.set_estimates([(0, width), (0, height)])
    return uy, [width, height], image


def unsharp(m, width, height):
    """An unsharp mask: the image plus 3/2 of its difference from a 3x3 binomial blur, clamped to 8 bits."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    bx, by, sharp = m.Func("bx"), m.Func("by"), m.Func("sharp")
    bx[x, y] = m.i16(image[x - 1, y]) + 2 * m.i16(image[x, y]) + m.i16(image[x + 1, y])
    by[x, y] = (bx[x, y - 1] + 2 * bx[x, y] + bx[x, y + 1] + 8) / 16
    centre = m.i16(image[x, y])
    sharp[x, y] = m.u8(m.clamp(centre + (3 * (centre - by[x, y])) / 2, 0, 255))
    sharp.set_estimates([(0, width), (0, height)])
    return sharp, [width, height], image


def threshold(m, width, height):
    """A threshold against the local mean of a row's three pixels: select 255 or 0."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    binary = m.Func("binary")
    mean = (m.u16(image[x - 1, y]) + m.u16(image[x, y]) + m.u16(image[x + 1, y])) / 3
    binary[x, y] = m.select(m.u16(image[x, y]) > mean + 4, m.u8(255), m.u8(0))
    binary.set_estimates([(0, width), (0, height)])
    return binary, [width, height], image


def colour_matrix(m, width, height):
    """A 3x3 colour matrix over planar in(x, y, c), fixed point (>> 8), per output channel by select."""
    image = m.ImageParam(m.UInt(8), 3, "image")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("matrixed")
    rows = [(218, 33, 5), (20, 200, 36), (9, 40, 207)]

    def channel(k):
        a, b, d = rows[k]
        return (a * m.u16(image[x, y, 0]) + b * m.u16(image[x, y, 1]) + d * m.u16(image[x, y, 2])) >> 8

    out[x, y, c] = m.u8(m.select(c == 0, channel(0), c == 1, channel(1), channel(2)))
    out.set_estimates([(0, width), (0, height), (0, 3)])
    return out, [width, height, 3], image


def separable5(m, width, height):
    """A separable 5-tap binomial blur (1 4 6 4 1) in two Funcs, 16 bits."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    taps = (1, 4, 6, 4, 1)
    bx[x, y] = sum(t * image[x + i - 2, y] for i, t in enumerate(taps)) >> 4
    by[x, y] = sum(t * bx[x, y + i - 2] for i, t in enumerate(taps)) >> 4
    by.set_estimates([(0, width), (0, height)])
    return by, [width, height], image


def pyramid(m, width, height):
    """Two levels of a pyramid summed back: up = d2(x / 4) + d1(x / 2)."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    d1, d2, up = m.Func("d1"), m.Func("d2"), m.Func("up")
    d1[x, y] = (image[2 * x, 2 * y] + image[2 * x + 1, 2 * y + 1]) >> 1
    d2[x, y] = (d1[2 * x, 2 * y] + d1[2 * x + 1, 2 * y + 1]) >> 1
    up[x, y] = d2[x / 4, y / 4] + d1[x / 2, y / 2]
    up.set_estimates([(0, width), (0, height)])
    return up, [width, height], image


def pyramid_by_levels(m, width, height):
    """The pyramid of `pyramid` as the autoscheduler's refusal of it asked before nested steps (session 20): each
    level added at the next one's resolution, every Func reading at one divisor (x / 4 is (x / 2) / 2)."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    d1, d2, up_2, up = m.Func("d1"), m.Func("d2"), m.Func("up_2"), m.Func("up")
    d1[x, y] = (image[2 * x, 2 * y] + image[2 * x + 1, 2 * y + 1]) >> 1
    d2[x, y] = (d1[2 * x, 2 * y] + d1[2 * x + 1, 2 * y + 1]) >> 1
    up_2[x, y] = d2[x / 2, y / 2] + d1[x, y]
    up[x, y] = up_2[x / 2, y / 2]
    up.set_estimates([(0, width), (0, height)])
    return up, [width, height], image


def edge_blur(m, width, height):
    """A 3x3 blur of an image read through repeat_edge, so the output is the image's size."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    edged, blur = m.BoundaryConditions.repeat_edge(image), m.Func("blur")
    blur[x, y] = m.u8(sum(m.u16(edged[x + i, y + j]) for i in (-1, 0, 1) for j in (-1, 0, 1)) / 9)
    blur.set_estimates([(0, width), (0, height)])
    return blur, [width, height], image


def mirror_blur(m, width, height):
    """A 3-tap vertical blur of an image read through mirror_image."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    mirrored, blur = m.BoundaryConditions.mirror_image(image), m.Func("blur")
    blur[x, y] = (mirrored[x, y - 1] + 2 * mirrored[x, y] + mirrored[x, y + 1]) >> 2
    blur.set_estimates([(0, width), (0, height)])
    return blur, [width, height], image


def histogram(m, width, height):
    """A 16-bin histogram of an 8-bit image, an RDom over the whole image."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    i = m.Var("i")
    r = m.RDom([(0, width), (0, height)])
    hist = m.Func("hist")
    hist[i] = m.u16(0)
    hist[m.i32(image[r.x, r.y] >> 4)] += m.u16(1)
    hist.set_estimates([(0, 16)])
    return hist, [16], image


def equalise(m, width, height):
    """Histogram equalisation: each pixel mapped through the running sum of its image's 16-level histogram, the
    sum (a scan) read at the pixel's level (through a RAM copy the compiler adds: hwlower/ram_copies.py)."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    r = m.RDom([(0, width), (0, height)])
    c = m.RDom([(1, 15)])
    hist, cdf, out = m.Func("hist"), m.Func("cdf"), m.Func("equalised")
    hist[b] = m.u16(0)
    hist[m.i32(image[r.x, r.y] >> 4)] += m.u16(1)
    cdf[b] = hist[b]
    cdf[c.x] = cdf[c.x - 1] + hist[c.x]
    out[x, y] = m.u8(m.u32(cdf[m.i32(image[x, y] >> 4)]) * 255 / (width * height))
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def running_max(m, width, height):
    """The running maximum along each row, a scan over an RDom."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(1, width - 1)])
    run = m.Func("run")
    run[x, y] = image[x, y]
    run[r.x, y] = m.max(run[r.x, y], run[r.x - 1, y])
    run.set_estimates([(0, width), (0, height)])
    return run, [width, height], image


def gamma(m, width, height):
    """An integer gamma LUT (x^2 / 255) built by a Func of x and read at the pixel value."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    lut, out = m.Func("lut"), m.Func("graded")
    lut[i] = m.u8((m.u16(i) * m.u16(i)) / 255)
    out[x, y] = lut[m.i32(image[x, y])]
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def column_sum(m, width, height):
    """Each column's sum over the frame's rows (a projection): a 1-D output from a 2-D image."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x = m.Var("x")
    r = m.RDom([(0, height)])
    total = m.Func("column_total")
    total[x] = m.u16(0)
    total[x] += m.u16(image[x, r.x])
    total.set_estimates([(0, width)])
    return total, [width], image


def mirror_x(m, width, height):
    """The frame mirrored left to right (read backwards along x), plus one."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    mirrored = m.Func("mirrored")
    mirrored[x, y] = image[width - 1 - x, y] + 1
    mirrored.set_estimates([(0, width), (0, height)])
    return mirrored, [width, height], image


def transpose(m, width, height):
    """The image transposed (a height x width output of a width x height image), doubled."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    flipped = m.Func("transposed")
    flipped[x, y] = image[y, x] * 2
    flipped.set_estimates([(0, height), (0, width)])
    return flipped, [height, width], image


def channel_max(m, width, height):
    """The largest of a planar image's three channels at each pixel (`maximum` over an RDom of the planes)."""
    image = m.ImageParam(m.UInt(8), 3, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(0, 3)])
    brightest = m.Func("brightest")
    brightest[x, y] = m.maximum(image[x, y, r.x])
    brightest.set_estimates([(0, width), (0, height)])
    return brightest, [width, height], image


def coarse_detail(m, width, height):
    """The image plus a 1-2-1 blur of its 2x subsample, upsampled back (the output reads the image itself too)."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    sub, blur, out = m.Func("sub"), m.Func("coarse"), m.Func("detailed")
    sub[x, y] = image[2 * x, 2 * y]
    blur[x, y] = sub[x - 1, y] + 2 * sub[x, y] + sub[x + 1, y]
    out[x, y] = blur[x / 2, y / 2] + image[x, y]
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def column_scan(m, width, height):
    """The running sum down each column, a scan along y (Halide runs its RVar innermost: down each column)."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(1, height - 1)])
    down = m.Func("down")
    down[x, y] = m.u16(image[x, y])
    down[x, r.x] = down[x, r.x - 1] + m.u16(image[x, r.x])
    down.set_estimates([(0, width), (0, height)])
    return down, [width, height], image


def integral_image(m, width, height):
    """A summed-area table in 16 bits: the running sum along each row, then down each column."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    rx, ry = m.RDom([(1, width - 1)]), m.RDom([(1, height - 1)])
    along, table = m.Func("along"), m.Func("table")
    along[x, y] = m.u16(image[x, y])
    along[rx.x, y] = along[rx.x - 1, y] + m.u16(image[rx.x, y])
    table[x, y] = along[x, y]
    table[x, ry.x] = table[x, ry.x - 1] + along[x, ry.x]
    table.set_estimates([(0, width), (0, height)])
    return table, [width, height], image


ALL = (box_blur, box_blur_9, sobel, median, max_pool, bilinear_up, unsharp, threshold, colour_matrix, separable5,
       pyramid, pyramid_by_levels, edge_blur, mirror_blur, histogram, running_max, gamma, column_sum, mirror_x,
       transpose, channel_max, coarse_detail, column_scan, integral_image, equalise)
