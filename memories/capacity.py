"""Count each buffer's capacity: the exact maximum number of live values over all cycles (barvinok, or a sweep
of every value's write and last read in NumPy: live_sweep.py).

A value is one write of one lane of a store. It is live from its write cycle (fire + latency) through the
cycle of its last read, both included: a value read in the cycle its slot is overwritten still counts, so a
3x3 window over a W-wide stream needs 2*W + 3 words. Values streamed out are read in the cycle they are
written (they occupy one word for that cycle). Counting uses lexicographic time vectors (timing.py) so that
1920-wide images count in milliseconds: the fused schedule's mixed radix (also where a stream overflows a digit
by at most one carry), or under the sequential fallback the program-order vector; only buffers that mix clocks
(the host's stream with a slower group) count flat cycles. Barvinok counts large mixed-radix buffers (well under
a second at 1080p); the sweep counts the rest, flat cycles above all, where barvinok took minutes.
"""

from __future__ import annotations

from typing import Literal

import islpy as isl

from .constant_ports import wire_sources
from .live_sweep import sweep_max_live
from .polyhedral import Flow, Program, Stmt
from .ram import ram_words
from .schedule import Schedule
from .timing import (
    digits_fit,
    embed_values,
    periods_for,
    program_vector,
    radix_candidate,
    time_space_bounds,
    time_vector,
)

# How cycles are written as vectors: the fused schedule's mixed radix (its periods), flat cycles, or the
# sequential fallback's program-order vector of the given loop depth.
Clock = (tuple[Literal["radix"], tuple[int, ...]] | tuple[Literal["flat"], None]
         | tuple[Literal["program"], None, int])


def buffer_capacity(prog: Program, sched: Schedule, buffer: str) -> int:
    """The maximum number of values of `buffer` written but not yet last read, over all cycles."""
    if prog.nest.buffer(buffer).init is not None:
        return ram_words(prog, buffer)
    maps = live_maps(prog, sched, buffer)
    if maps is None:
        return 0
    written, last, width, clock = maps
    # Cached by the maps' texts, which determine the count: a process compiles the same buffers again (the
    # autoscheduler's budget and then the user, a schedule's source pasted onto a fresh copy of the algorithm).
    key = (written.to_str(), last.to_str(), width, clock)
    if key not in _COUNTED:
        if len(_COUNTED) >= 4096:
            _COUNTED.clear()
        _COUNTED[key] = _max_live(written, last, width, clock)
    return _COUNTED[key]


_COUNTED: dict[tuple[str, str, int, Clock], int] = {}


def live_words(prog: Program, sched: Schedule) -> int:
    """The live words of every buffer the schedule's flows go through."""
    return sum(buffer_capacity(prog, sched, name) for name in sorted({f.buffer for f in prog.flows}))


def _max_live(written: isl.Map, last: isl.Map, width: int, clock: Clock) -> int:
    if clock[0] == "radix" and written.domain().card().max().to_python() > RADIX_COUNT_VALUES:
        return count_live(written, last, width, clock)
    swept = sweep_max_live(written, last, width)
    return swept if swept is not None else count_live(written, last, width, clock)


# Above this many values a buffer whose cycles are written in a mixed radix is counted by barvinok, which takes
# well under a second there (a 1080p stencil's live relation) where the NumPy sweep takes seconds; below it, and
# for flat or program-order cycles at any size (where barvinok took over 10 minutes on a 1080p down-up's paced
# group), the NumPy sweep (live_sweep.py) evaluates each value's write and last read.
RADIX_COUNT_VALUES = 200_000


def live_maps(prog: Program, sched: Schedule, buffer: str) -> tuple[isl.Map, isl.Map, int, Clock] | None:
    """(written, last, width, clock): each value's write time and last-read time as functions from the values
    V[port, t, 0...] (`width` dims) to time vectors; None when nothing reads the buffer (or only constants
    read as they are made)."""
    flows = [f for f in prog.flows if f.buffer == buffer]
    wires = wire_sources(sched, flows)  # constants on wires: never stored (constant_ports.py)
    flows = [f for f in flows if (f.src.name, f.src_lane) not in wires]
    if not flows:
        return None
    clock = _clock(prog, flows, sched)
    ports = sorted({(f.src.index, f.src_lane): f.src for f in flows}.items())
    width = 1 + max(len(s.time_dims) for _, s in ports)
    written: isl.Map | None = None
    last: isl.Map | None = None
    for k, ((_, lane), src) in enumerate(ports):
        mine = [f for f in flows if f.src is src and f.src_lane == lane]
        tw = _time(src, sched, clock, src.latency)
        reads: isl.Map | None = None
        for f in mine:
            r = tw.intersect_domain(f.rel.domain()) if f.streamed_out else f.rel.apply_range(
                _time(f.dst, sched, clock, f.read_offset))
            reads = r if reads is None else reads.union(r)
        assert reads is not None, "every port is the source of a flow (ports come from the flows)"
        emb = embed_values(src.time_name, len(src.time_dims), k, width)
        reads = reads.coalesce()  # the taps of one window merge into one piece: much faster to count
        w = tw.intersect_domain(reads.domain()).apply_domain(emb)
        lm = reads.lexmax().apply_domain(emb)
        written = w if written is None else written.union(w)
        last = lm if last is None else last.union(lm)
    assert written is not None and last is not None, "flows is not empty: there is a port"
    return written, last, width, clock


