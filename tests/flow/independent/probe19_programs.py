"""Probe19's hand schedules (session 34), part one: the h2h generators (../../../../shared/h2h) written again as a
new user would, at other and odd sizes and their CoreIR/Clockwork schedule branches (rom, histogram with clamps,
accumulation, conv_3_3, cascade, resnet-style channels, down/up sampling), with mixed types; each in module m
(`mainspring`, or `halide`, which gets no hardware schedule), returning (output or [outputs], {name: ImageParam},
size)."""

from probe_common import on_hardware, vars_of


def _in(m, name="input", t=None, wide=None, dims=2):
    """An ImageParam and its copy hw_<name> in `wide` (u16 unless given) over x, y."""
    inp = m.ImageParam(t or m.UInt(8), dims, name)
    x, y = m.Var("x"), m.Var("y")
    hw = m.Func(f"hw_{name}")
    hw[x, y] = (wide or m.u16)(inp[x, y])
    return inp, x, y, hw


def _out(m, value_of, t=None):
    """hw_output(x, y) = value_of(x, y) and output its copy cast to `t` (none: the same type)."""
    x, y = m.Var("x"), m.Var("y")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = value_of(x, y)
    output[x, y] = t(hw_output[x, y]) if t else hw_output[x, y]
    return hw_output, output


def _box(m):
    """A 3x3 box blur (blur_x, then the output's column sum / 9) between hw_input and hw_output."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9))
    return inp, x, y, hw_input, bx, hw_output, output


def _sched(m, output, hw_output, size, tile=None, inner=(), inputs=(), tail=None):
    """Bound the output to `size`, tile hw_output by `tile` (the whole frame unless given), compute `inner` at xo,
    stream `inputs`."""
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *(tile or size), *((tail,) if tail else ()))
    hw_output.hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    for f in inputs:
        f.compute_root().stream_to_accelerator()
    return xo, yo, xi, yi


# ---- rom ------------------------------------------------------------------------------------------------------

def _gamma_curve(m, n, gamma=2.0, contrast=50.0):
    x = m.Var("x")
    curve = m.Func("curve")
    xf = x / float(n)
    g = m.pow(xf, 1.0 / gamma)
    b_value = 2.0 - 2.0 ** (contrast / 100.0)
    b, a = m.f32(b_value), m.f32(2.0 - 2.0 * b_value)  # (float32 as the generator's, without the precision warning)
    val = m.select(g > 0.5, 1.0 - (a * (1.0 - g) * (1.0 - g) + b * (1.0 - g)), a * g * g + b * g)
    curve[x] = m.u16(m.clamp(val * 256.0, 0.0, 255.0))
    return curve


def rom_coreir_branch(m):
    """rom_generator's CoreIR branch at 10x6: i16 input times 7 clamped to a 1024-word gamma ROM, curve at yi
    unrolled, hw_input computed at xi and stored at xo."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_input2 = m.Func("hw_input2")
    hw_input2[x, y] = hw_input[x, y] * m.i16(7)
    curve = _gamma_curve(m, 1024)
    hw_output, output = _out(m, lambda x, y: curve[m.clamp(hw_input2[x, y], m.i16(0), m.i16(1023))], m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (10, 6), inputs=(hw_input,))
        curve.compute_at(hw_output, yi).unroll(x)
        hw_input2.compute_at(hw_output, xi).store_at(hw_output, xo)
    return output, {"input": inp}, [10, 6]


def rom_small_table_two_lanes(m):
    """A 64-word ROM (gamma 1.6) read at (pixel >> 2), two pixels a cycle over 12x4."""
    inp, x, y, hw_input = _in(m)
    curve = _gamma_curve(m, 64, gamma=1.6, contrast=30.0)
    hw_output, output = _out(m, lambda x, y: curve[m.i32(hw_input[x, y] >> 2)], m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (12, 4), inputs=(hw_input,))
        curve.compute_at(hw_output, xo).unroll(x)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [12, 4]


