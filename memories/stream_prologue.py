"""Split a paced input stream into a prologue at one word a cycle and the paced rest (a two-piece schedule).

A stream slowed to a serial reader's pace (memories/stream_pacing.py) stores a line, not a frame, but the rows
its readers need before their first firing (4 rows of a 5x5 window) then also arrive at that pace, though the
reader cannot start before they are all in: 4 x 165 cycles of a 33x9 frame where the host brings them in 4 x 37.
No single affine schedule gives both (BENCHMARKS.md, helper adaptive, session 29), so the stream and the ops that
only copy it fire their first rows densely from cycle 0 and the rest at the paced rates right after; the other
ops keep their rates and are moved as early as their flows then allow. An upsample's stream waits likewise (its
odd output rows read the row after their own): there the ops stepping their rows with the stream (an upx made
from it) join it, all at their paced pace within a row and their first rows back to back, and the two pieces
are kept only where they map onto no more storage (memories/analyze.py)."""

from __future__ import annotations

from dataclasses import replace

import networkx as nx

from .ir import Steady
from .polyhedral import Program, Stmt
from .schedule import _SOURCE, Schedule, Timing, _finish, _free, _pull_late, edges, scheduled_stmts
from .stream_pacing import _reduces
from .timing import delta_bounds, flat_map


def split_paced_streams(prog: Program, sched: Schedule, dense: dict[str, tuple[int, ...]],
                        fixed: set[str]) -> Schedule:
    """`sched` with each paced input stream (rates other than `dense`, its one word a cycle) and its fixed copies
    in two pieces where that finishes sooner: the fewest prologue rows that come within 1/16 of what streaming
    the whole frame densely would save (each row more is stored longer), if they save at least the time of one
    dense row. `sched` itself where none helps; where the split is of a stream no serial reduction reads, its
    `unsplit` is the schedule without such splits, for the mapping to choose (memories/analyze.py)."""
    out = sched
    for h in scheduled_stmts(prog):
        if not h.is_host or h.lane_dims or len(h.time_dims) < 2 or h.time_dims[0].extent < 2 \
                or sched.timing[h.name].rates == dense[h.name]:
            continue
        t = sched.timing[h.name]
        group = [h] + list({f.dst.name: f.dst for f in prog.flows if f.src is h and f.dst.name in fixed
                            and not f.dst.is_host and sched.timing[f.dst.name] == t}.values())
        group += _followers(prog, sched, group, fixed)
        # A serial reduction waits for whole rows, worth a few more words; elsewhere (an upsample's odd rows
        # reading the row after their own) the two pieces are kept only where they map onto no more storage
        # (memories/analyze.py maps both): a delay line become an addressed bank gave an up_x at 64x8 a 7th tile.
        reduced = any(_reduces(f.dst) for f in prog.flows if f.src in group and f.dst not in group)
        paced, rows = _finish(prog, out), h.time_dims[0].extent
        whole = _trial(prog, out, group, dense[h.name], rows, fixed)
        if whole is None or whole[0] >= paced:
            continue
        for steps in range(1, rows):
            got = _trial(prog, out, group, dense[h.name], steps, fixed)
            if got is not None and 16 * (got[0] - whole[0]) <= paced - whole[0]:
                # worth it only if it saves at least a row of the dense stream (an upsample's 1 cycle in 4,102
                # stored 17 words more)
                if paced - got[0] >= dense[h.name][0]:
                    kept = reduced and all(s.name in fixed for s in group)  # (followers read in two pieces)
                    out = got[1] if kept else replace(got[1], unsplit=out.unsplit or out)
                break
    return out


def _followers(prog: Program, sched: Schedule, group: list[Stmt], fixed: set[str]) -> list[Stmt]:
    """The ops fed by `group` alone that step its rows at its pace, row for row (an autoscheduled upsample's
    upx(x, y), made from the stream's row y at x / 2 and stored for the output's rows y / 2 and y / 2 + 1): the
    first output waits for their third row as it did for the stream's, so they take the prologue with it."""
    host, out = group[0], []
    members = {s.name for s in group}
    row = sched.timing[host.name].rates[0]
    for s in scheduled_stmts(prog):  # in program order: a follower's producers come before it
        t = sched.timing[s.name]
        ins = [f for f in prog.flows if f.dst is s]
        if s.name in members or s.is_host or s.name in fixed or s.lane_dims or _reduces(s) or t.then is not None \
                or len(s.time_dims) < 2 or s.time_dims[0].extent != host.time_dims[0].extent or t.rates[0] != row \
                or not ins or any(f.src.name not in members for f in ins) \
                or any(s in (o.src, o.dst) for o in prog.orders) \
                or any(f.src is s and f.streamed_out for f in prog.flows):  # (the output keeps one piece)
            continue
        out.append(s)
        members.add(s.name)
    return out


