"""Lanes that agree: from a proposed change of some stages' lanes, the lanes of every stage after them that keep
every consumer reading whole lanes of its producers (what a rate refusal suggests, lanes.py `_rate_error`, so that
its fix compiles in one step rather than one refusal per consumer down the pipeline).

A consumer of `L0` lanes reading `c0` pixels of its producer's x per firing reads `c0 / L0` per lane (a fraction
for an upsample); at `L` lanes it reads `c0 * L / L0`, which the producer's lanes must divide. Walking the ops in
program order (producers first), each op's lanes move to the nearest that read whole lanes of its
producers at their (possibly changed) lanes. Streams keep their words per transfer unless the proposal changes
them. A producer whose every reader reads multiples of its lanes is never narrowed (narrow.py), so the result is
what the checks accept.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from .ir import Affine, Loop, LoopNest, Op


def x_loop(loops: tuple[Loop, ...], index: Affine) -> str | None:
    """The innermost serial loop that moves the store along x (None: a scatter, or x is all lanes)."""
    used = dict(index.terms)
    for lp in reversed(loops):
        if not lp.unrolled and used.get(lp.var):
            return lp.var
    return None


def agreeing_lanes(nest: LoopNest, lanes: dict[str, int], proposal: dict[str, int]) -> dict[str, int] | None:
    """Op or stream name -> lanes: `lanes` (every op's and stream's) changed by `proposal`, then each other op
    moved as little as it must to read whole lanes of its producers; None if an op of the proposal then does not
    (its producers would have to change too)."""
    now = {**lanes, **proposal}
    producer = {op.store.buffer: op.name for _, op in nest.ops() if op.stage == 0}
    producer.update({b: b for b in nest.inputs if b in lanes})
    for loops, op in nest.ops():
        reads = _reads(loops, op, producer, lanes[op.name]) if op.name in lanes else []

        def agrees(k: int, reads: list[tuple[Fraction, str]] = reads) -> bool:
            return all((share * k / now[src]).denominator == 1 for share, src in reads)

        if op.name in proposal and not agrees(now[op.name]):
            return None
        now[op.name] = _nearest(now[op.name], agrees)
    return now


def _reads(loops: tuple[Loop, ...], op: Op, producer: dict[str, str], k: int) -> list[tuple[Fraction, str]]:
    """(pixels of the producer's x each of op's k lanes reads per firing, the producer) for each port of op."""
    xloop = x_loop(loops, op.store.index[0]) if op.store.index else None
    out = []
    for port in op.loads if xloop is not None else ():
        src = producer.get(port.access.buffer)
        c0 = dict(port.access.index[0].terms).get(xloop, 0) if xloop and port.access.index else 0
        if src is not None and c0 > 0 and port.access.buffer != op.store.buffer:
            out.append((Fraction(c0, k), src))
    return out


def _nearest(k: int, agrees: Callable[[int], bool]) -> int:
    """The lanes nearest k that agree (fewer on a tie: the pipeline runs at its slowest stream's pace anyway)."""
    up = k
    while not agrees(up):
        up += 1  # at most the lcm of the producers' lanes: the loop ends
    down = next((d for d in range(k - 1, 0, -1) if agrees(d)), None)
    return down if down is not None and k - down <= up - k else up
