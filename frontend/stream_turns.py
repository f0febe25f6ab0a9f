"""Whole transfers for readers of a stream's words in turn (session 39).

An accelerator input unrolled along a dimension (`hw_input.unroll(x, 2).unroll(y, 2)`, a 2 x 2 block per
transfer) streams k values of it per transfer. A Func inside the accelerator that reads it one value of that
dimension per firing takes the words of each transfer in turn (hwlower/lane_steps.py), which needs its loop in
whole steps of k: over 7 columns or 3 rows it would read the last transfer's first word alone, a set of
iterations no port controller walks. Halide accepts such a schedule, so inside the accelerator the reader's loop
rounds up to whole transfers, as its ShiftInwards tails do (hwlower/shift_tails.py): it is realised over the
extra column or row, which no consumer reads, and its loads are guarded to what its consumers read, so its
producers (the stream among them) are asked for nothing more.
"""

from __future__ import annotations

from . import ir
from .func import Function
from .schedule import ForType, Split


def turn_steps(fn: Function) -> dict[int, int]:
    """{dimension of fn: k} where fn, not split along it, reads an accelerator input of k values of that
    dimension per transfer at its own variable plus a constant (a stencil's tap; not a resampling x * 2 or x / 2,
    whose reads move by other than one value a firing)."""
    own = _split_vars(fn)
    out: dict[int, int] = {}
    for d in fn.definitions:
        for node in ir.walk(d.value):
            if not (isinstance(node, ir.Call) and isinstance(node.callee, Function)
                    and node.callee.placement.accelerator_input and node.callee is not fn):
                continue
            lanes = _lanes(node.callee)
            for p, arg in enumerate(node.args):
                k = lanes.get(node.callee.args[p], 1) if p < len(node.callee.args) else 1
                v = _var_plus_constant(arg)
                if k > 1 and v in fn.args and v not in own:
                    i = fn.args.index(v)
                    out[i] = max(out.get(i, 1), k)
    return out


def _lanes(g: Function) -> dict[str, int]:
    """An input's values per transfer along each of its dimensions: its unrolled splits' factors."""
    sched = g.definitions[0].schedule
    unrolled = {dv.var for dv in sched.directives if isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize")}
    return {sp.old: sp.factor for sp in sched.directives if isinstance(sp, Split) and sp.inner in unrolled}


def _split_vars(fn: Function) -> set[str]:
    """fn's variables its schedules split or unroll (their loops step as the schedule says: not ours to round)."""
    out: set[str] = set()
    for d in fn.definitions:
        for dv in d.schedule.directives:
            if isinstance(dv, Split):
                out.add(dv.old)
            elif isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize"):
                out.add(dv.var)
    return out


def _var_plus_constant(e: ir.Expr) -> str | None:
    """The name of Var v where e is v, v + c or v - c with c a constant; else None."""
    if isinstance(e, ir.Var):
        return e.name
    if isinstance(e, ir.BinOp) and e.op in ("add", "sub") and isinstance(e.a, ir.Var) and isinstance(e.b, ir.Const):
        return e.a.name
    if isinstance(e, ir.BinOp) and e.op == "add" and isinstance(e.b, ir.Var) and isinstance(e.a, ir.Const):
        return e.b.name
    return None


__all__ = ["turn_steps"]
