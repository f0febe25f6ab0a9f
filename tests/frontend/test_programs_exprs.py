"""Small programs over expressions, run with Halide (the oracle) and with mainspring, compared bit for bit.

Each program takes the module (`halide` or `mainspring`) as `hl` plus input arrays and returns
`np.asarray(f.realize(...))`: the same source runs under both.
"""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(20240521)


def full_range(dtype, shape):
    info = np.iinfo(dtype)
    return RNG.integers(info.min, int(info.max) + 1, size=shape, dtype=np.int64).astype(dtype)


U8 = full_range(np.uint8, (6, 9))
U8B = full_range(np.uint8, (6, 9))
I8 = full_range(np.int8, (6, 9))
I8B = full_range(np.int8, (6, 9))
U16 = full_range(np.uint16, (6, 9))
I16 = full_range(np.int16, (6, 9))
U32 = full_range(np.uint32, (6, 9))
I32 = full_range(np.int32, (6, 9))
SMALL_I32 = RNG.integers(-1000, 1000, size=(6, 9)).astype(np.int32)
NEG_I8 = np.array([[-128, -127, -9, -8, -7, -3, -1, 0, 1, 7, 8, 127]], dtype=np.int8)


def image(hl, arr, name):
    p = hl.ImageParam(_type(hl, arr.dtype), arr.ndim, name)
    p.set(hl.Buffer(arr))
    return p


def _type(hl, dtype):
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return hl.Bool()
    return (hl.Int if dt.kind == "i" else hl.UInt)(dt.itemsize * 8)


def realize_like(f, arr):
    return np.asarray(f.realize([arr.shape[1], arr.shape[0]]))


# ---- arithmetic, wrap-around --------------------------------------------------------------------------

def p_u8_arith_wraps(hl, a, b):
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [A[x, y] + B[x, y], A[x, y] - B[x, y], A[x, y] * B[x, y], A[x, y] + 200,
                            A[x, y] * 3, 7 - A[x, y], -A[x, y], ~A[x, y]])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 8]))


def p_i8_arith_wraps(hl, a, b):
    # int8 overflow wraps in Halide (only 32-bit signed overflow is undefined).
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [A[x, y] + B[x, y], A[x, y] - B[x, y], A[x, y] * B[x, y], -A[x, y], A[x, y] * -3,
                            A[x, y] + 127, ~A[x, y]])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 7]))


def p_u16_i16_arith(hl, a, b):
    x, y = hl.Var("x"), hl.Var("y")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y] = A[x, y] * 3 + B[x, y] - (A[x, y] - B[x, y]) * B[x, y]  # uint16 op int16 is int16
    return realize_like(f, a)


def p_u32_arith_wraps(hl, a, b):
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [A[x, y] + B[x, y], A[x, y] - B[x, y], A[x, y] * B[x, y], A[x, y] / B[x, y],
                            A[x, y] % B[x, y], A[x, y] / 7, A[x, y] % 10])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 7]))


def p_i32_arith_no_overflow(hl, a, b):
    x, y = hl.Var("x"), hl.Var("y")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y] = (A[x, y] * B[x, y] - A[x, y] * 7 + B[x, y] / 3) % 1000 + x * y
    return realize_like(f, a)


def p_div_mod_negative(hl, a):
    # Halide's division rounds toward negative infinity for positive divisors and the remainder is never
    # negative (Euclidean): -7 / 2 == -4, -7 % 2 == 1, 7 / -2 == -3, -7 / -2 == 4.
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A = image(hl, a, "a")
    v = hl.cast(hl.Int(32), A[x, 0])
    d = hl.cast(hl.Int(32), A[y, 0])
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [v / d, v % d, v / 3, v % 3, v / -3, v % -3])
    return np.asarray(f.realize([a.shape[1], a.shape[1], 6]))


def p_div_mod_i8_by_zero_and_minus_one(hl, a):
    # Division by zero gives zero in Halide; int8 -128 / -1 wraps to -128.
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A = image(hl, a, "a")
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [A[x, 0] / A[y, 0], A[x, 0] % A[y, 0]])
    return np.asarray(f.realize([a.shape[1], a.shape[1], 2]))


