"""Probe16's hand schedules after the Halide-to-Hardware generators (/work/shared/h2h), written as their Clockwork
branches are, at small sizes and with the schedule calls seed 002 describes: cascade, down_sample, accumulation, rom,
histogram, three_level_memory, unsharp and camera-pipeline pieces, each in module m (`mainspring`, or `halide`, which
gets no hardware schedule), returning (output, {name: ImageParam}, size)."""

from probe16_programs import _funcs, _hw, _input, _vars


def _tiled(m, output, hw_output, hw_input, size, tile=None, inner=()):
    xo, yo, xi, yi = _vars(m, "xo yo xi yi")
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *(tile or size)).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return xo, yo, xi, yi


def _kernel121(m, x, y):
    """cascade's kernel: 0 everywhere, the 3x3 binomial written point by point with updates."""
    (kernel,) = _funcs(m, "kernel")
    kernel[x, y] = 0
    for (i, j), v in {(0, 0): 1, (0, 1): 2, (0, 2): 1, (1, 0): 2, (1, 1): 4, (1, 2): 2, (2, 0): 1, (2, 1): 2,
                      (2, 2): 1}.items():
        kernel[i, j] = v
    return kernel


def _cascade(m, unrolled, size=(8, 6), tile=None, store_glb=False):
    inp, x, y, hw_input = _input(m)
    kernel = _kernel121(m, x, y)
    conv1, shift, conv2, hw_output, output = _funcs(m, "conv1 conv1_shift conv2 hw_output output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r2 = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r2")
    conv1[x, y] = m.u16(0)
    conv1[x, y] += m.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    shift[x, y] = conv1[x, y] / 16
    conv2[x, y] = m.u16(0)
    conv2[x, y] += m.u16(kernel[r2.x, r2.y]) * shift[x + r2.x, y + r2.y]
    hw_output[x, y] = conv2[x, y] / 16
    output[x, y] = m.u8(hw_output[x, y])
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, size, tile, (conv1, shift, conv2))
        if unrolled:
            conv1.update().unroll(r.x).unroll(r.y)
            conv2.update().unroll(r2.x).unroll(r2.y)
        kernel.compute_at(hw_output, m.Var("xo"))
    return output, {"input": inp}, list(size)


def cascade_unrolled(m):
    """cascade schedule 1: both 3x3 updates unrolled, the kernel Func a table computed at xo."""
    return _cascade(m, True)


def cascade_serial(m):
    """Both updates serial (9 steps a pixel), over host tiles of 4x3."""
    return _cascade(m, False, (8, 6), (4, 3))


def cascade_glb(m):
    """cascade schedule 2: the GLB level (hw_output.in_()), memory tiles of 6x4 in GLB tiles of 12x8."""
    inp, x, y, hw_input = _input(m)
    kernel = _kernel121(m, x, y)
    conv1, conv2, hw_output, output = _funcs(m, "conv1 conv2 hw_output output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    conv1[x, y] = m.u16(0)
    conv1[x, y] += m.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    conv2[x, y] = m.u16(0)
    conv2[x, y] += m.u16(kernel[r.x, r.y]) * (conv1[x + r.x, y + r.y] >> 4)
    hw_output[x, y] = conv2[x, y] >> 4
    output[x, y] = m.u8(hw_output[x, y])
    if _hw(m):
        xo, yo, xi, yi, xio, yio, xii, yii = _vars(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 12).bound(y, 0, 8)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 12, 8).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 6, 4)
        for f in (conv1, conv2):
            f.compute_at(hw_output, xio).update().unroll(r.x).unroll(r.y)
        kernel.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [12, 8]


def maxpool_2x2(m):
    """down_sample: max_pool(x, y) = maximum(hw_input(2x + r.x, 2y + r.y)), computed at xo."""
    inp, x, y, hw_input = _input(m)
    pool, hw_output, output = _funcs(m, "max_pool hw_output output")
    r = m.RDom([m.Range(0, 2), m.Range(0, 2)], "r")
    pool[x, y] = m.maximum(hw_input[x * 2 + r.x, y * 2 + r.y])
    hw_output[x, y] = pool[x, y]
    output[x, y] = m.u8(hw_output[x, y])
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4), inner=(pool,))
    return output, {"input": inp}, [6, 4]


def maxpool_linebuffer_unrolled(m):
    """down_sample's CoreIR branch: max_pool.unroll(x, 2).unroll(y, 2).linebuffer(), over 2x2 host tiles."""
    inp, x, y, hw_input = _input(m)
    pool, hw_output, output = _funcs(m, "max_pool hw_output output")
    r = m.RDom([m.Range(0, 2), m.Range(0, 2)], "r")
    pool[x, y] = m.maximum(hw_input[x * 2 + r.x, y * 2 + r.y])
    hw_output[x, y] = pool[x, y]
    output[x, y] = m.u8(hw_output[x, y])
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (8, 8), (4, 4))
        pool.unroll(x, 2).unroll(y, 2)
        pool.linebuffer()
    return output, {"input": inp}, [8, 8]


def accumulation_kernel_at_conv(m):
    """accumulation: kernel(x) = x read at r.x + 3 r.y; conv stored and computed at xo, kernel.compute_at(conv, x)
    unrolled by 9."""
    inp, x, y, hw_input = _input(m)
    kernel, conv, hw_output, output = _funcs(m, "kernel conv hw_output output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    kernel[x] = x
    conv[x, y] = m.u16(0)
    conv[x, y] += m.u16(kernel[r.x + 3 * r.y]) * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(conv[x, y])
    output[x, y] = m.u8(hw_output[x, y])
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 6))
        conv.store_at(hw_output, m.Var("xo")).compute_at(hw_output, m.Var("xo"))
        kernel.compute_at(conv, x)
        kernel.unroll(x, 9)
    return output, {"input": inp}, [6, 6]