def rom_integer_table_inline_index(m):
    """An integer table (x * x >> 4, 32 words) read at a clamped difference of two neighbours."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    sq = m.Func("sq")
    sq[x] = m.u8((x * x) >> 4)
    idx = m.clamp(m.i32(hw_input[x + 1, y] - hw_input[x, y]) + 16, 0, 31)
    hw_output, output = _out(m, lambda x, y: sq[idx])
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 5), inputs=(hw_input,))
        sq.compute_at(hw_output, m.Var("xo")).unroll(x)
    return output, {"input": inp}, [7, 5]


# ---- histograms -----------------------------------------------------------------------------------------------

def _hist(m, w, h, bins, bin_of, weight=None, out_t=None, acc_t=None):
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    acc_t = acc_t or m.u16
    binf, histogram, hw_output, output = m.Func("bin"), m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, w), m.Range(0, h)], "r")
    binf[x, y] = bin_of(hw_input[x, y])
    histogram[b] = acc_t(0)
    histogram[binf[r.x, r.y]] += weight(hw_input[r.x, r.y]) if weight else acc_t(1)
    hw_output[b] = histogram[b]
    output[b] = (out_t or (lambda e: e))(hw_output[b])
    if on_hardware(m):
        bo, bi = m.Var("bo"), m.Var("bi")
        histogram.bound_extent(b, bins)
        output.bound(b, 0, bins)
        hw_output.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
        binf.compute_at(hw_output, bo)
        hw_input.compute_root().stream_to_accelerator()
    inp.dim(0).set_bounds(0, w)
    inp.dim(1).set_bounds(0, h)
    return output, {"input": inp}, [bins]


def histogram_low_bits_odd_frame(m):
    """histogram_generator's algorithm (lower 4 bits, clamp to 0..15, u8 output) over a 7x5 frame."""
    return _hist(m, 7, 5, 16, lambda v: m.clamp(m.i32(v & 0xf), 0, 15), out_t=m.u8)


def histogram_clamped_shift(m):
    """12 bins of (v >> 4) - 2 clamped to 0..11 (both clamps bite), 9x3 frame."""
    return _hist(m, 9, 3, 12, lambda v: m.clamp(m.i32(v >> 4) - 2, 0, 11))


def histogram_weighted_u32(m):
    """8 bins of v >> 5, each pixel adding its value into a u32 bin, 6x6."""
    return _hist(m, 6, 6, 8, lambda v: m.i32(v >> 5), weight=lambda v: m.u32(v), acc_t=m.u32)


def histogram_signed_difference(m):
    """Bins of a signed neighbour difference: clamp(i32(a - b) / 32 + 4, 0, 7) over i16 values (floor division)."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    b = m.Var("b")
    diff, histogram, hw_output, output = m.Func("diff"), m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    diff[x, y] = m.clamp(m.i32(hw_input[x + 1, y] - hw_input[x, y]) / 32 + 4, 0, 7)
    histogram[b] = m.u16(0)
    histogram[diff[r.x, r.y]] += m.u16(1)
    hw_output[b] = histogram[b]
    output[b] = m.u8(hw_output[b])
    if on_hardware(m):
        bo, bi = m.Var("bo"), m.Var("bi")
        output.bound(b, 0, 8)
        histogram.bound_extent(b, 8)
        hw_output.compute_root().split(b, bo, bi, 8).hw_accelerate(bi, bo)
        diff.compute_at(hw_output, bo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8]


# ---- accumulation / conv_3_3 ----------------------------------------------------------------------------------

def _accumulation(m, ksize, size, branch):
    inp, x, y, hw_input = _in(m)
    kernel, conv = m.Func("kernel"), m.Func("conv")
    r = m.RDom([m.Range(0, ksize), m.Range(0, ksize)], "r")
    kernel[x] = x
    conv[x, y] = m.u16(0)
    conv[x, y] += m.u16(kernel[r.x + ksize * r.y]) * hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(conv[x, y]), m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, inputs=(hw_input,))
        if branch == "coreir":
            conv.update().unroll(r.y)
            conv.store_at(hw_output, xo).compute_at(hw_output, xi)
            kernel.store_at(hw_output, yi).compute_at(hw_output, yi)
        else:
            conv.store_at(hw_output, xo).compute_at(hw_output, xo)
            kernel.compute_at(conv, x)
            kernel.unroll(x, ksize * ksize)
    return output, {"input": inp}, list(size)


def accumulation_coreir_k2(m):
    """accumulation_generator's CoreIR branch with ksize 2 over 9x5: conv stored at xo, computed at xi."""
    return _accumulation(m, 2, (9, 5), "coreir")


