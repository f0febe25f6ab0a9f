"""Lane steps: a consumer reading c pixels of x per firing from a stream of k words per transfer, k not dividing c,
steps its loop over x in runs of m = k / gcd(k, c) iterations, so that in each iteration of a run its lanes read
fixed words of the transfer.

Halide accepts any combination of unrolls on a producer and its consumers. `narrow.py` runs a producer whose
readers take fewer of its pixels per firing in fewer lanes, but an accelerator input's lanes are the host's words
per transfer: `up(x, y) = f(x / 2, y / 2)` with up, f and the input at 2 lanes needs f at one lane (up reads one
pixel of f per firing), which then reads one word of the input's 2 per firing (c = 1, k = 2): word 0 on even steps,
word 1 on odd ones, a strided set no port controller walks. Split as

    for (f.x, 0, 8) ... in(f.x)          ->          for (f.x, 0, 4) for (f.x.lane, 0, 2) ... in(2*f.x + f.x.lane)

the read of word j is the box f.x.lane = j: each flow is a box of iterations, and the host's stream is paced to its
reader. The same iterations run in the same order, so the values are unchanged. A loop whose extent m does not
divide (7 pixels over a 2-word stream) runs on to whole steps, as a RoundUp tail would (`_grown`; session 39): its
Func's buffer grows to hold the extra values, and its loads are guarded to the pixels its readers take. Left alone
(and refused by `lanes.check_rates`, with its fix): such a loop of the output's op (the extra values would stream
out) or of a Func of several ops (the message says so), a loop that holds other ops, or reads a stream of lanes
along x through more than `lanes.MAX_PORTS` ports; a stream of lanes along x other Funcs read too, and producers
computed inside (each runs as fast as its fastest reader or its own producers let it, so its values would pile up
before a slower reader). Several Funcs may read a stream of rows per transfer in turn (session 40).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

from .fold import with_loads
from .ir import Access, Affine, LoadPort, Loop, LoopNest, Op
from .lanes import Lanes
from .narrow import MAX_PORTS, _only, _replace_node, _substitute, roundable, sole_readers

# (consumer op, buffer) -> None: its loop over x steps through the producer's lanes; else why it does not (a clause
# of `check_rates`' message): its loop's extent, or its reads of the stream
Steps = dict[tuple[str, str], str | None]


@dataclass(frozen=True, slots=True)
class _Steps:
    """x = min + m * x' + x.lane over the new loops (x' keeps the loop's name)."""

    var: str
    lane: str
    m: int
    const: int

    def __call__(self, a: Affine) -> Affine:
        terms = dict(a.terms)
        c = terms.pop(self.var, 0)
        if c == 0:
            return a
        terms[self.var], terms[self.lane] = self.m * c, c
        return Affine.make(terms, a.const + c * self.const)


