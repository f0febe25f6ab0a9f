"""Unrolls of an update folded into a constant pure definition, and which of them become lanes.

`pw_conv(k, x, y, c) = 0; pw_conv(k, x, y, c) += w(k, c) * dw(x, y, c)` with `pw_conv.update().unroll(c).unroll(k)`
is one op in hardware (ops.py folds the update into the pure definition, which only initialises). Halide runs the
update in its own loops, so its unrolls of pure Vars are lanes of that op: here 12 products per firing. Until
session 11 the op ran in the pure definition's loops and these unrolls were silently dropped (issue 8).

An unroll of a whole pure Var other than x (x's lanes are ops.py's `check_folded_update`; lanes of part of a
dimension, a split, would be read at a stride by a reader stepping through it) is honoured when its lanes read
nothing that their producers do not make in one firing: every load whose coordinates move with the unrolled
loop reads a constant table (folded, or a ROM), or a producer whose matching dimension is unrolled whole (its
op's lanes, or the words of one transfer of an input stream: `hw_input.unroll(c)`). Otherwise the lanes would
wait for the producer's last value of that dimension (mobile's depthwise stage over an input streamed by channel
planes: three planes held, 6 memory tiles of taps, and its 12 pointwise lanes a bank each, for no cycle gained,
BENCHMARKS.md session 11), so the loop runs serially and the design's report says so (`notes`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.bounds import Box
from mainspring.frontend.func import Definition, Function, user_handle
from mainspring.frontend.schedule import ForType, Split

from .edge_taps import Guarded
from .ir import Loop, Op
from .loops import StageLoop, StageLoops, replay
from .stream_order import stream_dims

# (producer, its dimension) -> whether one firing (one transfer) makes all of that dimension's values
MadeTogether = Callable[[Function, int], bool]


def honoured_lanes(f: Function, d: Definition, k: int, loops: StageLoops, value: ir.Expr, tables: set[int],
                   together: MadeTogether, refused: str | None = None) -> tuple[StageLoops | None, tuple[str, ...]]:
    """The update's loops with the unrolls its lanes can keep (None when it has none to add to x's), and a note
    for each unroll that runs serially instead (every one, with `refused` as the reason, when given)."""
    x = f.args[0]
    # x's lanes (a split of x whose inner loop is unrolled) are check_folded_update's; x unrolled whole is not
    split_x = any(not lp.unrolled and _moves(loops, lp, x) for lp in loops.loops)
    extra = [lp for lp in loops.loops if lp.unrolled and not lp.is_rvar and lp.extent > 1
             and not (split_x and _moves(loops, lp, x))]
    if not extra:
        return None, ()
    reads = _loads(value)
    kept: list[StageLoop] = []
    notes: list[str] = []
    for lp in extra:
        why = refused or _split(loops, lp) or _waits(lp, _blocked(loops, lp, reads, tables, together))
        if why is None:
            kept.append(lp)
        else:
            notes.append(_note(f, d, k, lp, why))
    if not kept:
        return None, tuple(notes)
    serial = {lp.dim for lp in extra if lp not in kept}
    return _serial(loops, serial), tuple(notes)


def serial_split_lanes(f: Function, d: Definition, loops: StageLoops) -> tuple[StageLoops, tuple[str, ...]]:
    """A pure definition's loops with its unrolls of part of a dimension other than x (`blur.unroll(y, 2)`) run
    serially, and a note for each: a reader stepping through that dimension would read each lane at a stride (the
    memory mapping's "not a union of boxes"). Whole unrolls (a pixel's channels) stay lanes, and so do the lanes of
    part of the first dimension not unrolled whole (x's, or x's after a pixel's channels: `f(c, x, y)` with c
    unrolled whole and x by 3), which its readers take as consecutive values."""
    notes, serial = [], set()
    for lp in loops.loops:
        if not lp.unrolled or lp.extent == 1:
            continue
        moved = [v for v in f.args if _moves(loops, lp, v)]
        if moved and all(_whole(loops, a) for a in f.args[:f.args.index(moved[0])]):
            continue
        why = _split(loops, lp)
        if why is not None:
            serial.add(lp.dim)
            notes.append(_note(f, d, 0, lp, why))
    return _serial(loops, serial), tuple(notes)


def serial_scan(f: Function, d: Definition, k: int, loops: StageLoops, pure: int) -> tuple[StageLoops, str]:
    """A scan's update loops (`loops`, its lanes chaining: each reads the one before it in the same cycle) with its
    unrolls serial, and the note saying why: the lanes chain only where the pure definition makes as many lanes
    (`pure`), which its readers then take one to one (docs/lanes.md, a scan along x)."""
    lanes = [lp for lp in loops.loops if lp.unrolled and lp.extent > 1]
    n = 1
    for lp in lanes:
        n *= lp.extent
    why = (f"its lanes would chain (each reading the one before it in the same cycle), which needs the pure "
           f"definition of '{f.name}' to make as many lanes ({pure} now). To keep them, add "
           f"{user_handle(f)}.unroll({_spelled(f.args[0])}, {n}, hl.TailStrategy.RoundUp), and unroll its readers "
           f"by {n} for the chain to run at {n} pixels per cycle")
    return _serial(loops, {lp.dim for lp in lanes}), "; ".join(_note(f, d, k, lp, why) for lp in lanes)


def _serial(loops: StageLoops, dims: set[str]) -> StageLoops:
    """loops with those over `dims` serial."""
    return replace(loops, loops=tuple(replace(lp, unrolled=False) if lp.dim in dims else lp for lp in loops.loops))


def _whole(loops: StageLoops, var: str) -> bool:
    """Only unrolled loops move `var`: one firing makes all its values."""
    moving = [lp for lp in loops.loops if _moves(loops, lp, var)]
    return bool(moving) and all(lp.unrolled for lp in moving)


def _moves(loops: StageLoops, lp: StageLoop, var: str) -> bool:
    return var in loops.var_exprs and lp.dim in dict(loops.var_exprs[var].terms)


def _loads(value: ir.Expr) -> list[tuple[Function, tuple[ir.Expr, ...]]]:
    out = []
    for n in ir.walk(value):
        if isinstance(n, ir.Call):
            g = n.callee.func if isinstance(n.callee, Guarded) else n.callee
            if isinstance(g, Function):
                out.append((g, n.args[:len(g.args)]))
    return out


def _blocked(loops: StageLoops, lp: StageLoop, reads: list[tuple[Function, tuple[ir.Expr, ...]]],
             tables: set[int], together: MadeTogether) -> tuple[Function, int] | None:
    """A load (producer, dimension) whose coordinate moves with the unrolled loop `lp` although the producer
    makes that dimension's values one per firing; None when every such load is fed in one firing."""
    moved = {v for v in loops.var_exprs if _moves(loops, lp, v)}
    for g, args in reads:
        if id(g) in tables:
            continue
        for j, a in enumerate(args):
            used = {n.name for n in ir.walk(a) if isinstance(n, ir.Var)}
            if used & moved and not together(g, j):
                return g, j
    return None


