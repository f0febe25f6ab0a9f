"""Choose each op's cycle-accurate affine schedule `cycle = sum(rates[k] * (t[k] - min[k])) + delay`.

Clockwork's recipe, simplified where our inputs allow it:
1. Fused ("rate matched"): ops connected by value flows form a group sharing one mixed radix: innermost
   rate 1 and each outer rate the product of the inner dims' largest extents (aligned from the outermost
   loop), so a stencil pipeline runs one iteration per cycle with rows as long as the widest stage (the input
   stream's). The host's input streams and the ops that merely copy them are fixed to the stream.
2. Delays are the least satisfying every flow `read cycle >= write cycle (= fire + latency)`, plus one cycle
   when the flow is not at a constant delay (it then goes through an addressed SRAM, which returns the value
   written in an earlier cycle). Ops fed by nothing streamed in (constant inits) are pulled as late as their
   consumers allow, so a pure init s0 collapses onto its update s1.
3. When a loop-carried flow (a scan, a reduction loop that is not unrolled) cannot be met at rate 1, the
   group's rates are scaled by an initiation interval ii = 2, 3, ...; failing that, the whole nest runs in
   program order (each op takes latency + 1 cycles, loops run their bodies back to back), which is always
   correct.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from math import prod

import islpy as isl
import networkx as nx

from mainspring.hwlower.ir import Loop, Op
from mainspring.target import CGRA

from .ir import Dim, Steady
from .late_streams import start_streams_late
from .op_pacing import keep_pace, pace_constants
from .polyhedral import Flow, Program, Stmt
from .stream_pacing import injective, pace_streams_read_in_turn, pace_streams_to_readers, source_steps
from .timing import delta_bounds, flat_map, piece_map


@dataclass(frozen=True, slots=True)
class Timing:
    rates: tuple[int, ...]
    delay: int
    then: Steady | None = None  # a two-piece schedule's second piece (memories/stream_prologue.py)

    def cycles(self, s: Stmt, extra: int = 0) -> isl.Map:
        """{ S[t] -> [cycle + extra] } over the op's loops."""
        then = None if self.then is None else Steady(self.then.steps, self.then.start + extra, self.then.rates)
        return piece_map(s.time_name, s.time_dims, self.rates, self.delay + extra, then)

    def last(self, s: Stmt) -> int:
        if self.then is None:
            return self.delay + sum(q * (d.extent - 1) for q, d in zip(self.rates, s.time_dims))
        inner = sum(q * (d.extent - 1) for q, d in zip(self.then.rates[1:], s.time_dims[1:]))
        return self.then.start + inner + self.then.rates[0] * (s.time_dims[0].extent - 1 - self.then.steps)


@dataclass(frozen=True)
class Schedule:
    strategy: str
    timing: dict[str, Timing]  # by statement name: host inputs and ops
    fused_ii: int | None = None  # the least interval of a fused schedule (whether chosen or not); None: none found
    # the schedule before streams were split where the split must map onto no more storage (stream_prologue.py)
    unsplit: Schedule | None = None


_SOURCE = ("source",)  # the longest-path source: not an op name


@dataclass(frozen=True, slots=True)
class _Edge:
    src: str
    dst: str
    weight: int  # dst.delay - src.delay >= weight