def step_lanes(nest: LoopNest, inputs: dict[str, Lanes], dims: dict[str, int] | None = None) -> tuple[LoopNest,
                                                                                                    Steps]:
    """The nest with each consumer loop split so that its reads take whole lanes of their producers, and those
    reads by (consumer op, buffer): None where so served (`check_rates` accepts them), else (the loop's extent, the
    step it does not divide) where that alone kept it (`check_rates` says so). `dims`: the index position a
    stream's lanes run along where not x (`hw_input.unroll(y, 2)`: a reader of one row per firing steps its loop
    over y in runs of 2 rows, each row reading one word of the transfer)."""
    dims = dims or {}
    # Streams read by one op only: the host paces such a stream to a reader that takes its words in turn, where a
    # Func computed inside runs as fast as its own producers let it, and so does a stream for a faster reader, so
    # that their values pile up before the slower one (seed 002's gaussian with a 3-lane output over a 2-lane blur
    # read in turn held 1,356 words for 314; a 2-lane stream read at 2 lanes and in turn, 491 for 32 x 16). The ops
    # of one Func may share one: a scan's pure definition and its update, each taking a word a cycle (session 39).
    # So may the readers of rows per transfer (`dims`), each stepping its loop over y as the others do: each takes
    # a row of a transfer's words in turn, and the stream waits a row for the latest of them (session 40: two
    # readers of a 2-row stream over 8 x 7, 10 words for 9).
    funcs: dict[str, set[str]] = {}
    for _, o in nest.ops():
        for port in o.loads:
            funcs.setdefault(port.access.buffer, set()).add(o.func)
    producer = {b: ln.k for b, ln in inputs.items() if b in sole_readers(nest) or len(funcs.get(b, ())) == 1
                or b in dims}
    steps: Steps = {}
    for loops, op in nest.ops():
        if not op.store.index or op.scatter:
            continue
        want: dict[str, tuple[int, list[str]]] = {}  # the loop to split -> (its step, the reads it serves)
        for port in op.loads:
            k = producer.get(port.access.buffer, 1)
            if not port.access.index or k <= 1 or port.access.buffer == op.store.buffer:
                continue
            terms = dict(port.access.index[dims.get(port.access.buffer, 0)].terms)
            # the innermost serial loop that moves the read by other than whole lanes
            moving = [lp.var for lp in loops if not lp.unrolled and lp.extent > 1 and terms.get(lp.var, 0) % k]
            var = moving[-1] if moving else None
            if var is not None and terms[var] > 0:
                m, reads = want.get(var, (1, []))
                want[var] = (math.lcm(m, k // math.gcd(k, terms[var])), [*reads, port.access.buffer])
        if len(want) != 1:
            continue
        ((var, (m, reads)),) = want.items()
        loop = next(lp for lp in loops if lp.var == var)
        if loop.strip == "inner" or not _only(loop, op):
            continue
        # Reads of rows per transfer are not capped: a window of rows holds its rows anyway, and each word waits
        # for its reads at most a row longer (a 3x3 window over 16 x 8: 86 words for 57, 167 cycles for 185)
        ports = Counter(p.access.buffer for p in op.loads if p.access.buffer not in dims)
        why = _why_not(op.func, ports, reads, loop, m)
        if why is not None and loop.extent % m and roundable(nest, op) and \
                _why_not(op.func, ports, reads, replace(loop, extent=m), m) is None:
            # only the loop's extent kept it: it runs on to whole steps, past its last pixel
            why = None
            nest, loop = _grown(nest, op, loop, m)
        if why is None:
            nest = replace(nest, body=_replace_node(nest.body, loop, _split(loop, m)))
        steps.update({(op.name, b): why for b in reads})
    return nest, steps


def _why_not(func: str, ports: Counter[str], reads: list[str], loop: Loop, m: int) -> str | None:
    """Why a consumer of Func `func` does not read its streams' lanes in turn over runs of m iterations of its
    `loop` (a clause of `check_rates`' message), or None if it does."""
    many = sorted({b for b in reads if ports[b] > MAX_PORTS})
    if many:
        # Each such read splits into one per word of the transfer, and the words wait for the latest of them:
        # 2 reads of a 4-word stream at 2 lanes already hold half a 64x8 frame (259 words, BENCHMARKS.md, rows21).
        return (f", or the consumer must read them in turn, which it does through at most {MAX_PORTS} reads of a "
                f"stream, and Func '{func}' reads '{many[0]}' {ports[many[0]]} times")
    if loop.extent % m:
        return (f", or the consumer must read them in turn, over whole steps of {m} iterations of its loop over "
                f"{loop.var.rsplit('.', 1)[-1]} (which has {loop.extent})")
    return None


def _grown(nest: LoopNest, op: Op, loop: Loop, m: int) -> tuple[LoopNest, Loop]:
    """The nest with op's `loop` (extent not a multiple of m) rounded up to whole steps of m, as a RoundUp tail
    would (shift_tails.py): the extra iterations store past the box, which its buffer grows to hold and no consumer
    reads, and every load of op carries the loop's own range as a guard, so that its producers are not asked for
    what those iterations read (their values are never used)."""
    extent = -(-loop.extent // m) * m
    var = Affine.make({loop.var: 1}, 0)
    guard = ((var, loop.min, loop.min + loop.extent - 1),)
    new_op = with_loads(op, {id(p): LoadPort(p.name, Access(p.access.buffer, p.access.index, p.access.guard + guard))
                             for p in op.loads})
    body = _replace_op(loop.body, op, new_op)
    grown = replace(loop, extent=extent, body=body, asked=loop.asked or loop.extent)
    nest = replace(nest, body=_replace_node(nest.body, loop, grown))
    (loops, _), = [(lp, o) for lp, o in nest.ops() if o is new_op]
    buffers = tuple(replace(b, box=_covering(b.box, op.store.index, loops)) if b.name == op.store.buffer else b
                    for b in nest.buffers)
    return replace(nest, buffers=buffers), grown


def _covering(box: tuple[tuple[int, int], ...], index: tuple[Affine, ...],
              loops: tuple[Loop, ...]) -> tuple[tuple[int, int], ...]:
    """`box` grown to hold every element `index` stores to over `loops`."""
    out = []
    for (lo, extent), a in zip(box, index):
        ends = [(c * lp.min, c * (lp.min + lp.extent - 1)) for lp in loops if (c := dict(a.terms).get(lp.var, 0))]
        first = a.const + sum(min(e) for e in ends)
        last = a.const + sum(max(e) for e in ends)
        new_lo = min(lo, first)
        out.append((new_lo, max(lo + extent, last + 1) - new_lo))
    return tuple(out)


def _replace_op(nodes: tuple[Loop | Op, ...], old: Op, new: Op) -> tuple[Loop | Op, ...]:
    return tuple(new if n is old else replace(n, body=_replace_op(n.body, old, new)) if isinstance(n, Loop) else n
                 for n in nodes)


def _split(loop: Loop, m: int) -> Loop:
    lane = f"{loop.var}.lane"
    body = _substitute(loop.body, _Steps(loop.var, lane, m, loop.min))
    # an upsample's strip-mined outer loop steps in nested runs, as a chain of divisors (strip_mine.py) makes them
    inner = "inner" if loop.strip else ""
    return Loop(loop.var, 0, loop.extent // m, (Loop(lane, 0, m, body, strip=inner),), strip=loop.strip,
                asked=loop.asked)
