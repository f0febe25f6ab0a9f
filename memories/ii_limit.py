"""Why a design does not run one iteration per cycle: the flows the fused schedule cannot meet one interval lower.

`schedule` only reports the interval it settled on ("fused_ii3"), or that no interval up to `CGRA.max_ii`
worked. A user who wants it faster has to know which value it waits for: a loop-carried flow (a scan, a serial
reduction's accumulator) whose kernel takes longer than the loop gives it, or a cycle of flows between ops. This
pass re-derives the constraints at the next lower interval and names the ones that fail.
"""

from __future__ import annotations

from itertools import pairwise

import networkx as nx

from mainspring.target import CGRA

from .polyhedral import Flow, Program, Stmt
from .schedule import (
    Schedule,
    _Edge,
    _fused_rates,
    _solve,
    _stream_copies,
    edges,
    flow_cycles,
    flow_weight,
    scheduled_stmts,
)


def ii_limits(prog: Program, sched: Schedule, target: CGRA) -> tuple[str, ...]:
    """Sentences naming what keeps the fused schedule from a lower initiation interval; () when it runs at ii 1
    (or runs its ops at their own pace instead, as a multi-rate pipeline does, because that finishes sooner)."""
    if sched.fused_ii == 1:
        return ()
    ii = max(1, target.max_ii) if sched.fused_ii is None else sched.fused_ii - 1
    found = _blocked(prog, ii)
    assert found is not None, "the fused schedule was refused at this interval"
    return found


def _blocked(prog: Program, ii: int) -> tuple[str, ...] | None:
    """The reasons no fused schedule exists at `ii` (None if one does), tried as `schedule` tries them."""
    fixed = {s.name for s in scheduled_stmts(prog) if s.is_host} | _stream_copies(prog)
    reasons: list[str] = []
    for fit in (False, True):
        rates = _fused_rates(prog, ii, fixed, fit)
        if rates is None:
            continue
        found = _failing(prog, rates, ii, fixed)
        if not found:
            return None
        reasons += [r for r in found if r not in reasons]
    # No radix at all (ops whose loops differ in meaning, run at their own pace): that is no interval's limit.
    return tuple(reasons)


def _failing(prog: Program, rates: dict[str, tuple[int, ...]], ii: int, fixed: set[str]) -> list[str]:
    if _solve(prog, rates, dict.fromkeys(fixed, 0)) is not None:
        return []
    es = edges(prog, rates)
    loops = [e for e in es if e.src == e.dst and e.weight > 0]
    if loops:
        return [_carried(prog, f, rates, ii) for e in loops for f in _flows(prog, e) if flow_weight(f, rates) > 0] or [
            f"at ii {ii}, {_who(prog.stmt(e.src))} updates a memory at computed coordinates faster than its "
            "kernel's latency allows" for e in loops]
    g: nx.DiGraph[str] = nx.DiGraph()
    for e in es:
        if e.src != e.dst and (not g.has_edge(e.src, e.dst) or g[e.src][e.dst]["weight"] > -e.weight):
            g.add_edge(e.src, e.dst, weight=-e.weight)
    # The scheduler's longest paths diverge on a positive cycle (negative here): the flows around it need more
    # cycles than the loops give them.
    for n in sorted(g.nodes):
        try:
            cycle = nx.find_negative_cycle(g, n)
        except nx.NetworkXError:
            continue
        hops = list(pairwise(cycle))
        need = sum(-g[a][b]["weight"] for a, b in hops)
        bufs = sorted({f.buffer for a, b in hops for f in _flows(prog, _Edge(a, b, 0))})
        who = " -> ".join(_who(prog.stmt(n)) for n in cycle)
        through = ", ".join(repr(b) for b in bufs)
        return [(f"at ii {ii}, {who} feed each other through {through}: around that loop their values need {need} "
                "cycle(s) more than the iterations give them")]
    streams = sorted(n for n in fixed if n in g)
    return [f"at ii {ii}, a stream ({', '.join(streams)}) would have to start later than the host sends it"]


def _flows(prog: Program, e: _Edge) -> list[Flow]:
    return [f for f in prog.flows + prog.orders if not f.streamed_out and (f.src.name, f.dst.name) == (e.src, e.dst)]


def _carried(prog: Program, f: Flow, rates: dict[str, tuple[int, ...]], ii: int) -> str:
    lo, hi = flow_cycles(f, rates)
    memory = "" if lo == hi else ", plus 1 through the memory its varying distance needs"
    return (f"at ii {ii}, {_who(f.dst)} reads {f.buffer!r} from its own earlier iterations as soon as {lo} "
            f"cycle(s) after they fire, but its kernel takes {f.src.latency} cycle(s){memory}: shorten the "
            "kernel's loop-carried path (fewer ops on it, or more ops per pipeline stage with "
            "hl.CGRA(pe_ops_per_stage=...)), or reorder so that the loop carrying the value is not the innermost")


def _who(s: Stmt) -> str:
    """The Func definition a statement computes, as Halide names it."""
    if s.op is None:
        return f"the stream {s.name}"
    return f"Func '{s.op.func}' ({'pure definition' if s.op.stage == 0 else f'update definition {s.op.stage - 1}'})"
