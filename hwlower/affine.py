"""Affine forms of index expressions."""

from __future__ import annotations

from mainspring.frontend import ir

from .ir import Affine


def affine_of(e: ir.Expr, env: dict[str, Affine]) -> Affine | None:
    """e as an affine function of the loops (env maps Var/RVar names to affine forms), or None."""
    if isinstance(e, ir.Const):
        return Affine.make({}, e.value)
    if isinstance(e, (ir.Var, ir.RVar)):
        return env.get(e.name)
    if isinstance(e, ir.Cast) and e.type.is_int() and e.type.bits() == 32 and e.value.type.bits() < 32:
        return None  # the cast value is a load or a narrow computation: not an index of the loops
    if isinstance(e, ir.BinOp) and e.op in ("add", "sub", "mul"):
        a, b = affine_of(e.a, env), affine_of(e.b, env)
        if a is None or b is None:
            return None
        if e.op == "mul":
            if not a.terms:
                a, b = b, a
            if b.terms:
                return None
            return _scale(a, b.const)
        return _combine(a, b, 1 if e.op == "add" else -1)
    return None


def _scale(a: Affine, k: int) -> Affine:
    return Affine.make({v: c * k for v, c in a.terms}, a.const * k)


def _combine(a: Affine, b: Affine, sign: int) -> Affine:
    terms = dict(a.terms)
    for v, c in b.terms:
        terms[v] = terms.get(v, 0) + sign * c
    return Affine.make(terms, a.const + sign * b.const)
