"""Probe23's hand schedules (session 36), part one: scalar Params of several types in the accelerator's arithmetic,
in clamps, selects, shifts and RDom bounds, and Halide's arithmetic intrinsics (saturating_add/sub, widening_*,
halving and rounding forms, mul_shift_right, abs/absd on signed values); each in module m (`mainspring`, or
`halide`, which gets no hardware schedule), returning (output, {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware

# ---- scalar Params --------------------------------------------------------------------------------------------


def param_u8_offset_i16_gain_i32_bias(m):
    """Three Params of three types (u8, i16, i32) in one affine expression, an i32 result cast to i16, 7x4."""
    inp, x, y, hw_input = _in(m, wide=m.i32)
    off, gain, bias = m.Param(m.UInt(8), "off", 17), m.Param(m.Int(16), "gain", -5), m.Param(m.Int(32), "bias", 900)
    hw_output, output = _out(m, lambda x, y: m.i16((hw_input[x, y] - m.i32(off)) * m.i32(gain) + bias
                                                   + hw_input[x + 1, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 4), inputs=(hw_input,))
    return output, {"input": inp}, [7, 4]


def param_u16_multiplier_wraps(m):
    """A u16 Param multiplier large enough that the u16 product wraps, 6x3."""
    inp, x, y, hw_input = _in(m)
    k = m.Param(m.UInt(16), "k", 700)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] * k + hw_input[x, y + 1])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def param_i8_negative_in_select(m):
    """An i8 Param (negative) compared with a signed difference in a select, 6x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    th = m.Param(m.Int(8), "th", -20)
    d = hw_input[x + 1, y] - hw_input[x, y]
    hw_output, output = _out(m, lambda x, y: m.select(d < m.i16(th), m.i16(-1), d > -m.i16(th), m.i16(1),
                                                      m.i16(0)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def param_shift_amounts(m):
    """Shifts left and right by u16 Params, 6x3."""
    inp, x, y, hw_input = _in(m)
    sl, sr = m.Param(m.UInt(16), "sl", 3), m.Param(m.UInt(16), "sr", 2)
    hw_output, output = _out(m, lambda x, y: (hw_input[x, y] << sl) ^ (hw_input[x + 1, y] >> sr))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def param_signed_shift_right_negative_values(m):
    """An arithmetic shift right of negative i16 values by an i16 Param, 5x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    s = m.Param(m.Int(16), "s", 3)
    hw_output, output = _out(m, lambda x, y: (hw_input[x, y] - hw_input[x + 1, y] * 2) >> s)
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def param_clamp_bounds_i16(m):
    """clamp of a signed difference to [lo, hi] given by two i16 Params, two lanes, 8x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    lo, hi = m.Param(m.Int(16), "lo", -40), m.Param(m.Int(16), "hi", 55)
    hw_output, output = _out(m, lambda x, y: m.clamp(hw_input[x, y] - hw_input[x, y + 1], lo, hi))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def param_in_producer_and_consumer(m):
    """One u16 Param read in a buffered producer and again in its consumer, 6x4."""
    inp, x, y, hw_input = _in(m)
    k = m.Param(m.UInt(16), "k", 5)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] * k + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) / (k + 1)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def param_bool_select(m):
    """A Bool Param chooses between two stencils, 6x3."""
    inp, x, y, hw_input = _in(m)
    flip = m.Param(m.Bool(), "flip", True)
    hw_output, output = _out(m, lambda x, y: m.select(flip, hw_input[x + 1, y] - hw_input[x, y],
                                                      hw_input[x, y] + hw_input[x + 1, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def param_float_gain_in_accelerator(m):
    """An f32 Param gain applied in float inside the accelerator, rounded and cast to u8 (refused: the PEs are
    integer units, a gap by design), 6x3."""
    inp, x, y, hw_input = _in(m)
    g = m.Param(m.Float(32), "g", 1.75)
    hw_output, output = _out(m, lambda x, y: m.u8(m.clamp(m.round(m.f32(hw_input[x, y]) * g), 0.0, 255.0)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def param_gain_fixed_point(m):
    """The fix of param_float_gain_in_accelerator as its message gives it: fixed point, a u16 Param gain in Q8
    (1.75 is 448), multiply, round, shift and clamp, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u32)
    g = m.Param(m.UInt(16), "g", 448)
    hw_output, output = _out(m, lambda x, y: m.u8(m.min((hw_input[x, y] * m.u32(g) + 128) >> 8, 255)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def param_u32_threshold_count(m):
    """A u32 Param threshold; a 3x3 count of the pixels above it by an unrolled RDom, 6x4."""
    inp, x, y, hw_input = _in(m, wide=m.u32)
    th = m.Param(m.UInt(32), "th", 120)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    cnt = m.Func("cnt")
    cnt[x, y] = m.u8(0)
    cnt[x, y] += m.select(hw_input[x + r.x, y + r.y] > th, m.u8(1), m.u8(0))
    hw_output, output = _out(m, lambda x, y: cnt[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(cnt,), inputs=(hw_input,))
        cnt.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def _taps_along_x(m, taps, at=lambda x, r: (x + r, 1)):
    """s(x, y) = the sum over an RDom of `taps()` of hw_input(at(x, r)[0], y) times the weight at(x, r)[1], s buffered
    at xo, 6x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([taps()], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[at(x, r.x)[0], y] * m.u16(at(x, r.x)[1])
    hw_output, output = _out(m, lambda x, y: s[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def param_rdom_extent(m):
    """An RDom whose extent is an i32 Param (a box of `n` taps along x; refused: a gap), 6x3."""
    return _taps_along_x(m, lambda: m.Range(0, m.Param(m.Int(32), "n", 4)))


def rdom_constant_extent_in_place_of_param(m):
    """The fix of param_rdom_extent and param_rdom_min as their message gives it: the RDom's bounds constant."""
    return _taps_along_x(m, lambda: m.Range(0, 4))


def param_rdom_min(m):
    """An RDom whose minimum is an i32 Param (taps from k; refused: a gap), 6x3."""
    return _taps_along_x(m, lambda: m.Range(m.Param(m.Int(32), "k", -1), 3), lambda x, r: (x + r + 1, r + 2))


# ---- arithmetic intrinsics --------------------------------------------------------------------------------------


def saturating_add_sub_u8(m):
    """saturating_add and saturating_sub on u8 values (no widening), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    hw_output, output = _out(m, lambda x, y: m.saturating_sub(m.saturating_add(hw_input[x, y], hw_input[x + 1, y]),
                                                              hw_input[x, y + 1]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def saturating_add_sub_i8(m):
    """saturating_add and saturating_sub on i8 values, an i8 input, 6x3."""
    inp, x, y, hw_input = _in(m, t=m.Int(8), wide=m.i8)
    hw_output, output = _out(m, lambda x, y: m.saturating_add(m.saturating_sub(hw_input[x, y], hw_input[x + 1, y]),
                                                              hw_input[x, y + 1]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def widening_mul_u8_to_u16(m):
    """widening_mul of two u8 neighbours (a u16 product) plus widening_add, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    hw_output, output = _out(m, lambda x, y: m.widening_mul(hw_input[x, y], hw_input[x + 1, y])
                             + m.widening_add(hw_input[x, y + 1], hw_input[x + 1, y + 1]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def widening_sub_i8_to_i16(m):
    """widening_sub of u8 values (an i16 difference) and widening_shift_left, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    hw_output, output = _out(m, lambda x, y: m.widening_sub(hw_input[x, y], hw_input[x + 1, y])
                             + m.i16(m.widening_shift_left(hw_input[x, y + 1], m.u8(2))))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def halving_and_rounding_forms(m):
    """halving_add, rounding_halving_add, halving_sub on u8, and rounding_shift_right of a u16 sum, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    a, b, c = hw_input[x, y], hw_input[x + 1, y], hw_input[x, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u16(m.halving_add(a, b)) + m.u16(m.rounding_halving_add(b, c))
                             + m.u16(m.halving_sub(a, c))
                             + m.rounding_shift_right(m.u16(a) + m.u16(b) + m.u16(c), m.u16(2)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def mul_shift_right_u16(m):
    """mul_shift_right and rounding_mul_shift_right of u16 values by 8 (fixed-point scaling), 6x3."""
    inp, x, y, hw_input = _in(m)
    w = m.u16(181)
    hw_output, output = _out(m, lambda x, y: m.mul_shift_right(hw_input[x, y], w, m.u16(8))
                             + m.rounding_mul_shift_right(hw_input[x + 1, y], w, m.u16(8)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def abs_and_absd_signed(m):
    """abs of an i16 difference (a u16) and absd of two i16 values, their sum, 6x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = _out(m, lambda x, y: m.abs(hw_input[x, y] - hw_input[x + 1, y] * 2)
                             + m.absd(hw_input[x, y + 1] - 128, hw_input[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def abs_of_i8_minimum(m):
    """abs of an i8 input (abs(-128) is 128 as a u8), 8x2."""
    inp, x, y, hw_input = _in(m, t=m.Int(8), wide=m.i8)
    hw_output, output = _out(m, lambda x, y: m.abs(hw_input[x, y]) + m.absd(hw_input[x, y], hw_input[x + 1, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 2), inputs=(hw_input,))
    return output, {"input": inp}, [8, 2]


def saturating_cast_i32_to_i16(m):
    """saturating_cast of i32 products to i16 and to u8, summed in i32, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i32)
    p = (hw_input[x, y] - 100) * (hw_input[x + 1, y] + 3) * 7
    hw_output, output = _out(m, lambda x, y: m.i32(m.saturating_cast(m.Int(16), p))
                             + m.i32(m.saturating_cast(m.UInt(8), p)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def shift_by_negative_param(m):
    """Shifts of i16 values by an i16 Param of -2 (Halide shifts the other way by a negative amount), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    s = m.Param(m.Int(16), "s", -2)
    hw_output, output = _out(m, lambda x, y: (hw_input[x, y] << s) + (hw_input[x + 1, y] >> s))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def div_mod_by_param_negative(m):
    """Euclidean / and % of i16 values by a negative i16 Param (-6), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    q = m.Param(m.Int(16), "q", -6)
    hw_output, output = _out(m, lambda x, y: (hw_input[x, y] - 128) / q + ((hw_input[x + 1, y] - 128) % q) * 100)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def where_with_param(m):
    """An RDom with a where-clause on an i32 Param (r.x != p skips one tap), 6x3."""
    inp, x, y, hw_input = _in(m)
    p = m.Param(m.Int(32), "p", 2)
    r = m.RDom([m.Range(0, 4)], "r")
    r.where(r.x != p)
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y]
    hw_output, output = _out(m, lambda x, y: s[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def mux_index_param(m):
    """mux of three taps by a u8 Param index, 6x3."""
    inp, x, y, hw_input = _in(m)
    p = m.Param(m.UInt(8), "p", 2)
    hw_output, output = _out(m, lambda x, y: m.mux(p, [hw_input[x, y], hw_input[x + 1, y], hw_input[x, y + 1]]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def select_bool_param_and_loaded(m):
    """A select on a u8 pixel against a u8 Param, ~ and ^ with the Param, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    p = m.Param(m.UInt(8), "p", 100)
    hw_output, output = _out(m, lambda x, y: m.select(hw_input[x, y] > p, ~hw_input[x, y], hw_input[x, y] ^ p))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


CASES = {f.__name__: f for f in (
    param_u8_offset_i16_gain_i32_bias, param_u16_multiplier_wraps, param_i8_negative_in_select, param_shift_amounts,
    param_signed_shift_right_negative_values, param_clamp_bounds_i16, param_in_producer_and_consumer,
    param_bool_select, param_float_gain_in_accelerator, param_gain_fixed_point, param_u32_threshold_count,
    param_rdom_extent, rdom_constant_extent_in_place_of_param, param_rdom_min,
    saturating_add_sub_u8, saturating_add_sub_i8, widening_mul_u8_to_u16, widening_sub_i8_to_i16,
    halving_and_rounding_forms, mul_shift_right_u16, abs_and_absd_signed, abs_of_i8_minimum,
    saturating_cast_i32_to_i16,
    shift_by_negative_param, div_mod_by_param_negative, where_with_param, mux_index_param, select_bool_param_and_loaded,
)}
