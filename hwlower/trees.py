"""Reduction trees: an update that accumulates into its own value (`f(args) = f(args) + e`, or min / max of
the two) over loops the schedule unrolls while its store stays put computes all those iterations in one
firing, as a balanced tree of `e`'s values combined with `f(args)` once.

This is resnet's channel-weight-stationary schedule, `conv.update().unroll(r.z, k_ic)` with r.x, r.y serial:
the unrolled input channels all add into the same `conv(x, y, w)`. Read literally these would be lanes that
read each other's result in one cycle; but add (wrapping at the type's width), min and max are associative and
commutative, and `e` does not read `f`, so `f + e0 + e1 + ...` in Halide's order equals `f + (e0 + e1) + ...`
bit for bit. Other update shapes keep the general path (and its check that lanes are independent)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.func import Function

from .ir import Access, Affine
from .loops import StageLoop, StageLoops

ASSOCIATIVE = ("add", "min", "max")


def accumulation(f: Function, args: Sequence[ir.Expr], value: ir.Expr) -> tuple[str, ir.Call, ir.Expr] | None:
    """(op, the read of f at the store's own coordinates, e) where value is `op(f(args), e)` and e does not
    read f; else None."""
    if not isinstance(value, ir.BinOp) or value.op not in ASSOCIATIVE:
        return None
    keys = [ir.structural_key(a) for a in args]
    for own, e in ((value.a, value.b), (value.b, value.a)):
        if (isinstance(own, ir.Call) and own.callee is f and [ir.structural_key(a) for a in own.args] == keys
                and not any(isinstance(n, ir.Call) and n.callee is f for n in ir.walk(e))):
            return value.op, own, e
    return None


def tree_loops(s: StageLoops, store: Access, full: dict[str, str]) -> list[StageLoop]:
    """The unrolled loops of an update stage that its store does not move along (`full`: dim -> loop name)."""
    used = {v for a in store.index for v, _ in a.terms}
    return [lp for lp in s.loops if lp.unrolled and lp.extent > 1 and full[lp.dim] not in used]


def tree_points(s: StageLoops, tree: Sequence[StageLoop], full: dict[str, str], env: dict[str, Affine],
                coords: dict[str, ir.Var | ir.RVar]) -> list[tuple[dict[str, Affine], dict[str, ir.Expr]]]:
    """For each iteration of the tree loops: the variables' affine functions with those loops fixed, and what
    each coordinate `coords` (the Vars and RVars `e` reads, by name) becomes there: a constant, or, when it
    still moves along a loop outside the tree (a reduction split into a serial and an unrolled loop), a
    coordinate of its own, `name@point`, whose affine function the point's variables hold."""
    loops = [full[lp.dim] for lp in tree]
    once = {full[lp.dim]: 0 for lp in s.loops if lp.extent == 1}  # loops start at 0 (ir.Loop.min)
    out = []
    for i, point in enumerate(itertools.product(*(range(lp.extent) for lp in tree))):
        at = dict(zip(loops, point)) | once
        fixed = {v: Affine.make({d: c for d, c in a.terms if d not in at},
                                a.const + sum(c * at[d] for d, c in a.terms if d in at)) for v, a in env.items()}
        consts: dict[str, ir.Expr] = {}
        for v, node in coords.items():
            if not fixed[v].terms:
                consts[v] = ir.i32(fixed[v].const)
            elif any(d in loops for d, _ in env[v].terms):
                own = f"{v}@{i}"
                fixed[own] = fixed[v]
                consts[v] = replace(node, name=own)
        out.append((fixed, consts))
    return out


def balanced(op: str, terms: Sequence[ir.Expr]) -> ir.Expr:
    """op over terms as a balanced tree (depth log2 of their number), left to right."""
    level = list(terms)
    while len(level) > 1:
        level = [ir.BinOp(level[i].type, op, level[i], level[i + 1]) if i + 1 < len(level) else level[i]
                 for i in range(0, len(level), 2)]
    return level[0]


def tree_value(op: str, own: ir.Expr, e: ir.Expr, points: list[tuple[dict[str, Affine], dict[str, ir.Expr]]],
               lower: Callable[[ir.Expr, dict[str, Affine]], ir.Expr]) -> ir.Expr:
    """own op (e at every point), with `lower(expr, env)` turning each point's e into ports."""
    terms = [lower(ir.substitute(e, consts), fixed) for fixed, consts in points]
    return ir.BinOp(own.type, op, own, balanced(op, terms))


def coordinates(e: ir.Expr) -> dict[str, ir.Var | ir.RVar]:
    """The Vars and RVars `e` reads, as values or in its calls' arguments, by name."""
    return dict(sorted({n.name: n for n in ir.walk(e) if isinstance(n, (ir.Var, ir.RVar))}.items()))
