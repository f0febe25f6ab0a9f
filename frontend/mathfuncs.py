"""The math functions of the language (`hl.exp`, `hl.log`, `hl.pow`, `hl.sqrt`, `hl.floor`, ...), typed as
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


def pow(x, y) -> Expr:  # noqa: A001 - Halide's name
    return power(x, y)


def fract(e) -> Expr:
    """Halide 21's fract: x - trunc(x) (so fract(-0.25) is -0.25)."""
    x = _float_arg(e, "fract")
    return Expr(ir.BinOp(x.type, "sub", x, ir.MathCall(x.type, "trunc", (x,))))
