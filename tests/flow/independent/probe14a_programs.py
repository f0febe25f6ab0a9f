"""Probe14a's programs (session 30): Halide-to-Hardware generators written again from the C++
(../../../../shared/h2h) at GeneratorParams and schedules other than the ports', each in module m (`mainspring`,
or `halide`, which gets no hardware schedule) and returning (output, {name: ImageParam}, size). cascade's
schedule 2 (GLB tiles of memory tiles, `hw_input.in_().in_()`), conv_layer_mobile with its input streamed a pixel's
channels per transfer (the fix its serial-lanes note gives), down_sample at stride 3 with the CoreIR branch's
unrolls, up_sample (`hl._`) in host tiles, accumulation with the CoreIR branch's schedule, an 8-bit histogram, and
a blur scheduled with Halide's keyword arguments and list form of tile."""

from probe_common import on_hardware, vars_of


def cascade_glb(m, out=12):
    """cascade_generator.cpp, schedule 2: hw_output.in_() in the GLB tiled by `out`, hw_output in memory tiles of
    out / 2, both 3x3 convolutions unrolled, hw_input.in_() in the GLB and hw_input.in_().in_() in the tiles."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    kernel, conv1, conv1_shift, conv2 = m.Func("kernel"), m.Func("conv1"), m.Func("conv1_shift"), m.Func("conv2")
    r, r2 = m.RDom([m.Range(0, 3), m.Range(0, 3)]), m.RDom([m.Range(0, 3), m.Range(0, 3)])
    kernel[x, y] = 0
    for (i, j), v in {(0, 0): 1, (0, 1): 2, (0, 2): 1, (1, 0): 2, (1, 1): 4, (1, 2): 2, (2, 0): 1, (2, 1): 2,
                      (2, 2): 1}.items():
        kernel[i, j] = v
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    conv1[x, y] = m.u16(0)
    conv1[x, y] += m.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    conv1_shift[x, y] = conv1[x, y] / 16
    conv2[x, y] = m.u16(0)
    conv2[x, y] += m.u16(kernel[r2.x, r2.y]) * conv1_shift[x + r2.x, y + r2.y]
    hw_output[x, y] = conv2[x, y] / 16
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    if on_hardware(m):
        xii, xio, yii, yio, xi, xo, yi, yo = vars_of(m, "xii xio yii yio xi xo yi yo")
        output.bound(x, 0, out).bound(y, 0, out)
        hw_output.in_().compute_root().tile(x, y, xo, yo, xi, yi, out, out).hw_accelerate(xi, xo) \
            .store_in(m.MemoryType.GLB)
        hw_output.tile(x, y, xio, yio, xii, yii, out // 2, out // 2).compute_at(hw_output.in_(), xo)
        conv2.compute_at(hw_output, xio)
        conv2.update().unroll(r2.x).unroll(r2.y)
        conv1.compute_at(hw_output, xio)
        conv1.update().unroll(r.x).unroll(r.y)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(hw_output.in_(), xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
        kernel.compute_at(hw_output, xio)
    return output, {"input": inp}, [out, out]


def mobile_channels_per_transfer(m, size=8, lanes_fix=True):
    """conv_layer_generator.cpp's Clockwork schedule at 8x8, with (lanes_fix) `hw_input.reorder(c, x, y).unroll(c)`:
    the input streams a pixel's 4 channels per transfer, so the depthwise and pointwise unrolls of c keep their
    lanes. Without it those run serially and the design's notes give this call."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c, k = vars_of(m, "x y c k")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    filter_dw, filter_pw, dw_conv, pw_conv, pw_red = (m.Func(n) for n in ("filter_dw", "filter_pw", "dw_conv",
                                                                         "pw_conv", "pw_conv_reduction"))
    filter_dw[x, y, c] = m.u16(1)
    filter_pw[c, k] = m.u16(3)
    r_dw, r_pw = m.RDom([m.Range(0, 3), m.Range(0, 3)]), m.RDom([m.Range(0, 4)])
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    dw_conv[x, y, c] = m.i16(0)
    dw_conv[x, y, c] += m.i16(filter_dw[r_dw.x, r_dw.y, c] * hw_input[x + r_dw.x, y + r_dw.y, c])
    pw_conv[k, x, y, c] = m.i16(0)
    pw_conv[k, x, y, c] += m.i16(filter_pw[k, c] * dw_conv[x, y, c])
    pw_red[k, x, y] = m.i16(0)
    pw_red[k, x, y] += m.i16(pw_conv[k, x, y, r_pw.x])
    hw_output[x, y, k] = m.max(0, pw_red[k, x, y])
    output[x, y, k] = m.u8(hw_output[x, y, k])
    if on_hardware(m):
        xo, xi, yo, yi = vars_of(m, "xo xi yo yi")
        output.bound(x, 0, size).bound(y, 0, size).bound(k, 0, 3)
        pw_red.bound(x, 0, size).bound(y, 0, size)
        pw_conv.bound(c, 0, 4)
        hw_output.compute_root()
        hw_output.tile(x, y, xo, yo, xi, yi, size, size).reorder(xi, yi, k, xo, yo).hw_accelerate(xi, xo)
        filter_dw.compute_at(hw_output, xo).unroll(x).unroll(y).unroll(c)
        filter_pw.compute_at(hw_output, xo).unroll(c).unroll(k)
        pw_red.update().reorder(k, x, y, r_pw.x).unroll(k)
        pw_red.compute_at(hw_output, xo).store_at(hw_output, xo)
        pw_conv.compute_at(hw_output, xo).store_at(hw_output, xo).reorder(c, x, y, k)
        pw_conv.update().unroll(c).unroll(k)
        dw_conv.compute_at(hw_output, xo).reorder(x, y, c)
        dw_conv.update().reorder(r_dw.x, r_dw.y, x, y, c).unroll(r_dw.x).unroll(r_dw.y).unroll(c)
        hw_input.stream_to_accelerator()
        if lanes_fix:
            hw_input.reorder(c, x, y).unroll(c)
    return output, {"input": inp}, [size, size, 3]


