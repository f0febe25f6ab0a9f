"""Probe20's hand schedules (session 35), part two: channels (conv_layer_mobile's and resnet_layer_gen's structure
with other channel counts, strides and unrolls, channel-last storage, per-channel biases streamed beside the image,
colour matrices, channel splits); each in module m (`mainspring`, or `halide`), returning (output, {name:
ImageParam}, size)."""

from probe_common import on_hardware, vars_of


def _bound_out(m, output, hw_output, size, c):
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1]).bound(c, 0, size[2])
    hw_output.bound(c, 0, size[2])


def _mobile(m, size, n_in, n_out, branch="clockwork", k_unrolled=True):
    """conv_layer_mobile: a depthwise 3x3 per channel (weights 1 + x + c), a pointwise 1x1 (weights k + 2c + 1)
    reduced over the channels, relu; output u8 of `size` (x, y) by n_out."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c, k = vars_of(m, "x y c k")
    names = "hw_input filter_dw filter_pw dw_conv pw_conv pw_conv_reduction hw_output output"
    hw_input, filter_dw, filter_pw, dw, pw, pwr, hw_output, output = (m.Func(n) for n in names.split())
    r_dw = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r_dw")
    r_pw = m.RDom([m.Range(0, n_in)], "r_pw")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    filter_dw[x, y, c] = m.u16(1 + x + c)
    filter_pw[c, k] = m.u16(k + 2 * c + 1)
    dw[x, y, c] = m.i16(0)
    dw[x, y, c] += m.i16(filter_dw[r_dw.x, r_dw.y, c] * hw_input[x + r_dw.x, y + r_dw.y, c])
    pw[k, x, y, c] = m.i16(0)
    pw[k, x, y, c] += m.i16(filter_pw[k, c] * dw[x, y, c])
    pwr[k, x, y] = m.i16(0)
    pwr[k, x, y] += m.i16(pw[k, x, y, r_pw.x])
    hw_output[x, y, k] = m.max(0, pwr[k, x, y]) >> 4
    output[x, y, k] = m.u8(hw_output[x, y, k])
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, size[0]).bound(y, 0, size[1]).bound(k, 0, n_out)
        pwr.bound(x, 0, size[0]).bound(y, 0, size[1]).bound(k, 0, n_out)
        pw.bound(c, 0, n_in)
        hw_output.compute_root()
        if branch == "coreir":
            hw_output.tile(x, y, xo, yo, xi, yi, *size).reorder(k, xi, yi, xo, yo).reorder_storage(k, x, y)
        else:
            hw_output.tile(x, y, xo, yo, xi, yi, *size).reorder(xi, yi, k, xo, yo)
        hw_output.hw_accelerate(xi, xo)
        filter_dw.compute_at(hw_output, xo).unroll(x).unroll(y).unroll(c)
        filter_pw.compute_at(hw_output, xo).unroll(c).unroll(k)
        pwr.update().reorder(k, x, y, r_pw.x)
        if k_unrolled:
            pwr.update().unroll(k)
        pwr.compute_at(hw_output, xo)
        pw.compute_at(hw_output, xo).reorder(c, x, y, k)
        pw.update().unroll(c).unroll(k)
        dw.compute_at(hw_output, xo).reorder(x, y, c)
        dw.update().reorder(r_dw.x, r_dw.y, x, y, c).unroll(r_dw.x).unroll(r_dw.y).unroll(c)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [size[0], size[1], n_out]


def mobile_clockwork_two_in_three_out(m):
    """conv_layer_mobile's Clockwork branch at 2 input and 3 output channels, output 6x4 (input 8x6)."""
    return _mobile(m, (6, 4), 2, 3)


def mobile_clockwork_k_serial(m):
    """The Clockwork branch with the pointwise reduction's k not unrolled, 3 in, 2 out, 5x3."""
    return _mobile(m, (5, 3), 3, 2, k_unrolled=False)


def mobile_coreir_channels_innermost(m):
    """The CoreIR branch (k innermost in the loops and storage) at 2 in, 2 out, 4x4."""
    return _mobile(m, (4, 4), 2, 2, branch="coreir")



