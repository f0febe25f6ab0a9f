"""Probe11's programs (session 27), each written in module m (`mainspring`, or `halide`, which gets no hardware
schedule) and returning (output, {name: ImageParam}): reference-system generators (../../../../shared/h2h) with
schedule variants the ports leave out (host tiles of each TailStrategy over an upsample, seed 002's three levels
through in_() copies, a reordered output tile, store_in(GLB), channel pipelines unrolled along c), and unscheduled
algorithms for the autoscheduler at odd sizes (an accelerated planar output, a downsample, a clamped Sobel, an
i32 reduction). `hardware=False` leaves a mainspring program unscheduled (for the autoscheduler)."""

from probe_common import on_hardware


def up_sample(m, tail="GuardWithIf", size=22, tile=10, hardware=True):
    """h2h up_sample (a 3:1 interpolation up by 2 in x and y) in host tiles of 10 over 22, the last shifted."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, upx, nn, hw_output, output = (m.Func(n) for n in ("hw_input", "upx", "nn", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x + 1, y + 1])
    upx[x, y] = hw_input[(x / 2) - 1 + 2 * (x % 2), y] / 4 + 3 * hw_input[x / 2, y] / 4
    nn[x, y] = upx[x, (y / 2) - 1 + 2 * (y % 2)] / 4 + 3 * upx[x, y / 2] / 4
    hw_output[x, y] = nn[x, y]
    output[x, y] = m.u8(hw_output[x, y])
    if on_hardware(m, hardware):
        xo, yo, xi, yi = m.Var("xo"), m.Var("yo"), m.Var("xi"), m.Var("yi")
        output.bound(x, 0, size).bound(y, 0, size)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, tile, tile, getattr(m.TailStrategy, tail))
        hw_output.hw_accelerate(xi, xo)
        upx.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}


def conv33_glb_in(m, w=15, h=9, hardware=True):
    """h2h conv_3_3 in seed 002's three levels: hw_output.in_() in the GLB, memory tiles of 5x3, the input's
    GLB copy hw_input.in_() and its memory-tile copy hw_input.in_().in_()."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    kernel, conv, hw_input, hw_output, output = (
        m.Func(n) for n in ("kernel", "conv", "hw_input", "hw_output", "output"))
    kernel[x, y] = 0
    for (i, j), v in {(0, 0): 11, (0, 1): 12, (0, 2): 13, (1, 0): 0, (1, 1): 0, (1, 2): 16, (2, 0): 17,
                      (2, 1): 18, (2, 2): 19}.items():
        kernel[i, j] = v
    conv[x, y] = m.u16(0)
    hw_input[x, y] = m.u16(inp[x, y])
    conv[x, y] += m.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = conv[x, y]
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    if on_hardware(m, hardware):
        xo, yo, xi, yi, xio, yio, xii, yii = (m.Var(n) for n in "xo yo xi yi xio yio xii yii".split())
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.in_().compute_root()
        hw_output.in_().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        hw_output.in_().store_in(m.MemoryType.GLB)
        hw_output.tile(x, y, xio, yio, xii, yii, 5, 3)
        hw_output.compute_at(hw_output.in_(), xo)
        conv.compute_at(hw_output, xio)
        conv.update().unroll(r.x, 3).unroll(r.y, 3)
        kernel.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(hw_output.in_(), xo)
        hw_input.in_().store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}


