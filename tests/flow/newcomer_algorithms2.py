"""More algorithms as a newcomer writes them for a CPU, with no schedule and no copy Funcs (issue 11; session 24's
probes, beside tests/flow/newcomer_algorithms.py), each in module m (`mainspring` or `halide`) so the reference
can be checked against Halide 21's. Each returns (output, its realize size, the image): an ImageParam the Funcs
read directly."""


def census(m, width, height):
    """A 3x3 census transform: one bit per neighbour brighter than the centre, packed into 8 bits."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("census")
    offsets = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]
    bits = [m.select(image[x + dx, y + dy] > image[x, y], m.u8(1 << k), m.u8(0))
            for k, (dx, dy) in enumerate(offsets)]
    value = bits[0]
    for b in bits[1:]:
        value = value | b
    out[x, y] = value
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def lbp_uniform(m, width, height):
    """A local binary pattern's count of transitions around the ring (popcount of the code xor its rotation)."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    code, out = m.Func("code"), m.Func("transitions")
    ring = [(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]
    code[x, y] = m.u8(0)
    for k, (dx, dy) in enumerate(ring):
        code[x, y] = code[x, y] | (m.u8(image[x + dx, y + dy] >= image[x, y]) << k)
    c = code[x, y]
    rotated = (c << 1) | (c >> 7)
    out[x, y] = m.u8(m.popcount(c ^ rotated))
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def closing(m, width, height):
    """A morphological closing: a 3x3 dilation (`maximum` over an RDom), then a 3x3 erosion of it."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(-1, 3), (-1, 3)])
    dilated, closed = m.Func("dilated"), m.Func("closed")
    dilated[x, y] = m.maximum(image[x + r.x, y + r.y])
    closed[x, y] = m.minimum(dilated[x + r.x, y + r.y])
    closed.set_estimates([(0, width), (0, height)])
    return closed, [width, height], image


def gradient_saturated(m, width, height):
    """Central differences in i16, |gx| + |gy| saturated to 8 bits with `u8_sat`."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    gx, gy, mag = m.Func("gx"), m.Func("gy"), m.Func("magnitude")
    gx[x, y] = m.i16(image[x + 1, y]) - m.i16(image[x - 1, y])
    gy[x, y] = m.i16(image[x, y + 1]) - m.i16(image[x, y - 1])
    mag[x, y] = m.u8_sat(m.abs(gx[x, y]) + m.abs(gy[x, y]))
    mag.set_estimates([(0, width), (0, height)])
    return mag, [width, height], image


def blur_y_only(m, width, height):
    """A 1-D 5-tap filter along y only (1 2 3 2 1) / 9, in 16 bits."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("blur_y")
    taps = (1, 2, 3, 2, 1)
    out[x, y] = sum(t * image[x, y + k - 2] for k, t in enumerate(taps)) / 9
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def conv_kernel_func(m, width, height):
    """A 3x3 convolution whose weights are a Func of constants, defined point by point by updates."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, i, j = m.Var("x"), m.Var("y"), m.Var("i"), m.Var("j")
    kernel, conv, out = m.Func("kernel"), m.Func("conv"), m.Func("sharpened")
    kernel[i, j] = m.i16(0)
    kernel[0, 0] = m.i16(9)
    kernel[-1, 0] = m.i16(-2)
    kernel[1, 0] = m.i16(-2)
    kernel[0, -1] = m.i16(-2)
    kernel[0, 1] = m.i16(-2)
    r = m.RDom([(-1, 3), (-1, 3)])
    conv[x, y] = m.i16(0)
    conv[x, y] += kernel[r.x, r.y] * m.i16(image[x + r.x, y + r.y])
    out[x, y] = m.u8(m.clamp(conv[x, y], 0, 255))
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def stride2_conv(m, width, height):
    """A 3x3 binomial convolution at stride 2 (an output pixel per 2x2 input block)."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("strided")
    w = ((1, 2, 1), (2, 4, 2), (1, 2, 1))
    out[x, y] = sum(w[j][i] * image[2 * x + i, 2 * y + j] for i in range(3) for j in range(3)) >> 4
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def dilated_conv(m, width, height):
    """A 3x3 box convolution dilated by 2 (taps 2 apart), an RDom sum in 16 bits."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(-1, 3), (-1, 3)])
    total, out = m.Func("total"), m.Func("dilated_box")
    total[x, y] = m.u16(0)
    total[x, y] += m.u16(image[x + 2 * r.x, y + 2 * r.y])
    out[x, y] = m.u8(total[x, y] / 9)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def subsample3(m, width, height):
    """A downsample by 3 keeping each block's centre pixel, plus one."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("subsampled")
    out[x, y] = image[3 * x + 1, 3 * y + 1] + 1
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def max_pool3(m, width, height):
    """A 3x3 max-pool at stride 3 (`maximum` over an RDom)."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(0, 3), (0, 3)])
    pool = m.Func("pool3")
    pool[x, y] = m.maximum(image[3 * x + r.x, 3 * y + r.y])
    pool.set_estimates([(0, width), (0, height)])
    return pool, [width, height], image


def upsample3(m, width, height):
    """A nearest-neighbour upsample by 3, doubled."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("upsampled")
    out[x, y] = image[x / 3, y / 3] * 2
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def dog_2d(m, width, height):
    """A difference of Gaussians: a 3x3 and a 5x5 binomial blur as RDom sums over weight Funcs, signed output."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    w3, w5 = m.Func("w3"), m.Func("w5")
    w3[i] = m.select(i == 0, 2, 1)
    w5[i] = m.select(i == 0, 6, m.abs(i) == 1, 4, 1)
    r3, r5 = m.RDom([(-1, 3), (-1, 3)]), m.RDom([(-2, 5), (-2, 5)])
    small, large, dog = m.Func("small"), m.Func("large"), m.Func("dog")
    small[x, y] = m.u16(0)
    small[x, y] += m.u16(w3[r3.x] * w3[r3.y]) * m.u16(image[x + r3.x, y + r3.y])
    large[x, y] = m.u16(0)
    large[x, y] += m.u16(w5[r5.x] * w5[r5.y]) * m.u16(image[x + r5.x, y + r5.y])
    dog[x, y] = m.i16(small[x, y] >> 4) - m.i16(large[x, y] >> 8)
    dog.set_estimates([(0, width), (0, height)])
    return dog, [width, height], image


def tone_curve(m, width, height):
    """A tone curve as a 256-entry table (a clamped S-curve) read at the pixel brightened and clamped."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    curve, out = m.Func("curve"), m.Func("toned")
    centred = i - 128
    curve[i] = m.u8(m.clamp(128 + centred + centred * (128 - m.abs(centred)) / 256, 0, 255))
    out[x, y] = curve[m.clamp(m.i32(image[x, y]) + 10, 0, 255)]
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def yuv_interleaved(m, width, height):
    """RGB to YUV in fixed point over an interleaved image in(c, x, y) into an interleaved out(c, x, y)."""
    image = m.ImageParam(m.UInt(8), 3, "image")
    c, x, y = m.Var("c"), m.Var("x"), m.Var("y")
    out = m.Func("yuv")
    r, g, b = (m.i32(image[k, x, y]) for k in range(3))
    luma = (66 * r + 129 * g + 25 * b + 128) / 256 + 16
    u = (-38 * r - 74 * g + 112 * b + 128) / 256 + 128
    v = (112 * r - 94 * g - 18 * b + 128) / 256 + 128
    out[c, x, y] = m.u8(m.clamp(m.select(c == 0, luma, c == 1, u, v), 0, 255))
    out.set_estimates([(0, 3), (0, width), (0, height)])
    return out, [3, width, height], image


def channel_sum(m, width, height):
    """A weighted sum over a planar image's three channels, an RDom `sum` with the weight a select of r."""
    image = m.ImageParam(m.UInt(8), 3, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(0, 3)])
    out = m.Func("grey")
    out[x, y] = m.u8(m.sum(m.u16(m.select(r.x == 1, 2, 1)) * m.u16(image[x, y, r.x])) >> 2)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def hysteresis(m, width, height):
    """Two thresholds: strong pixels, and weak ones kept where a 3x3 neighbour is strong (select and `maximum`)."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    strong, out = m.Func("strong"), m.Func("edges")
    strong[x, y] = m.select(image[x, y] > 180, m.u8(1), m.u8(0))
    r = m.RDom([(-1, 3), (-1, 3)])
    near = m.maximum(strong[x + r.x, y + r.y])
    out[x, y] = m.select(strong[x, y] == 1, m.u8(255), (image[x, y] > 90) & (near == 1), m.u8(128), m.u8(0))
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def constant_exterior_blur(m, width, height):
    """A 3x3 box blur of an image read through constant_exterior (zero outside a width x height image)."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    padded = m.BoundaryConditions.constant_exterior(image, 0, [(0, width), (0, height)])
    out = m.Func("blur")
    out[x, y] = m.u8(sum(m.u16(padded[x + i, y + j]) for i in (-1, 0, 1) for j in (-1, 0, 1)) / 9)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def box5_where_less(m, width, height):
    """A 5x5 box sum over an RDom (25 points, no `where`), accumulated in 32 bits, divided by 25."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(-2, 5), (-2, 5)])
    total, out = m.Func("total"), m.Func("box5")
    total[x, y] = m.u32(0)
    total[x, y] += m.u32(image[x + r.x, y + r.y])
    out[x, y] = m.u8(total[x, y] / 25)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def laplacian_i32(m, width, height):
    """A 4-neighbour Laplacian in 32 bits, added to the image and saturated back to 8 bits."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    lap, out = m.Func("lap"), m.Func("sharp")

    def p(dx, dy):
        return m.i32(image[x + dx, y + dy])

    lap[x, y] = 4 * p(0, 0) - p(-1, 0) - p(1, 0) - p(0, -1) - p(0, 1)
    out[x, y] = m.u8_sat(p(0, 0) + lap[x, y] / 2)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def bit_mix(m, width, height):
    """Shifts and bit operations: the high nibble of a pixel with the high nibble of its right neighbour as low
    nibble, xored with the pixel below."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("mixed")
    out[x, y] = ((image[x, y] & m.u8(0xF0)) | (image[x + 1, y] >> 4)) ^ image[x, y + 1]
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def divide_constants(m, width, height):
    """Division and modulo by constants that are not powers of two: a 1x3 sum / 7 and the centre % 5."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("divided")
    total = image[x - 1, y] + image[x, y] + image[x + 1, y]
    out[x, y] = total / 7 + image[x, y] % 5
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def cross_min_max(m, width, height):
    """A chain of min and max over a 5-point cross: the range (max - min) of the cross."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("cross_range")
    pts = [image[x, y], image[x - 1, y], image[x + 1, y], image[x, y - 1], image[x, y + 1]]
    hi, lo = pts[0], pts[0]
    for p in pts[1:]:
        hi, lo = m.max(hi, p), m.min(lo, p)
    out[x, y] = hi - lo
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def ssd_shift(m, width, height):
    """Block matching at one disparity: the 3x3 sum of squared differences between an image and itself shifted
    by 4 along x, in 32 bits."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    diff, ssd = m.Func("diff"), m.Func("ssd")
    d = m.i32(image[x, y]) - m.i32(image[x + 4, y])
    diff[x, y] = d * d
    r = m.RDom([(-1, 3), (-1, 3)])
    ssd[x, y] = m.u32(0)
    ssd[x, y] += m.u32(diff[x + r.x, y + r.y])
    ssd.set_estimates([(0, width), (0, height)])
    return ssd, [width, height], image