def mobile_coreir_branch_as_written(m, size=(4, 4), n_in=2, n_out=2):
    """conv_layer_mobile's CoreIR branch call for call (filters and biases at yo, dw_conv computed at pw_conv's x and
    stored at xo, hw_input store_at/compute_at xo), with per-channel biases, 2 in, 2 out, 4x4."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c, k = vars_of(m, "x y c k")
    names = "hw_input filter_dw filter_pw bias_dw bias_pw dw_conv pw_conv pw_conv_reduction hw_output output"
    hw_input, filter_dw, filter_pw, bias_dw, bias_pw, dw, pw, pwr, hw_output, output = (
        m.Func(n) for n in names.split())
    r_dw = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r_dw")
    r_pw = m.RDom([m.Range(0, n_in)], "r_pw")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    filter_dw[x, y, c] = m.u16(1 + x + c)
    filter_pw[c, k] = m.u16(k + 2 * c + 1)
    bias_dw[c] = m.u16(c)
    bias_pw[k] = m.u16(k * 3)
    dw[x, y, c] = m.i16(bias_dw[c])
    dw[x, y, c] += m.i16(filter_dw[r_dw.x, r_dw.y, c] * hw_input[x + r_dw.x, y + r_dw.y, c])
    pw[k, x, y, c] = m.i16(bias_pw[k])
    pw[k, x, y, c] += m.i16(filter_pw[k, c] * dw[x, y, c])
    pwr[k, x, y] = m.i16(0)
    pwr[k, x, y] += m.i16(pw[k, x, y, r_pw.x])
    hw_output[x, y, k] = m.max(0, pwr[k, x, y]) >> 4
    output[x, y, k] = m.u8(hw_output[x, y, k])
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, size[0]).bound(y, 0, size[1]).bound(k, 0, n_out)
        hw_output.bound(x, 0, size[0]).bound(y, 0, size[1]).bound(k, 0, n_out)
        pwr.bound(x, 0, size[0]).bound(y, 0, size[1]).bound(k, 0, n_out)
        hw_output.compute_root()
        hw_output.tile(x, y, xo, yo, xi, yi, *size).reorder(k, xi, yi, xo, yo).reorder_storage(k, x, y)
        hw_output.hw_accelerate(xi, xo)
        filter_dw.compute_at(hw_output, yo).unroll(x).unroll(y).unroll(c)
        filter_pw.compute_at(hw_output, yo).unroll(c).unroll(k)
        bias_dw.compute_at(hw_output, yo).unroll(c)
        bias_pw.compute_at(hw_output, yo).unroll(k)
        pwr.update().reorder(k, x, y, r_pw.x).unroll(k)
        pwr.compute_at(hw_output, xo).store_at(hw_output, xo)
        pw.compute_at(hw_output, xo).store_at(hw_output, xo).reorder(c, x, y, k)
        dw.compute_at(pw, x).store_at(hw_output, xo).reorder(x, y, c)
        dw.update().reorder(r_dw.x, r_dw.y, x, y, c).unroll(r_dw.x).unroll(r_dw.y).unroll(c)
        hw_input.stream_to_accelerator()
        hw_input.store_at(hw_output, xo).compute_at(hw_output, xo)
    return output, {"input": inp}, [size[0], size[1], n_out]

def _resnet(m, img, n_ic, n_oc, ksize=3, stride=1, rom=False, unroll_ic=True, unroll_oc=False,
            oc_split=None):
    """resnet_layer_gen (no padding): channels first input (z, x, y), an i8 kernel input or a constant ROM; output
    (x, y, w) i16 after relu."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    images = {"input": inp}
    x, y, z, w = vars_of(m, "x y z w")
    out = (img - ksize) // stride + 1
    conv, hw_input, hw_kernel = m.Func("conv"), m.Func("hw_input"), m.Func("hw_kernel")
    r = m.RDom([m.Range(0, ksize), m.Range(0, ksize), m.Range(0, n_ic)], "r")
    hw_input[z, x, y] = m.i16(inp[z, x, y])
    if rom:
        hw_kernel[z, w, x, y] = m.i16((z * 3 + w * 5 + x * 7 + y * 11) % 9 - 4)
    else:
        ker = m.ImageParam(m.Int(8), 4, "kernel")
        images["kernel"] = ker
        hw_kernel[z, w, x, y] = m.i16(ker[z, w, x, y])
    conv[x, y, w] = m.i16(0)
    conv[x, y, w] += hw_kernel[r.z, w, r.x, r.y] * hw_input[r.z, stride * x + r.x, stride * y + r.y]
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y, w] = m.max(m.i16(0), conv[x, y, w])
    output[x, y, w] = hw_output[x, y, w]
    if on_hardware(m):
        xo, yo, xi, yi, wo, wi = vars_of(m, "xo yo xi yi wo wi")
        _bound_out(m, output, hw_output, (out, out, n_oc), w)
        hw_input.bound(z, 0, n_ic)
        hw_kernel.bound(z, 0, n_ic).bound(w, 0, n_oc)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, out, out)
        if oc_split:
            hw_output.split(w, wo, wi, oc_split).reorder(wi, xi, yi, wo, xo, yo).unroll(wi)
            conv.unroll(w, oc_split).update().unroll(w, oc_split)
        else:
            hw_output.reorder(xi, yi, w, xo, yo)
        hw_output.hw_accelerate(xi, xo)
        conv.compute_at(hw_output, xo)
        conv.update().unroll(r.x).unroll(r.y)
        if unroll_ic:
            conv.update().unroll(r.z)
        if unroll_oc:
            conv.unroll(w).update().unroll(w)
            hw_output.unroll(w)
        hw_input.compute_root().stream_to_accelerator()
        if rom:
            hw_kernel.compute_at(hw_output, xo)
        else:
            hw_kernel.compute_root().stream_to_accelerator()
    return output, images, [out, out, n_oc]


