"""Affine forms of index expressions."""

from __future__ import annotations

from mainspring.frontend import ir

from .ir import Affine


def int_value(c: ir.Const) -> int:
    """The value of a constant of an integer type (an index, a coordinate, an RDom bound: Int(32))."""
    assert isinstance(c.value, int), f"{c.type} constant {c.value} where an integer is expected"
    return c.value


def affine_of(e: ir.Expr, env: dict[str, Affine], ranges: dict[str, int] | None = None) -> Affine | None:
    """e as an affine function of the loops (env maps Var/RVar names to affine forms), or None. With `ranges`
    (loop -> extent, loops from 0), a floor division or modulo by a constant is affine where the part of the
    dividend that the divisor does not divide stays within one multiple of it (x / 2 once x = 2 * xo + xi)."""
    if isinstance(e, ir.Const):
        return Affine.make({}, e.value) if isinstance(e.value, int) else None  # an index is an integer
    if isinstance(e, (ir.Var, ir.RVar)):
        return env.get(e.name)
    if isinstance(e, ir.Cast) and e.type.is_int() and e.type.bits() == 32 and e.value.type.bits() < 32:
        return None  # the cast value is a load or a narrow computation: not an index of the loops
    if isinstance(e, ir.BinOp) and e.op in ("div", "mod") and isinstance(e.b, ir.Const) \
            and isinstance(e.b.value, int) and e.b.value > 0:
        a = affine_of(e.a, env, ranges)
        return None if a is None or ranges is None else _divide(a, e.b.value, e.op, ranges)
    if isinstance(e, ir.BinOp) and e.op in ("add", "sub", "mul"):
        a, b = affine_of(e.a, env, ranges), affine_of(e.b, env, ranges)
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


def _divide(a: Affine, d: int, op: str, ranges: dict[str, int]) -> Affine | None:
    """floor(a / d) or a mod d (Halide's: rounding down for a positive divisor), when affine."""
    whole = {v: c // d for v, c in a.terms if c % d == 0}
    rest = [(v, c) for v, c in a.terms if c % d]
    if any(v not in ranges for v, _ in rest):
        return None
    lo = a.const + sum(min(0, c * (ranges[v] - 1)) for v, c in rest)
    hi = a.const + sum(max(0, c * (ranges[v] - 1)) for v, c in rest)
    if lo // d != hi // d:
        return _stepped(a, d, op, whole, rest, ranges)
    if op == "div":
        return Affine.make(whole, lo // d)
    return Affine.make(dict(rest), a.const - d * (lo // d))


def _stepped(a: Affine, d: int, op: str, whole: dict[str, int], rest: list[tuple[str, int]],
             ranges: dict[str, int]) -> Affine | None:
    """floor(a / d) or a mod d when the part d does not divide is one loop v whose quotient steps evenly over its
    range: (x + 1) / 2 on x = 2 * xo + xi is xo + xi (xi in 0..1: any two points lie on a line)."""
    if len(rest) != 1:
        return None
    (v, c), = rest
    q = [(a.const + c * i) // d for i in range(ranges[v])]
    k = q[1] - q[0] if len(q) > 1 else 0
    if any(q[i] != q[0] + k * i for i in range(len(q))):
        return None
    if op == "div":
        return Affine.make(whole | {v: k}, q[0])
    return Affine.make({v: c - d * k}, a.const - d * q[0])


def _scale(a: Affine, k: int) -> Affine:
    return Affine.make({v: c * k for v, c in a.terms}, a.const * k)


def _combine(a: Affine, b: Affine, sign: int) -> Affine:
    terms = dict(a.terms)
    for v, c in b.terms:
        terms[v] = terms.get(v, 0) + sign * c
    return Affine.make(terms, a.const + sign * b.const)