def accumulation_reorder(m, w=11, h=7, hardware=True):
    """h2h accumulation (weights kernel(r.x + 3 r.y) computed at conv's x, unrolled by 9), the output's tile
    reordered column by column (reorder(yi, xi, xo, yo))."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    kernel, conv, hw_input, hw_output, output = (
        m.Func(n) for n in ("kernel", "conv", "hw_input", "hw_output", "output"))
    kernel[x] = x
    conv[x, y] = m.u16(0)
    hw_input[x, y] = m.u16(inp[x, y])
    conv[x, y] += m.u16(kernel[r.x + 3 * r.y]) * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(conv[x, y])
    output[x, y] = m.u8(hw_output[x, y])
    if on_hardware(m, hardware):
        xo, yo, xi, yi = m.Var("xo"), m.Var("yo"), m.Var("xi"), m.Var("yi")
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).reorder(yi, xi, xo, yo).hw_accelerate(xi, xo)
        conv.store_at(hw_output, xo).compute_at(hw_output, xo)
        kernel.compute_at(conv, x)
        kernel.unroll(x, 9)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}


def three_level_glb(m, hardware=True):
    """h2h three_level_memory with store_in(GLB) on its GLB copies: memory tiles of 7x5 in a 14x15 GLB tile."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    kernel, conv, hw_input, input_host, input_gb, hw_output, output_gb, output = (
        m.Func(n) for n in ("kernel", "conv", "hw_input", "input_host", "input_gb", "hw_output", "output_gb",
                            "output"))
    kernel[x, y] = 1
    input_host[x, y] = m.u16(inp[x, y])
    input_gb[x, y] = input_host[x, y]
    hw_input[x, y] = input_gb[x, y]
    conv[x, y] += hw_input[x + r.x, y + r.y]
    output_gb[x, y] = conv[x, y]
    hw_output[x, y] = output_gb[x, y]
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    if on_hardware(m, hardware):
        x_host, y_host, x_gb, y_gb, x_cgra, y_cgra, xi, yi = (
            m.Var(n) for n in "x_host y_host x_gb y_gb x_cgra y_cgra xi yi".split())
        hw_output.compute_root()
        output.bound(x, 0, 14).bound(y, 0, 15)
        hw_output.tile(x, y, x_host, y_host, xi, yi, 14, 15).hw_accelerate(xi, x_host)
        output_gb.compute_at(hw_output, x_host)
        output_gb.tile(x, y, x_gb, y_gb, x_cgra, y_cgra, 7, 5)
        conv.update().unroll(r.x).unroll(r.y)
        conv.compute_at(output_gb, x_gb)
        kernel.compute_at(output_gb, x_gb)
        input_host.compute_root()
        input_host.accelerator_input()
        input_gb.compute_at(hw_output, x_host)
        hw_input.compute_at(output_gb, x_gb)
        output_gb.store_in(m.MemoryType.GLB)
        input_gb.store_in(m.MemoryType.GLB)
    return output, {"input": inp}


