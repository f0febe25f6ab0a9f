"""Inline a buffered Func where its memory costs more than recomputing it (issue 11: "inline where recomputation
costs fewer PEs than the memory"), for an automatic schedule's plan.

autoschedule.py buffers every Func with reuse. A Func whose reuse is only its readers' taps at constant offsets
(`g_r[x - 1, y]`, `g_r[x, y + 1]` in camera_pipeline's demosaic), computed pointwise at constant offsets from
Funcs that are themselves buffered or streamed (`g_r(x, y)` from `g_gr(x + 1, y)` and `g_gb(x, y - 1)`), may cost
more memory buffered than inlined: inlined, its readers read its producers at the taps composed, which those
buffers serve from the rows they hold anyway (the taps along a row are registers after one read a row,
memories/read_registers.py), while buffered it takes line buffers of its own. Each such Func, in pipeline order,
is inlined when
- the memory-tile model (autoschedule_memory.mem_tiles: the rows each buffer holds for its readers, in delay lines)
  counts fewer memory tiles over the frame with it inlined, and
- the design's PEs with it inlined, counted exactly (the algorithm lowered with the schedule applied and each
  kernel's PE ops counted, as the compiler's report counts them, without mapping the memories), stay within the
  PE budget (max_pes, else the target's PEs).
A Func with planes past its producers' coordinates (`levels(x, y, k)` from `inp(x, y)`) is a candidate too where
its readers pick a plane at a computed value (`levels(x, y, clamp(inp(x, y) / 64, 0, 3))`): the line model counts
nothing for it, but the compiled design holds its planes of the frame (the local-Laplacian-like remap at 13x5: 336
words, 4 memory tiles, 340 cycles; inlined, as Halide's default, 2 words, none, 80 cycles), so it is inlined at
equal modelled tiles.
The issue's acceptance is near-ideal cycles at minimal storage, with PEs a budget: inlining changes neither the
streams nor the firings, so it trades PEs inside the budget for memory tiles. camera_pipeline at 30x16: g_r and
g_b inlined, 16 -> 12 memory tiles and 497 -> 761 PEs of the 1024 its target has (its hand schedule's figures).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .autoschedule_budget import restore, snapshot
from .autoschedule_memory import mem_tiles, xy
from .frontend import ir
from .frontend.errors import HalideError
from .frontend.func import Function
from .frontend.pipeline import Pipeline
from .target import CGRA

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Plan


def inline_cheaper(pipe: Pipeline, plan: _Plan, target: CGRA, max_pes: int | None,
                   run: Callable[[_Plan], str]) -> _Plan:
    """Take out of `plan.buffered` each candidate the models find cheaper inlined (module notes); `run` applies a
    plan's schedule to the Funcs. The Funcs' schedules are put back as they were on return."""
    at = xy(plan)
    candidates = [f for f in plan.buffered if _candidate(pipe, plan, f)] if at is not None else []
    if not candidates:
        return plan
    frame = (plan.extents[at[0]][1], plan.extents[at[1]][1])
    budget = max_pes or target.num_pes
    saved = snapshot(pipe)
    try:
        tiles = mem_tiles(pipe, plan, target, frame)
        for f in candidates:
            kept, planes = plan.buffered, plan.planes
            plan.buffered = [g for g in kept if g is not f]
            plan.planes = {k: v for k, v in planes.items() if k != id(f)}  # inlined, it has no lanes of its own
            fewer = mem_tiles(pipe, plan, target, frame)
            # the line model counts no words for a Func its readers pick a plane of at a computed value, which the
            # compiled design holds whole (addressed, its 4 planes of the frame in the remap): inlined, it takes none
            if (fewer > tiles or (fewer == tiles and not _picked(pipe, plan, f))
                    or (design_pes(pipe, plan, target, run) or budget + 1) > budget):
                plan.buffered, plan.planes = kept, planes
            else:
                tiles = fewer
    finally:
        restore(saved)
    return plan


def design_pes(pipe: Pipeline, plan: _Plan, target: CGRA, run: Callable[[_Plan], str]) -> int | None:
    """The PEs of `plan`'s design (as the compiler's report counts them), or None where it does not lower."""
    from .compiler import kernel_graphs
    from .compute_json import count_ops
    from .hwlower import lower

    saved = snapshot(pipe)
    try:
        run(plan)
        lowered = pipe.rebuilt()
        lowered.check_schedule()
        program = lower(lowered, "autoschedule_inline", lambda step, text: None)
        return sum(count_ops(g, target.word_bits).pe_ops * program.nest.op_lanes(op.name)
                   for op, g, _ in kernel_graphs(program, target))
    except HalideError:
        return None
    finally:
        restore(saved)


def _candidate(pipe: Pipeline, plan: _Plan, f: Function) -> bool:
    """Whether f is buffered only for its readers' taps, and computed pointwise at constant offsets of its own
    coordinates from buffered Funcs or streams (inlined, it adds no producer nor row of its own)."""
    defs = pipe.definitions(f)
    if f is plan.accelerated or len(defs) != 1 or id(f) in plan.unrolled or defs[0].rdom is not None:
        return False
    held = {id(g) for g in plan.buffered + plan.streams if g is not f}
    calls = [n for n in ir.walk(defs[0].value) if isinstance(n, ir.Call) and isinstance(n.callee, Function)]
    if not calls or len({len(n.args) for n in calls}) != 1 or not all(id(n.callee) in held and all(
            _offset(a) == v for a, v in zip(n.args, f.args)) for n in calls):
        return False
    # f's arguments past its producers' are planes (a local Laplacian's `levels(x, y, k)` over 4 intensities):
    # pointwise in the producers' coordinates, so its readers may pick a plane at a computed value
    # (`levels(x, y, clamp(inp(x, y) / 64, 0, 3))`), each read then one plane's arithmetic, as Halide inlines it
    planes = len(f.args) - len(calls[0].args)
    if planes < 0 or (planes and not all(v in plan.planes.get(id(f), []) for v in f.args[-planes:])) or (
            not planes and id(f) in plan.planes):
        return False
    # every read of f in the region is at its readers' own coordinates (shifted or divided), never at a reduction's
    # RVar, nor by the accelerated Func's channel lanes alike (each would compute it again)
    region = {id(g) for g in plan.region}
    for c in pipe.consumers(f):
        if id(c) not in region:
            continue
        for d in pipe.definitions(c):
            for n in ir.walk(d.value):
                if isinstance(n, ir.Call) and n.callee is f and (
                        any(isinstance(m, ir.RVar) for a in n.args for m in ir.walk(a))
                        or (c is plan.accelerated and plan.channel is not None)):
                    return False
    return True


def _picked(pipe: Pipeline, plan: _Plan, f: Function) -> bool:
    """Whether a Func computed inside reads f at a computed plane (an argument past its producers' coordinates
    that is neither a constant nor a Var)."""
    calls = [n for n in ir.walk(pipe.definitions(f)[0].value) if isinstance(n, ir.Call)
             and isinstance(n.callee, Function)]
    first = len(calls[0].args)
    region = {id(g) for g in plan.region}
    return any(isinstance(n, ir.Call) and n.callee is f and not all(isinstance(a, (ir.Const, ir.Var))
                                                                   for a in n.args[first:])
               for c in pipe.consumers(f) if id(c) in region for d in pipe.definitions(c) for n in ir.walk(d.value))


def _offset(a: ir.Expr) -> str | None:
    """The Var of `v`, `v + k` or `v - k` (k a constant), else None."""
    if isinstance(a, ir.Var):
        return a.name
    if isinstance(a, ir.BinOp) and a.op in ("add", "sub") and isinstance(a.a, ir.Var) and isinstance(a.b, ir.Const):
        return a.a.name
    return None