def accumulation_clockwork_k3_odd(m):
    """The Clockwork branch with ksize 3 over 7x7: kernel computed at conv's x and unrolled by 9."""
    return _accumulation(m, 3, (7, 7), "clockwork")


def _conv33(m, size, kern, lanes=1, tail=None, tile=None, glb=False):
    inp, x, y, hw_input = _in(m)
    k, conv = m.Func("kernel"), m.Func("conv")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    k[x, y] = m.u16(0)
    for i, row in enumerate(kern):
        for j, v in enumerate(row):
            k[j, i] = m.u16(v)
    conv[x, y] = m.u16(0)
    conv[x, y] += k[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(conv[x, y] >> 4))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, tile=tile, inner=(conv,), inputs=(hw_input,), tail=tail)
        k.compute_at(hw_output, xo)
        conv.update().unroll(r.x).unroll(r.y)
        if lanes > 1:
            t = (tail,) if tail else ()
            conv.unroll(x, lanes, *t)
            conv.update().unroll(x, lanes, *t)
            hw_output.unroll(xi, lanes, *t)
            hw_input.unroll(x, lanes, *t)
    return output, {"input": inp}, list(size)


K1 = ((1, 2, 1), (2, 4, 2), (1, 2, 1))
K2 = ((0, 3, 0), (3, 4, 3), (0, 3, 0))


def conv33_odd_frame(m):
    """conv_3_3 (kernel Func of pure definition then nine constant updates) over 9x7."""
    return _conv33(m, (9, 7), K1)


def conv33_round_up_three_lanes(m):
    """Seed 002's `unroll(x, 3, TailStrategy.RoundUp)` everywhere over a 10-wide frame (not a multiple of 3)."""
    return _conv33(m, (10, 4), K2, lanes=3, tail=m.TailStrategy.RoundUp)


def conv33_host_tiles_odd(m):
    """Host tiles of 4x3 over 11x7 (the last ones shifted inward), the kernel with zeros."""
    return _conv33(m, (11, 7), K2, tile=(4, 3))


def conv33_two_lanes_tiles(m):
    """Two lanes in host tiles of 6x4 over 12x8."""
    return _conv33(m, (12, 8), K1, lanes=2, tile=(6, 4))


# ---- cascade --------------------------------------------------------------------------------------------------

def _cascade(m, size, unroll=1, at_xi=False):
    inp, x, y, hw_input = _in(m)
    c1, c2 = m.Func("conv1"), m.Func("conv2")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    c1[x, y] = m.u16(0)
    c1[x, y] += hw_input[x + r.x, y + r.y] * m.u16(1 + r.x + r.y)
    c1b = m.Func("conv1_shr")
    c1b[x, y] = c1[x, y] >> 4
    c2[x, y] = m.u16(0)
    c2[x, y] += c1b[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(c2[x, y] >> 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, inner=(c1, c2, c1b), inputs=(hw_input,))
        c1.update().unroll(r.x).unroll(r.y)
        c2.update().unroll(r.x).unroll(r.y)
        if unroll > 1:
            for f in (c1, c2, c1b):
                f.unroll(x, unroll)
            c1.update().unroll(x, unroll)
            c2.update().unroll(x, unroll)
            hw_output.unroll(xi, unroll)
            hw_input.unroll(x, unroll)
    return output, {"input": inp}, list(size)


def cascade_odd(m):
    """Two 3x3 convolutions in cascade, a shift between, over 7x5."""
    return _cascade(m, (7, 5))


def cascade_two_lanes(m):
    """The cascade two pixels a cycle over 8x4."""
    return _cascade(m, (8, 4), unroll=2)


# ---- resnet-style channels ------------------------------------------------------------------------------------

def _resnet(m, k_ic, k_oc, img, ksize=3, stride=1, pad=1, unroll_ic=True, unroll_oc=False):
    inp = m.ImageParam(m.UInt(8), 3, "input")
    ker = m.ImageParam(m.Int(8), 4, "kernel")
    x, y, z, w = vars_of(m, "x y z w")
    out_size = (img + 2 * pad - ksize) // stride + 1
    conv, clamp_input, hw_input, hw_kernel = m.Func("conv"), m.Func("clamp_input"), m.Func("hw_input"), \
        m.Func("hw_kernel")
    r = m.RDom([m.Range(0, ksize), m.Range(0, ksize), m.Range(0, k_ic)], "r")
    conv[x, y, w] = m.i16(0)
    clamp_input[z, x, y] = inp[z, m.clamp(x - pad, 0, img - 1), m.clamp(y - pad, 0, img - 1)]
    hw_kernel[z, w, x, y] = m.i16(ker[z, w, x, y])
    hw_input[z, x, y] = m.i16(clamp_input[z, x, y])
    conv[x, y, w] += hw_kernel[r.z, w, r.x, r.y] * hw_input[r.z, stride * x + r.x, stride * y + r.y]
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y, w] = m.i16(m.max(0, conv[x, y, w]))
    output[x, y, w] = hw_output[x, y, w]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, out_size).bound(y, 0, out_size).bound(w, 0, k_oc)
        hw_output.bound(w, 0, k_oc)
        hw_kernel.bound(z, 0, k_ic).bound(w, 0, k_oc)
        hw_input.bound(z, 0, k_ic)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, out_size, out_size).reorder(xi, yi, w, xo, yo)
        hw_output.hw_accelerate(xi, xo)
        conv.compute_at(hw_output, xo)
        if unroll_ic:
            conv.update().unroll(r.z)
        if unroll_oc:
            conv.unroll(w).update().unroll(w)
            hw_output.unroll(w)
        hw_input.compute_root().stream_to_accelerator()
        hw_kernel.compute_root().stream_to_accelerator()
    return output, {"input": inp, "kernel": ker}, [out_size, out_size, k_oc]