def schedule(prog: Program, target: CGRA) -> Schedule:
    """The fused schedule at the smallest workable initiation interval, else the sequential one."""
    fixed = {s.name for s in scheduled_stmts(prog) if s.is_host} | _stream_copies(prog)
    fused = None
    for ii in range(1, max(1, target.max_ii) + 1):
        for fit in (False, True):
            rates = _fused_rates(prog, ii, fixed, fit)
            delays = _solve(prog, rates, dict.fromkeys(fixed, 0)) if rates is not None else None
            if rates is not None and delays is not None:
                name = "fused" if ii == 1 else f"fused_ii{ii}"
                candidate = Schedule(name, {s: Timing(rates[s], delays[s]) for s in rates})
                if fused is None or _finish(prog, candidate) < _finish(prog, fused):
                    fused = candidate
        if fused is not None:
            fused = _spaced(prog, fused, ii, fixed)
            break
    dense = _dense(prog, fixed, target.max_ii)
    if fused is None:
        chosen = dense or _sequential(prog)
    # The fused radix keeps a stencil pipeline's storage minimal; ops whose loops differ in meaning (a
    # weight-stationary reduction sweeping the frame once per tap, then an output by channel planes) are
    # misaligned by it, and each running at its own pace finishes far sooner.
    # So do two passes over a frame (a map after a whole-frame reduction, its stream started late): the fused radix
    # would run the map at the reduction's pace, not at its own lanes.
    elif dense is not None and (4 * _finish(prog, dense) < 3 * _finish(prog, fused)
                                or (_second_pass(prog, dense) and _finish(prog, dense) < _finish(prog, fused))):
        chosen = replace(dense, fused_ii=ii)
    else:
        chosen = replace(fused, fused_ii=ii)
    if chosen.strategy == "sequential":
        return chosen
    from .stream_prologue import split_paced_streams  # it builds on this module's solver

    return split_paced_streams(prog, chosen, {s.name: _host_rates(s) for s in prog.stmts if s.is_host}, fixed)


def _spaced(prog: Program, fused: Schedule, ii: int, fixed: set[str]) -> Schedule:
    """The fused schedule with ops spaced out to their producers' pace (op_pacing.py `keep_pace`) where that
    finishes no later and its values wait less (the longest wait of each buffer, summed), else `fused`."""
    best = fused
    for fit in (False, True):
        rates = _fused_rates(prog, ii, fixed, fit, spaced=True)
        delays = _solve(prog, rates, dict.fromkeys(fixed, 0)) if rates is not None else None
        if rates is None or delays is None:
            continue
        candidate = Schedule(fused.strategy, {s: Timing(rates[s], delays[s]) for s in rates})
        if candidate.timing != best.timing and _finish(prog, candidate) <= _finish(prog, fused) and \
                _waits(prog, candidate) < _waits(prog, best):
            best = candidate
    return best


def _waits(prog: Program, sched: Schedule) -> int:
    """The longest wait of any value of each buffer, summed over the buffers: a proxy for their live words."""
    most: dict[str, int] = {}
    for f in prog.flows:
        if not f.streamed_out:
            most[f.buffer] = max(most.get(f.buffer, 0), flow_delay(f, sched)[1])
    return sum(most.values())


def _second_pass(prog: Program, sched: Schedule) -> bool:
    """Whether a stream starts only after the streams that start at cycle 0 have ended (a second pass over the
    frame, memories/late_streams.py), not merely late (resnet's weights, wanted after a few rows of the image)."""
    hosts = [(sched.timing[s.name], s) for s in scheduled_stmts(prog) if s.is_host]
    first = [sum(q * (d.extent - 1) for q, d in zip(t.rates, s.time_dims)) for t, s in hosts if not t.delay]
    return bool(first) and any(t.delay > max(first) for t, _ in hosts)


