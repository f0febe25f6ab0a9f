"""Probe22's hand schedules (session 36), part three: mixed types as h2h users write them (u8 arithmetic that wraps,
i16 differences, i32 and u32 products and shifts, saturating casts and adds, absd, mul-shift and rounding idioms,
widening intrinsics, signed right shifts, i8 inputs) in small stencils, some at lanes; each in module m
(`mainspring`, or `halide`), returning (output or [outputs], {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware


def _st(m, size, value, wide=None, t=None, inner=None, n=1, tail=None, in_t=None):
    """hw_output = value(m, hw_input, x, y, funcs) over `size`; `inner`: {name: definition(hw_input, x, y)}
    buffered at xo; n lanes through every stage."""
    inp, x, y, hw_input = _in(m, wide=wide, t=in_t)
    funcs = {}
    for name, d in (inner or {}).items():
        funcs[name] = m.Func(name)
        funcs[name][x, y] = d(hw_input, x, y, funcs)
    hw_output, output = _out(m, lambda x, y: value(hw_input, x, y, funcs), t)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, inner=tuple(funcs.values()), inputs=(hw_input,))
        if n > 1:
            ts = (tail,) if tail else ()
            hw_output.unroll(xi, n, *ts)
            for f in (*funcs.values(), hw_input):
                f.unroll(x, n, *ts)
    return output, {"input": inp}, list(size)


def u8_wrap_weighted_sum(m):
    """u8 all the way: a + 3 * b - c wraps modulo 256 as the user wrote it, 7x3."""
    return _st(m, (7, 3), lambda h, x, y, f: h[x, y] + h[x + 1, y] * m.u8(3) - h[x + 2, y], wide=m.u8)


def u8_wrap_two_lanes_product(m):
    """u8 products that wrap (a * b), two lanes, 8x2."""
    return _st(m, (8, 2), lambda h, x, y, f: h[x, y] * h[x, y + 1], wide=m.u8, n=2)


def i16_gradient_magnitude_saturated(m):
    """|dx| + |dy| of i16 Sobel-like differences, saturating_cast to u8, 6x4."""
    def val(h, x, y, f):
        dx = h[x + 2, y + 1] - h[x, y + 1]
        dy = h[x + 1, y + 2] - h[x + 1, y]
        return m.saturating_cast(m.UInt(8), m.abs(dx) + m.abs(dy))
    return _st(m, (6, 4), val, wide=m.i16)


def i16_to_u8_sat_helper(m):
    """u8_sat of an i16 unsharp-like 2 * centre - mean, negative values saturate to 0, 6x3."""
    return _st(m, (6, 3), lambda h, x, y, f: m.u8_sat(h[x + 1, y] * 2 - ((h[x, y] + h[x + 2, y]) >> 1)),
               wide=m.i16)


def u16_saturating_add_sub(m):
    """saturating_add and saturating_sub of u16 neighbours scaled by 200, output u16, 5x3."""
    return _st(m, (5, 3), lambda h, x, y, f: m.saturating_sub(m.saturating_add(h[x, y] * 200, h[x + 1, y] * 200),
                                                              h[x + 2, y] * 100))


def absd_u8_inputs_mean(m):
    """absd of u8 neighbours (the result u8), the mean of two such differences, 7x3."""
    return _st(m, (7, 3), lambda h, x, y, f: m.halving_add(m.absd(h[x, y], h[x + 1, y]),
                                                           m.absd(h[x, y], h[x, y + 1])), wide=m.u8)


def absd_i16_sad_row(m):
    """A 1x4 sum of absolute differences between two rows in i16 (absd gives u16), 6x3."""
    return _st(m, (6, 3), lambda h, x, y, f: m.u8(m.min((m.absd(h[x, y], h[x, y + 1])
                                                         + m.absd(h[x + 1, y], h[x + 1, y + 1])
                                                         + m.absd(h[x + 2, y], h[x + 2, y + 1])
                                                         + m.absd(h[x + 3, y], h[x + 3, y + 1])), 255)), wide=m.i16)


def mul_shift_right_u8(m):
    """mul_shift_right(a, b, 8) of u8 pixels (the high byte of the product), 6x3."""
    return _st(m, (6, 3), lambda h, x, y, f: m.mul_shift_right(h[x, y], h[x + 1, y], 8), wide=m.u8)


def rounding_mul_shift_right_u16(m):
    """rounding_mul_shift_right of u16 by a constant 181 (~ 1/sqrt 2 in Q8), 5x3."""
    return _st(m, (5, 3), lambda h, x, y, f: m.rounding_mul_shift_right(h[x, y] + h[x + 1, y], m.u16(181), 8),
               t=m.u8)


def mul_shift_idiom_u32(m):
    """The idiom u16((u32(a) * 43691) >> 17) (a / 3 by multiplication), a u32 product, 6x2."""
    return _st(m, (6, 2), lambda h, x, y, f: m.u16((m.u32(h[x, y] + h[x + 1, y] + h[x + 2, y]) * m.u32(43691))
                                                   >> 17), t=m.u8)


def u32_shifts_left_and_right(m):
    """u32 left shift by 20 then right by 13 (the high bits of a wide product kept), 5x3."""
    return _st(m, (5, 3), lambda h, x, y, f: m.u16((m.u32(h[x, y]) << 20 | m.u32(h[x + 1, y]) << 4) >> 13),
               wide=m.u16)


def i32_products_and_signed_shift(m):
    """i32 products of i16 differences, a signed right shift by 6 of a negative value, output i32, 5x3."""
    return _st(m, (5, 3), lambda h, x, y, f: (m.i32(h[x + 1, y] - h[x, y]) * m.i32(h[x, y + 1] - h[x + 1, y + 1])
                                               * -37) >> 6, wide=m.i16)


def i8_input_widened_sum(m):
    """An i8 input, its i16 three-tap sum (negative values), output i16, 6x3."""
    return _st(m, (6, 3), lambda h, x, y, f: h[x, y] + h[x + 1, y] * 2 + h[x + 2, y], wide=m.i16,
               in_t=m.Int(8))


def i8_input_saturating_sum(m):
    """An i8 input kept i8: saturating_add of neighbours, then i8_sat of their difference, 6x3."""
    return _st(m, (6, 3), lambda h, x, y, f: m.i8_sat(m.i16(m.saturating_add(h[x, y], h[x + 1, y]))
                                                      - m.i16(h[x, y + 1]) * 2), wide=m.i8, in_t=m.Int(8))


def widening_mul_and_add(m):
    """widening_mul of u8 (u16) plus widening_add of u8 (u16), output u16, 6x3."""
    return _st(m, (6, 3), lambda h, x, y, f: m.widening_mul(h[x, y], h[x + 1, y]) + m.widening_add(h[x, y + 1],
                                                                                                   h[x + 2, y]),
               wide=m.u8)


def widening_sub_signed(m):
    """widening_sub of u8 (an i16 that may be negative), its rounding_shift_right by 1, output i16, 6x3."""
    return _st(m, (6, 3), lambda h, x, y, f: m.rounding_shift_right(m.widening_sub(h[x, y], h[x + 1, y + 1]), 1),
               wide=m.u8)


def halving_sub_and_rounding_halving_add(m):
    """halving_sub and rounding_halving_add of u8 (the u8 results wrap and round as Halide defines), 7x2."""
    return _st(m, (7, 2), lambda h, x, y, f: m.rounding_halving_add(m.halving_sub(h[x + 1, y], h[x, y]),
                                                                    h[x, y + 1]), wide=m.u8)


def mixed_chain_u8_i16_u32_u16(m):
    """u8 copy -> i16 difference (buffered) -> u32 square (buffered) -> u16 >> 4 output: a stage per type, 6x3."""
    inner = {"d": lambda h, x, y, f: m.i16(h[x + 1, y]) - m.i16(h[x, y]),
             "sq": lambda h, x, y, f: m.u32(f["d"][x, y] * f["d"][x, y])}
    return _st(m, (6, 3), lambda h, x, y, f: m.u16((f["sq"][x, y] + f["sq"][x, y + 1]) >> 4), wide=m.u8,
               inner=inner)


def signed_division_and_modulo_by_constants(m):
    """i16 values from -128: Halide's floor division by 7 and Euclidean modulo by 5, three lanes, 6x2."""
    return _st(m, (6, 2), lambda h, x, y, f: (h[x, y] - 128) / 7 + (h[x + 1, y] - 128) % 5, wide=m.i16, n=3)


