"""The math functions of the language (`hl.exp`, `hl.log`, `hl.pow`, `hl.sqrt`, `hl.floor`, `hl.sin`, ...), typed as
Halide 21's IROperator.cpp types them: a Float(64) argument stays Float(64), anything else becomes Float(32).

`pow` with a constant integer exponent is repeated multiplication, as `**` is (expr.power).
"""

from __future__ import annotations

import numpy as np

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, cast_ir, power, to_ir, type_name
from .operators import abs_, select
from .types import F32


def _float_arg(e, name: str) -> ir.Expr:
    x = to_ir(e, name)
    return x if x.type.is_float() else cast_ir(F32, x)


def _unary(name: str):
    def f(e) -> Expr:
        x = _float_arg(e, name)
        return Expr(ir.MathCall(x.type, name, (x,)))

    f.__name__ = name
    f.__doc__ = f"Halide's {name}: Float(64) stays Float(64); any other argument is cast to Float(32)."
    return f


exp = _unary("exp")
log = _unary("log")
sqrt = _unary("sqrt")
floor = _unary("floor")
ceil = _unary("ceil")
round = _unary("round")  # noqa: A001 - Halide's name; to nearest, ties to even
trunc = _unary("trunc")


sin, cos, tan = _unary("sin"), _unary("cos"), _unary("tan")
asin, acos, atan = _unary("asin"), _unary("acos"), _unary("atan")
sinh, cosh, tanh = _unary("sinh"), _unary("cosh"), _unary("tanh")
asinh, acosh, atanh = _unary("asinh"), _unary("acosh"), _unary("atanh")


def atan2(y, x) -> Expr:
    """Halide 21's atan2: of y's float type (Float(64) stays, anything else Float(32)), x cast to it."""
    yy = _float_arg(y, "atan2")
    xx = cast_ir(yy.type, to_ir(x, "atan2"))
    return Expr(ir.MathCall(yy.type, "atan2", (yy, xx)))


def hypot(x, y) -> Expr:
    """Halide 21's hypot: sqrt(x * x + y * y) in x's float type (no libm call: the sum may contract to an FMA)."""
    xx = _float_arg(x, "hypot")
    yy = cast_ir(xx.type, to_ir(y, "hypot"))
    total = ir.BinOp(xx.type, "add", ir.BinOp(xx.type, "mul", xx, xx), ir.BinOp(xx.type, "mul", yy, yy))
    return Expr(ir.MathCall(xx.type, "sqrt", (total,)))


def pow(x, y) -> Expr:  # noqa: A001 - Halide's name
    return power(x, y)


def fract(e) -> Expr:
    """Halide 21's fract: x - trunc(x) (so fract(-0.25) is -0.25)."""
    x = _float_arg(e, "fract")
    return Expr(ir.BinOp(x.type, "sub", x, ir.MathCall(x.type, "trunc", (x,))))


# Halide 21's erf (IROperator.cpp halide_erf): not a library call but an expression of the argument, so it is built
# here from the same operations and gets the same FMA contractions and constant folding as user code.
_ERF_ABOVE_1 = (0.0000818502, -0.0000026500, 0.0009353904, 0.0081960206, 0.0430054424, 0.0703310579, 1.0)
_ERF_BELOW_1 = (-0.0005553339, 0.0048937243, -0.0266849239, 0.1127890132, -0.3761207240, 1.1283789803)


def erf(e) -> Expr:
    """Halide 21's erf, of Float(32) only: 1 - P(|x|)**-16 above 1, an odd polynomial below, with x's sign."""
    x_full = Expr(to_ir(e, "erf"))
    if x_full.type() != F32:
        raise HalideError(f"{user_location()}: hl.erf takes Float(32) only, as Halide's erf, not "
                          f"{type_name(x_full.type())}; cast the argument, e.g. hl.erf(hl.f32(x))")
    sign = select(x_full < 0, f32_const(-1.0), f32_const(1.0))
    x = abs_(x_full)
    above = f32_const(1.0) - power(polynomial(x, _ERF_ABOVE_1), -16)
    below = polynomial(x * x, _ERF_BELOW_1) * x
    return sign * select(x > f32_const(1.0), above, below)


def f32_const(v: float) -> Expr:
    """A Float(32) constant: v rounded to float32, as Halide writes its coefficients (`0.5f`)."""
    return Expr(ir.Const(F32, float(np.float32(v))))


def polynomial(x: Expr, coeffs: tuple[float, ...]) -> Expr:
    """Halide's evaluate_polynomial: even and odd coefficients in two Horner chains in x*x, joined at the end."""
    x2 = x * x
    even, odd = f32_const(coeffs[0]), f32_const(coeffs[1])
    for i, c in enumerate(coeffs[2:], start=2):
        step = (lambda t: t * x2) if c == 0 else (lambda t, c=c: t * x2 + f32_const(c))
        if i % 2 == 0:
            even = step(even)
        else:
            odd = step(odd)
    return even * x + odd if len(coeffs) % 2 == 0 else odd * x + even


def is_nan(e) -> Expr:
    """Halide's is_nan (evaluated strictly in Halide whatever the target): a float is NaN when unequal to itself."""
    x = _float_only(e, "is_nan")
    return x != x  # noqa: PLR0124 - NaN is the one value unequal to itself


def is_inf(e) -> Expr:
    x = _float_only(e, "is_inf")
    return abs_(x) == Expr(ir.Const(x.type(), float("inf")))


def is_finite(e) -> Expr:
    """Neither infinite nor NaN (a comparison with NaN is false)."""
    x = _float_only(e, "is_finite")
    return abs_(x) < Expr(ir.Const(x.type(), float("inf")))


def _float_only(e, name: str) -> Expr:
    x = Expr(to_ir(e, name))
    if not x.type().is_float():
        raise HalideError(f"{user_location()}: hl.{name} takes a float argument, as Halide's {name}, not "
                          f"{type_name(x.type())}; cast it, e.g. hl.{name}(hl.f32(x))")
    return x


def strict_float(e) -> Expr:
    """Halide's strict_float: the float operations of e as IEEE computes them, each rounded (no fused multiply-add);
    an expression of another type is itself."""
    x = to_ir(e, "strict_float")
    return Expr(ir.MathCall(x.type, "strict_float", (x,))) if x.type.is_float() else Expr(x)