def _dense(prog: Program, fixed: set[str], max_ii: int) -> Schedule | None:
    """Every op at one firing per cycle over its own loops (its own mixed radix), each as early as its flows
    allow: phases of a multi-rate pipeline overlap as far as their dependences let them."""
    best = None
    for paced in ("", "ops", "spaced", "streams"):
        rates = {s.name: _host_rates(s) for s in scheduled_stmts(prog)}
        _slow_recurrences(prog, rates, fixed, max_ii)
        pace_streams_read_in_turn(prog, rates)
        if paced:
            # Each op at its producers' pace instead (a depthwise stage over an input streamed by channel planes
            # of 18 x 18 words steps its 16 x 16 planes every 324 cycles, not 256): it no longer starts late so
            # as not to overtake the stream's last plane, and its readers start with the stream.
            # "spaced": its outer steps spaced out where its inner steps at that pace leave them no room (a 2x
            # downsample of a 2x downsample, 4 x 4 of 8 x 8 strip-mined 2 x 4 at x / 4 for a reader, steps y every
            # 32 cycles and x every 2, no run for its own radix's outer x step of 4): unspaced it keeps its own
            # radix and starts after the whole level above it (down_down_up 16x16: 249 cycles; so paced 161).
            keep_pace(prog, rates, fixed, spaced=paced == "spaced")
            pace_constants(prog, rates, fixed)
        if paced == "streams":
            # And the streams at their readers' pace where a reader's rows are longer (a tail rounded up inside
            # the accelerator: a blur tiled by 4 over 14 columns runs rows of 16 over a stream of 15, its reads
            # guarded): the stream idles a cycle a row, and the reads stay taps of it (delay lines).
            if not pace_streams_to_readers(prog, rates, fixed):
                continue
            keep_pace(prog, rates, fixed)
        delays = _solve(prog, rates, dict.fromkeys(fixed, 0))
        if delays is not None:
            candidate = Schedule("dense", {s: Timing(rates[s], delays[s]) for s in rates})
            if best is None or _better(prog, candidate, best):
                best = candidate
    return best


def _slow_recurrences(prog: Program, rates: dict[str, tuple[int, ...]], fixed: set[str], max_ii: int) -> None:
    """Run each op whose loop-carried flow is faster than its kernel (a 32-bit scan's add, two PE stages) at
    the least interval that flow allows (up to `CGRA.max_ii`), its loops' rates multiplied by it, and the other
    ops at one firing per cycle: a histogram's cumulative sum over 16 bins then takes 32 cycles instead of the
    fused schedule running the whole pipeline, the image's streams included, at that interval."""
    for s in scheduled_stmts(prog):
        own = [f for f in prog.flows if f.src is s and f.dst is s and not f.streamed_out]
        if s.name in fixed or not own or all(flow_weight(f, rates) <= 0 for f in own):
            continue
        base = rates[s.name]
        for k in range(2, max_ii + 1):
            rates[s.name] = tuple(k * q for q in base)
            if all(flow_weight(f, rates) <= 0 for f in own):
                break
        else:
            rates[s.name] = base  # no interval works: the dense schedule is refused as before


def _better(prog: Program, a: Schedule, b: Schedule) -> bool:
    """Whether `a` beats `b`: it finishes sooner, or within 1/32 of `b` with fewer flows at a varying delay (each
    goes through an addressed memory holding what a delay line would not, where a constant delay is a tap), or as
    soon with as many such flows and fewer live words (a stream paced to its reader's rows holds a line where the
    unpaced one, as fast, holds half the frame)."""
    fa, fb = _finish(prog, a), _finish(prog, b)
    if max(fa, fb) * 32 > min(fa, fb) * 33:
        return fa < fb
    ka, kb = (_varying(prog, a), fa), (_varying(prog, b), fb)
    if ka != kb or a.timing == b.timing:
        return ka < kb
    from .capacity import live_words  # (it builds on this module's schedules)

    return live_words(prog, a) < live_words(prog, b)


def _varying(prog: Program, sched: Schedule) -> int:
    """The flows whose delay from write to read is not constant."""
    return sum(1 for f in prog.flows if not f.streamed_out and len(set(flow_delay(f, sched))) > 1)


def _finish(prog: Program, sched: Schedule) -> int:
    """The cycle after the last op's last firing completes."""
    out = 0
    for s in scheduled_stmts(prog):
        out = max(out, sched.timing[s.name].last(s) + s.latency + 1)
    return out


