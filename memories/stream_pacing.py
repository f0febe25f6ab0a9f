"""Pace the host's input streams to their readers: a stream slowed to the pace its readers step it at delivers
each word when it is needed, so a line, not a frame, is stored (memories/schedule.py picks the readers' rates)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from .ir import Dim
from .polyhedral import Flow, Program, Stmt


def pace_streams_to_readers(prog: Program, rates: dict[str, tuple[int, ...]], fixed: set[str],
                             fit: bool = False) -> bool | None:
    """Slow an input stream down to its readers when they all step slower than it along the dims they step
    forward (a serial reduction reads a new column every 9 cycles; a Bayer plane read at 2 * x steps 2 words
    every 6 cycles of an upsample's output, 3 cycles a word): the host delivers each word when it is needed, so
    a line, not a frame, is stored. With `fit`, a stream whose rows at its readers' pace
    overrun their rows steps faster within them (`_fit_rows`), and None means one cannot. Returns whether a
    stream changed."""
    changed = False
    for h in prog.stmts:
        if not h.is_host or h.name not in rates:
            continue  # host.out: the output stream has no rates of its own
        reads = [f for f in prog.flows if f.src is h and not f.streamed_out]
        # A fixed copy of the stream (repeat_edge's interior) moves as the stream does: its readers set the pace.
        copies = {f.dst.name for f in reads if f.dst.name in fixed and not f.dst.is_host}
        readers = reads + [f for f in prog.flows if f.src.name in copies and not f.streamed_out]
        pace = list(rates[h.name])
        for f in readers:
            for k, step in enumerate(source_steps(f)):
                moved = [j for j, v in enumerate(step or []) if v]
                if step is None or len(moved) != 1 or step[moved[0]] < 0:
                    continue  # only steps forward along one stream dim tell the pace
                # A reader stepping s words at a time (a Bayer plane's 2 * x) takes its rate per s words.
                j = moved[0]
                pace[j] = max(pace[j], rates[f.dst.name][k] // step[j])
        if h.lane_dims and not injective(pace, h.time_dims):
            # a stream of lanes (a pixel's channels) is paced only where its rows fit in its readers' as they
            # are (mobile's rows of 18 transfers at a reader's 4 cycles each overran its 16-pixel rows of 64)
            continue
        if fit and reads and not injective(pace, h.time_dims):
            if not any(_reduces(f.dst) for f in readers):
                return None  # a pure reader keeps pace with the stream: running ahead would only store more
            pace = _fit_rows(pace, h.time_dims)
            if not injective(pace, h.time_dims):
                return None
        if reads and tuple(pace) != rates[h.name] and injective(pace, h.time_dims):
            rates[h.name] = tuple(pace)
            for f in reads:  # a fixed copy of the stream (an op that only copies it) runs at its schedule
                if f.dst.name in fixed and not f.dst.is_host:
                    rates[f.dst.name] = tuple(pace)
            changed = True
    return changed


def pace_streams_read_in_turn(prog: Program, rates: dict[str, tuple[int, ...]]) -> None:
    """Pace each stream of lanes that a reader takes in turn (hwlower/lane_steps.py, its loop `x.lane`) to that
    reader, its rows at the reader's rows where a row of transfers at the reader's pace would overrun them
    (`_fit_rows`): unpaced, the host delivers k words a cycle to a reader that takes fewer, and half a frame piles
    up (2 taps of a 4-word stream read 2 a cycle: 259 words over 64x8, 47 so paced)."""
    for h in prog.stmts:
        reads = [f for f in prog.flows if f.src is h and not f.streamed_out]
        if not h.is_host or not h.lane_dims or h.name not in rates or not any(map(_in_turn, (f.dst for f in reads))):
            continue
        pace = list(rates[h.name])
        for f in reads:
            for k, step in enumerate(source_steps(f)):
                moved = [j for j, v in enumerate(step or []) if v]
                if step is not None and len(moved) == 1 and step[moved[0]] > 0:
                    pace[moved[0]] = max(pace[moved[0]], rates[f.dst.name][k] // step[moved[0]])
        if not injective(pace, h.time_dims):
            pace = _fit_rows(pace, h.time_dims)
        if injective(pace, h.time_dims):
            rates[h.name] = tuple(pace)


def _in_turn(s: Stmt) -> bool:
    """Whether op `s` has a loop that lane_steps.py split to read lanes in turn: `v` around `v.lane`."""
    names = {d.var for d in s.time_dims}
    return any(v.endswith(".lane") and v[:-len(".lane")] in names for v in names)


def _reduces(s: Stmt) -> bool:
    """Whether op `s` runs a serial loop that leaves the element it stores in place (a reduction's steps, each
    reading its window anew: the halo columns of its stream would cost a whole pixel's steps each)."""
    if s.op is None:
        return False
    stored = {v for a in s.op.store.index for v, _ in a.terms}
    return any(d.var not in stored and d.extent > 1 for d in s.time_dims)


def _fit_rows(pace: list[int], dims: Sequence[Dim]) -> list[int]:
    """`pace` with each inner dim's step shrunk, outermost first, until its whole run fits one step of the dim
    around it (the inner dims at one cycle a step at least)."""
    out = list(pace)
    for k in range(1, len(out)):
        rest = sum(d.extent - 1 for d in dims[k + 1:])  # the dims inside at one cycle each
        if dims[k].extent > 1:
            out[k] = max(1, min(out[k], (out[k - 1] - 1 - rest) // (dims[k].extent - 1)))
    return out


@functools.lru_cache(maxsize=1024)  # by flow: the same for every initiation interval and pass that asks
def source_steps(f: Flow) -> tuple[list[int] | None, ...]:
    """Per time dim k of the reader: how the source iteration moves when k steps by one (None: unknown)."""
    from .isl_text import isl_set
    from .polyhedral import point_values

    dims = f.dst.time_dims
    back = f.rel.reverse()
    dom = back.domain()
    if dom.is_empty():
        return (None,) * len(dims)
    p = point_values(dom.lexmin())
    out: list[list[int] | None] = []
    for k in range(len(dims)):
        q = list(p)
        q[k] += 1

        def source(point: list[int]) -> list[int] | None:
            at = isl_set(f"{{ {dom.get_tuple_name()}[{', '.join(map(str, point))}] }}")
            got = back.intersect_domain(at).range()
            return None if got.is_empty() or not got.is_singleton() else point_values(got)

        a, b = source(p), source(q)
        out.append(None if a is None or b is None else [y - x for x, y in zip(a, b)])
    return tuple(out)


def injective(rates: list[int], dims: Sequence[Dim]) -> bool:
    """Each step of a dim comes after every inner dim's whole run: no two firings share a cycle."""
    return all(q > sum(r * (d.extent - 1) for r, d in zip(rates[k + 1:], dims[k + 1:]))
               for k, q in enumerate(rates))


def spaced_out(rates: list[int], dims: Sequence[Dim]) -> list[int]:
    """`rates` with each outer rate raised, innermost first, past its inner dims' whole run (`injective`)."""
    out = list(rates)
    for k in reversed(range(len(out) - 1)):
        out[k] = max(out[k], 1 + sum(r * (d.extent - 1) for r, d in zip(out[k + 1:], dims[k + 1:])))
    return out
