"""Write ports of constants read only in their write cycle: wires, neither live values nor words.

An op whose value is a constant (no loads, no coordinates: a histogram's or a reduction's initial value) has
latency 0, so its kernel is a constant driving a wire (verilog/top.py). When every read of its values happens
in their write cycle, nothing ever stores them: the readers take the wire. Counting such a port as a live value
(memories/capacity.py) and as a word of storage (memories/mapping.py) put a histogram of 3 bins at 9 words for a
minimum of 3, its 3 initial values counted as words although the Verilog holds them as wires. Both counts leave
them out, so `words >= min_words` still holds (each other live value is still held by a counted place), and a
constant read later (through a register or a bank) still counts in both.
"""

from __future__ import annotations

from .ir import BufferPlan
from .polyhedral import Flow, Program, Stmt
from .schedule import Schedule, flow_delay


def constant_op(s: Stmt) -> bool:
    """Whether `s` computes a constant in its firing cycle (its kernel has no inputs)."""
    op = s.op
    return op is not None and s.latency == 0 and not op.loads and not op.coords and not op.scatter


def wire_sources(sched: Schedule, flows: list[Flow]) -> set[tuple[str, tuple[int, ...]]]:
    """The (op, lane) write streams among `flows`' sources that are constants read only in their write cycle
    (never streamed out: the host reads the output buffer's words a cycle later)."""
    mine: dict[tuple[str, tuple[int, ...]], list[Flow]] = {}
    for f in flows:
        mine.setdefault((f.src.name, f.src_lane), []).append(f)
    return {key for key, fs in mine.items()
            if constant_op(fs[0].src) and all(not f.streamed_out and flow_delay(f, sched) == (0, 0) for f in fs)}


def wire_words(prog: Program, sched: Schedule, plan: BufferPlan) -> int:
    """How many of `plan`'s write ports are constants that the mapping serves as wires: read only in their write
    cycle (`wire_sources`), every read tapping the port itself, no register or bank fed from it."""
    wires = wire_sources(sched, [f for f in prog.flows if f.buffer == plan.name])
    fed = {r.source for r in plan.registers} | {p.source for k in plan.banks for p in k.write_ports}
    n = 0
    for wp in plan.write_ports:
        if (wp.op, wp.lane) not in wires or wp.name in fed or wp.name in plan.output_ports:
            continue
        if all(r.tap == wp.name and r.delay == 0 for r in plan.read_ports if r.source == wp.name):
            n += 1
    return n