def format_schedule(prog: Program, sched: Schedule) -> str:
    """The static schedule as text: each op's firing cycle as delay + rates . (loops - mins), in program order."""
    lines = [f"// schedule: {sched.strategy}"]
    for s in scheduled_stmts(prog):
        t = sched.timing[s.name]
        terms = " + ".join(f"{q}*{d.var}" for q, d in zip(t.rates, s.time_dims))
        lanes = f"  // lanes {', '.join(f'{d.var} in {d.extent}' for d in s.lane_dims)}" if s.lane_dims else ""
        lines.append(f"{s.name}: cycle = {t.delay}{' + ' + terms if terms else ''}{lanes}")
        if t.then is not None:  # a stream's prologue, then the rest (memories/stream_prologue.py)
            d0 = s.time_dims[0]
            rest = " + ".join(f"{q}*{d.var}" for q, d in zip(t.then.rates[1:], s.time_dims[1:]))
            lines[-1] += (f"  // for {d0.var} < {d0.min + t.then.steps}; then {t.then.start} + {t.then.rates[0]}*"
                          f"({d0.var} - {d0.min + t.then.steps}){' + ' + rest if rest else ''}")
    return "\n".join(lines) + "\n"


def scheduled_stmts(prog: Program) -> list[Stmt]:
    return [s for s in prog.stmts if s.name != "host.out"]


def edges(prog: Program, rates: dict[str, tuple[int, ...]]) -> list[_Edge]:
    """One constraint per flow (and RAM order): the least dst.delay - src.delay for which every read follows its
    write."""
    out: dict[tuple[str, str], int] = {}
    for f in prog.flows:
        if f.streamed_out:
            continue
        w = flow_weight(f, rates)
        key = (f.src.name, f.dst.name)
        out[key] = max(out.get(key, w), w)
    for f in prog.orders:  # a RAM's readers after its last update, through its addressed read ports
        lo, _ = delta_bounds(f.rel, flat_map(f.src.time_name, f.src.time_dims, rates[f.src.name], 0),
                             flat_map(f.dst.time_name, f.dst.time_dims, rates[f.dst.name], 0))
        w = f.src.latency - lo + 1
        key = (f.src.name, f.dst.name)
        out[key] = max(out.get(key, w), w)
    return [_Edge(s, d, w) for (s, d), w in sorted(out.items())]


def flow_cycles(f: Flow, rates: dict[str, tuple[int, ...]]) -> tuple[int, int]:
    """The least and most cycles from a write's firing to its read's, over the flow, at these rates."""
    return delta_bounds(f.rel, flat_map(f.src.time_name, f.src.time_dims, rates[f.src.name], 0),
                        flat_map(f.dst.time_name, f.dst.time_dims, rates[f.dst.name], f.read_offset))


def flow_weight(f: Flow, rates: dict[str, tuple[int, ...]]) -> int:
    """The least dst.delay - src.delay for which every read of the flow follows its write (through a memory, one
    cycle more, where the distance varies)."""
    lo, hi = flow_cycles(f, rates)
    return f.src.latency - lo + (0 if lo == hi else 1)


def _host_rates(s: Stmt) -> tuple[int, ...]:
    rates, p = [], 1
    for d in reversed(s.time_dims):
        rates.append(p)
        p *= d.extent
    return tuple(reversed(rates))


def _stream_copies(prog: Program) -> set[str]:
    """Ops that only copy an input stream at the same index: they run at the stream's own schedule."""
    copies = set()
    for s in prog.stmts:
        if s.is_host or s.lane_dims or any(o.dst is s for o in prog.orders):  # a RAM's reader waits for it
            continue
        ins = [f for f in prog.flows if f.dst is s]
        if not ins or any(not f.src.is_host for f in ins):
            continue
        host = ins[0].src
        if any(f.src is not host for f in ins) or [d.extent for d in s.time_dims] != [
                d.extent for d in host.time_dims]:
            continue
        rates = _host_rates(host)
        if all(delta_bounds(f.rel, flat_map(host.time_name, host.time_dims, rates, 0),
                            flat_map(s.time_name, s.time_dims, rates, 0)) == (0, 0) for f in ins):
            copies.add(s.name)
    return copies


