"""Probe23's hand schedules (session 36), part two: bit operations (&, |, ^, ~, shifts, popcount,
count_leading_zeros, count_trailing_zeros), Euclidean division and modulo by negative constants and by loaded
values, lerp of several types, clamp chains, selects of many branches and mux; each in module m (`mainspring`, or
`halide`), returning (output, {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware

# ---- bit operations --------------------------------------------------------------------------------------------


def bits_and_or_xor_not_u16(m):
    """&, |, ^ and ~ of u16 neighbours, 6x3."""
    inp, x, y, hw_input = _in(m)
    a, b, c = hw_input[x, y], hw_input[x + 1, y], hw_input[x, y + 1]
    hw_output, output = _out(m, lambda x, y: ((a & b) | (~c & m.u16(0x0ff0))) ^ (b << 5))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def bits_not_of_signed(m):
    """~ of an i16 difference (its two's complement), & with a negative mask, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = _out(m, lambda x, y: ~(hw_input[x, y] - hw_input[x + 1, y]) & m.i16(-8))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def bits_variable_shift_by_loaded(m):
    """A u16 shifted left by the low three bits of its neighbour, and right by those of another, 6x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: (hw_input[x, y] << (hw_input[x + 1, y] & 7))
                             + (hw_input[x, y + 1] >> (hw_input[x, y] & 3)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def bits_popcount_clz_ctz_u8(m):
    """popcount, count_leading_zeros and count_trailing_zeros of u8 pixels (ctz(0) is 8), 8x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    hw_output, output = _out(m, lambda x, y: m.u8(m.popcount(hw_input[x, y]) * 16)
                             + m.u8(m.count_leading_zeros(hw_input[x + 1, y]) * 4)
                             + m.u8(m.count_trailing_zeros(hw_input[x, y] & hw_input[x, y + 1])))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
    return output, {"input": inp}, [8, 3]


def bits_popcount_of_xor_census(m):
    """A Hamming distance: popcount of the xor of two 3-bit census words, u16, 6x4."""
    inp, x, y, hw_input = _in(m)
    c = m.Func("census")
    ctr = hw_input[x + 1, y + 1]
    c[x, y] = (m.select(hw_input[x, y] > ctr, m.u16(1), m.u16(0))
               | m.select(hw_input[x + 2, y] > ctr, m.u16(2), m.u16(0))
               | m.select(hw_input[x + 1, y + 2] > ctr, m.u16(4), m.u16(0)))
    hw_output, output = _out(m, lambda x, y: m.u8(m.popcount(c[x, y] ^ c[x + 1, y])))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(c,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def bits_clz_of_i16(m):
    """count_leading_zeros of signed i16 values (negative values have none), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = _out(m, lambda x, y: m.count_leading_zeros(hw_input[x, y] - hw_input[x + 1, y] * 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


# ---- division and modulo -----------------------------------------------------------------------------------------


def div_mod_by_negative_constants_i16(m):
    """Euclidean / and % of signed i16 values by -3 and -4 (the remainder never negative), 6x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    d = hw_input[x, y] - hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: (d / m.i16(-3)) * m.i16(100) + d % m.i16(-4) + (d / m.i16(-4)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def div_mod_by_negative_i32(m):
    """Euclidean / and % of i32 values by -7 and -16 (a power of two), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i32)
    d = hw_input[x, y] * 3 - hw_input[x, y + 1] * 5
    hw_output, output = _out(m, lambda x, y: d / -7 + (d % -16) * 1000 + (d / -16) * 100000)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def div_mod_round_to_zero_i16(m):
    """div_round_to_zero and mod_round_to_zero of negative i16 values beside / and %, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    d = hw_input[x, y] - hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.div_round_to_zero(d, m.i16(5)) * 16 + m.mod_round_to_zero(d, m.i16(5))
                             + (d / 5) * 256)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def div_mod_by_loaded_signed(m):
    """Euclidean / and % of an i16 by a loaded, possibly negative divisor (zero gives zero), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    q = hw_input[x + 1, y] - 128
    hw_output, output = _out(m, lambda x, y: (hw_input[x, y] - 100) / q + ((hw_input[x, y] - 100) % q) * 256)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def mod_of_coordinates_negative(m):
    """A pattern of (x - 5) % -3 and (y - 2) / -2 mixed into the pixels, 7x4."""
    inp, x, y, hw_input = _in(m, wide=m.i32)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] + ((x - 5) % -3) * 10 + ((y - 2) / -2) * 100)
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 4), inputs=(hw_input,))
    return output, {"input": inp}, [7, 4]


# ---- lerp, clamp, select, mux ------------------------------------------------------------------------------------


def lerp_u8_by_u8_weight(m):
    """lerp of two u8 pixels by a third as the weight (weight / 255, rounded), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    hw_output, output = _out(m, lambda x, y: m.lerp(hw_input[x, y], hw_input[x + 1, y], hw_input[x, y + 1]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def lerp_i16_by_u16_weight(m):
    """lerp of two signed i16 values by a u16 weight (the values offset by the type's minimum), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    w = m.u16(hw_input[x, y + 1]) * m.u16(257)
    hw_output, output = _out(m, lambda x, y: m.lerp(hw_input[x, y] - 200, hw_input[x + 1, y] * 3, w))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def lerp_u16_by_constant_u8_weights(m):
    """Two lerps of u16 values by constant u8 weights (64 and 200), chained, 6x3."""
    inp, x, y, hw_input = _in(m)
    a = m.lerp(hw_input[x, y], hw_input[x + 1, y], m.u8(64))
    hw_output, output = _out(m, lambda x, y: m.lerp(a, hw_input[x, y + 1] * 100, m.u8(200)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def lerp_u8_by_param_weight(m):
    """lerp of two u8 pixels by a u8 Param weight (77 / 255), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    w = m.Param(m.UInt(8), "w", 77)
    hw_output, output = _out(m, lambda x, y: m.lerp(hw_input[x, y], hw_input[x, y + 1], w))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def clamp_chain_nested(m):
    """Three nested clamps to shrinking ranges (the innermost bound wins where they cross), i16, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    d = hw_input[x, y] - hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.clamp(m.clamp(m.clamp(d * 2, -150, 150) + 40, -100, 120) - 7, -60, 90))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def clamp_with_loaded_bounds(m):
    """clamp of one pixel between two of its neighbours (lo may exceed hi: Halide's min(max(...)) order), 6x4."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.clamp(hw_input[x, y], hw_input[x + 1, y], hw_input[x, y + 1]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def select_seven_branches(m):
    """A select of seven conditions on the pixel (a quantiser), two lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    v = hw_input[x, y]
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(
        v < 16, 0, v < 48, 1, v < 80, 2, v < 112, 3, v < 160, 4, v < 200, 5, v < 240, 6, 7) * 36))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def select_on_loaded_and_coordinates(m):
    """A select mixing conditions on the pixel, on x and on y, with & and | of Bools, 6x4."""
    inp, x, y, hw_input = _in(m)
    v, w = hw_input[x, y], hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.select((v > w) & (x % 2 == 0), v - w, (y == 1) | (v == w), m.u16(999),
                                                      ~(v < 100) & (x > 2), w, v + w))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def mux_by_low_bits(m):
    """mux of five taps chosen by the pixel's low bits (an index beyond the list takes the last), 7x3."""
    inp, x, y, hw_input = _in(m)
    taps = [hw_input[x, y], hw_input[x + 1, y], hw_input[x + 2, y], hw_input[x, y + 1], m.u16(500)]
    hw_output, output = _out(m, lambda x, y: m.mux(hw_input[x + 1, y + 1] & 7, taps))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inputs=(hw_input,))
    return output, {"input": inp}, [7, 3]


def mux_by_signed_index(m):
    """mux by a signed i16 index that may be negative (clamped to the first value), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    idx = (hw_input[x, y] - 100) / 50
    hw_output, output = _out(m, lambda x, y: m.mux(idx, [hw_input[x + 1, y], hw_input[x, y + 1], m.i16(-5)]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def shift_left_negative_values(m):
    """A left shift of negative i16 values (wraps), then an arithmetic shift right, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = _out(m, lambda x, y: ((hw_input[x, y] - 200) << 7) >> 3)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def bits_clz_of_u32_product(m):
    """count_leading_zeros of a u32 product (its top bit read by the prover) and count_trailing_zeros of a u16, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u32)
    hw_output, output = _out(m, lambda x, y: m.u16(m.count_leading_zeros(hw_input[x, y] * hw_input[x + 1, y]))
                             + m.u16(m.count_trailing_zeros(m.u16(hw_input[x, y] << 3))) * 64)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def lerp_u8_by_u16_weight(m):
    """lerp of two u8 pixels by a u16 weight (weight / 65535, a type wider than the values), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    w = m.u16(hw_input[x, y + 1]) * m.u16(300)
    hw_output, output = _out(m, lambda x, y: m.lerp(hw_input[x, y], hw_input[x + 1, y], w))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def saturating_i16_mix(m):
    """saturating_add and saturating_sub of i16 products that overflow, halved, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    a = (hw_input[x, y] - 128) * 200
    b = (hw_input[x + 1, y] - 128) * 200
    hw_output, output = _out(m, lambda x, y: m.saturating_add(a, b) / 2 + m.saturating_sub(a, b) / 2)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def widening_mul_i16(m):
    """widening_mul of two i16 differences (an i32 product), 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = _out(m, lambda x, y: m.widening_mul(hw_input[x, y] - 128, hw_input[x + 1, y] * 100)
                             + m.i32(m.widening_add(hw_input[x, y + 1], hw_input[x, y])))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def i8_lerp_and_clz(m):
    """lerp of i8 values by a u8 weight and count_leading_zeros of an i8, 6x3."""
    inp, x, y, hw_input = _in(m, t=m.Int(8), wide=m.i8)
    hw_output, output = _out(m, lambda x, y: m.i16(m.lerp(hw_input[x, y], hw_input[x + 1, y], m.u8(hw_input[x, y + 1])))
                             + m.i16(m.count_leading_zeros(hw_input[x, y])) * 256)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def popcount_of_negative_i16(m):
    """popcount of negative i16 differences, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = _out(m, lambda x, y: m.popcount(hw_input[x, y] - hw_input[x + 1, y] * 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def u32_param_shift_and_saturating(m):
    """u32 saturating_add with a u32 Param and a shift by a u32 Param, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.u32)
    big, s = m.Param(m.UInt(32), "big", 4294967000), m.Param(m.UInt(32), "s", 3)
    hw_output, output = _out(m, lambda x, y: m.saturating_add(hw_input[x, y] << s, big) - (hw_input[x + 1, y] >> s))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def mod_by_loaded_i32_negative(m):
    """Euclidean % and / of i32 by a loaded i32 divisor that can be negative, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i32)
    q, v = hw_input[x + 1, y] - 100, hw_input[x, y] * 37 - 3000
    hw_output, output = _out(m, lambda x, y: v % q + (v / q) * 1000)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def absd_u16_and_rounding_shift_signed(m):
    """absd of u16 values and rounding_shift_right of signed i16 by 3, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = _out(m, lambda x, y: m.i16(m.absd(m.u16(hw_input[x, y]), m.u16(hw_input[x + 1, y]) * 3))
                             + m.rounding_shift_right(hw_input[x, y] - hw_input[x, y + 1] * 3, m.i16(3)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def mux_eight_two_lanes(m):
    """mux of eight values by the low three bits of a neighbour, two lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    vals = [hw_input[x, y] * k for k in range(8)]
    hw_output, output = _out(m, lambda x, y: m.mux(hw_input[x + 1, y] % 8, vals))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


CASES = {f.__name__: f for f in (
    bits_and_or_xor_not_u16, bits_not_of_signed, bits_variable_shift_by_loaded, bits_popcount_clz_ctz_u8,
    bits_popcount_of_xor_census, bits_clz_of_i16, div_mod_by_negative_constants_i16, div_mod_by_negative_i32,
    div_mod_round_to_zero_i16, div_mod_by_loaded_signed, mod_of_coordinates_negative, lerp_u8_by_u8_weight,
    lerp_i16_by_u16_weight, lerp_u16_by_constant_u8_weights, lerp_u8_by_param_weight, clamp_chain_nested,
    clamp_with_loaded_bounds, select_seven_branches, select_on_loaded_and_coordinates, mux_by_low_bits,
    mux_by_signed_index,
    shift_left_negative_values, bits_clz_of_u32_product, lerp_u8_by_u16_weight, saturating_i16_mix,
    widening_mul_i16, i8_lerp_and_clz, popcount_of_negative_i16,
    u32_param_shift_and_saturating, mod_by_loaded_i32_negative, absd_u16_and_rounding_shift_signed, mux_eight_two_lanes,
)}
