"""Start an input stream late when its readers wait for more than the whole stream: a second pass over a frame
(a threshold at the frame's total, `out(x, y) = in(x, y) > total()`) reads its own stream of the input only after
the first pass (the reduction, over a stream of its own) has seen every pixel; streamed from cycle 0, the second
stream would be held whole until then (a 1080p frame: a thousand memory tiles), streamed late, a word arrives when
it is read. Such a run's ideal cycles add its two passes up (`two_pass_transfers`, the report's ideal_cycles)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .polyhedral import Program


class _Edge(Protocol):  # schedule.py's: dst.delay - src.delay >= weight
    @property
    def src(self) -> str: ...
    @property
    def dst(self) -> str: ...
    @property
    def weight(self) -> int: ...


def start_streams_late(prog: Program, delays: dict[str, int], es: Sequence[_Edge], rates: dict[str, tuple[int, ...]],
                       fixed: set[str]) -> None:
    """Delay each host stream (with the ops that only copy it, `fixed`) to the latest start its readers allow,
    where that is later than the stream's own length (its readers would otherwise find it held whole) and
    another stream still starts at cycle 0 (the run's first word). Delays change in place."""
    hosts = sorted(s.name for s in prog.stmts if s.is_host and s.name != "host.out" and s.name in delays)
    moved: dict[str, int] = {}
    for h in hosts:
        group = {h} | {f.dst.name for f in prog.flows if f.src.name == h and f.dst.name in fixed
                       and all(g.src.name == h for g in prog.flows if g.dst is f.dst)}
        out = [e for e in es if e.src in group and e.dst not in group]
        if not out or any(delays[n] != delays[h] for n in group):
            continue
        slack = min(delays[e.dst] - e.weight - delays[e.src] for e in out)
        s = prog.stmt(h)
        length = sum(q * (d.extent - 1) for q, d in zip(rates[h], s.time_dims)) + 1
        if slack > length:
            moved.update(dict.fromkeys(group, slack))
    if not moved or all(h in moved for h in hosts):
        return
    for n, shift in moved.items():
        delays[n] += shift


class _Host(Protocol):  # ir.OpSchedule's fields read here
    @property
    def host(self) -> bool: ...
    @property
    def op(self) -> str: ...
    @property
    def delay(self) -> int: ...
    @property
    def dims(self) -> tuple: ...
    @property
    def rates(self) -> tuple[int, ...]: ...


def two_pass_transfers(ops: Sequence[_Host], out_transfers: int) -> int:
    """The ideal cycles of a run whose streams come in two passes (a stream started late, start_streams_late: it
    waits for the first pass to end): the first pass's transfers (its busiest stream), then the second's (its
    busiest stream, or the output's transfers). 0 where every stream starts in the first pass."""
    hosts = [o for o in ops if o.host and o.op != "host.out"]
    first = [o for o in hosts if o.delay == 0]
    if not first:
        return 0
    end = max(sum(q * (d.extent - 1) for q, d in zip(o.rates, o.dims)) + 1 for o in first)
    second = [o for o in hosts if o.delay >= end]
    if not second:
        return 0
    return max(_transfers(o) for o in first) + max([_transfers(o) for o in second] + [out_transfers])


def _transfers(o: _Host) -> int:
    n = 1
    for d in o.dims:
        n *= d.extent
    return n