def _split(loops: StageLoops, lp: StageLoop) -> str | None:
    """Why lanes of part of a dimension (a split whose inner loop is unrolled) are not kept, else None."""
    serial = {q.dim for q in loops.loops if not q.unrolled}
    part = [v for v in loops.var_exprs if _moves(loops, lp, v) and serial & set(dict(loops.var_exprs[v].terms))]
    if not part:
        return None
    return (f"lanes along part of {part[0]} (a split) would each hold one value of {part[0]} in {lp.extent}, which "
            f"a reader stepping through {part[0]} one value at a time reads at a stride no port controller walks; "
            f"lanes along a dimension other than x are kept when it is unrolled whole (unroll({part[0]}))")


def _waits(lp: StageLoop, blocked: tuple[Function, int] | None) -> str | None:
    if blocked is None:
        return None
    g, j = blocked
    dim = g.args[j]
    return (f"its {lp.extent} lanes would read '{g.name}' at {lp.extent} values of {dim} in one firing, but "
            f"'{g.name}' makes one value of {dim} per firing, so every lane would wait for the last and '{g.name}' "
            f"would hold the others. To keep the lanes, make '{g.name}' compute {dim} together "
            f"({_together_call(g, dim)})")


def _together_call(g: Function, dim: str) -> str:
    """The schedule call that makes g's values along dim in one firing. An accelerator input's transfer holds
    the leading dimensions of its stream order (hwlower/streams.py), so dim must lead it first."""
    call = f"{user_handle(g)}.unroll({_spelled(dim)})"
    if g.placement.accelerator_input is None:
        return call
    order = stream_dims(g)
    if order[0] == dim:
        return call
    rest = (_spelled(a) for a in order if a != dim)
    return f"{user_handle(g)}.reorder({', '.join((_spelled(dim), *rest))}).unroll({_spelled(dim)})"


