"""Whole transfers for readers of a stream's words in turn (session 39).

An accelerator input unrolled along a dimension (`hw_input.unroll(x, 2).unroll(y, 2)`, a 2 x 2 block per
transfer) streams k values of it per transfer. A Func inside the accelerator that reads it one value of that
dimension per firing takes the words of each transfer in turn (hwlower/lane_steps.py), which needs its loop in
whole steps of k: over 7 columns or 3 rows it would read the last transfer's first word alone, a set of
iterations no port controller walks. Halide accepts such a schedule, so inside the accelerator the reader's loop
rounds up to whole transfers, as its ShiftInwards tails do (hwlower/shift_tails.py): it is realised over the
extra column or row, which no consumer reads, and its loads are guarded to what its consumers read, so its
producers (the stream among them) are asked for nothing more. The accelerator output's loops round up likewise
(hwlower/tiling.py gives its tiles a `loop_box`): the host keeps its tile of what streams out.
"""

from __future__ import annotations

from . import ir
from .func import Function
from .schedule import ForType, MemoryType, Split, StageSchedule


def turn_steps(fn: Function) -> dict[int, int]:
    """{dimension of fn: k} where fn, not unrolled along it, reads an accelerator input of k values of that
    dimension per transfer (itself or through Funcs inlined into it) at its own variable plus terms of no variable
    (a stencil's tap; not a resampling x * 2 or x / 2, whose reads move by other than one value a firing)."""
    mt = fn.placement.memory_type
    if mt is not None and mt[0] is MemoryType.GLB:
        return {}  # a GLB input tile: the host loads it from the input it copies, a stream it takes in no turns
    own = _split_vars(fn)
    out: dict[int, int] = {}
    for v, k in _reads(fn, {a: a for a in fn.args}, set()):
        if v not in own:
            i = fn.args.index(v)
            out[i] = max(out.get(i, 1), k)
    return out


def _reads(g: Function, names: dict[str, str], seen: set[int]) -> list[tuple[str, int]]:
    """(variable of the reader, k) for each read of an input of k values per transfer along the dimension read at
    it, in g's definitions (g the reader or a Func inlined into it; `names`: g's variables that are the reader's
    own plus terms of no variable, by the reader's name)."""
    seen = seen | {id(g)}
    out: list[tuple[str, int]] = []
    for d in g.definitions:
        for node in ir.walk(d.value):
            if not (isinstance(node, ir.Call) and isinstance(node.callee, Function) and id(node.callee) not in seen):
                continue
            h = node.callee
            at = {h.args[p]: names[v] for p, arg in enumerate(node.args[:len(h.args)])
                  if (v := var_plus_constant(arg)) in names}
            if h.placement.accelerator_input:
                lanes = transfer_lanes(h)
                out += [(reader, lanes[a]) for a, reader in at.items() if lanes.get(a, 1) > 1]
            elif h.placement.compute.kind == "inline" and at:
                out += _reads(h, at, seen)
    return out


def transfer_lanes(g: Function) -> dict[str, int]:
    """An input's values per transfer along each of its dimensions: its unrolled splits' factors."""
    return unrolled_factors(g.definitions[0].schedule)


def unrolled_factors(sched: StageSchedule) -> dict[str, int]:
    """A stage's variables split by an unrolled (or vectorized) inner loop, with the splits' factors."""
    unrolled = {dv.var for dv in sched.directives if isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize")}
    return {sp.old: sp.factor for sp in sched.directives if isinstance(sp, Split) and sp.inner in unrolled}


def _split_vars(fn: Function) -> set[str]:
    """fn's variables whose loops its schedules unroll, themselves or a loop split from them (its lanes take the
    stream's words as they unroll: not ours to round). A split alone is not (the accelerator's tile splits its
    output's)."""
    out: set[str] = set()
    for d in fn.definitions:
        parent = {}
        for dv in d.schedule.directives:
            if isinstance(dv, Split):  # (an unroll's outer loop keeps the name it splits)
                parent.update({n: dv.old for n in (dv.inner, dv.outer) if n != dv.old})
        for dv in d.schedule.directives:
            if isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize"):
                v: str | None = dv.var
                while v is not None and v not in out:
                    out.add(v)
                    v = parent.get(v)
    return out


def var_plus_constant(e: ir.Expr) -> str | None:
    """The name of Var v where e is v plus terms of no pure Var (constants, an unrolled window's RVars); else
    None."""
    plus, minus = _terms(e, [], [])
    own = [t for t in plus if isinstance(t, ir.Var)]
    rest = [t for t in plus + minus if t not in own]
    if len(own) != 1 or any(isinstance(n, ir.Var) for t in rest for n in ir.walk(t)):
        return None
    return own[0].name


def _terms(e: ir.Expr, plus: list[ir.Expr], minus: list[ir.Expr]) -> tuple[list[ir.Expr], list[ir.Expr]]:
    """The summands of e added and subtracted (through its sums and differences)."""
    if isinstance(e, ir.BinOp) and e.op in ("add", "sub"):
        _terms(e.a, plus, minus)
        _terms(e.b, *((plus, minus) if e.op == "add" else (minus, plus)))
    else:
        plus.append(e)
    return plus, minus


__all__ = ["transfer_lanes", "turn_steps", "unrolled_factors", "var_plus_constant"]
