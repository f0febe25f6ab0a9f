"""Halide 21's fast approximations (`hl.fast_exp`, `fast_log`, `fast_pow`, `fast_sin`, `fast_cos`): like `erf`,
each is an expression Halide builds from plain operations (IROperator.cpp, after the Syrah library), so they are
built here from the same operations, in the same order, and take the same FMA contractions and constant folding
as user code. `fast_inverse` and `fast_inverse_sqrt` are the CPU's approximate-reciprocal instructions, whose bits
differ between processor vendors, so they are refused with the exact expression to use instead."""

from __future__ import annotations

import math

import numpy as np

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, cast_ir, power, to_ir, type_name
from .intrinsics import reinterpret
from .mathfuncs import f32_const, floor, polynomial
from .operators import clamp, select
from .types import F32, I32, Type

_LN2 = float(np.float32(math.log(2.0)))  # logf(2.0f)
_EXP_COEFFS = (0.01314350012789660196, 0.03668965196652099192, 0.16873890085469545053, 0.49970514590562437052,
               1.0, 1.0)
_LOG_COEFFS = (0.07640318789187280912, -0.16252961013874300811, 0.20625219040645212387, -0.25110261010892864775,
               0.33320464908377461777, -0.49997513376789826101, 1.0, 0.0)
_TWO_OVER_PI, _PI_OVER_TWO = 0.636619746685028076171875, 1.57079637050628662109375
# sin's and cos's odd and even Taylor-like coefficients, x**2 to x**10 (float32 values as Halide writes them)
_SIN = (-0.16666667163372039794921875, 8.333347737789154052734375e-3, -1.9842604524455964565277099609375e-4,
        2.760012648650445044040679931640625e-6, -2.50293279435709337121807038784027099609375e-8)
_COS = (-0.5, 4.166664183139801025390625e-2, -1.388833043165504932403564453125e-3,
        2.47562347794882953166961669921875e-5, -2.59630184018533327616751194000244140625e-7)


def _cast(t: Type, e: Expr) -> Expr:
    return Expr(cast_ir(t, to_ir(e, "cast")))


def _f32_only(e, name: str) -> Expr:
    x = Expr(to_ir(e, name))
    if x.type() != F32:
        raise HalideError(f"{user_location()}: hl.{name} takes Float(32) only, as Halide's {name}, not "
                          f"{type_name(x.type())}; cast the argument, e.g. hl.{name}(hl.f32(x))")
    return x


def _horner(x2: Expr, coeffs: tuple[float, ...]) -> Expr:
    out = f32_const(coeffs[0])
    for c in coeffs[1:]:
        out = out * x2 + f32_const(c)
    return out


def fast_exp(e) -> Expr:
    """2**k times a polynomial of the remainder, with 2**k made from its exponent bits (k clamped to [-127, 128])."""
    x_full = _f32_only(e, "fast_exp")
    k_real = floor(x_full / f32_const(_LN2))
    result = polynomial(x_full - k_real * f32_const(_LN2), _EXP_COEFFS)
    biased = clamp(_cast(I32, k_real) + 127, 0, 255)
    return result * reinterpret(F32, biased << 23)


def fast_log(e) -> Expr:
    """A polynomial of the mantissa brought into [0.75, 1.5), plus the exponent times log(2)."""
    x = _f32_only(e, "fast_log")
    bits = reinterpret(I32, x)
    no_exponent = bits & Expr(ir.Const(I32, -0x7F800001))  # 0x807fffff: the sign and mantissa bits
    new_biased = 127 - (no_exponent >> 22)
    exponent = (bits >> 23) - new_biased
    x1 = reinterpret(F32, no_exponent | (new_biased << 23)) - f32_const(1.0)
    # the polynomial is even(x1) * x1 + odd(x1) * x1**2 (its last coefficient is 0); LLVM's reassociation adds
    # the exponent's term to the odd part first, then contracts both sums (measured: other groupings differ in up to
    # a third of the values), while a constant argument folds as written: one node keeps both (ir.MathCall)
    x2 = x1 * x1
    even, odd = _horner(x2, _LOG_COEFFS[0::2]), _horner(x2, _LOG_COEFFS[1::2][:-1])
    parts = (even, x1, odd, x2, _cast(F32, exponent) * f32_const(_LN2))
    return Expr(ir.MathCall(F32, "fast_log_sum", tuple(p._ir() for p in parts)))


def fast_pow(x, y) -> Expr:
    """An integer constant exponent is repeated multiplication (as `pow`); else exp(log(x) * y), 0 where x is 0."""
    k = to_ir(y, "fast_pow")
    if isinstance(k, ir.Const) and k.type.is_int():
        return power(x, y)
    xx, yy = _cast(F32, Expr(to_ir(x, "fast_pow"))), _cast(F32, Expr(k))
    return select(xx == f32_const(0.0), f32_const(0.0), fast_exp(fast_log(xx) * yy))


def _fast_sin_cos(e, is_sin: bool) -> Expr:
    x_full = Expr(to_ir(e, "fast_sin" if is_sin else "fast_cos"))
    k_real = floor(x_full * f32_const(_TWO_OVER_PI))
    k_mod4 = _cast(I32, k_real) % 4
    use_cos = (k_mod4 == 1) | (k_mod4 == 3) if is_sin else (k_mod4 == 0) | (k_mod4 == 2)
    flip_sign = k_mod4 > 1 if is_sin else (k_mod4 == 1) | (k_mod4 == 2)
    x = x_full - k_real * f32_const(_PI_OVER_TWO)  # the angle modulo pi/2
    c2, c4, c6, c8, c10 = (select(use_cos, f32_const(c), f32_const(s)) for c, s in zip(_COS, _SIN))
    x2 = x * x
    one = Expr(ir.Const(x.type(), 1.0))  # Halide writes the integer 1, which takes x's type (Float(64) too)
    tri = select(use_cos, one, x) * (x2 * (x2 * (x2 * (x2 * (x2 * c10 + c8) + c6) + c4) + c2) + one)
    return select(flip_sign, -tri, tri)


def fast_sin(e) -> Expr:
    return _fast_sin_cos(e, True)


def fast_cos(e) -> Expr:
    return _fast_sin_cos(e, False)


def fast_inverse(e) -> Expr:
    raise _approximate_instruction("fast_inverse", "1.0 / x", "rcpps")


def fast_inverse_sqrt(e) -> Expr:
    raise _approximate_instruction("fast_inverse_sqrt", "1.0 / hl.sqrt(x)", "rsqrtps")


def _approximate_instruction(name: str, exact: str, instruction: str) -> HalideError:
    return HalideError(f"{user_location()}: hl.{name} is the CPU's approximate {instruction} instruction in Halide, "
                       "whose bits differ between processor vendors, so a bit-exact reference cannot reproduce it; "
                       f"write the exact value instead, e.g. {exact}")