def resnet_rom_kernel_oc_unrolled(m):
    """resnet_layer_gen with the kernel a constant Func (a ROM of signed weights), 2 input channels unrolled, both
    output channels a cycle, 6x6 input."""
    return _resnet(m, 6, 2, 2, rom=True, unroll_oc=True)


def resnet_pointwise_1x1(m):
    """A 1x1 convolution over 4 input channels (unrolled) to 3 output channels in turn, 5x5 input."""
    return _resnet(m, 5, 4, 3, ksize=1)


def resnet_ic_serial_oc_unrolled(m):
    """Input channels serial (3 cycles a pixel), both output channels at once, kernel streamed, 5x5 input."""
    return _resnet(m, 5, 3, 2, unroll_ic=False, unroll_oc=True)


def resnet_stride2_rom_odd(m):
    """Stride 2 over a 7x7 input (3x3 output), kernel 3x3 ROM, 2 in, 3 out."""
    return _resnet(m, 7, 2, 3, stride=2, rom=True)


def resnet_oc_split_two_of_four(m):
    """hw_output.split(w, wo, wi, 2).unroll(wi): 4 output channels two at a time, 1 input channel, 5x5 input."""
    return _resnet(m, 5, 1, 4, oc_split=2, rom=True)


def resnet_kernel_2x2(m):
    """A 2x2 kernel over 2 channels, 5x5 input to 4x4, both channels unrolled, kernel streamed."""
    return _resnet(m, 5, 2, 2, ksize=2, unroll_oc=True)


def conv_bias_input_per_channel(m):
    """A 3x3 convolution of one channel into 3 output channels plus a per-channel i16 bias ImageParam (3 words)
    streamed beside the image: two inputs at very different rates, 6x6 input."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    b = m.ImageParam(m.Int(16), 1, "bias")
    x, y, c = vars_of(m, "x y c")
    hw_input, hw_bias, conv, hw_output, output = (m.Func(n) for n in "hw_input hw_bias conv hw_output output".split())
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    hw_input[x, y] = m.i16(inp[x, y])
    hw_bias[c] = b[c]
    conv[x, y, c] = hw_bias[c]
    conv[x, y, c] += hw_input[x + r.x, y + r.y] * m.i16(1 + (r.x + c) % 3 - r.y)
    hw_output[x, y, c] = conv[x, y, c]
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        _bound_out(m, output, hw_output, (4, 4, 3), c)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 4).reorder(c, xi, yi, xo, yo).unroll(c)
        hw_output.hw_accelerate(xi, xo)
        conv.compute_at(hw_output, xo).unroll(c)
        conv.update().unroll(r.x).unroll(r.y).unroll(c)
        hw_input.compute_root().stream_to_accelerator()
        hw_bias.compute_root().stream_to_accelerator()
        b.dim(0).set_bounds(0, 3)
    return output, {"input": inp, "bias": b}, [4, 4, 3]


def rgb_to_yuv_matrix(m):
    """An RGB (x, y, c) input to YUV-like outputs by an integer matrix, all 3 channels in and out a cycle, 6x4."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y, c] = m.i16(inp[x, y, c])
    rr, gg, bb = hw_input[x, y, 0], hw_input[x, y, 1], hw_input[x, y, 2]
    yv = (rr * 66 + gg * 129 + bb * 25 + 128) >> 8
    uv = (rr * -38 - gg * 74 + bb * 112 + 128) >> 8
    vv = (rr * 112 - gg * 94 - bb * 18 + 128) >> 8
    hw_output[x, y, c] = m.mux(c, [yv + 16, uv + 128, vv + 128])
    output[x, y, c] = m.u8(m.clamp(hw_output[x, y, c], 0, 255))
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        _bound_out(m, output, hw_output, (6, 4, 3), c)
        hw_input.bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(c, xi, yi, xo, yo).unroll(c)
        hw_output.hw_accelerate(xi, xo)
        hw_input.compute_root().reorder(c, x, y).unroll(c).stream_to_accelerator()
    return output, {"input": inp}, [6, 4, 3]