def p_mixed_type_coercion(hl, a, b, c16):
    # uint8 + int8 -> int8 (Halide: signed of the max width); uint8 * uint16 -> uint16.
    x, y, k = hl.Var("x"), hl.Var("y"), hl.Var("k")
    A, B, C = image(hl, a, "a"), image(hl, b, "b"), image(hl, c16, "c")
    f = hl.Func("f")
    f[x, y, k] = hl.mux(k, [hl.cast(hl.Int(32), A[x, y] + B[x, y]), hl.cast(hl.Int(32), A[x, y] * C[x, y]),
                            hl.cast(hl.Int(32), B[x, y] - C[x, y]), A[x, y] + x,
                            hl.cast(hl.Int(32), C[x, y] / A[x, y])])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 5]))


# ---- casts ------------------------------------------------------------------------------------------

def p_casts_truncate_and_extend(hl, a):
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A = image(hl, a, "a")
    v = A[x, y]
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [hl.cast(hl.Int(32), hl.cast(hl.UInt(8), v)), hl.cast(hl.Int(32), hl.cast(hl.Int(8), v)),
                            hl.cast(hl.Int(32), hl.cast(hl.UInt(16), v)), hl.cast(hl.Int(32), hl.cast(hl.Int(16), v)),
                            hl.cast(hl.Int(32), hl.cast(hl.UInt(32), v)), hl.cast(hl.Int(32), hl.cast(hl.Bool(), v))])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 6]))


def p_cast_to_bool_keeps_bit0(hl, a):
    # Surprising but true in Halide 21: a cast to Bool keeps bit 0 (LLVM trunc), it is not `!= 0`.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    f = hl.Func("f")
    f[x, y] = hl.cast(hl.Bool(), A[x, y])
    return realize_like(f, a)


def p_concise_casts(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    f = hl.Func("f")
    f[x, y] = hl.u16(A[x, y]) + hl.u16(hl.i8(A[x, y])) + hl.u16(hl.i16(A[x, y]) * 2) + hl.u16(hl.u8(A[x, y] >> 4))
    return realize_like(f, a)


def p_cast_constants_fold(hl, a):
    # hl.cast of a constant is folded to a constant of the new type, so select() converts it to the other
    # side's type like any integer constant.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    f = hl.Func("f")
    f[x, y] = hl.select(A[x, y] > 100, hl.cast(hl.Int(16), 300), A[x, y]) + hl.cast(hl.UInt(8), 300)
    return realize_like(f, a)


def p_saturating_cast(hl, a32, a16):
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A, B = image(hl, a32, "a"), image(hl, a16, "b")
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [hl.cast(hl.Int(32), hl.saturating_cast(hl.UInt(8), A[x, y])),
                            hl.cast(hl.Int(32), hl.saturating_cast(hl.Int(8), A[x, y])),
                            hl.cast(hl.Int(32), hl.saturating_cast(hl.UInt(16), B[x, y])),
                            hl.cast(hl.Int(32), hl.saturating_cast(hl.UInt(32), A[x, y])),
                            hl.cast(hl.Int(32), hl.saturating_cast(hl.Int(16), hl.cast(hl.UInt(32), A[x, y]))),
                            hl.cast(hl.Int(32), hl.saturating_cast(hl.Int(8), B[x, y]))])
    return np.asarray(f.realize([a32.shape[1], a32.shape[0], 6]))


# ---- select, mux, clamp, min/max, abs --------------------------------------------------------------