def abs_diff_threshold(m, width, height):
    """An edge-preserving smooth: the mean of the 4 neighbours within 20 of the centre (counted by selects), or the
    centre when none is; 16-bit sums, division by a count."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("smoothed")
    centre = m.u16(image[x, y])
    nbrs = [m.u16(image[x + dx, y + dy]) for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    close = [m.absd(n, centre) < 20 for n in nbrs]
    total = sum(m.select(c, n, m.u16(0)) for c, n in zip(close, nbrs, strict=True))
    count = sum(m.select(c, m.u16(1), m.u16(0)) for c in close)
    out[x, y] = m.u8(m.select(count == 0, centre, (total + centre) / (count + 1)))
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


def row_of_rdom(m, width, height):
    """A 1-D 7-tap moving average of a 1-D signal, an RDom over an offset window, u16."""
    signal = m.ImageParam(m.UInt(8), 1, "signal")
    x = m.Var("x")
    r = m.RDom([(-3, 7)])
    avg = m.Func("moving")
    avg[x] = m.u8(m.sum(m.u16(signal[x + r.x])) / 7)
    avg.set_estimates([(0, width * height)])
    return avg, [width * height], signal


def two_stage_u16(m, width, height):
    """u16 intermediates: the image squared (>> 4) in a Func, then a 2x2 box of it, saturated to 8 bits."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    sq, out = m.Func("sq"), m.Func("energy")
    sq[x, y] = (m.u16(image[x, y]) * m.u16(image[x, y])) >> 4
    out[x, y] = m.u8_sat((sq[x, y] + sq[x + 1, y] + sq[x, y + 1] + sq[x + 1, y + 1]) >> 4)
    out.set_estimates([(0, width), (0, height)])
    return out, [width, height], image


ALL = (census, lbp_uniform, closing, gradient_saturated, blur_y_only, conv_kernel_func, stride2_conv, dilated_conv,
       subsample3, max_pool3, upsample3, dog_2d, tone_curve, yuv_interleaved, channel_sum, hysteresis,
       constant_exterior_blur, box5_where_less, laplacian_i32, bit_mix, divide_constants, cross_min_max, ssd_shift,
       abs_diff_threshold, row_of_rdom, two_stage_u16)
