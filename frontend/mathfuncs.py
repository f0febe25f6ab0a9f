"""The math functions of the language (`hl.exp`, `hl.log`, `hl.pow`, `hl.sqrt`, `hl.floor`, `hl.sin`, ...), typed as
Halide 21's IROperator.cpp types them: a Float(64) argument stays Float(64), anything else becomes Float(32).

`pow` with a constant integer exponent is repeated multiplication, as `**` is (expr.power).
"""

from __future__ import annotations

from . import ir
from .expr import Expr, cast_ir, power, to_ir
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