def p_select_chain(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    f = hl.Func("f")
    v = A[x, y]
    f[x, y] = hl.select(v < 50, v * 2, v < 150, v / 2, v > 250, 255, v)
    return realize_like(f, a)


def p_select_wraps_int_constant(hl, a):
    # A signed integer constant in a select takes the other side's type with wrap-around: 300 -> (uint8)44,
    # -1 -> (uint8)255. Halide does not warn about it.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    f = hl.Func("f")
    f[x, y] = hl.select(A[x, y] > 128, 300, A[x, y]) + hl.select(A[x, y] < 10, A[x, y], -1)
    return realize_like(f, a)


def p_select_bool_constant_truncates(hl, a):
    # An int constant beside a Bool in a select keeps bit 0 (2 becomes false, 3 true).
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    f = hl.Func("f")
    c = A[x, y] > 100
    f[x, y] = hl.select(A[x, y] > 200, 2, c) | hl.select(A[x, y] < 20, c, 3)
    return realize_like(f, a)


def p_mux_out_of_range(hl, a):
    # mux(i, vals) is vals[i] for 0 <= i < len, else the LAST value (negative indices too).
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    f = hl.Func("f")
    f[x, y] = hl.mux(hl.cast(hl.Int(32), A[x, y]) % 7 - 2, [A[x, y], A[x, y] + 1, hl.u8(100), hl.u8(x)])
    return realize_like(f, a)


def p_mux_uint8_index_and_single(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    f = hl.Func("f")
    f[x, y] = hl.mux(A[x, y] % 4, [1, 2, 3]) + hl.mux(y, [x])
    return realize_like(f, a)


def p_clamp_types(hl, a, b):
    # clamp converts its bounds to the value's type when that is lossless (an int32 value with uint8 bounds).
    x, y = hl.Var("x"), hl.Var("y")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y] = hl.clamp(A[x, y], 20, 200) + hl.clamp(x * 40 - 100, B[x, y], 255)
    return realize_like(f, a)


def p_min_max_mixed(hl, a, b):
    # In hl.min/hl.max a Python int is an Int(32) Expr first, so min(uint8, 3) is int32.
    x, y = hl.Var("x"), hl.Var("y")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y] = hl.min(A[x, y], 100) + hl.max(B[x, y], -50) + hl.max(A[x, y], B[x, y], 3) + hl.min(A[x, y], A[x, y] / 2)
    return realize_like(f, a)


def p_abs_absd(hl, a, b):
    # abs and absd of int8 are uint8; abs(-128) == 128 exactly.
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [hl.abs(A[x, y]), hl.absd(A[x, y], B[x, y]), hl.absd(hl.cast(hl.UInt(8), A[x, y]),
                            hl.cast(hl.UInt(8), B[x, y])), hl.cast(hl.UInt(8), hl.absd(A[x, y], 3))])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 4]))


# ---- comparisons, bitwise, shifts ------------------------------------------------------------------

def p_comparisons(hl, a, b):
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [A[x, y] < B[x, y], A[x, y] <= B[x, y], A[x, y] > B[x, y], A[x, y] >= B[x, y],
                            A[x, y] == B[x, y], A[x, y] != B[x, y], A[x, y] < 0, (A[x, y] > 0) == (B[x, y] > 0)])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 8]))


def p_bool_logic_and_arith(hl, a):
    # Bool arithmetic stays Bool (wraps at one bit); & | ^ ~ are logical.
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A = image(hl, a, "a")
    p, q = A[x, y] > 100, A[x, y] % 2 == 0
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [p & q, p | q, p ^ q, ~p, p + q, p * q, p - q, hl.max(p, q), p + 1])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 9]))


def p_bitwise(hl, a, b, c16):
    x, y, k = hl.Var("x"), hl.Var("y"), hl.Var("k")
    A, B, C = image(hl, a, "a"), image(hl, b, "b"), image(hl, c16, "c")
    f = hl.Func("f")
    f[x, y, k] = hl.mux(k, [hl.cast(hl.UInt(16), A[x, y] & B[x, y]), A[x, y] | C[x, y], A[x, y] ^ C[x, y],
                            C[x, y] & 0xF0F0, hl.cast(hl.UInt(16), ~A[x, y] ^ 0x55)])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 5]))


def p_shifts_by_constants(hl, a, b):
    # A negative constant amount shifts the other way; >> of a signed value is arithmetic.
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A, B = image(hl, a, "a"), image(hl, b, "b")
    f = hl.Func("f")
    f[x, y, c] = hl.mux(c, [hl.cast(hl.Int(16), A[x, y] << 3), hl.cast(hl.Int(16), A[x, y] >> 3),
                            hl.cast(hl.Int(16), A[x, y] << -2), B[x, y] >> 5, B[x, y] << 9, B[x, y] >> -1,
                            hl.cast(hl.Int(16), A[x, y] >> 7)])
    return np.asarray(f.realize([a.shape[1], a.shape[0], 7]))


def p_shifts_by_exprs_incl_negative(hl, v, amounts):
    # Signed shift amounts may be negative (the shift goes the other way); amounts stay below the width
    # (Halide leaves larger ones undefined).
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    V, S = image(hl, v, "v"), image(hl, amounts, "s")
    f = hl.Func("f")
    s = S[x, 0]
    f[x, y, c] = hl.mux(c, [hl.i16(V[y, 0] << s), hl.i16(V[y, 0] >> s), hl.i16(V[y, 0]) << s,
                            hl.i16(V[y, 0]) >> hl.i8(s)])
    return np.asarray(f.realize([amounts.shape[1], v.shape[1], 4]))


