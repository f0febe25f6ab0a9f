"""Folding an update into its Func's value: an update whose reduction loops are all unrolled (or an inline
reduction such as sum()) becomes one expression, each reduction point reading the previous one's value."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.schedule import ForType, Fuse, Split

from .affine import int_value
from .ir import LoadPort, Op
from .loops import ROUNDING_TAILS


def map_calls(e: ir.Expr, fn: Callable[[ir.Call], ir.Expr | None], memo: dict) -> ir.Expr:
    """Rebuild e bottom-up, replacing each Call (its args already rebuilt) for which fn returns a replacement."""
    def visit(node: ir.Expr, kids: tuple) -> ir.Expr:
        node = ir.rebuild(node, kids)
        if isinstance(node, ir.Call):
            out = fn(node)
            return node if out is None else out
        return node

    return ir.transform(e, visit, memo)


def map_definition_calls(d: Definition, fn: Callable[[ir.Call], ir.Expr | None]) -> Definition:
    """d with `map_calls` applied to its args (a RAM update's coordinates read Funcs too) and its value, sharing
    one memo so that a call seen twice is replaced once."""
    memo: dict = {}
    return Definition(tuple(map_calls(a, fn, memo) for a in d.args), map_calls(d.value, fn, memo), d.rdom, d.loc,
                      d.schedule)



def with_loads(op: Op, new: dict[int, LoadPort]) -> Op:
    """op with the load ports in `new` (id(old port) -> new port) swapped in, in its loads, its value and the
    computed coordinates it updates or reads a RAM at (`scatter`, `lookup`: they read its loads too)."""
    def swap(c: ir.Call) -> ir.Expr | None:
        port = new.get(id(c.callee))
        return None if port is None else ir.Call(c.type, port, c.args)

    memo: dict = {}
    return replace(op, loads=tuple(new.get(id(p), p) for p in op.loads), value=map_calls(op.value, swap, memo),
                   scatter=tuple(map_calls(e, swap, memo) for e in op.scatter),
                   lookup=tuple(map_calls(e, swap, memo) for e in op.lookup))


def fold_update(f: Function, d: Definition, acc: ir.Expr, force: bool = False) -> ir.Expr | None:
    """The update applied to acc with all its (unrolled) reduction points, or None if it cannot be folded.
    `force`: fold whether or not the schedule unrolls the reduction (an inlined Func has no loops of its own)."""
    if any(not (isinstance(a, ir.Var) and a.name == n) for a, n in zip(d.args, f.args)):
        return None
    if d.rdom is None:
        return replace_self(f, d.value, acc)
    names = [name for name, _, _ in d.rdom.dims]
    bounds = [(name, int_value(lo), int_value(ext)) for name, lo, ext in d.rdom.dims
              if isinstance(lo, ir.Const) and isinstance(ext, ir.Const)]
    if len(bounds) < len(d.rdom.dims) or not (force or rvars_unrolled(d, {n: ext for n, _, ext in bounds})):
        return None
    ranges = [range(lo, lo + ext) for _, lo, ext in reversed(bounds)]  # outermost first
    for point in itertools.product(*ranges):
        env: dict[str, ir.Expr] = {n: ir.i32(v) for n, v in zip(reversed(names), point)}
        acc = replace_self(f, ir.substitute(d.value, env), acc)
    return acc


def rvars_unrolled(d: Definition, extents: dict[str, int]) -> bool:
    """Whether every loop of the update's reduction domain (its RVars' `extents`) is unrolled (or has one
    iteration), after its splits (`unroll(r, factor)` splits r first)."""
    ext = dict(extents)
    unrolled: set[str] = set()
    for dv in d.schedule.directives:
        if isinstance(dv, Split) and dv.old in ext:
            e = ext.pop(dv.old)
            if e % dv.factor and dv.tail in ROUNDING_TAILS:
                return False  # refused: the general path reports it
            # a guarded tail: unrolled whole, the update folds over its domain's points only
            ext[dv.inner], ext[dv.outer] = min(dv.factor, e), -(-e // dv.factor)
        elif isinstance(dv, Fuse) and (dv.inner in ext or dv.outer in ext):
            return False
        elif isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize") and dv.var in ext:
            unrolled.add(dv.var)
    return all(n in unrolled or e == 1 for n, e in ext.items())


def replace_self(f: Function, e: ir.Expr, acc: ir.Expr) -> ir.Expr:
    return map_calls(e, lambda c: acc if c.callee is f else None, {})

