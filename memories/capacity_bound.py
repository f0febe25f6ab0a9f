"""A lower bound on the memory tiles a scheduled program needs, counted before its buffers' exact capacities.

The exact count (capacity.py) is a maximum over every cycle, which barvinok takes minutes to find on a 1080p
frame under a serial reduction's schedule (h2h_conv_layer_mobile: 20 minutes only to learn that its design needs
12,118 memory tiles of the 128). A bound is a count at one cycle: at the buffer's first read, nothing has been
read for the last time yet, so every value written by then (and read at all) is live; at a later flow's first
read, every value written by then that a read takes then or later (session 24). Those values are held in
write-port registers, register chains (each at most `register_delay_limit` cycles between taps) or memory-tile
words, so past the most the registers can hold they take memory tiles.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import islpy as isl

from mainspring.target import CGRA

from .capacity import _clock, _time
from .polyhedral import Flow, Program
from .schedule import Schedule


def mem_tiles_bound(prog: Program, sched: Schedule, target: CGRA) -> tuple[int, str, int]:
    """(memory tiles the program needs at least, the buffer needing the most of them, its live values), by
    `buffer_bound`; 0 tiles when even every value of every buffer held at once would fit the target (most
    designs: then nothing is counted)."""
    most = total = 0
    worst, live = "", 0
    for b in prog.nest.buffers:
        if b.init is not None:
            continue  # a RAM: its box, counted by ram.py
        flows = [f for f in prog.flows if f.buffer == b.name]
        slices = math.ceil(b.type.bits() / target.word_bits)
        allowance = _registers(flows, target)
        if _written(flows) <= allowance:
            continue
        values = buffer_bound(prog, sched, flows)
        tiles = slices * max(0, -(-(values - allowance) // target.mem_tile_words))
        total += tiles
        if tiles > most:
            most, worst, live = tiles, b.name, values
    return total, worst, live


# A buffer writing at most this many values is counted exactly in seconds (capacity.py's sweep): below it the
# compiler counts and reports the exact figure rather than a bound.
BOUND_VALUES = 10_000


def worth_bounding(prog: Program, target: CGRA) -> bool:
    """Whether a bound may refuse the design and save time: some buffer writes more than BOUND_VALUES values, and
    if every value of every buffer were held at once the target would not have the memory tiles."""
    tiles, most = 0, 0
    for b in prog.nest.buffers:
        flows = [f for f in prog.flows if f.buffer == b.name]
        if b.init is None and flows:
            written = _written(flows)
            tiles += math.ceil(b.type.bits() / target.word_bits) * -(-written // target.mem_tile_words)
            most = max(most, written)
    return most > BOUND_VALUES and tiles > target.num_mem_tiles


def buffer_bound(prog: Program, sched: Schedule, flows: list[Flow]) -> int:
    """Values of the buffer live at the first read of one of its flows, the most of them: those written by then
    that some read takes then or later (at the buffer's first read, every value written; at a later flow's, a
    sum over channel planes' first read of the plane of sums before it, mobile's pw_conv_reduction)."""
    if not flows:
        return 0
    clock = _clock(prog, flows, sched)
    firsts: list[isl.Set] = []
    ports: dict[tuple[int, tuple[int, ...]], tuple[isl.Map, list[isl.Map]]] = {}
    for f in flows:
        tw = _time(f.src, sched, clock, f.src.latency)
        reads = tw if f.streamed_out else f.rel.apply_range(_time(f.dst, sched, clock, f.read_offset))
        reads = reads.intersect_domain(f.rel.domain())
        firsts.append(reads.range().lexmin())
        key = (f.src.index, f.src_lane)
        ports[key] = (tw, ports[key][1] + [reads] if key in ports else [reads])
    return max(_live_at(at, ports.values()) for at in _distinct(firsts))


def _live_at(at: isl.Set, ports: Iterable[tuple[isl.Map, list[isl.Map]]]) -> int:
    """Values written by cycle `at` that a read takes at `at` or later, over the write ports."""
    live = 0
    for tw, reads in ports:
        pending = None
        for r in reads:
            later = r.intersect_range(at.lex_le_set(r.range()).range()).domain()
            pending = later if pending is None else pending.union(later)
        assert pending is not None, "a port has a flow"
        written = tw.intersect_domain(pending.coalesce())
        by_then = written.range().lex_le_set(at).domain()
        live += int(written.intersect_range(by_then).domain().card().max().to_python())
    return live


def _distinct(sets: list[isl.Set]) -> list[isl.Set]:
    out: list[isl.Set] = []
    for s in sets:
        if not any(s.is_equal(o) for o in out):
            out.append(s)
    return out


def _written(flows: list[Flow]) -> int:
    """At most how many values the buffer's write ports write (each firing of each lane)."""
    ports = {(f.src.index, f.src_lane): f.src for f in flows}
    return sum(math.prod(d.extent for d in s.time_dims) for s in ports.values())


def _registers(flows: list[Flow], target: CGRA) -> int:
    """At most how many values the buffer holds outside memory tiles: a write-port register per port, and for
    each read a chain of at most `register_delay_limit` registers from the tap before it."""
    ports = {(f.src.index, f.src_lane) for f in flows}
    return len(ports) + len(flows) * (target.register_delay_limit + 1)