def rgb_channels_unroll(m, w=9, h=6, hardware=True):
    """An unsharp-like channel pipeline: gray from a pixel's 3 channels, a 3x3 box of gray, a sharpened gray times
    each channel; hw_output(c, x, y) and the stream hw_input(c, x, y) unrolled along c."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "win")
    hw_input, gray, bl, sharp, hw_output, output = (
        m.Func(n) for n in ("hw_input", "gray", "blur", "sharpen", "hw_output", "output"))
    hw_input[c, x, y] = m.u16(inp[x + 1, y + 1, c])
    gray[x, y] = m.u16((77 * hw_input[0, x, y] + 150 * hw_input[1, x, y] + 29 * hw_input[2, x, y]) >> 8)
    bl[x, y] = m.u16(0)
    bl[x, y] += gray[x + r.x, y + r.y]
    sharp[x, y] = m.u16(m.clamp(2 * m.i16(gray[x, y]) - m.i16(bl[x, y] / 9), 0, 255))
    hw_output[c, x, y] = (sharp[x, y] * hw_input[c, x, y]) >> 8
    output[x, y, c] = m.u8(hw_output[c, x, y])
    output.bound(c, 0, 3)
    if on_hardware(m, hardware):
        xo, yo, xi, yi = m.Var("xo"), m.Var("yo"), m.Var("xi"), m.Var("yi")
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
        hw_output.unroll(c)
        gray.compute_at(hw_output, xo)
        bl.compute_at(hw_output, xo)
        bl.update().unroll(r.x).unroll(r.y)
        sharp.compute_at(hw_output, xo)
        hw_input.compute_root().accelerator_input()
        hw_input.unroll(c)
    return output, {"input": inp}


# ---- unscheduled, for the autoscheduler: (m, w, h) -> (output, images), estimates set ----


def planar_gain(m, w, h):
    """An accelerated planar output(x, y, c) reading hw_output(c, x, y), which the host computes from an
    interleaved image (the autoscheduler's own schedule was refused before session 27)."""
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    im = m.ImageParam(m.UInt(8), 3, "image")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[c, x, y] = m.u16(im[x, y, c]) * 3
    output[x, y, c] = m.u8(hw_output[c, x, y] >> 2)
    output.set_estimates([(0, w), (0, h), (0, 3)])
    return output, {"image": im}


def down2_box(m, w, h):
    """A 2x2 box downsample of an i16 image summed in i32, then clamped."""
    im = m.ImageParam(m.Int(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    s, out = m.Func("s"), m.Func("out")
    s[x, y] = m.i32(im[2 * x, 2 * y]) + im[2 * x + 1, 2 * y] + im[2 * x, 2 * y + 1] + im[2 * x + 1, 2 * y + 1]
    out[x, y] = m.i16(m.clamp(s[x, y] / 4, -1000, 1000))
    out.set_estimates([(0, w), (0, h)])
    return out, {"image": im}


def mirror_up_down(m, w, h):
    """mirror_interior, a 1-2-1 downsample by 2 in x, an upsample by 2 in x, the difference with the image (i16):
    the output reads x / 2 (the lead's fuzz --auto 159529: its guarded last transfer at odd widths was refused)."""
    im = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    c = m.BoundaryConditions.mirror_interior(im, [(0, w), (0, h)])
    dn, up, out = m.Func("dn"), m.Func("up"), m.Func("out")
    dn[x, y] = (m.u16(c[2 * x - 1, y]) + 2 * m.u16(c[2 * x, y]) + c[2 * x + 1, y]) / 4
    up[x, y] = (dn[x / 2, y] + dn[(x + 1) / 2, y]) / 2
    out[x, y] = m.i16(c[x, y]) - m.i16(up[x, y])
    out.set_estimates([(0, w), (0, h)])
    return out, {"image": im}


def up_x2(m, w, h):
    """A linear upsample by 2 along x only (i16), the output reading the image at x / 2."""
    im = m.ImageParam(m.Int(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    out = m.Func("out")
    out[x, y] = m.select(x % 2 == 0, im[x / 2, y], (im[x / 2, y] + im[x / 2 + 1, y]) / 2)
    out.set_estimates([(0, w), (0, h)])
    return out, {"image": im}


def clamped_sobel_u16(m, w, h):
    """repeat_edge over a u16 image, |gx| + |gy| in i32, saturated to u16."""
    im = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    c = m.BoundaryConditions.repeat_edge(im, [(0, w), (0, h)])
    gx, gy, out = m.Func("gx"), m.Func("gy"), m.Func("out")
    gx[x, y] = (m.i32(c[x + 1, y - 1]) + 2 * m.i32(c[x + 1, y]) + c[x + 1, y + 1]
                - c[x - 1, y - 1] - 2 * m.i32(c[x - 1, y]) - c[x - 1, y + 1])
    gy[x, y] = (m.i32(c[x - 1, y + 1]) + 2 * m.i32(c[x, y + 1]) + c[x + 1, y + 1]
                - c[x - 1, y - 1] - 2 * m.i32(c[x, y - 1]) - c[x + 1, y - 1])
    out[x, y] = m.u16(m.min(m.abs(gx[x, y]) + m.abs(gy[x, y]), 65535))
    out.set_estimates([(0, w), (0, h)])
    return out, {"image": im}


def small_reduction_i32(m, w, h):
    """A 2x2 RDom sum in i32 of a squared u8 image read through constant_exterior."""
    im = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    c = m.BoundaryConditions.constant_exterior(im, 7, [(0, w), (0, h)])
    sq, acc, out = m.Func("sq"), m.Func("acc"), m.Func("out")
    r = m.RDom([m.Range(0, 2), m.Range(0, 2)], "r")
    sq[x, y] = m.i32(c[x, y]) * m.i32(c[x, y])
    acc[x, y] = 0
    acc[x, y] += sq[x + r.x, y + r.y]
    out[x, y] = acc[x, y] >> 2
    out.set_estimates([(0, w), (0, h)])
    return out, {"image": im}


def u16_max3(m, w, h):
    """A 1x3 vertical maximum (hl.maximum) of a u16 image, times 3 (wrapping)."""
    im = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3)], "r")
    mx, out = m.Func("mx"), m.Func("out")
    mx[x, y] = m.maximum(im[x, y + r.x])
    out[x, y] = mx[x, y] * 3
    out.set_estimates([(0, w), (0, h)])
    return out, {"image": im}


def h2h_unscheduled(build, size):
    """One of the hand programs above, unscheduled with estimates of `size`, for the autoscheduler."""
    def algorithm(m, w, h):
        out, images = build(m, hardware=False)
        out.set_estimates([(0, w), (0, h)] + [(0, e) for e in size[2:]])
        return out, images
    return algorithm