def p_shift_unsigned_by_signed(hl, a, amounts):
    # uint8 >> int8: the amount keeps its signedness, the result is uint8.
    x, y = hl.Var("x"), hl.Var("y")
    A, S = image(hl, a, "a"), image(hl, amounts, "s")
    f = hl.Func("f")
    f[x, y] = (A[y, 0] >> S[x, 0]) + (A[y, 0] << S[x, 0])
    return np.asarray(f.realize([amounts.shape[1], a.shape[1]]))


def p_pow_by_integer_constant(hl, a):
    # `e ** k` with an integer constant k is repeated multiplication in Halide (1/e**-k for k < 0).
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    f = hl.Func("f")
    f[x, y] = A[x, y] ** 2 + A[x, y] ** 3 - A[x, y] ** 0 + A[x, y] ** 1 + A[x, y] ** -1
    return realize_like(f, a)


def p_param_scalar(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a, "a")
    k = hl.Param(hl.Int(16), "k", -3)
    off = hl.Param(hl.UInt(8), "off")
    off.set(17)
    f = hl.Func("f")
    f[x, y] = A[x, y] * k + off
    return realize_like(f, a)


def p_var_arith_1d_no_inputs(hl):
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = (x * x - 7 * x) / 3 + (x % 5) * (x - 20)
    return np.asarray(f.realize([40]))


V8 = np.array([[0, 1, 5, 127, 128, 200, 255]], dtype=np.uint8)
AMOUNTS_I8 = np.array([[-7, -3, -1, 0, 1, 2, 7]], dtype=np.int8)

PROGRAMS = {
    "u8_arith_wraps": (p_u8_arith_wraps, U8, U8B),
    "i8_arith_wraps": (p_i8_arith_wraps, I8, I8B),
    "u16_i16_arith": (p_u16_i16_arith, U16, I16),
    "u32_arith_wraps": (p_u32_arith_wraps, U32, U32 // 1000 + 1),
    "i32_arith_no_overflow": (p_i32_arith_no_overflow, SMALL_I32, SMALL_I32[::-1].copy()),
    "div_mod_negative": (p_div_mod_negative, NEG_I8),
    "div_mod_i8_by_zero_and_minus_one": (p_div_mod_i8_by_zero_and_minus_one, NEG_I8),
    "mixed_type_coercion": (p_mixed_type_coercion, U8, I8, U16),
    "casts_truncate_and_extend": (p_casts_truncate_and_extend, I32),
    "cast_to_bool_keeps_bit0": (p_cast_to_bool_keeps_bit0, U8),
    "concise_casts": (p_concise_casts, U8),
    "cast_constants_fold": (p_cast_constants_fold, U8),
    "saturating_cast": (p_saturating_cast, I32, I16),
    "select_chain": (p_select_chain, U8),
    "select_wraps_int_constant": (p_select_wraps_int_constant, U8),
    "select_bool_constant_truncates": (p_select_bool_constant_truncates, U8),
    "mux_out_of_range": (p_mux_out_of_range, U8),
    "mux_uint8_index_and_single": (p_mux_uint8_index_and_single, U8),
    "clamp_types": (p_clamp_types, U8, U8B),
    "min_max_mixed": (p_min_max_mixed, U8, I8),
    "abs_absd": (p_abs_absd, I8, I8B),
    "comparisons": (p_comparisons, I16, full_range(np.int16, (6, 9)) // 64),
    "bool_logic_and_arith": (p_bool_logic_and_arith, U8),
    "bitwise": (p_bitwise, U8, U8B, U16),
    "shifts_by_constants": (p_shifts_by_constants, U8, I16),
    "shifts_by_exprs_incl_negative": (p_shifts_by_exprs_incl_negative, V8.astype(np.int8), AMOUNTS_I8),
    "shift_unsigned_by_signed": (p_shift_unsigned_by_signed, V8, AMOUNTS_I8),
    "pow_by_integer_constant": (p_pow_by_integer_constant, I8),
    "param_scalar": (p_param_scalar, U8),
    "var_arith_1d_no_inputs": (p_var_arith_1d_no_inputs,),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_halide(name, same_as_halide):
    program, *inputs = PROGRAMS[name]
    same_as_halide(program, *inputs)