def down_sample_stride3_unrolled(m, out=5):
    """down_sample_generator.cpp at stride 3 (a 3x3 max pool), max_pool unrolled by the stride in x and y as the
    CoreIR branch writes it, in the Clockwork schedule."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    stride = 3
    r = m.RDom([m.Range(0, stride), m.Range(0, stride)])
    hw_input, max_pool, hw_output, output = (m.Func(n) for n in ("hw_input", "max_pool", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    max_pool[x, y] = m.maximum(hw_input[x * stride + r.x, y * stride + r.y])
    hw_output[x, y] = max_pool[x, y]
    output[x, y] = m.u8(hw_output[x, y])
    if on_hardware(m):
        xi, yi, xo, yo = vars_of(m, "xi yi xo yo")
        output.bound(x, 0, out).bound(y, 0, out)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, out, out).hw_accelerate(xi, xo)
        max_pool.compute_at(hw_output, xo).unroll(x, stride).unroll(y, stride)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [out, out]


def up_sample_host_tiles(m, osize=12, tiles=2):
    """up_sample_generator.cpp (implicit variables `hl._`) in 2x2 host tiles of 12x12."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    _ = m._
    hw_input, upx, nn, hw_output, output = (m.Func(n) for n in ("hw_input", "upx", "nearest_neighbor",
                                                                "hw_output", "output"))
    hw_input[x, y] = m.cast(m.UInt(16), inp[x + 1, y + 1])
    upx[x, y, _] = hw_input[(x / 2) - 1 + 2 * (x % 2), y, _] / 4 + 3 * hw_input[x / 2, y, _] / 4
    nn[x, y, _] = upx[x, (y / 2) - 1 + 2 * (y % 2), _] / 4 + 3 * upx[x, y / 2, _] / 4
    hw_output[x, y] = nn[x, y]
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    if on_hardware(m):
        xi, yi, xo, yo = vars_of(m, "xi yi xo yo")
        output.bound(x, 0, osize * tiles).bound(y, 0, osize * tiles)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, osize, osize).hw_accelerate(xi, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [osize * tiles, osize * tiles]


def accumulation_coreir_schedule(m, out=9):
    """accumulation_generator.cpp with its CoreIR branch's schedule on the CGRA: conv stored at the tile, computed
    per output pixel (compute_at(hw_output, xi)) with r.y unrolled, the weights kernel(x) = x per row."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)])
    kernel, conv, hw_input, hw_output, output = (m.Func(n) for n in ("kernel", "conv", "hw_input", "hw_output",
                                                                     "output"))
    kernel[x] = x
    conv[x, y] = m.u16(0)
    hw_input[x, y] = m.u16(inp[x, y])
    conv[x, y] += m.u16(kernel[r.x + 3 * r.y]) * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(conv[x, y])
    output[x, y] = m.u8(hw_output[x, y])
    if on_hardware(m):
        xi, yi, xo, yo = vars_of(m, "xi yi xo yo")
        output.bound(x, 0, out).bound(y, 0, out)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, out, out).hw_accelerate(xi, xo)
        conv.update().unroll(r.y)
        conv.store_at(hw_output, xo).compute_at(hw_output, xi)
        kernel.store_at(hw_output, yi).compute_at(hw_output, yi)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [out, out]


def histogram_256_bins(m, size=12):
    """histogram_generator.cpp with 8-bit bins (256) over a 12x12 image; `hl.Expr` extents for the RDom."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    hw_input, bin_, hist, hw_output, output = (m.Func(n) for n in ("hw_input", "bin", "histogram", "hw_output",
                                                                   "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    r = m.RDom([m.Range(0, m.Expr(size)), m.Range(0, m.Expr(size))])
    bin_[x, y] = m.clamp(m.i32(hw_input[x, y] & 0xff), 0, 255)
    hist[b] = m.u16(0)
    hist[bin_[r.x, r.y]] += m.u16(1)
    hw_output[b] = hist[b]
    output[b] = m.u8(hw_output[b])
    if on_hardware(m):
        bo, bi = vars_of(m, "bo bi")
        hist.bound_extent(b, 256)
        output.bound(b, 0, 256)
        hw_output.compute_root().split(b, bo, bi, 256).hw_accelerate(bi, bo)
        bin_.compute_at(hw_output, bo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [256]


def keyword_calls_blur(m):
    """A 3x3 blur scheduled with Halide 21's keyword arguments: tile over lists with tail=RoundUp (host tiles of
    6x4 over 12x8), bound(var=, min=, extent=), compute_at(f=, var=), unroll(var=, factor=), RDom(region=, name=)."""
    inp = m.ImageParam(type=m.UInt(8), dimensions=2, name="input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom(region=[m.Range(0, 3), m.Range(0, 3)], name="r")
    hw_input, blur, hw_output, output = (m.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    blur[x, y] = m.u16(0)
    blur[x, y] += hw_input[x + r.x, y + r.y]
    hw_output[x, y] = blur[x, y] / 9
    output[x, y] = m.u8(hw_output[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(var=x, min=0, extent=12).bound(var=y, min=0, extent=8)
        hw_output.compute_root().tile(previous=[x, y], outers=[xo, yo], inners=[xi, yi], factors=[6, 4],
                                      tail=m.TailStrategy.RoundUp)
        hw_output.hw_accelerate(xi, xo)
        blur.compute_at(f=hw_output, var=xo)
        blur.update(idx=0).unroll(var=r.x, factor=3).unroll(var=r.y)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [12, 8]


def image_wrapper_channels(m, lanes_fix=True):
    """A 3x3 box per channel of an interleaved RGB image read through `input.in_()` (the stream), 3 channels per
    cycle; the wrapper's dimensions are Halide's implicit variables, so the fix its note gives (lanes_fix) is
    `input.in_().reorder(hl._2, hl._0, hl._1).unroll(hl._2)`."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    box, hw_output, output = m.Func("box"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([(0, 3), (0, 3)])
    box[x, y, c] = m.u16(0)
    box[x, y, c] += m.u16(inp[x + r.x, y + r.y, c])
    hw_output[x, y, c] = box[x, y, c] / 9
    output[x, y, c] = m.u8(hw_output[x, y, c])
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 8).bound(y, 0, 6).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
        hw_output.unroll(c)
        box.compute_at(hw_output, xo).unroll(c)
        box.update().unroll(r.x).unroll(r.y).unroll(c)
        stream = inp.in_().compute_root().stream_to_accelerator()
        if lanes_fix:
            stream.reorder(m._2, m._0, m._1).unroll(m._2)
    return output, {"input": inp}, [8, 6, 3]


CASES = {f.__name__: f for f in (cascade_glb, mobile_channels_per_transfer, down_sample_stride3_unrolled,
                                 up_sample_host_tiles, accumulation_coreir_schedule, histogram_256_bins,
                                 keyword_calls_blur, image_wrapper_channels)}
