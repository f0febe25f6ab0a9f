"""The report's ideal cycles: the fewest cycles the schedule's work could take at one firing (or transfer) a cycle
per kernel (or stream), pipelined with no latency.

Ops overlap where a reader takes its producer's values as they come (a blur's rows); a reader that can start only
after its producer's last firing (a histogram's readout after the last pixel's update, a lookup in a table the
accelerator fills first) makes a phase of its own, and the phases add up: a 256-bin histogram of 20x20 pixels is
400 updates, then 256 reads, 655 cycles (the readout's first read in the cycle of the last update), not 400."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .hwlower.ir import Loop, LoopNest
from .memories.ir import MemoryPlan
from .memories.late_streams import two_pass_transfers


def ideal_cycles(nest: LoopNest, plan: MemoryPlan, tiles: int) -> int:
    (loops, _), = [(lp, op) for lp, op in nest.ops() if op.store.buffer == nest.output]
    out_transfers = asked_firings(loops)
    # A kernel fires at most once a cycle: the run is bound by the busiest one, the streams included (the
    # input's transfers; the output's when it is larger, an upsample; a serial reduction's steps).
    firings = max(asked_firings(lps) for lps, _ in nest.ops())
    # Each input has its own stream (resnet's image and weights arrive side by side): the busiest one counts.
    transfers = max((-(-math.prod(e for _, e in nest.buffer(b).box) // nest.stream_lanes(b)) for b in nest.inputs),
                    default=0)
    # a second pass over the frame (a map after a whole-frame sum) streams after the first: the passes add up
    passes = two_pass_transfers(plan.ops, out_transfers)
    return max(transfers, out_transfers, firings, passes, phases(nest, plan)) * tiles


def phases(nest: LoopNest, plan: MemoryPlan) -> int:
    """The firings of the longest chain of ops each of which reads a table the one before it writes, less one a link
    (a phase's first firing may share the cycle of the one before's last, as pipelined ops do). A table is a RAM (a
    Func updated at computed coordinates) or a Func read at computed coordinates: its readers read it after its
    last write (memories/ram.py), which the schedule shows. Ops reading affine taps overlap however late a small
    frame's latencies start them."""
    rams = {b.name for b in nest.buffers if b.init is not None}
    writers: dict[str, list[str]] = {}
    for _, op in nest.ops():
        writers.setdefault(op.store.buffer, []).append(op.name)
    fires = {op.name: asked_firings(lps) for lps, op in nest.ops()}
    timed = {s.op: s for s in plan.ops if not s.host}
    chain: dict[str, int] = {}
    for _, op in nest.ops():  # program order: a producer before its readers
        if op.name not in timed:
            continue
        start = timed[op.name].delay
        tables = {ld.access.buffer for ld in op.loads
                  if ld.access.buffer in rams or (op.lookup and not ld.access.index)}
        before = [chain[w] - 1 for a in tables for w in writers.get(a, ())
                  if w != op.name and w in chain and timed[w].last_cycle <= start]
        chain[op.name] = fires[op.name] + max(before, default=0)
    return max(chain.values(), default=0)


def asked_firings(loops: Sequence[Loop]) -> int:
    """The firings of an op under `loops` that the program asks for: its serial loops' iterations, where the
    compiler ran a loop on to whole runs of a stream's words (`Loop.asked`) only the iterations the program asks
    for (the rest compute values nobody reads; 3 serial taps over a 2-word stream run 4 steps). A user's RoundUp is
    the program's own work and stays counted."""
    n = math.prod(1 if lp.unrolled else lp.extent for lp in loops)
    for lp in loops:
        if lp.asked:
            # the asked iterations span the loop and the lanes lane_steps.py split from it inside
            ran = lp.extent * math.prod(q.extent for q in loops if q.var == f"{lp.var}.lane" and not q.unrolled)
            assert n % ran == 0 and lp.asked <= ran, (lp.var, lp.asked, ran)
            n = n // ran * lp.asked
    return n