def rom_gamma_curve(m):
    """rom: a float gamma curve over 64 entries (a ROM, curve.compute_at(hw_output, yi).unroll(x)), read at the
    clamped input."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, curve, lookup, hw_output, output = _funcs(m, "hw_input curve lookup hw_output output")
    hw_input[x, y] = m.i16(inp[x, y]) * m.i16(3)
    xf = x / m.f32(64.0)
    g = m.pow(xf, m.f32(1.0 / 2.2))
    curve[x] = m.u16(m.clamp(g * m.f32(256.0), m.f32(0.0), m.f32(255.0)))
    lookup[x, y] = curve[m.clamp(hw_input[x, y], m.i16(0), m.i16(63))]
    hw_output[x, y] = lookup[x, y]
    output[x, y] = m.u8(hw_output[x, y])
    if _hw(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, hw_input, (8, 4))
        curve.compute_at(hw_output, yi).unroll(x)
    return output, {"input": inp}, [8, 4]


def histogram_split_bins(m):
    """histogram: 16 bins of an 8x4 image's low 4 bits; hw_output.split(b, bo, bi, 16).hw_accelerate(bi, bo),
    bin computed at bo."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    hw_input, binf, hist, hw_output, output = _funcs(m, "hw_input bin histogram hw_output output")
    hw_input[x, y] = m.u16(inp[x, y])
    r = m.RDom([m.Range(0, 8), m.Range(0, 4)], "r")
    binf[x, y] = m.clamp(m.i32(hw_input[x, y] & 0xf), 0, 15)
    hist[b] = m.u16(0)
    hist[binf[r.x, r.y]] += m.u16(1)
    hw_output[b] = hist[b]
    output[b] = m.u8(hw_output[b])
    if _hw(m):
        bo, bi = _vars(m, "bo bi")
        hist.bound_extent(b, 16)
        output.bound(b, 0, 16)
        hw_output.compute_root().split(b, bo, bi, 16).hw_accelerate(bi, bo)
        binf.compute_at(hw_output, bo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [16]


def three_level_without_store_in(m):
    """three_level_memory's Clockwork branch: output_gb computed at x_host and tiled, conv at x_gb, the copies
    input_host (accelerator_input), input_gb and hw_input at the three levels, no store_in."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    kernel, conv, input_host, input_gb, hw_input, output_gb, hw_output, output = _funcs(
        m, "kernel conv input_host input_gb hw_input output_gb hw_output output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    kernel[x, y] = 1
    input_host[x, y] = m.u16(inp[x, y])
    input_gb[x, y] = input_host[x, y]
    hw_input[x, y] = input_gb[x, y]
    conv[x, y] = m.u16(0)
    conv[x, y] += m.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    output_gb[x, y] = conv[x, y]
    hw_output[x, y] = output_gb[x, y]
    output[x, y] = m.u8(hw_output[x, y])
    if _hw(m):
        x_host, y_host, x_gb, y_gb, x_cgra, y_cgra, xi, yi = _vars(m, "x_host y_host x_gb y_gb x_cgra y_cgra xi yi")
        output.bound(x, 0, 8).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, x_host, y_host, xi, yi, 8, 8).hw_accelerate(xi, x_host)
        output_gb.compute_at(hw_output, x_host).tile(x, y, x_gb, y_gb, x_cgra, y_cgra, 4, 4)
        conv.update().unroll(r.x).unroll(r.y)
        conv.compute_at(output_gb, x_gb)
        kernel.compute_at(output_gb, x_gb)
        input_host.compute_root().accelerator_input()
        input_gb.compute_at(hw_output, x_host)
        hw_input.compute_at(output_gb, x_gb)
    return output, {"input": inp}, [8, 8]


def unsharp_gray(m):
    """unsharp on one channel: a 3x3 blur (separable), sharpen = 2 in - blur, a ratio by a division."""
    inp, x, y, hw_input = _input(m)
    bx, by, sharpen, hw_output, output = _funcs(m, "blur_x blur_y sharpen hw_output output")
    bx[x, y] = hw_input[x, y] + 2 * hw_input[x + 1, y] + hw_input[x + 2, y]
    by[x, y] = (bx[x, y] + 2 * bx[x, y + 1] + bx[x, y + 2]) >> 4
    sharpen[x, y] = m.i16(2 * hw_input[x + 1, y + 1]) - m.i16(by[x, y])
    hw_output[x, y] = m.u8(m.clamp(sharpen[x, y], 0, 255))
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (8, 6), inner=(bx, by))
    return output, {"input": inp}, [8, 6]


def demosaic_bayer_quads(m):
    """camera pipeline's demosaic piece: a Bayer mosaic's green at each pixel by select on x % 2, y % 2."""
    inp, x, y, hw_input = _input(m)
    g, hw_output, output = _funcs(m, "green hw_output output")
    avg = (hw_input[x, y + 1] + hw_input[x + 2, y + 1] + hw_input[x + 1, y] + hw_input[x + 1, y + 2]) >> 2
    g[x, y] = m.select((x % 2) == (y % 2), avg, hw_input[x + 1, y + 1])
    hw_output[x, y] = m.u8(g[x, y])
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (8, 6), inner=(g,))
    return output, {"input": inp}, [8, 6]


CASES = {f.__name__: f for f in (
    cascade_unrolled, cascade_serial, cascade_glb, maxpool_2x2, maxpool_linebuffer_unrolled,
    accumulation_kernel_at_conv, rom_gamma_curve, histogram_split_bins, three_level_without_store_in,
    unsharp_gray, demosaic_bayer_quads,
)}