def channel_max_pool_rdom(m):
    """The maximum over 4 channels by an RDom (unrolled by 2: two cycles a pixel), then a 2x1 max along x, 5x3."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input, cmax, hw_output, output = m.Func("hw_input"), m.Func("cmax"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 4)], "r")
    hw_input[c, x, y] = m.u16(inp[c, x, y])
    cmax[x, y] = m.u16(0)
    cmax[x, y] = m.max(cmax[x, y], hw_input[r.x, x, y])
    hw_output[x, y] = m.u8(m.max(cmax[x, y], cmax[x + 1, y]))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 5).bound(y, 0, 3)
        hw_input.bound(c, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 3).hw_accelerate(xi, xo)
        cmax.compute_at(hw_output, xo)
        cmax.update().unroll(r.x, 2)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 3]


def channel_split_serial_outer(m):
    """4 output channels: hw_output.split(c, co, ci, 2).reorder(ci, xi, yi, co).unroll(ci): pairs of channels a
    cycle, the pairs in turn inside the accelerator, 5x3."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = m.u16(inp[x, y])
    hw_output[x, y, c] = m.u8((hw_input[x, y] * m.u16(c + 1) + hw_input[x + 1, y] * m.u16(4 - c)) >> 2)
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        xo, yo, xi, yi, co, ci = vars_of(m, "xo yo xi yi co ci")
        _bound_out(m, output, hw_output, (5, 3, 4), c)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 3).split(c, co, ci, 2)
        hw_output.reorder(ci, xi, yi, co, xo, yo).unroll(ci).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 3, 4]


def depthwise_channels_outer_in_tile(m):
    """A depthwise 3x3 per channel with the channel loop outside the tile's rows (reorder(xi, yi, c)), 3 channels
    serial, channel-last input (x, y, c), 5x4."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input, dw, hw_output, output = m.Func("hw_input"), m.Func("dw"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    dw[x, y, c] = m.u16(0)
    dw[x, y, c] += hw_input[x + r.x, y + r.y, c] * m.u16(c + r.x * r.y + 1)
    hw_output[x, y, c] = m.u8(dw[x, y, c] >> 5)
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        _bound_out(m, output, hw_output, (5, 4, 3), c)
        hw_input.bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 4).reorder(xi, yi, c, xo, yo).hw_accelerate(xi, xo)
        dw.compute_at(hw_output, xo).reorder(x, y, c)
        dw.update().reorder(r.x, r.y, x, y, c).unroll(r.x).unroll(r.y)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 4, 3]


def conv_channels_rdom_partial_unroll(m):
    """A 2x2 window over 4 input channels, the channel RVar unrolled by 2 (two cycles a pixel), one output, 5x4."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input, conv, hw_output, output = m.Func("hw_input"), m.Func("conv"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 2), m.Range(0, 2), m.Range(0, 4)], "r")
    hw_input[c, x, y] = m.u16(inp[c, x, y])
    conv[x, y] = m.u16(0)
    conv[x, y] += hw_input[r.z, x + r.x, y + r.y] * m.u16(r.z + 1)
    hw_output[x, y] = m.u8(conv[x, y] >> 4)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 5).bound(y, 0, 4)
        hw_input.bound(c, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 4).hw_accelerate(xi, xo)
        conv.compute_at(hw_output, xo)
        conv.update().reorder(r.z, r.x, r.y, x, y).unroll(r.z, 2).unroll(r.x).unroll(r.y)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 4]


def channel_rotated_read(m, by_mux=False):
    """Each colour plus the next colour (c + 1) % 3 of an RGB input, colours a cycle, 5x3 (refused in session 35: the
    index wraps inside each period of c; read as a choice among the constant planes since autoprobe22, session 36:
    hwlower/periodic_reads.py)."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    nxt = (m.mux(c % 3, [hw_input[x, y, 1], hw_input[x, y, 2], hw_input[x, y, 0]]) if by_mux
           else hw_input[x, y, (c + 1) % 3])
    hw_output[x, y, c] = m.u8((hw_input[x, y, c] * 3 + nxt) >> 2)
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        _bound_out(m, output, hw_output, (5, 3, 3), c)
        hw_input.bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 3).reorder(c, xi, yi, xo, yo).unroll(c)
        hw_output.hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 3, 3]


def channel_rotated_read_by_mux(m):
    """channel_rotated_read as its session-35 refusal's fix had it: hl.mux(c % 3, [reads at 1, 2, 0])."""
    return channel_rotated_read(m, by_mux=True)


CASES = {f.__name__: f for f in (
    mobile_clockwork_two_in_three_out, mobile_clockwork_k_serial, mobile_coreir_channels_innermost,
    mobile_coreir_branch_as_written,
    resnet_rom_kernel_oc_unrolled, resnet_pointwise_1x1, resnet_ic_serial_oc_unrolled, resnet_stride2_rom_odd,
    resnet_oc_split_two_of_four, resnet_kernel_2x2, conv_bias_input_per_channel, rgb_to_yuv_matrix,
    channel_max_pool_rdom, channel_split_serial_outer, depthwise_channels_outer_in_tile,
    conv_channels_rdom_partial_unroll, channel_rotated_read, channel_rotated_read_by_mux,
)}