def _trial(prog: Program, sched: Schedule, group: list[Stmt], dense: tuple[int, ...], steps: int,
           fixed: set[str]) -> tuple[int, Schedule] | None:
    """(finish, schedule) with `group` streaming its first `steps` rows densely from cycle 0 and the rest at its
    paced rates right after (all its rows densely when `steps` is its rows), the other ops re-solved. Its
    followers (not fixed) keep their delays and inner rates and step their prologue rows with the stream, a row
    as long as the longest of theirs; None where that breaks a flow within the group."""
    host = group[0]
    followed = any(s.name not in fixed for s in group)
    # Followed, the stream keeps its pace within a row, its followers' (at one word a cycle it ran ahead of
    # an upx reading a word every two cycles: 11 words stored for 3); its rows come back to back.
    period = max(_row_span(s, sched.timing[s.name].rates) for s in group) if followed else dense[0]
    split = steps < host.time_dims[0].extent
    timing = dict(sched.timing)
    for s in group:
        old = timing[s.name]
        then = Steady(steps, steps * period + old.delay, old.rates) if split else None
        timing[s.name] = Timing((period,) + (old.rates if followed else dense)[1:], old.delay, then)
    names = {s.name for s in group}
    for f in prog.flows:
        if f.src.name in names and f.dst.name in names and not f.streamed_out and f.src is not f.dst:
            lo, hi = delta_bounds(f.rel, timing[f.src.name].cycles(f.src, f.src.latency),
                                  timing[f.dst.name].cycles(f.dst, f.read_offset))
            if lo < (0 if lo == hi else 1):
                return None
    delays = _delays(prog, timing, names, fixed)
    if delays is None:
        return None
    for n, d in delays.items():
        timing[n] = replace(timing[n], delay=d)
    out = replace(sched, timing=timing)
    return _finish(prog, out), out


def _row_span(s: Stmt, rates: tuple[int, ...]) -> int:
    """The cycles one step of the outermost loop takes at these rates: its inner loops' run."""
    return 1 + sum(q * (d.extent - 1) for q, d in zip(rates[1:], s.time_dims[1:]))


def _delays(prog: Program, timing: dict[str, Timing], group: set[str], fixed: set[str]) -> dict[str, int] | None:
    """Least delays of the ops outside `group` meeting every flow at their rates, as schedule._solve finds them,
    with the flows out of `group` at its (two-piece) cycles."""
    rates = {n: t.rates for n, t in timing.items()}
    names = [s.name for s in scheduled_stmts(prog) if s.name not in group]
    if not names:
        return {}
    es = [e for e in edges(prog, rates) if e.src not in group and e.dst not in group and e.src != e.dst]
    g: nx.DiGraph = nx.DiGraph()
    g.add_weighted_edges_from((_SOURCE, n, -timing[n].delay if n in fixed else 0) for n in names)
    for e in es:
        if not g.has_edge(e.src, e.dst) or g[e.src][e.dst]["weight"] > -e.weight:
            g.add_edge(e.src, e.dst, weight=-e.weight)
    fed = set()
    for f in prog.flows:
        if f.streamed_out or f.src.name not in group or f.dst.name in group:
            continue
        lo, hi = delta_bounds(f.rel, timing[f.src.name].cycles(f.src, f.src.latency),
                              flat_map(f.dst.time_name, f.dst.time_dims, rates[f.dst.name], f.read_offset))
        w = -lo + (0 if lo == hi else 1)
        fed.add(f.dst.name)
        if g[_SOURCE][f.dst.name]["weight"] > -w:
            g.add_edge(_SOURCE, f.dst.name, weight=-w)
    try:
        dist = nx.single_source_bellman_ford_path_length(g, _SOURCE)
    except nx.NetworkXUnbounded:
        return None
    d = {n: -int(dist[n]) for n in names}
    if any(d[n] != timing[n].delay for n in names if n in fixed):
        return None
    _pull_late(d, es, _free(names, es, dict.fromkeys({n for n in names if n in fixed} | fed, 0)))
    return d
