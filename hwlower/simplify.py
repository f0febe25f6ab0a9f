"""Fold constants in an op's expression (after unrolled reductions substituted their loop values), and read a
packed Tuple's fields where the word was just packed (fields.py)."""

from __future__ import annotations

import numpy as np

from mainspring.frontend import ir, semantics
from mainspring.frontend.types import Type

from .fields import bool_of_zero_extended, field_read, lossless_pair


def simplify(e: ir.Expr, memo: dict | None = None) -> ir.Expr:
    """e with constant subexpressions folded (Halide's semantics), +0, *1, /1 dropped and an integer *0 made 0."""
    return ir.transform(e, lambda n, kids: _fold(ir.rebuild(n, kids)), memo)


def _const(t: Type, values: np.ndarray) -> ir.Const:
    return ir.Const(t, int(np.asarray(values)))


def _fold(e: ir.Expr) -> ir.Expr:
    if isinstance(e, ir.Cast) and isinstance(e.value, ir.Const):
        return _const(e.type, semantics.cast(e.value.value, e.value.type, e.type))
    if isinstance(e, ir.UnOp) and isinstance(e.a, ir.Const):
        return _const(e.type, semantics.unop(e.op, e.type, e.a.value))
    if isinstance(e, ir.Select) and isinstance(e.cond, ir.Const):
        return e.true_value if e.cond.value else e.false_value
    if isinstance(e, ir.Cast):
        return lossless_pair(e) or e
    if isinstance(e, ir.BinOp):
        e = _binop(e, e.a, e.b)
        if isinstance(e, ir.BinOp) and e.op in ("and", "shr"):
            return field_read(e) or e
        if isinstance(e, ir.BinOp) and e.op == "ne":
            return bool_of_zero_extended(e) or e
    return e


def _binop(e: ir.BinOp, a: ir.Expr, b: ir.Expr) -> ir.Expr:
    if isinstance(a, ir.Const) and isinstance(b, ir.Const):
        return _const(e.type, semantics.binop(e.op, e.type, a.type, a.value, b.value))
    if e.op == "add" and isinstance(a, ir.Const) and a.value == 0:
        return b
    if e.op in ("add", "sub") and isinstance(b, ir.Const) and b.value == 0:
        return a
    if e.op == "mul" and isinstance(a, ir.Const) and a.value == 1:
        return b
    if e.op in ("mul", "div") and isinstance(b, ir.Const) and b.value == 1:
        return a
    if e.op == "mul" and _integer_zero(e, a, b):
        # Halide's simplifier folds it too; the read it multiplies is then gone, and with it the taps and
        # registers that held it (unsharp's zero-weight corners).
        return ir.Const(e.type, 0)
    return e


def _integer_zero(e: ir.BinOp, a: ir.Expr, b: ir.Expr) -> bool:
    """Whether e = a * b is an integer product with a constant 0 factor (a float's 0 * inf is NaN)."""
    scalar_int = e.type.is_scalar() and (e.type.is_int() or e.type.is_uint())
    return scalar_int and any(isinstance(x, ir.Const) and x.value == 0 for x in (a, b))
