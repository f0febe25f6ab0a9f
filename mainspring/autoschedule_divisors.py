"""Refuse, before any schedule is made, a Func of the accelerated region that reads Funcs at two divisors of one
coordinate that are no chain (`up(x, y) = d3(x / 3, y / 3) + d2(x / 2, y / 2)`: 2 does not divide 3; a chain
like a pyramid's x / 2 and x / 4 strip-mines into nested steps). Its loop steps by one divisor, so no schedule
reads both at affine addresses; hwlower's own refusal asks for a Func streamed from the host, a schedule call
the autoscheduler refuses on an algorithm. The fix here is the same without a
schedule: the read at the divisor off the chain computed by a pipeline of its own, its result an input image."""

from __future__ import annotations

from itertools import pairwise

from .frontend import ir
from .frontend.errors import HalideError
from .frontend.func import Function
from .frontend.pipeline import Pipeline


def refuse_two_divisors(pipe: Pipeline, region: list[Function]) -> None:
    for f in region:
        d = pipe.definitions(f)[0]
        divisors = _divisors(d.value)
        # A chain of divisors (each dividing the next: x / 2 and x / 4, a pyramid's levels) strip-mines into
        # nested steps (hwlower/strip_mine.py), where every quotient is affine; other pairs cannot be.
        split = {v: ks for v, ks in divisors.items() if _off_chain(ks) is not None}
        if not split:
            continue
        v = min(split)
        e = _off_chain(split[v])
        assert e is not None
        reads = " and ".join(f"{name} at {v} / {k}" for k, name in sorted(_callees(d.value, v).items()))
        moved = _call_at(d.value, v, e)
        args = ", ".join(f.args)
        assert isinstance(moved.callee, Function)
        g = f"{moved.callee.name}_up"
        t = moved.type
        kind = f"{'UInt' if t.is_uint() else 'Int' if t.is_int() else 'Float'}({t.bits()})"
        rest = ir.to_string(d.value).replace(ir.to_string(moved), f"{g}({args})")
        raise HalideError(
            f"{d.loc}: apply_autoscheduler: Func '{f.name}' reads {reads}: its loop over {v} steps by one divisor, "
            f"or in nested steps by a chain of them (each dividing the next, as x / 2 and x / 4), so no schedule "
            f"reads both at affine addresses (upsamples by {' and by '.join(map(str, split[v]))} in one Func); "
            f"compute {ir.to_string(moved)} in a pipeline of its own and pass its result in as an input image: "
            f"{g} = ImageParam({kind}, {len(f.args)}), {g}({args}) holding {ir.to_string(moved)}; "
            f"{f.name}({args}) = {rest}")


def _off_chain(ks: list[int]) -> int | None:
    """The first of the sorted divisors ks that the one before it does not divide (3 in 2, 3), or None: a chain."""
    return next((b for a, b in pairwise(ks) if b % a), None)


def _call_at(e: ir.Expr, v: str, k: int) -> ir.Call:
    """The first Func call in e with an argument reading v / k."""
    return next(c for c in ir.walk(e) if isinstance(c, ir.Call) and isinstance(c.callee, Function)
                and any(_divided(n) == (v, k) for a in c.args for n in ir.walk(a)))


def _divided(n: ir.Expr) -> tuple[str, int] | None:
    """(v, k) for `v / k`, a pure Var divided by a constant greater than 1."""
    if (isinstance(n, ir.BinOp) and n.op == "div" and isinstance(n.a, ir.Var) and isinstance(n.b, ir.Const)
            and isinstance(n.b.value, int) and n.b.value > 1):
        return n.a.name, n.b.value
    return None


def _divisors(e: ir.Expr) -> dict[str, list[int]]:
    """The divisors of each Var in the Func calls' arguments of e, sorted, where they divide no other way."""
    out: dict[str, set[int]] = {}
    for c in ir.walk(e):
        if isinstance(c, ir.Call) and isinstance(c.callee, Function):
            for a in c.args:
                for n in ir.walk(a):
                    got = _divided(n)
                    if got is not None:
                        out.setdefault(got[0], set()).add(got[1])
    return {v: sorted(ks) for v, ks in out.items()}


def _callees(e: ir.Expr, v: str) -> dict[int, str]:
    """For each divisor of v, a Func read at it (the first in e's walk)."""
    out: dict[int, str] = {}
    for c in ir.walk(e):
        if isinstance(c, ir.Call) and isinstance(c.callee, Function):
            for a in c.args:
                for n in ir.walk(a):
                    got = _divided(n)
                    if got is not None and got[0] == v:
                        out.setdefault(got[1], c.callee.name)
    return out