def _spelled(dim: str) -> str:
    """A dimension as user code names it: Halide's implicit variables (an ImageParam wrapper's) are hl._0 ..."""
    return f"hl.{dim}" if re.fullmatch(r"_[0-9]", dim) else dim


def _note(f: Function, d: Definition, k: int, lp: StageLoop, why: str) -> str:
    handle = user_handle(f) if k == 0 else f"{user_handle(f)}.update({k - 1})"
    mark = next((dv for dv in d.schedule.directives if isinstance(dv, ForType) and dv.var == lp.dim), None)
    split = next((dv for dv in d.schedule.directives if isinstance(dv, Split) and dv.inner == lp.dim), None)
    call = f"{handle}.{mark.kind if mark else 'unroll'}({f'{split.old}, {split.factor}' if split else lp.dim})"
    call = call.replace("$", ".")  # (an RVar's loop: r$x)
    at = f" at {mark.loc}" if mark is not None else ""
    return f"{call}{at} runs serially: {why}"


def op_together(nodes: list[Loop | Op], buffer: str) -> frozenset[int]:
    """The dimensions of `buffer` whose values its last op (its final stage) stores in one firing: its store index
    there moves along unrolled loops alone."""
    found: tuple[tuple[Loop, ...], Op] | None = None
    for node in nodes:
        for loops, op in walk_ops(node):
            if op.store.buffer == buffer and (found is None or op.stage >= found[1].stage):
                found = (loops, op)
    if found is None or not found[1].store.index:
        return frozenset()
    lanes = {lp.var for lp in found[0] if lp.unrolled}
    return frozenset(j for j, a in enumerate(found[1].store.index) if a.terms and all(v in lanes for v, _ in a.terms))


def input_together(f: Function, box: Box) -> frozenset[int]:
    """The dimensions of accelerator input `f` unrolled whole: its stream carries them in one transfer (streams.py
    refuses an unroll that is not part of a transfer's consecutive words)."""
    extents = {a: (lo, hi - lo + 1) for a, (lo, hi) in zip(f.args, box)}
    s = replay(f.definitions[0].schedule, extents, set(), f"Func '{f.name}'")
    lanes = {lp.dim for lp in s.loops if lp.unrolled}
    return frozenset(j for j, a in enumerate(f.args) if a in s.var_exprs and s.var_exprs[a].terms
                     and all(v in lanes for v, _ in s.var_exprs[a].terms))


def walk_ops(node: Loop | Op, outer: tuple[Loop, ...] = ()) -> list[tuple[tuple[Loop, ...], Op]]:
    if isinstance(node, Op):
        return [(outer, node)]
    return [x for child in node.body for x in walk_ops(child, outer + (node,))]
