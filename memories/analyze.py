"""The memories driver: a straight line of named steps from a loop nest to a checked memory plan."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from mainspring.hwlower.ir import LoopNest, Op
from mainspring.target import CGRA

from .capacity import buffer_capacity
from .capacity_bound import mem_tiles_bound, worth_bounding
from .checker import check_plan
from .coordinates import coordinate_generators
from .errors import OverCapacity
from .ii_limit import ii_limits
from .ir import BufferPlan, MemoryPlan, OpSchedule
from .mapping import map_buffer
from .polyhedral import Program, build_program, default_latency
from .printer import format_capacities, format_dependences, format_mapping
from .ram import map_ram
from .schedule import Schedule, format_schedule, schedule
from .shared_tiles import share_tiles

# The steps `analyze` can print, in the order they run (the compiler adds `schedule`: the memory JSON).
STEP_NAMES = ("dependences", "rates", "capacities", "mapping")


def analyze(nest: LoopNest, target: CGRA = CGRA(), latencies: Mapping[str, int] | None = None,
            check: bool = True, dump: Callable[[str, Callable[[], str]], None] | None = None,
            read_offsets: Mapping[str, Mapping[str, int]] | None = None) -> MemoryPlan:
    """Schedule `nest`, size and map its buffers onto `target`, and (by default) prove the result correct.

    `latencies` overrides the cycles from an op's firing to its stored value, by op name (default: 0 for an op
    that only moves a value, `target.pe_latency` otherwise); `read_offsets`, by op name, the loads read that many
    cycles after the op fires (a retimed accumulation's own element). `dump(step, text)` is called after each step
    (`STEP_NAMES`: the statements and exact flows, the static schedule, the buffers' exact capacities, their
    mapping onto registers and memory tiles); the plan is then checked (`check_plan`).
    """
    overrides = dict(latencies or {})

    def latency(op: Op) -> int:
        return overrides.get(op.name, default_latency(op, target.pe_latency))

    def after(step: str, show: Callable[[], str]) -> None:
        if dump is not None:
            dump(step, show)

    prog = build_program(nest, latency, read_offsets)
    after("dependences", lambda: format_dependences(prog))
    sched = schedule(prog, target)
    if sched.unsplit is None:  # (else once the mapping has chosen between its two schedules)
        after("rates", lambda: format_schedule(prog, sched))
    if worth_bounding(prog, target):  # a large design far over the target refuses before counting
        tiles, buffer, values = mem_tiles_bound(prog, sched, target)
        if tiles > target.num_mem_tiles:
            raise OverCapacity(tiles, buffer, values)
    capacities, buffers = _mapped(prog, nest, sched, target)
    if sched.unsplit is not None:
        # A stream split into a prologue and its paced rest (memories/stream_prologue.py) for an upsample: kept
        # only where it maps onto no more storage than the stream paced throughout, in ports Verilog renders.
        paced = _mapped(prog, nest, sched.unsplit, target)
        if _storage(paced[1]) < _storage(buffers) or not _two_piece_reads_rendered(buffers):
            sched, (capacities, buffers) = sched.unsplit, paced
        after("rates", lambda: format_schedule(prog, sched))
    after("capacities", lambda: format_capacities(capacities))
    after("mapping", lambda: format_mapping(buffers))
    ops = op_schedules(prog, sched)
    writes = [p.controller.cycle_starting_addr for b in buffers for p in b.write_ports if p.name in b.output_ports]
    plan = MemoryPlan(
        nest=nest.name, target=target, strategy=sched.strategy, ops=ops, internal_reads=prog.internal,
        buffers=buffers,
        # The period of one invocation: with host tiles the next one starts after it, so it must also cover
        # input words no op reads (the host streams the whole box).
        cycles=max((s.last_cycle + s.latency for s in ops), default=-1) + 1,
        input_words=sum(_words(nest, b) for b in nest.inputs),
        first_output_cycle=min(writes, default=-1),
        coords=coordinate_generators(prog, {s.op: s for s in ops}),
        ii_limits=ii_limits(prog, sched, target),
    )
    if check:
        check_plan(nest, plan, prog)
    return plan


def _mapped(prog: Program, nest: LoopNest, sched: Schedule, target: CGRA) -> tuple[dict[str, int],
                                                                                tuple[BufferPlan, ...]]:
    """Each buffer's exact capacity and its mapping onto `target` under `sched`, tiles shared between buffers."""
    capacities = {b.name: buffer_capacity(prog, sched, b.name) for b in nest.buffers}
    return capacities, share_tiles(prog, tuple((map_ram if nest.buffer(name).init is not None else map_buffer)(
        prog, sched, target, name, words) for name, words in capacities.items()), target)


def _two_piece_reads_rendered(buffers: tuple[BufferPlan, ...]) -> bool:
    """Whether the Verilog library renders every two-piece read port: a bank's own read ports (R0, R1 of its
    tiles and register banks) take a second piece, read ports sharing another's tile port do not."""
    return all(p.shares is None for b in buffers for k in b.banks for p in k.read_ports
               if p.controller.then is not None)


def _storage(buffers: tuple[BufferPlan, ...]) -> tuple[int, int, int]:
    """What a mapping costs, most precious first: memory tiles, words and registers."""
    tiles = sum(k.tiles * k.slices for b in buffers for k in b.banks)
    registers = sum(len(b.registers) + sum(k.words for k in b.banks if k.in_registers) for b in buffers)
    return tiles, sum(b.words for b in buffers), registers


def op_schedules(prog: Program, sched: Schedule) -> tuple[OpSchedule, ...]:
    out = []
    for s in prog.stmts:
        if s.name not in sched.timing:
            continue  # host.out: the output is streamed as its final values are written
        t = sched.timing[s.name]
        func, stage = (s.op.func, s.op.stage) if s.op is not None else (s.stream, 0)
        out.append(OpSchedule(s.name, func, stage, s.time_dims, s.lane_dims, t.rates, t.delay, s.latency, s.is_host,
                               s.read_offsets, t.then))
    return tuple(out)


def _words(nest: LoopNest, name: str) -> int:
    n = 1
    for _, extent in nest.buffer(name).box:
        n *= extent
    return n