def resnet_pad_same_3ch(m):
    """resnet_layer_gen at 3 input and 2 output channels on a 5x5 image, pad 1 (same size), channels unrolled."""
    return _resnet(m, 3, 2, 5)


def resnet_stride2_serial(m):
    """Stride 2, pad 0, 7x7 image (3x3 output), 2 input channels serial."""
    return _resnet(m, 2, 2, 7, stride=2, pad=0, unroll_ic=False)


# ---- down / up sampling ---------------------------------------------------------------------------------------

def down_avg_odd(m):
    """A 2x2 average pool with stride 2 to a 5x3 output (input 10x6)."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 2), m.Range(0, 2)], "r")
    pool = m.Func("pool")
    pool[x, y] = m.u16(0)
    pool[x, y] += hw_input[2 * x + r.x, 2 * y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(pool[x, y] >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(pool,), inputs=(hw_input,))
        pool.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [5, 3]


def down_max_stride3_tiles(m):
    """A 3x3 max with stride 3 over a 6x4 output in host tiles of 3x2."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    hw_output, output = _out(m, lambda x, y: m.u8(m.maximum(hw_input[3 * x + r.x, 3 * y + r.y])))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), tile=(3, 2), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def up_nearest_odd(m):
    """Nearest x2 upsample to an odd 9x5 output."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[x / 2, y / 2] + m.u16(1)))
    if on_hardware(m):
        _sched(m, output, hw_output, (9, 5), inputs=(hw_input,))
    return output, {"input": inp}, [9, 5]


def up_bilinear_x2_tiles(m):
    """A bilinear x2 upsample along x (averages of neighbours at odd columns) in host tiles of 6x3 over 12x6."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(
        x % 2 == 0, hw_input[x / 2, y], (hw_input[x / 2, y] + hw_input[x / 2 + 1, y] + 1) / 2)))
    if on_hardware(m):
        _sched(m, output, hw_output, (12, 6), tile=(6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [12, 6]


CASES = {f.__name__: f for f in (
    rom_coreir_branch, rom_small_table_two_lanes, rom_integer_table_inline_index, histogram_low_bits_odd_frame,
    histogram_clamped_shift, histogram_weighted_u32, histogram_signed_difference, accumulation_coreir_k2,
    accumulation_clockwork_k3_odd, conv33_odd_frame, conv33_round_up_three_lanes, conv33_host_tiles_odd,
    conv33_two_lanes_tiles, cascade_odd, cascade_two_lanes, resnet_pad_same_3ch, resnet_stride2_serial,
    down_avg_odd, down_max_stride3_tiles, up_nearest_odd, up_bilinear_x2_tiles,
)}