def _fused_rates(prog: Program, ii: int, fixed: set[str], fit: bool = False,
                 spaced: bool = False) -> dict[str, tuple[int, ...]] | None:
    """Each op's rates: one mixed radix per group of connected ops, wide enough for every op's loops and, unless
    `fit`, for the streams they read. With `fit` the radix leaves the streams out and each paced stream steps
    its row within the group's row (a serial reduction over a 3x3 window reads 14 words of input per 12-pixel
    row: 7 cycles per word, not 9, so rows stay 108 cycles and not 126); None if a stream does not fit."""
    stmts = scheduled_stmts(prog)
    rates = {s.name: _host_rates(s) for s in stmts if s.name in fixed}
    for group, neighbours in _groups(prog, stmts, fixed):
        depth = max(len(s.time_dims) for s in group)
        # Dimensions align from the outermost, except when hwlower strip-mined a loop for an upsample's x / 2
        # (dims whose `strip` is "outer" and "inner"): a shallower neighbour (the input stream) would then widen
        # the wrong dimension, so only nests of the group's depth count.
        if not any(d.strip for m in group for d in m.time_dims):
            # Loops of one iteration (a tile as large as its region) take no part in the radix.
            _live_radix(rates, group, group if fit else group + neighbours, ii)
            continue
        peers = [m for m in group + neighbours if len(m.time_dims) == depth] or group
        widest = [max([s.time_dims[k].extent for s in peers if len(s.time_dims) > k] or [1])
                  for k in range(depth)]
        deep = next(m for m in group if len(m.time_dims) == depth)
        # A shallower op steps the digits its loops match (_digits): a coarse op (a half-resolution plane hwlower
        # did not strip-mine) the outer digits, as a paced low-resolution stream does; an op strip-mined along x
        # only (upx(x, y) of a separable upsample) y's outer digit and x's pair.
        shallow = [(m, _keep_up(deep.time_dims, d, m.time_dims)) for m in group if len(m.time_dims) < depth
                   for d in [_digits(deep.time_dims, m.time_dims)] if d is not None]
        paced = [(n, _keep_up(deep.time_dims, _faster(deep.time_dims, digits, n.time_dims, widest), n.time_dims)
                  if not full else digits)
                 for n, digits, full in _paced(prog, group, neighbours, depth)]
        for n, digits in paced + shallow:  # rows must fit their digits
            if injective([_periods(widest)[k] for k in digits], n.time_dims):
                # They do: a low-resolution stream one word wider than the group's outer steps (an upsample
                # reading x / 2 + 1) runs its row past theirs, in the next row's time, at the same pace.
                continue
            for k, d in zip(digits, n.time_dims):
                # A stream or op stepping the inner digit of a split pair: its row spans the outer one too.
                outer = _outer_digit(group, depth, k)
                widest[outer] = max(widest[outer], -(-d.extent // prod(widest[outer + 1:k + 1])))
        periods = _periods(widest)
        for s in group:
            rates[s.name] = tuple(ii * p for p in periods[: len(s.time_dims)])
        for n, digits in paced + shallow:
            rates[n.name] = tuple(ii * periods[k] for k in digits)
        if not all(injective(list(rates[m.name]), m.time_dims) for m in group + [n for n, _ in paced]):
            # An op whose loops the radix does not hold (a serial reduction's steps inside a coarse pixel that
            # the group's deepest op, strip-mined, has no digit for) would fire twice in a cycle: no fused radix.
            return None
    keep_pace(prog, rates, fixed)
    if fit and any(d.strip for s in stmts for d in s.time_dims):
        return None  # a strip-mined group's radix already holds its streams' rows (_paced)
    if spaced:
        keep_pace(prog, rates, fixed, spaced)
    # Streams `_paced` left alone (a Bayer mosaic read at 2 * x by half-resolution planes that an upsample reads
    # back, a stream of fewer dimensions than the strip-mined group's outer loops) run at their readers' pace.
    slowed = pace_streams_to_readers(prog, rates, fixed, fit)
    if slowed is None:
        return None
    if slowed:
        keep_pace(prog, rates, fixed)
    return rates


def _periods(widest: list[int]) -> list[int]:
    """The mixed radix's period of each digit (outermost first) for the widest extent at each."""
    periods = [1] * len(widest)
    for k in reversed(range(len(widest) - 1)):
        periods[k] = periods[k + 1] * widest[k + 1]
    return periods


def _live_radix(rates: dict, group: list[Stmt], peers: list[Stmt], ii: int) -> None:
    """The group's mixed radix over the loops that iterate (extent > 1), aligned from the outermost; a loop of
    one iteration gets a rate past its inner loops' span (any rate would do: it never steps)."""
    def live(s: Stmt) -> list[int]:
        return [d.extent for d in s.time_dims if d.extent > 1]

    depth = max([len(live(s)) for s in group] or [0])
    periods = _periods([max([live(s)[k] for s in peers if len(live(s)) > k] or [1]) for k in range(depth)])
    for s in group:
        steps = iter(ii * p for p in periods[: len(live(s))])
        out = [next(steps) if d.extent > 1 else 0 for d in s.time_dims]
        for k in reversed(range(len(out))):
            if s.time_dims[k].extent == 1:
                out[k] = 1 + sum(q * (d.extent - 1) for q, d in zip(out[k + 1:], s.time_dims[k + 1:]))
        rates[s.name] = tuple(out)


def _paced(prog: Program, group: list[Stmt], neighbours: list[Stmt],
           depth: int) -> list[tuple[Stmt, list[int], bool]]:
    """The input streams of a strip-mined group, each with the digit each of its dimensions steps, and whether
    it runs at full rate. A low-resolution stream (an upsample's input, read at x / 2) steps once per outer
    step of each split loop, not once per cycle: the host is throttled to the consumer's pace, so only a line of
    it is buffered. A full-resolution stream (a Bayer mosaic whose planes the group reads at 2x, 2x + 1) steps
    the inner digit (a loop whose `strip` is "inner"): one word per cycle."""
    deep = next(m for m in group if len(m.time_dims) == depth)
    outer = [k for k, d in enumerate(deep.time_dims) if d.strip != "inner"]
    inner = [k + _inner_run(deep.time_dims, k) for k in outer]  # (the innermost of nested steps: x / 2, x / 4)
    out = []
    for n in neighbours:
        if not n.is_host or len(n.time_dims) != len(outer):
            continue
        full = _read_at_full_rate(prog, n, group)
        out.append((n, inner if full else outer, full))
    return out


def _digits(deep: Sequence[Dim], dims: Sequence[Dim]) -> list[int] | None:
    """The digit of the group's radix (the loops `deep` of its deepest op) each of `dims` steps, matching them
    from the outermost: a split pair (strip "outer", "inner") its pair, a loop of one iteration per pair (not
    strip-mined: a coarse dimension) the pair's outer digit, another loop its own; None if they do not match.
    Nested steps (a dimension read at x / 2 and x / 4: outer, inner, inner) take a pair as their outer digits.
    Loops of `deep` past the last of `dims` that are not strip-mined are a reduction's steps inside the element
    (f2(x, y) += f1(x + r.x, y + r.y) after an upsample): an op without them fires once per their whole run."""
    out: list[int] = []
    k = j = 0
    while k < len(deep) and j < len(dims):
        if deep[k].strip == "outer" and (run := _inner_run(deep, k)):
            # (nested steps, 4a + 2b + c: a pair at the half resolution, 2a' + b', steps a and b)
            if dims[j].strip == "outer" and 0 < (mine := _inner_run(dims, j)) <= run:
                out += list(range(k, k + mine + 1))
                j += mine + 1
            elif not dims[j].strip:
                out.append(k)
                j += 1
            else:
                return None
            k += run + 1
        elif not deep[k].strip and not dims[j].strip:
            out.append(k)
            j += 1
            k += 1
        else:
            return None
    return out if j == len(dims) and not any(d.strip for d in deep[k:]) else None


def _faster(deep: Sequence[Dim], digits: list[int], dims: Sequence[Dim], widest: list[int]) -> list[int]:
    """A low-resolution stream's digits, its innermost dimension moved to the inner digit of its split pair
    (one word per cycle along a row, at the same pace of rows) when its rows do not fit the outer digits': a
    stream upsampled along x only (no inner y digit for its rows to run into) has rows of about W / 2 words, at
    two cycles each longer than an output row of W cycles. Running ahead within a row stores a few more words;
    widening the radix to fit them would slow every row down."""
    periods = _periods(widest)
    k = digits[-1] if digits else 0
    if (not digits or injective([periods[q] for q in digits], dims) or k + 1 >= len(deep)
            or deep[k].strip != "outer" or deep[k + 1].strip != "inner"):
        return digits
    return digits[:-1] + [k + 1]


def _keep_up(deep: Sequence[Dim], digits: list[int], dims: Sequence[Dim]) -> list[int]:
    """A shallow op's digits, its innermost dimension moved to the inner digit of its split pair (one firing per
    cycle along a row) where the row is over 1.5 times the pair's outer steps: 2 lanes over x / 3 read 2 words of
    it per run of 3 cycles (hwlower/lane_quotients.py), which a firing per run would fall behind."""
    k = digits[-1] if digits else 0
    if (not digits or k + 1 >= len(deep) or deep[k].strip != "outer" or deep[k + 1].strip != "inner"
            or 2 * dims[-1].extent <= 3 * deep[k].extent):
        return digits
    return digits[:-1] + [k + 1]


def _outer_digit(group: list[Stmt], depth: int, k: int) -> int:
    """The digit of the split pair digit k belongs to that is not the inner half (k itself if it is not)."""
    deep = next(m for m in group if len(m.time_dims) == depth)
    while deep.time_dims[k].strip == "inner":  # (nested steps: past the inner digits above it too)
        k -= 1
    return k


def _inner_run(dims: Sequence[Dim], k: int) -> int:
    """How many inner digits follow digit k (1 for a split pair, 2 for nested steps by a chain of divisors)."""
    n = 0
    while k + n + 1 < len(dims) and dims[k + n + 1].strip == "inner":
        n += 1
    return n


def _read_at_full_rate(prog: Program, host: Stmt, group: list[Stmt]) -> bool:
    """Whether a reader in the group reads the stream at its own resolution: it moves along the stream by more
    than one word when one of its outer strip loops steps (2 * xo + xi on x = 2 * xo + xi, a Bayer mosaic read
    at 2x and 2x + 1), not by one (x / 2 reads xo). What the inner strip loop adds does not tell: an upsample's
    x / 2 - 1 + 2 * (x % 2) reads xo - 1 + 2 * xi, a low-resolution stream."""
    names = {s.name for s in group}
    for f in prog.flows:
        if f.src is host and f.dst.name in names:
            for d, step in zip(f.dst.time_dims, source_steps(f)):
                if d.strip == "outer" and step is not None and any(abs(v) > 1 for v in step):
                    return True
    return False


def _groups(prog: Program, stmts: list[Stmt], fixed: set[str]) -> Iterator[tuple[list[Stmt], list[Stmt]]]:
    """Connected components of the flow graph among unfixed ops, each with the fixed ops it touches."""
    linked: nx.Graph[str] = nx.Graph()
    linked.add_nodes_from(s.name for s in stmts if s.name not in fixed)
    linked.add_edges_from((f.src.name, f.dst.name) for f in prog.flows
                          if not f.streamed_out and f.src.name not in fixed and f.dst.name not in fixed)
    comps = [[s for s in stmts if s.name in comp] for comp in nx.connected_components(linked)]
    for members in comps:
        names = {s.name for s in members}
        touching = {f.src.name for f in prog.flows if f.dst.name in names and f.src.name in fixed}
        touching |= {f.dst.name for f in prog.flows if f.src.name in names and f.dst.name in fixed}
        yield members, [s for s in stmts if s.name in touching]


def _solve(prog: Program, rates: dict[str, tuple[int, ...]], fixed: dict[str, int]) -> dict[str, int] | None:
    """Least nonnegative delays meeting every edge (longest paths), or None if none exist."""
    es = edges(prog, rates)
    if any(e.src == e.dst and e.weight > 0 for e in es):
        return None  # a loop-carried flow faster than the latency allows
    es = [e for e in es if e.src != e.dst]
    names = [s.name for s in scheduled_stmts(prog)]
    # Longest paths from a source whose edges give each op its least delay: shortest paths of the negated
    # weights (a negative cycle is a positive one here: these rates cannot work).
    g: nx.DiGraph[str | tuple[str]] = nx.DiGraph()  # op names, and the source _SOURCE
    g.add_weighted_edges_from((_SOURCE, n, -fixed.get(n, 0)) for n in names)
    for e in es:
        if not g.has_edge(e.src, e.dst) or g[e.src][e.dst]["weight"] > -e.weight:
            g.add_edge(e.src, e.dst, weight=-e.weight)
    try:
        dist = nx.single_source_bellman_ford_path_length(g, _SOURCE)
    except nx.NetworkXUnbounded:
        return None
    d = {n: -int(dist[n]) for n in names}  # integer weights: integer distances
    if any(d[n] != v for n, v in fixed.items() if n in d):
        return None  # a fixed op (a stream) would have to start later
    _pull_late(d, es, _free(names, es, fixed))
    start_streams_late(prog, d, es, rates, set(fixed))
    return d


def _free(names: list[str], es: list[_Edge], fixed: dict[str, int]) -> set[str]:
    """Ops no streamed input reaches: nothing forces them early."""
    g = nx.DiGraph((e.src, e.dst) for e in es)
    reached = set(fixed).union(*(nx.descendants(g, n) for n in fixed if n in g))
    return set(names) - reached


def _pull_late(d: dict[str, int], es: list[_Edge], free: set[str]) -> None:
    for _ in range(len(d)):
        changed = False
        for n in sorted(free):
            latest = [d[e.dst] - e.weight for e in es if e.src == n]
            if latest and min(latest) > d[n]:
                d[n] = min(latest)
                changed = True
        if not changed:
            return


def _sequential(prog: Program) -> Schedule:
    """Program order: each op takes latency + 1 cycles; a loop runs its body extent times back to back."""
    lat = {s.name: s.latency for s in prog.stmts}
    timing: dict[str, Timing] = {}

    def length(n: Loop | Op) -> int:
        if isinstance(n, Op):
            return lat[n.name] + 1
        body = sum(length(c) for c in n.body)
        return body if n.unrolled else body * n.extent

    def lay(nodes: Sequence[Loop | Op], rates: tuple[int, ...], start: int) -> None:
        t = start
        for n in nodes:
            if isinstance(n, Op):
                timing[n.name] = Timing(rates, t)
            else:
                body = sum(length(c) for c in n.body)
                lay(n.body, rates if n.unrolled else rates + (body,), t)
            t += length(n)

    lay(prog.nest.body, (), 0)
    for s in prog.stmts:
        if s.is_host and s.name != "host.out":
            timing[s.name] = Timing(_host_rates(s), 0)
    rates = {n: t.rates for n, t in timing.items()}
    es = edges(prog, rates)
    shift = max([timing[e.src].delay + e.weight - timing[e.dst].delay
                 for e in es if prog.stmt(e.src).is_host] + [0])
    out = {n: (t if prog.stmt(n).is_host else Timing(t.rates, t.delay + shift)) for n, t in timing.items()}
    bad = [e for e in es if out[e.dst].delay - out[e.src].delay < e.weight]
    assert not bad, f"sequential schedule violates {bad[0]}"
    return Schedule("sequential", out)


def flow_delay(f: Flow, sched: Schedule) -> tuple[int, int]:
    """min and max cycles from a flow's write (fire + latency) to its read."""
    ts, td = sched.timing[f.src.name], sched.timing[f.dst.name]
    return delta_bounds(f.rel, ts.cycles(f.src, f.src.latency), td.cycles(f.dst, f.read_offset))
