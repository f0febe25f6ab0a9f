"""Probe17's arithmetic and data-flow variations (session 33): u16, i16 and u32 arithmetic (wrapping sums, signed
shifts, divisions by loaded values, variable shifts), a convolution whose 3x3 weights are a second streamed input,
reductions unrolled along one RVar, clamped reads inside the accelerator, bilinear upsampling at 2 lanes and
strided max pooling; in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe17_programs import _input, _tiled
from probe_common import on_hardware


def u8_wrapping_sum(m):
    """A 3-tap sum left in u8 (it wraps), then xor with the centre."""
    inp, x, y, hw_input = _input(m, wide=m.u8)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = (hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]) ^ hw_input[x + 1, y]
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def u32_sum_of_squares(m):
    """A 3x3 sum of squares in u32, serially, scaled by 40503 and shifted (u32 products past 16 bits)."""
    inp, x, y, hw_input = _input(m, wide=m.u32)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    acc[x, y] = m.u32(0)
    acc[x, y] += hw_input[x + r.x, y + r.y] * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = (acc[x, y] * 40503) >> 16
    output[x, y] = m.u16(hw_output[x, y] >> 4)
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def u32_wide_constants(m):
    """u32 values above 2^16: a pixel times 0x10001 plus a large constant, divided by 1000 and taken mod 65521."""
    inp, x, y, hw_input = _input(m, wide=m.u32)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    v = hw_input[x, y] * m.u32(0x10001) + m.u32(30000) * m.u32(100000)
    hw_output[x, y] = (v / 1000) % 65521
    output[x, y] = m.u16(hw_output[x, y])
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def i16_signed_shifts(m):
    """A Laplacian in i16 (negative values), shifted right arithmetically, halved by division (rounding to
    -infinity as Halide's), clamped to u8."""
    inp, x, y, hw_input = _input(m, wide=m.i16)
    lap, hw_output, output = m.Func("lap"), m.Func("hw_output"), m.Func("output")
    i = hw_input
    lap[x, y] = 4 * i[x + 1, y + 1] - i[x, y + 1] - i[x + 2, y + 1] - i[x + 1, y] - i[x + 1, y + 2]
    hw_output[x, y] = m.u8(m.clamp((lap[x, y] >> 2) + lap[x, y] / 3 + 128, 0, 255))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inner=(lap,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def i8_input_abs(m):
    """An Int(8) input: absolute differences of neighbours (u8 from abs of i8), their max."""
    inp, x, y, hw_input = _input(m, t=m.Int(8), wide=m.i8)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    a = m.abs(hw_input[x + 1, y] - hw_input[x, y])
    b = m.absd(hw_input[x, y + 1], hw_input[x, y])
    hw_output[x, y] = m.max(a, b)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def u16_input_u32_output(m):
    """A UInt(16) input, a 2x2 sum of products with the neighbour in u32."""
    inp, x, y, hw_input = _input(m, t=m.UInt(16), wide=m.u32)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = hw_input[x, y] * hw_input[x + 1, y] + hw_input[x, y + 1] * hw_input[x + 1, y + 1]
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def divide_by_loaded_value(m):
    """A pixel divided by its neighbour + 1 and modulo it (unsigned, both loaded values), in u16."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    a, b = hw_input[x, y] * 64, hw_input[x + 1, y]
    hw_output[x, y] = m.u8(m.min(a / (b + 1) + a % (b + 3), 255))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def variable_shifts(m):
    """Shifts by loaded amounts: a << (b & 7) and a >> (b >> 5), in u16."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    a, b = hw_input[x, y], hw_input[x + 1, y]
    hw_output[x, y] = m.u8(((a << (b & 7)) >> 4) ^ (a >> (b >> 5)))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def bit_intrinsics(m):
    """count_leading_zeros, popcount and rounding_halving_add on u16 values."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    a, b = hw_input[x, y] * 3 + 1, hw_input[x + 1, y]
    hw_output[x, y] = m.u8(m.count_leading_zeros(a) * 8 + m.popcount(b) + m.rounding_halving_add(a, b) % 16)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def _conv_weights(m, unroll):
    inp, x, y, hw_input = _input(m)
    weights = m.ImageParam(m.UInt(8), 2, "weights")
    hw_w, conv, hw_output, output = m.Func("hw_weights"), m.Func("conv"), m.Func("hw_output"), m.Func("output")
    hw_w[x, y] = m.u16(weights[x, y])
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    conv[x, y] = m.u16(0)
    conv[x, y] += hw_w[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(conv[x, y] >> 8)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(conv,), inputs=(hw_input, hw_w))
        hw_w.bound(x, 0, 3).bound(y, 0, 3)
        if unroll:
            conv.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp, "weights": weights}, [6, 4]


def conv_streamed_weights_serial(m):
    """conv(x, y) += w(r.x, r.y) * in(x + r.x, y + r.y) with w a second input (3x3) streamed to the accelerator,
    serial."""
    return _conv_weights(m, False)


def conv_streamed_weights_unrolled(m):
    """The same, the 3x3 window unrolled (the weights read at constant coordinates)."""
    return _conv_weights(m, True)


def reduction_rows_unrolled_only(m):
    """A 3x3 weighted sum with only r.y unrolled: 3 rows per step, r.x serial."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y] * m.u16(r.x + 2 * r.y + 1)
    hw_output[x, y] = m.u8(acc[x, y] >> 5)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
        acc.update().unroll(r.y)
    return output, {"input": inp}, [6, 4]


def reduction_reordered_rvars(m):
    """The same reduction with update().reorder(r.y, r.x) (columns of the window outer) and r.y unrolled by 3."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y] * m.u16(r.x + 2 * r.y + 1)
    hw_output[x, y] = m.u8(acc[x, y] >> 5)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
        acc.update().reorder(r.y, r.x).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def clamped_reads_inside(m):
    """hw_input read at clamp(x - 1, 0, 7) and clamp(x + 1, 0, 7): an edge-replicating row blur over the whole
    tile, clamped inside the accelerator."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    left = hw_input[m.clamp(x - 1, 0, 7), y]
    right = hw_input[m.clamp(x + 1, 0, 7), y]
    hw_output[x, y] = m.u8((left + 2 * hw_input[x, y] + right) >> 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def bilinear_up_two_lanes(m):
    """A bilinear upsample by 2 along x (even columns copy, odd ones average), 2 lanes: each lane one parity."""
    inp, x, y, hw_input = _input(m)
    up, hw_output, output = m.Func("up"), m.Func("hw_output"), m.Func("output")
    up[x, y] = m.select(x % 2 == 0, hw_input[x / 2, y], (hw_input[x / 2, y] + hw_input[x / 2 + 1, y] + 1) >> 1)
    hw_output[x, y] = m.u8(up[x, y])
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (16, 4), (8, 4), inner=(up,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        up.unroll(x, 2)
    return output, {"input": inp}, [16, 4]


def maxpool_3x3_stride_2(m):
    """A 3x3 max pool at stride 2 (overlapping windows), the window unrolled."""
    inp, x, y, hw_input = _input(m)
    pool, hw_output, output = m.Func("pool"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    pool[x, y] = m.u16(0)
    pool[x, y] = m.max(pool[x, y], hw_input[2 * x + r.x, 2 * y + r.y])
    hw_output[x, y] = m.u8(pool[x, y])
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (4, 3), inner=(pool,), inputs=(hw_input,))
        pool.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [4, 3]


def two_updates_unrolled_apart(m):
    """A Func with two updates: a 3-tap row sum unrolled, then a 2-tap column max serial."""
    inp, x, y, hw_input = _input(m)
    f, hw_output, output = m.Func("f"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3)], "r")
    s = m.RDom([m.Range(1, 2)], "s")
    f[x, y] = m.u16(0)
    f[x, y] += hw_input[x + r.x, y]
    f[x, y] = m.max(f[x, y], hw_input[x, y + s.x] * 2)
    hw_output[x, y] = m.u8(f[x, y] >> 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(f,), inputs=(hw_input,))
        f.update(0).unroll(r.x)
    return output, {"input": inp}, [6, 4]


def guide_at_half_resolution(m):
    """Two inputs at two rates: the image and a guide of half its resolution (read at x / 2 and x / 2 + 1),
    both streamed, over host tiles of 3x3 (odd: the guide's footprint shifts at another phase in every other
    tile)."""
    inp, x, y, hw_input = _input(m)
    guide = m.ImageParam(m.UInt(8), 2, "guide")
    hw_guide, hw_output, output = m.Func("hw_guide"), m.Func("hw_output"), m.Func("output")
    hw_guide[x, y] = m.u16(guide[x, y])
    hw_output[x, y] = m.u8((hw_input[x, y] * 3 + hw_guide[x / 2, y / 2] + hw_guide[x / 2 + 1, y / 2]) / 5)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (12, 6), (3, 3), inputs=(hw_input, hw_guide))
    return output, {"input": inp, "guide": guide}, [12, 6]


def mux_channels(m):
    """hl.mux(c, [r, g, b]) picking a per-channel gain of a gray pixel, the channel loop unrolled."""
    inp, x, y, hw_input = _input(m)
    c = m.Var("c")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    v = hw_input[x, y]
    hw_output[x, y, c] = m.u8(m.min(m.mux(c, [v * 2, v + 7, v >> 1]), 255))
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        from probe_common import vars_of
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 8).bound(y, 0, 4).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
        hw_output.unroll(c)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 4, 3]


CASES = {f.__name__: f for f in (
    u8_wrapping_sum, u32_sum_of_squares, u32_wide_constants, i16_signed_shifts, i8_input_abs, u16_input_u32_output,
    divide_by_loaded_value, variable_shifts, bit_intrinsics, conv_streamed_weights_serial,
    conv_streamed_weights_unrolled, reduction_rows_unrolled_only, reduction_reordered_rvars, clamped_reads_inside,
    bilinear_up_two_lanes, maxpool_3x3_stride_2, two_updates_unrolled_apart, guide_at_half_resolution, mux_channels,
)}
# (Verilator: divisions by loaded values; Icarus the rest)
ICARUS_ONLY = tuple(c for c in CASES if c != "divide_by_loaded_value")
