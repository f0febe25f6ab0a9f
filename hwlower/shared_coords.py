"""Pass `share_coordinates`: an op's coordinates that count the same thing become one.

An update whose reduction is unrolled in part (`acc.update().split(r.y, ryo, ryi, 2).unroll(r.x).unroll(ryi)`)
reads a coordinate in every tap it unrolls, each tap a port of its own: a 7x7 box split by 2 read r.y in 14 ports
for 2 values (2 * ryo and 2 * ryo + 1), and its guard (`r.y <= 6`, the tail of 7 rows in steps of 2) compared each
port in 32 bits: 28 PE ops of its 58 for 2. Ports of the same value (the same affine function of the op's loops,
the same tile offsets, read through the same function) are one counter, so the kernel compares once per value;
a comparison of a port with a constant that its loops' ranges decide (the guard of the rows that are never the
tail, `2 * ryo <= 6` for ryo in [0, 4)) is that constant, and its select one side: 25 PEs for the box's 4 steps a
pixel (its 7 steps with r.x alone unrolled take 9, the full unroll 50)."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir

from .ir import Affine, CoordPort, Loop, Op
from .simplify import simplify
from .state import Lowering

_DECIDE = {"lt": lambda lo, hi, k: (hi < k, lo >= k), "le": lambda lo, hi, k: (hi <= k, lo > k),
           "gt": lambda lo, hi, k: (lo > k, hi <= k), "ge": lambda lo, hi, k: (lo >= k, hi < k)}


def share_coordinates(s: Lowering) -> Lowering:
    nest = s.built_nest
    return replace(s, nest=replace(nest, body=tuple(_nodes(nest.body, {}))))


def _nodes(nodes: tuple[Loop | Op, ...], ranges: dict[str, tuple[int, int]]) -> list[Loop | Op]:
    out: list[Loop | Op] = []
    for n in nodes:
        if isinstance(n, Loop):
            inner = ranges | {n.var: (n.min, n.min + n.extent - 1)}
            out.append(replace(n, body=tuple(_nodes(n.body, inner))))
        else:
            out.append(_shared(n, ranges))
    return out


def _range(a: Affine, ranges: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
    """[lo, hi] of `a` over its loops' ranges (None: a loop not known)."""
    if any(v not in ranges for v, _ in a.terms):
        return None
    ends = [(c * ranges[v][0], c * ranges[v][1]) for v, c in a.terms]
    return a.const + sum(min(e) for e in ends), a.const + sum(max(e) for e in ends)


def _decided(n: ir.Expr, ranges: dict[str, tuple[int, int]]) -> bool | None:
    """The value of comparison n of a coordinate port (itself, the same in every tile) with a constant, where its
    loops' ranges decide it; else None."""
    if not (isinstance(n, ir.BinOp) and n.op in _DECIDE and isinstance(n.b, ir.Const)
            and isinstance(n.a, ir.Call) and isinstance(n.a.callee, CoordPort)):
        return None
    c = n.a.callee
    got = _range(c.value, ranges) if c.fn is None and not c.tile_offsets else None
    if got is None or not isinstance(n.b.value, int):
        return None
    true, false = _DECIDE[n.op](*got, n.b.value)
    return True if true else False if false else None


def _shared(op: Op, ranges: dict[str, tuple[int, int]]) -> Op:
    first: dict[tuple, CoordPort] = {}
    same: dict[int, CoordPort] = {}  # id(port) -> the port of its value that is kept
    for c in op.coords:
        # (a tap's own coordinate is named `r$y@k`, trees.py; a function of it reads that name, so stays apart)
        var = c.var.split("@")[0] if c.fn is None else c.var
        key = (c.value, c.reduction, var, c.tile_offsets, None if c.fn is None else ir.structural_key(c.fn))
        kept = first.setdefault(key, c)
        if kept is not c:
            same[id(c)] = kept
    decided = [n for n in ir.walk(op.value) if _decided(n, ranges) is not None]
    if not same and not decided:
        return op

    def visit(n: ir.Expr, kids: tuple) -> ir.Expr:
        if isinstance(n, ir.Call) and id(n.callee) in same:
            return ir.Call(n.type, same[id(n.callee)], ())
        known = _decided(n, ranges)
        if known is not None:
            return ir.Const(n.type, int(known))
        return ir.rebuild(n, kids)

    exprs = (op.value,) + op.scatter + op.lookup
    new = [ir.transform(e, visit) for e in exprs]
    new[0] = simplify(new[0]) if decided else new[0]
    used = {id(n.callee) for e in new for n in ir.walk(e) if isinstance(n, ir.Call)}
    k, m = 1, 1 + len(op.scatter)
    return replace(op, value=new[0], scatter=tuple(new[k:m]), lookup=tuple(new[m:]),
                   coords=tuple(c for c in op.coords if id(c) not in same and id(c) in used))