def count_live(written: isl.Map, last: isl.Map, width: int, clock: Clock) -> int:
    """The same maximum, counted by barvinok (exact, parametric in the time): kept for pieces whose boxes are
    too large to sweep (live_sweep.GRID_LIMIT) and as the reference the sweep is tested against."""
    t = time_space_bounds(clock[1], 2 * clock[2] + 2) if clock[0] == "program" else time_space_bounds(clock[1])
    ident = isl.Map.identity(t.get_space().map_from_set()).intersect_domain(t)
    live = written.lex_le_map(ident).intersect(last.lex_ge_map(ident)).reverse().coalesce()
    if live.is_empty():
        return 0
    return live.card().max().to_python()


def point_sweep(written: isl.Map, last: isl.Map, width: int) -> int:
    """The largest number of values live at once: each live from its write to its last read, both included.
    One isl point at a time (about 5 us each): the reference live_sweep's NumPy evaluation is tested against."""
    events: list[tuple[tuple[int, ...], int]] = []
    for m, kind in ((written, 0), (last, 1)):  # at one time, writes count before last reads end
        def add(p: isl.Point, kind: int = kind) -> None:
            n = p.get_space().dim(isl.dim_type.set)
            events.append((tuple(p.get_coordinate_val(isl.dim_type.set, i).to_python() for i in range(width, n)),
                           kind))
        m.wrap().foreach_point(add)
    live = best = 0
    for _, kind in sorted(events):
        live += 1 if kind == 0 else -1
        best = max(best, live)
    return best


def _clock(prog: Program, flows: list[Flow], sched: Schedule) -> Clock:
    """How to write cycles as vectors: ("radix", periods), ("flat", None) or ("program", None, depth)."""
    stmts = {f.src.name: f.src for f in flows} | {f.dst.name: f.dst for f in flows if not f.streamed_out}
    ordered = sorted(stmts.values(), key=lambda s: s.index)
    if sched.strategy == "sequential" and not any(s.is_host for s in ordered):
        return ("program", None, max(len(s.loops) for s in prog.stmts))
    if any(sched.timing[s.name].then is not None for s in ordered):
        return ("flat", None)  # a stream in two pieces (memories/stream_prologue.py): no one radix holds both
    rates = [sched.timing[s.name].rates for s in ordered]
    # A digit's steps span (extent - 1) * step + 1 values (ops' own loops have step 1; banks' time dims may not).
    periods = periods_for(rates, [tuple((d.extent - 1) * d.step + 1 for d in s.time_dims) for s in ordered])
    if periods is not None:
        return ("radix", periods)
    # A stream that overflows a digit by a little (an upsample's input row, one pixel longer than the consumer's
    # row of pairs) still writes its cycles exactly in the radix if one carry covers it at its real offsets, as
    # does a group paced every other cycle with a units digit added: far faster to count than flat cycles
    # (barvinok takes seconds on a 1080p frame's flat cycles).
    loose = radix_candidate(rates, unit=True)
    uses = [(f.src, f.src.latency) for f in flows] + [(f.dst, f.read_offset) for f in flows if not f.streamed_out]
    if loose is not None and all(digits_fit(s.time_dims, sched.timing[s.name].rates,
                                            sched.timing[s.name].delay + extra, loose) for s, extra in uses):
        return ("radix", loose)
    return ("flat", None)


def _time(s: Stmt, sched: Schedule, clock: Clock, extra: int) -> isl.Map:
    if clock[0] == "program":
        return program_vector(s.time_name, s.loops, s.unrolled, s.position, clock[2], extra)
    t = sched.timing[s.name]
    if t.then is not None:
        return t.cycles(s, extra).set_tuple_name(isl.dim_type.out, "T")
    return time_vector(s.time_name, s.time_dims, t.rates, t.delay + extra, clock[1])
