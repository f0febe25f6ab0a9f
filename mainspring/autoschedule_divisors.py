"""Refuse, before any schedule is made, a Func of the accelerated region that reads Funcs at two divisors of one
coordinate (a pyramid collapsed in one step: `up(x, y) = d2(x / 4, y / 4) + d1(x / 2, y / 2)`). Its loop steps
by one divisor, so no schedule reads both at affine addresses; hwlower's own refusal asks for a Func streamed
from the host, a schedule call the autoscheduler refuses on an algorithm. The fix here is in the algorithm alone:
each level added at the next one's resolution, every Func reading at one divisor."""

from __future__ import annotations

from .frontend import ir
from .frontend.errors import HalideError
from .frontend.func import Function
from .frontend.pipeline import Pipeline


def refuse_two_divisors(pipe: Pipeline, region: list[Function]) -> None:
    for f in region:
        d = pipe.definitions(f)[0]
        divisors = _divisors(d.value)
        split = {v: ks for v, ks in divisors.items() if len(ks) > 1}
        if not split or not _rewritable(d.value, divisors):
            continue  # (hwlower refuses it, with the fix of a Func streamed from the host)
        v = min(split)
        least = min(split[v])
        reads = " and ".join(f"{name} at {v} / {k}" for k, name in sorted(_callees(d.value, v).items()))
        finer = _at_finer(d.value, {u: min(ks) for u, ks in divisors.items()})
        args = ", ".join(f.args)
        outer = ", ".join(f"{a} / {min(divisors[a])}" if a in divisors else a for a in f.args)
        raise HalideError(
            f"{d.loc}: apply_autoscheduler: Func '{f.name}' reads {reads}: its loop over {v} steps by one divisor, "
            f"so no schedule reads both at affine addresses (upsamples by {' and by '.join(map(str, split[v]))} "
            f"in one Func); read every Func at one divisor, the coarser level added at the finer one's resolution "
            f"first: {f.name}_{least}({args}) = {finer}; {f.name}({args}) = {f.name}_{least}({outer})")


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


def _rewritable(e: ir.Expr, divisors: dict[str, list[int]]) -> bool:
    """Whether e reads each divided Var only divided, at multiples of its least divisor: read at the finer
    resolution (`x / 4` as `(x / 2) / 2`), it is the same Func of `x / 2`."""
    divided = sum(1 for n in ir.walk(e) if _divided(n) is not None)
    uses = sum(1 for n in ir.walk(e) if isinstance(n, ir.Var) and n.name in divisors)
    return divided == uses and all(k % ks[0] == 0 for ks in divisors.values() for k in ks)


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


def _at_finer(e: ir.Expr, least: dict[str, int]) -> str:
    """e's text with each `v / k` read at the finer resolution: `v / (k / least)`, or `v` where k is the least."""
    def at(n: ir.Expr, kids: tuple[ir.Expr, ...]) -> ir.Expr:
        got = _divided(n)
        if got is None:
            return ir.rebuild(n, kids)
        v, k = got
        assert isinstance(n, ir.BinOp) and isinstance(n.b, ir.Const) and k % least[v] == 0
        if k == least[v]:
            return n.a
        return ir.BinOp(n.type, "div", n.a, ir.const(n.b.type, k // least[v]))
    return ir.to_string(ir.transform(e, at))