def saturating_cast_u32_to_u8(m):
    """saturating_cast(UInt(8)) of a u32 sum of squares, 5x3."""
    return _st(m, (5, 3), lambda h, x, y, f: m.saturating_cast(m.UInt(8), m.u32(h[x, y]) * m.u32(h[x, y])
                                                                + m.u32(h[x + 1, y])), wide=m.u16)


def select_of_types_and_bool_mask(m):
    """A Bool mask (a > b) as u8 times 200 plus an i16 select of the difference's sign, output i16, 6x3."""
    return _st(m, (6, 3), lambda h, x, y, f: m.i16(m.u8(h[x, y] > h[x + 1, y]) * m.u8(200))
               + m.select(h[x, y] - h[x, y + 1] < 0, m.i16(-1), m.i16(1)), wide=m.i16)


def u16_wraps_then_u8_truncates(m):
    """u16 products that wrap past 65535 (v * v * 3) truncated to u8 at the output, two lanes, 6x2."""
    return _st(m, (6, 2), lambda h, x, y, f: h[x, y] * h[x, y] * m.u16(3) + h[x + 1, y], t=m.u8, n=2)


CASES = {f.__name__: f for f in (
    u8_wrap_weighted_sum, u8_wrap_two_lanes_product, i16_gradient_magnitude_saturated, i16_to_u8_sat_helper,
    u16_saturating_add_sub, absd_u8_inputs_mean, absd_i16_sad_row, mul_shift_right_u8, rounding_mul_shift_right_u16,
    mul_shift_idiom_u32, u32_shifts_left_and_right, i32_products_and_signed_shift, i8_input_widened_sum,
    i8_input_saturating_sum, widening_mul_and_add, widening_sub_signed, halving_sub_and_rounding_halving_add,
    mixed_chain_u8_i16_u32_u16, signed_division_and_modulo_by_constants, saturating_cast_u32_to_u8,
    select_of_types_and_bool_mask, u16_wraps_then_u8_truncates,
)}
