"""Fold constants in an op's expression (after unrolled reductions substituted their loop values)."""

from __future__ import annotations

import numpy as np

from mainspring.frontend import ir, semantics


def simplify(e: ir.Expr, memo: dict | None = None) -> ir.Expr:
    memo = {} if memo is None else memo
    got = memo.get(id(e))
    if got is not None:
        return got
    out = _simplify(e, memo)
    memo[id(e)] = out
    return out


def _const(t, values) -> ir.Const:
    return ir.Const(t, int(np.asarray(values)))


def _simplify(e: ir.Expr, memo: dict) -> ir.Expr:
    if isinstance(e, (ir.Const, ir.Var, ir.RVar)):
        return e
    if isinstance(e, ir.Call):
        args = tuple(simplify(a, memo) for a in e.args)
        return e if all(a is b for a, b in zip(args, e.args)) else ir.Call(e.type, e.callee, args)
    if isinstance(e, ir.Cast):
        v = simplify(e.value, memo)
        if isinstance(v, ir.Const):
            return _const(e.type, semantics.cast(v.value, v.type, e.type))
        return e if v is e.value else ir.Cast(e.type, v)
    if isinstance(e, ir.UnOp):
        a = simplify(e.a, memo)
        if isinstance(a, ir.Const):
            return _const(e.type, semantics.unop(e.op, e.type, a.value))
        return e if a is e.a else ir.UnOp(e.type, e.op, a)
    if isinstance(e, ir.Select):
        c, t, f = (simplify(x, memo) for x in (e.cond, e.true_value, e.false_value))
        if isinstance(c, ir.Const):
            return t if c.value else f
        return ir.Select(e.type, c, t, f)
    return _binop(e, simplify(e.a, memo), simplify(e.b, memo))


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
    return e if (a is e.a and b is e.b) else ir.BinOp(e.type, e.op, a, b)
