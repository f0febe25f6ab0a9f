"""The memory-tile model of a resampling pipeline's buffers, whose reads are often no constant delay after their
write (an upsample's `f(x / 2, y / 2)` reads each value at several cycles, a downsample's `f(2 * x, 2 * y)` only
some of them): memories/mapping.py serves those from addressed banks instead of delay lines.

The model replays the fused schedule over the first ROWS rows of one tile (_Timing: each op's pace along its rows,
its row period, its start as late as its readers allow) and sizes each buffer as memories/mapping.py does: reads
a constant number of the stream's writes after their write are delay lines and registers laid out as
memories/delay_lines.py lays them out; the others go through addressed banks of a tile's read ports each
(neighbouring reads together, f's lanes in one group within a tile's write ports, else a group per lane), each
holding its reads' elements (their hull, every step-th where they stride) at linear addresses modulo the least
circular size that never overwrites a live value; where that stores more than the minimum (the most values live
at once), far taps through addressed banks, then banks by residue of a row or column, when either stores fewer
words in no more tiles. Not modelled: the compiler's registers after bank read ports, and its limits on read
controllers per port (at 2 lanes it may bank otherwise: tests/flow/test_flow_autoschedule_memory.py).

Empty (autoschedule_memory.py's line model counts instead) for pipelines without resampling, and where the replay
does not apply: planes besides x and y, updates, index expressions other than sums, products, divisions,
modulos, minima, maxima and selects of the coordinates.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from .autoschedule_steps import axis_rates
from .frontend import ir
from .frontend.func import Function
from .memories.delay_lines import _layout, _pack  # the very layout of delay lines the compiler builds
from .target import CGRA

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Plan
    from .frontend.pipeline import Pipeline

Point = tuple[int, int]
Read = list[tuple[Point, int]]  # (the value read, the read's cycle), one per firing of the reader
ROWS = 12  # rows of the output replayed: the live values repeat from row to row after the first steps


class _Unsupported(Exception):
    """The replay does not apply (the module's notes); the line model counts the buffer instead."""


_OPS = {"add": "({a} + {b})", "sub": "({a} - {b})", "mul": "({a} * {b})", "min": "min({a}, {b})",
        "max": "max({a}, {b})", "div": "_div({a}, {b})", "mod": "_mod({a}, {b})", "lt": "({a} < {b})",
        "le": "({a} <= {b})", "gt": "({a} > {b})", "ge": "({a} >= {b})", "eq": "({a} == {b})", "ne": "({a} != {b})"}


def _div(p: int, q: int) -> int:  # Halide's: rounds towards -inf, 0 for a division by 0
    return p // q if q else 0


def _mod(p: int, q: int) -> int:
    return p % q if q else 0


def _source(e: ir.Expr, names: dict[str, str]) -> str:
    """An index expression as Python over integer coordinates (`names`: each Var's local name)."""
    if isinstance(e, ir.Var):
        if e.name not in names:
            raise _Unsupported(e.name)
        return names[e.name]
    if isinstance(e, ir.Const):
        return str(int(e.value))
    if isinstance(e, ir.Cast):
        return _source(e.value, names)
    if isinstance(e, ir.Select):
        return (f"({_source(e.true_value, names)} if {_source(e.cond, names)} else "
                f"{_source(e.false_value, names)})")
    if isinstance(e, ir.BinOp) and e.op in _OPS:
        return _OPS[e.op].format(a=_source(e.a, names), b=_source(e.b, names))
    raise _Unsupported(type(e).__name__)


def _paths(pipe: Pipeline, inlined: set[int], g: Function, f: Function) -> list[list[tuple[Function, ir.Call]]]:
    """The chains of calls by which g reads f: directly, or through Funcs inlined into it."""
    defs = pipe.definitions(g)
    if len(defs) > 1 or len(g.args) != 2:
        raise _Unsupported(g.name)  # updates, planes: their firings are not one a pixel
    out: list[list[tuple[Function, ir.Call]]] = []
    for n in ir.walk(defs[0].value):
        if not (isinstance(n, ir.Call) and isinstance(n.callee, Function)):
            continue
        if n.callee is f:
            out.append([(g, n)])
        elif id(n.callee) in inlined:
            out += [[(g, n)] + rest for rest in _paths(pipe, inlined, n.callee, f)]
    return out


def _follow(path: list[tuple[Function, ir.Call]]) -> Callable[[int, int], Point]:
    """The element of the last callee that the chain reads at the reader's (x, y), as a function (the chain's
    index expressions composed, in Python: the replay evaluates them at every pixel of the tile)."""
    names = {path[0][0].args[0]: "x", path[0][0].args[1]: "y"}
    lines = []
    for k, (_, call) in enumerate(path):
        coords = [_source(a, names) for a in call.args]
        if k + 1 < len(path):
            names = {v: f"v{k}_{j}" for j, v in enumerate(path[k + 1][0].args)}
            lines += [f"    v{k}_{j} = {c}" for j, c in enumerate(coords)]
    if len(coords) != 2:
        raise _Unsupported("planes")
    code = "def read(x, y):\n" + "\n".join(lines + [f"    return ({coords[0]}, {coords[1]})"])
    env: dict = {"_div": _div, "_mod": _mod}
    exec(compile(code, "<autoschedule_addressed>", "exec"), env)
    return env["read"]


class _Timing:
    """Each op's firing cycles in the replayed schedule: (x, y) of f fires at start[f] + step[f] * its firing
    along the row + row[f] * its row, both relative to f's box. As the fused schedule makes them: a computed op
    fires as fast as what it reads arrives (a firing a cycle, or slower where a stream it reads at more than a
    transfer a firing holds it back: `f(2 * x)`), in a burst along its row where it is read at under its pace (an
    upsample's source); a stream keeps pace with its reader at its rate relative to it (a 2x upsample's source
    streams every other cycle of it); rows follow at the row period of each op's rate relative to the output,
    which is the least period in which every op's row fits, except an upsample along y's rows: computed in the
    output's steps of rows, a row each period (ahead of its readers where it is upsampled again)."""

    def __init__(self, pipe: Pipeline, plan: _Plan, boxes: dict[str, list],
                 readers: Callable[[Function], list[Function]]) -> None:
        self.pipe, self.plan, self.boxes = pipe, plan, boxes
        rates = axis_rates(pipe, plan)
        self.start: dict[int, int] = {id(plan.accelerated): 0}  # in cycles * scale

        def rate(f: Function, axis: str) -> Fraction:  # along x, in firings
            return rates.get(id(f), {}).get(axis, Fraction(1)) / (plan.lanes.of(f) if axis == "x" else 1)

        computed = {id(g) for g in [plan.accelerated] + plan.buffered}
        streams = {id(f) for f in plan.streams}
        self.step: dict[int, Fraction] = {}
        for g in pipe.order:  # producers first: a computed op fires as fast as its streams and producers allow
            if id(g) in computed:
                self.step[id(g)] = max([Fraction(1)] + [
                    (1 if id(f) in streams else self.step[id(f)]) * rate(f, "x") / rate(g, "x")
                    for f in pipe.order if id(f) in computed | streams and g in readers(f)])
        pacer = {}  # a stream keeps pace with its fastest computed reader
        for f in plan.streams:
            gs = [g for g in readers(f) if id(g) in computed] or [plan.accelerated]
            pacer[id(f)] = min(gs, key=lambda g: self.step[id(g)] * rate(g, "x") / rate(f, "x"))
            self.step[id(f)] = self.step[id(pacer[id(f)])] * rate(pacer[id(f)], "x") / rate(f, "x")
        held = [g for g in pipe.order if id(g) in computed | streams]
        period = max(self.step[id(g)] * -(-self.width(g) // plan.lanes.of(g)) * rate(g, "y") for g in held)
        self.row = {id(g): period / rate(g, "y") for g in held if id(g) in computed}
        for g in held:  # an upsample along y computes its rows in the output's steps: a row each period
            if id(g) in computed and any(rate(f, "y") < rate(g, "y") for f in held if g in readers(f)):
                self.row[id(g)] = period / max(Fraction(1), rate(g, "y"))
        for f in plan.streams:
            g = pacer[id(f)]
            self.row[id(f)] = self.row[id(g)] * rate(g, "y") / rate(f, "y")

        # every cycle times `scale`, a common denominator of the steps and rows: integers from here on
        self.scale = math.lcm(*(q.denominator for q in list(self.step.values()) + list(self.row.values())))
        self.steps = {k: int(v * self.scale) for k, v in self.step.items()}
        self.rows = {k: int(v * self.scale) for k, v in self.row.items()}
        self.mins = {id(g): (self.boxes[pipe.name(g)][0][0], self.boxes[pipe.name(g)][1][0]) for g in held}

    def width(self, f: Function) -> int:
        box = self.boxes[self.pipe.name(f)]
        return box[0][1] - box[0][0] + 1

    def base(self, f: Function) -> Callable[[Point], int]:
        """Each point's cycle in f's op, less its start, times `scale`."""
        (x0, y0), lanes = self.mins[id(f)], self.plan.lanes.of(f)
        step, row = self.steps[id(f)], self.rows[id(f)]
        return lambda p: step * ((p[0] - x0) // lanes) + row * (p[1] - y0)

    def clock(self, f: Function) -> Callable[[Point], int]:
        """Each point's cycle in f's op."""
        (x0, y0), lanes = self.mins[id(f)], self.plan.lanes.of(f)
        step, row, start, scale = self.steps[id(f)], self.rows[id(f)], self.start[id(f)], self.scale
        return lambda p: (start + step * ((p[0] - x0) // lanes) + row * (p[1] - y0)) // scale

    def cycle(self, f: Function, p: Point) -> int:
        return self.clock(f)(p)

    def cycles(self, f: Function, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """`clock` over arrays of points (int64: a frame's cycles times `scale` are far below 2 ** 63)."""
        (x0, y0), lanes = self.mins[id(f)], self.plan.lanes.of(f)
        step, row, start, scale = self.steps[id(f)], self.rows[id(f)], self.start[id(f)], self.scale
        return (start + step * ((xs - x0) // lanes) + row * (ys - y0)) // scale

    def begin(self, f: Function, reads: list[Read]) -> None:
        """Start f as late as its reads allow: each a cycle after its value's write at the latest."""
        base = self.base(f)
        self.start[id(f)] = min(t * self.scale - base(p) for r in reads for p, t in r) - self.scale


def _reads(pipe: Pipeline, plan: _Plan, timing: _Timing, f: Function, readers: list[Function]) -> list[Read]:
    """Each read port of f: one per chain of calls from a computed reader and per lane of that reader."""
    inlined = {id(h) for h in plan.region} - {id(h) for h in plan.buffered} - {id(plan.accelerated)}
    out: list[Read] = []
    for g in readers:
        box, lanes = timing.boxes[pipe.name(g)], plan.lanes.of(g)
        for path in _paths(pipe, inlined, g, f):
            read, clock = _follow(path), timing.clock(g)
            for lane in range(lanes):
                out.append([(read(x, y), clock((x, y))) for y in range(box[1][0], box[1][1] + 1)
                            for x in range(box[0][0] + lane, box[0][1] + 1, lanes)])
    return out


def _circular_words(cycles: np.ndarray, ends: np.ndarray) -> int:
    """The least circular size over the elements written at `cycles` (ascending, in address order) such that no
    slot is rewritten before its value's last read (`ends`: that cycle, or its write's where no read takes it).
    (Vectorised, as the count over a 1080p row's elements took seconds in Python: an element's slot is free again
    after the last write before its end; a bank reaching that far holds every element in between.)"""
    order = np.arange(len(cycles))
    reach = np.maximum(np.searchsorted(cycles, ends, side="left") - 1, order)
    return max(1, int((np.maximum.accumulate(reach) - order).max()) + 1)


def _bank_words(timing: _Timing, f: Function, reads: list[Read]) -> int:
    """The words of an addressed bank serving `reads`: the hull of their elements, every step-th."""
    n = sum(len(r) for r in reads)
    flat = itertools.chain.from_iterable((p[0], p[1], t) for r in reads for p, t in r)
    got = np.fromiter(flat, dtype=np.int64, count=3 * n).reshape(n, 3)  # (x, y, read cycle)
    lo = got[:, :2].min(axis=0)
    step = np.gcd.reduce(got[:, :2] - lo, axis=0)
    step[step == 0] = 1
    hi = got[:, :2].max(axis=0)
    xs, ys = (a.ravel() for a in np.meshgrid(np.arange(lo[0], hi[0] + 1, step[0]),
                                             np.arange(lo[1], hi[1] + 1, step[1])))
    cycles = timing.cycles(f, xs, ys)
    width = (hi[0] - lo[0]) // step[0] + 1
    at = (got[:, 1] - lo[1]) // step[1] * width + (got[:, 0] - lo[0]) // step[0]
    last = np.full(len(cycles), np.iinfo(np.int64).min)
    np.maximum.at(last, at, got[:, 2])  # each element's last read; one no read takes dies as it is written
    ends = np.where(last == np.iinfo(np.int64).min, cycles, last)
    order = np.lexsort((ys, xs, cycles))  # by cycle, then x, then y
    return _circular_words(cycles[order], ends[order])


Cost = tuple[int, int]  # (words as memories/ir.py's min_words counts them, memory tiles), of one slice


def _addressed_cost(timing: _Timing, f: Function, reads: list[Read], target: CGRA) -> Cost:
    """Addressed banks of `reads` as memories/mapping.py builds them: a read per lane of f it takes values of (a
    flow), f's lanes in one group of banks within a tile's write ports, else a group per lane; in each, banks of
    a tile's read ports each, the reads ordered by their least element (row first); two reads of one stream may
    each take a region of their own where that is fewer words."""
    box, lanes = timing.boxes[timing.pipe.name(f)], timing.plan.lanes.of(f)
    flows = [[(p, t) for p, t in r if (p[0] - box[0][0]) % lanes == k] for r in reads for k in range(lanes)]
    flows = list({tuple(r): r for r in flows if r}.values())  # lanes reading the same words share a port
    if lanes <= target.mem_tile_write_ports:
        groups = [flows]
    else:
        groups = [[r for r in flows if (r[0][0][0] - box[0][0]) % lanes == k] for k in range(lanes)]
    words = tiles = 0
    for group in groups:
        group.sort(key=lambda r: min((p[1], p[0]) for p, _ in r))
        streams = 1 if len(groups) > 1 else lanes
        for k in range(0, len(group), target.mem_tile_read_ports):
            chunk = group[k: k + target.mem_tile_read_ports]
            got = _bank_words(timing, f, chunk)
            if 1 < len(chunk) <= target.mem_tile_write_ports and streams == 1:
                got = min(got, sum(_bank_words(timing, f, [r]) for r in chunk))
            words, tiles = words + got + len(chunk), tiles + _bank_tiles(got, target)
    return words, tiles


def _bank_tiles(words: int, target: CGRA) -> int:
    """The memory tiles of an addressed bank of `words`: none for a register bank (memories/mapping.py
    `small_banks_in_registers`)."""
    return 0 if words <= target.register_bank_words else -(-words // target.mem_tile_words)


def _residue_cost(timing: _Timing, f: Function, reads: list[Read], target: CGRA, dim: int, m: int) -> Cost | None:
    """Banks by residue (memories/banks.py): a bank per residue of f's coordinate `dim` modulo m, each serving
    the parts of the reads that take its elements; None where a bank would serve more reads a cycle than its
    tile's read ports."""
    words = tiles = 0
    for res in range(m):
        parts = [[(p, t) for p, t in r if p[dim] % m == res] for r in reads]
        parts = [r for r in parts if r]
        if not parts:
            continue
        busy: dict[int, int] = {}
        for r in parts:
            for t in {t for _, t in r}:
                busy[t] = busy.get(t, 0) + 1
        if max(busy.values()) > target.mem_tile_read_ports:
            return None
        got = _bank_words(timing, f, parts)
        words, tiles = words + got + target.mem_tile_read_ports, tiles + _bank_tiles(got, target)
    return words, tiles


def _tap_cost(timing: _Timing, f: Function, delays: set[int], target: CGRA) -> Cost:
    """Delay lines and registers delivering f's stream at `delays` (counted in its firings), per lane."""
    items = _layout(sorted(delays - {0}), target)
    groups = _pack([it for it in items if it[0] == "line"], target)
    lines = [sum(tap - base - 1 for _, base, tap in g) for g in groups]
    words = sum(lines) + sum(len(g) for g in groups) + sum(1 for it in items if it[0] == "register")
    tiles = sum(-(-w // target.mem_tile_words) for w in lines)
    return words * timing.plan.lanes.of(f), tiles * timing.plan.lanes.of(f)


def _live(timing: _Timing, f: Function, reads: list[Read]) -> int:
    """The most values of f written and not yet last read in one cycle (memories/capacity.py's minimum)."""
    last: dict[Point, int] = {}
    for r in reads:
        for p, t in r:
            last[p] = max(last.get(p, t), t)
    clock = timing.clock(f)
    events = sorted(e for p, t in last.items() for e in ((clock(p), 1), (t + 1, -1)))
    live = most = 0
    for _, step in events:
        live += step
        most = max(most, live)
    return most


def _cost(timing: _Timing, f: Function, reads: list[Read], delays: list[int | None], target: CGRA) -> Cost:
    """f's storage as memories/mapping.py organises it: taps (reads a constant number of f's firings after their
    write, `delays`) as delay lines and the others through addressed banks; where that stores more than the
    minimum, far taps read through addressed banks instead, then banks by residue, when either stores fewer
    words in no more tiles."""
    def organise(limit: float) -> Cost:
        taps = {d for d in delays if d is not None and d < limit}
        other = [r for r, d in zip(reads, delays) if d is None or d >= limit]
        a, b = _tap_cost(timing, f, taps, target), _addressed_cost(timing, f, other, target) if other else (0, 0)
        return a[0] + b[0] + timing.plan.lanes.of(f), a[1] + b[1]

    least = _live(timing, f, reads)
    best, limit = organise(math.inf), math.inf
    far = sorted({d for d in delays if d is not None and d > max(target.register_delay_limit, 1)}, reverse=True)
    for d in far:
        if best[0] <= least:
            break
        got = organise(d)
        if got[1] <= best[1] and got[0] < best[0]:
            best, limit = got, d
    other = [r for r, d in zip(reads, delays) if d is None or d >= limit]
    if best[0] > least and len(other) > target.mem_tile_read_ports:  # more than one addressed bank
        taps = _tap_cost(timing, f, {d for d in delays if d is not None and d < limit}, target)
        for dim in (1, 0):  # rows before columns
            for m in (2, 3):
                got = _residue_cost(timing, f, other, target, dim, m)
                if got is not None and got[1] + taps[1] <= best[1] and got[0] + taps[0] < best[0]:
                    best = (got[0] + taps[0], got[1] + taps[1])
    return best


def _firings_between(timing: _Timing, f: Function, p: Point, cycle: int) -> int:
    """f's firings after the one writing p up to `cycle`: the delay of a read at `cycle`, in the stream's writes."""
    box, lanes = timing.boxes[timing.pipe.name(f)], timing.plan.lanes.of(f)
    fired = timing.cycle(f, p)
    if fired >= cycle:
        return 0
    lane = (p[0] - box[0][0]) % lanes
    n = (box[0][1] - box[0][0] - lane) // lanes + 1  # p's lane fires n times a row
    step, row, scale = timing.steps[id(f)], timing.rows[id(f)], timing.scale
    if row >= step * (n - 1) and row > 0:  # the lane's firings are in time order: count them in closed form
        # a firing (j, r) of the lane is at or before `cycle` while step * j + row * r <= bound
        bound = (cycle + 1) * scale - 1 - timing.start[id(f)]
        rows = bound // row
        upto = rows * n + (min(n, (bound - row * rows) // step + 1) if step else n)
        count = upto - ((p[1] - box[1][0]) * n + (p[0] - box[0][0]) // lanes + 1)
        if count > 1 << 16:
            raise _Unsupported("delay")
        return count
    count, x, y = 0, p[0], p[1]
    while fired < cycle:
        x += lanes
        if x > box[0][1]:
            x, y = box[0][0] + (x - box[0][0]) % lanes, y + 1
        fired = timing.cycle(f, (x, y))
        if fired <= cycle:
            count += 1
        if count > 1 << 16:
            raise _Unsupported("delay")
    return count


def _steady_steps(timing: _Timing, f: Function, read: Read) -> int | None:
    """The read's delay in f's writes (those before its cycle, less its value's) where that is the same at every
    cycle it reads (a value read at several cycles before the next is written: a write tap, not an addressed
    bank); else None."""
    # (the first two values that differ answer: a resampled read's differ within its first row, and counting each
    # of a 1080p row's reads took seconds; a read delayed past _firings_between's limit at a point after them is
    # now answered None rather than leaving the replay)
    got: int | None = None
    for p, t in read:
        steps = _firings_between(timing, f, p, t - 1) + 1  # f's writes before the read's cycle
        if got is not None and steps != got:
            return None
        got = steps
    return got


def addressed_tiles(pipe: Pipeline, plan: _Plan, target: CGRA, boxes: dict[str, list],
                    readers: Callable[[Function], list[Function]]) -> dict[int, int]:
    """The memory tiles of each buffered Func and stream (by id) of a resampling pipeline, for the tile whose boxes
    are `boxes` (of ROWS output rows at most); `readers(f)`: the computed Funcs reading f. Empty where the replay
    does not apply."""
    return {k: tiles for k, (_, tiles) in addressed_costs(pipe, plan, target, boxes, readers).items()}


def addressed_costs(pipe: Pipeline, plan: _Plan, target: CGRA, boxes: dict[str, list],
                    readers: Callable[[Function], list[Function]]) -> dict[int, Cost]:
    """addressed_tiles's (words, memory tiles) of each buffered Func and stream, every slice of it."""
    held = plan.buffered + plan.streams
    if all(r == 1 for by in axis_rates(pipe, plan).values() for r in by.values()):
        return {}  # not a resampling pipeline: the line model, calibrated on the apps
    if any(len(boxes[pipe.name(f)]) != 2 or plan.lanes.x_dim.get(id(f), 0) for f in held + [plan.accelerated]):
        return {}  # planes besides x and y
    timing = _Timing(pipe, plan, boxes, readers)
    order = {id(f): k for k, f in enumerate(pipe.order)}
    got: dict[int, Cost] = {}
    try:
        for f in sorted(held, key=lambda h: -order[id(h)]):  # consumers first: each starts as its readers allow
            reads = _reads(pipe, plan, timing, f, readers(f))
            if not reads or not all(reads):
                raise _Unsupported(f.name)
            timing.begin(f, reads)
            clock = timing.clock(f)
            cycles = [{t - clock(p) for p, t in r} for r in reads]
            delays = [_firings_between(timing, f, r[0][0], r[0][1]) if len(c) == 1 else None
                      for r, c in zip(reads, cycles)]
            slices = -(-f.type.bits() // target.word_bits)
            cost = _cost(timing, f, reads, delays, target)
            steady = [d if d is not None else _steady_steps(timing, f, r) for r, d in zip(reads, delays)]
            if None in delays and None not in steady:  # memories/mapping.py `_addressed_as_write_taps`
                taps = _cost(timing, f, reads, steady, target)
                cost = taps if taps[0] <= cost[0] and taps[1] <= cost[1] else cost
            got[id(f)] = (slices * cost[0], slices * cost[1])
    except _Unsupported:
        return {}
    return got
