"""The clamp of an rfactor's guarded split read as a guarded tap, where the clamp leaves no affine index.

rfactor of a split RVar whose factor does not divide its extent (frontend/rfactor.py: 3 taps split by 2) reads
each term at the last point past the extent and discards it there:

    select(2 * v + rxi < 3, in(x + min(2 * v + rxi, 2)), 0)

With the intermediate's lanes v unrolled and rxi serial the clamped index is x + rxi in lane 0 and x + 2 in lane
1, one line in no loop (clamped_index.py). The value read where the clamp bites is never used, so the read is the
unclamped x + 2 * v + rxi as an edge tap guarded by 2 * v + rxi <= 2 (edge_taps.Guarded): the memories serve it
only at the iterations whose value the select keeps, as they do for a guarded RVar split without rfactor
(rvar_tails.py). Reads whose clamped index is affine are left as they are."""

from __future__ import annotations

from collections.abc import Callable

from mainspring.frontend import ir
from mainspring.frontend.func import Function

from .edge_taps import Guarded


def unclamp_guarded_reads(e: ir.Expr, affine: Callable[[tuple[ir.Expr, ...]], bool]) -> ir.Expr:
    """e with each read under `select(t < n, ..., identity)` whose index clamps t at n - 1 and is not affine
    (`affine(args)`) replaced by the read at t, guarded by t <= n - 1."""
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if not (isinstance(n, ir.Select) and isinstance(n.cond, ir.BinOp) and n.cond.op == "lt"
                and isinstance(n.cond.b, ir.Const) and isinstance(n.cond.b.value, int)):
            return n
        t, last = n.cond.a, n.cond.b.value - 1
        kept = ir.transform(n.true_value, lambda m, ks: _unclamped(ir.rebuild(m, ks), t, last, affine))
        return ir.Select(n.type, n.cond, kept, n.false_value)
    return ir.transform(e, go, {})


def _unclamped(c: ir.Expr, t: ir.Expr, last: int, affine: Callable[[tuple[ir.Expr, ...]], bool]) -> ir.Expr:
    """Call c with min(t, last) in its index replaced by t and the read guarded by t <= last, where c's index is
    not affine as it stands."""
    if not isinstance(c, ir.Call) or not isinstance(c.callee, (Function, Guarded)):
        return c
    func = c.callee.func if isinstance(c.callee, Guarded) else c.callee
    n = len(func.args)
    key = ir.structural_key(t)

    def drop(m: ir.Expr, ks: tuple) -> ir.Expr:
        m = ir.rebuild(m, ks)
        if isinstance(m, ir.BinOp) and m.op == "min" and isinstance(m.b, ir.Const) and m.b.value == last \
                and ir.structural_key(m.a) == key:
            return m.a
        return m

    index = tuple(ir.transform(a, drop, {}) for a in c.args[:n])
    if [ir.structural_key(a) for a in index] == [ir.structural_key(a) for a in c.args[:n]] or affine(c.args[:n]):
        return c
    bounds = c.callee.bounds if isinstance(c.callee, Guarded) else ()
    return ir.Call(c.type, Guarded(func, bounds + ((-(2 ** 31), last),)), index + c.args[n:] + (t,))
