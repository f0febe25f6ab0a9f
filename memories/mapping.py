"""Map each buffer onto wires, registers and memory tiles, and describe every port as an affine controller.

- A read at a constant delay from its write stream is a tap on that stream: register chains and chained delay
  lines packed into memory tiles (`delay_lines`), counted in the stream's writes when every read allows it, so
  storage equals the exact count of live values (a 3x3 window on a 64-wide stream: 131 values, one tile).
- A read at no constant delay that still takes its value a constant number of the stream's writes later (a
  pixel's channels read over three cycles, an upsample's input pixel read twice: a bank of one word) is a write
  tap too, on a register the stream's writes enable: no memory tile for a word (`_addressed_as_write_taps`).
- Other reads (rate changes, sequential reductions) go through an addressed bank: each element at its linear
  address over the elements the bank holds (every step-th of a dimension where the reads stride), modulo the
  least circular size that never overwrites a live value; banks are replicated when more reads than a tile's
  read ports exist.
- Where a buffer's first mapping stores more than its exact minimum, a stream's far taps are tried as
  addressed reads (a delay line holds every value for the whole delay, even those no far tap reads; with more
  streams than a tile's write ports, banks each taking a tile's write ports of them: `packed_banks`), then its
  addressed reads as banks by residue of a coordinate (`banks`: rows of one parity per bank): the mapping with
  fewer words in no more tiles is kept; with registers after bank read ports, also reads of one stream at
  several ages in chained banks (`chained`: each bank after the first written from the one before's oldest read
  port, so a word is stored once as it ages).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import islpy as isl

from mainspring.hwlower.ir import Affine
from mainspring.target import CGRA

from . import banks as residue
from . import chained, checker, circular, read_registers, short_taps
from .constant_ports import wire_words
from .delay_lines import tap_chain, write_steps
from .errors import MemoryMappingError
from .ir import Bank, BankPort, BufferPlan, Controller, Dim, ReadPort, Register, WritePort
from .iteration_boxes import boxes, hull, strided_hull
from .polyhedral import Access, Flow, Program, Stmt
from .port_controllers import box_offset, timed_controller
from .read_groups import read_groups
from .schedule import Schedule, flow_delay


@dataclass(frozen=True, eq=False)
class Read:
    port: ReadPort
    flow: Flow
    # a read at no constant delay from its write served as a write tap (`_addressed_as_write_taps`)
    by_writes: bool = False


WritePorts = dict[tuple[str, tuple[int, ...]], WritePort]  # (op, lane) -> its write port
_Source = tuple[int, tuple[int, ...]]  # (stmt index, lane) of a write stream
_Write = tuple[Stmt, tuple[int, ...], tuple[Dim, ...], Controller]  # (op, lane, box, controller) of a bank write
# (min, extent, step) per buffer dimension, x first: the elements a bank holds (min, min + step, ...)
Elements = tuple[tuple[int, int, int], ...]
# (ids of a region's reads, its streams) -> `region_layout`'s (elements, writes, words)
_Layouts = dict[tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], int], ...]], tuple[Elements, list[_Write], int]]


def map_buffer(prog: Program, sched: Schedule, target: CGRA, name: str, min_words: int) -> BufferPlan:
    """The physical organisation of buffer `name` under schedule `sched`."""
    buf = prog.nest.buffer(name)
    flows = [f for f in prog.flows if f.buffer == name]
    writers = sorted({(f.src.index, f.src_lane): f for f in flows}.values(), key=lambda f: (f.src.index, f.src_lane))
    wports = {(f.src.name, f.src_lane): logical_write_port(prog, sched, name, f.src, f.src_lane, k)
              for k, f in enumerate(writers)}
    reads = logical_read_ports(prog, sched, name, [f for f in flows if not f.streamed_out], wports)
    slices = math.ceil(buf.type.bits() / target.word_bits)
    best = organise(prog, sched, target, name, reads, wports, slices)
    best, reads = _addressed_as_write_taps(prog, sched, target, name, reads, wports, slices, best)
    if organised_words(wports, best) > min_words:
        best, reads = _far_taps_addressed(prog, sched, target, name, reads, wports, slices, best)
    splits: residue.Splits = {}
    if organised_words(wports, best) > min_words:
        best = residue.residue_banked(prog, sched, target, name, reads, wports, slices, best, splits=splits)
    if organised_words(wports, best) > min_words:
        best = _registers_after_reads(prog, sched, target, name, reads, wports, slices, best, splits)
    if organised_words(wports, best) > min_words:
        best = short_taps.short_taps_addressed(prog, sched, target, name, reads, wports, slices, best)
    final, registers, banks = small_banks_in_registers(target, best)
    level = "mem_tile" if any(not k.in_registers for k in banks) else (
        "register" if registers or banks else "wire")
    words = organised_words(wports, (final, registers, banks))
    role = "input" if name in prog.nest.inputs else ("output" if name == prog.nest.output else "internal")
    outs = tuple(wports[(f.src.name, f.src_lane)].name for f in writers if any(
        g.streamed_out and g.src is f.src and g.src_lane == f.src_lane for g in flows))
    plan = BufferPlan(name, str(buf.type), buf.type.bits(), buf.box, role, level, min_words, words,
                      tuple(wports.values()), tuple(final), tuple(registers), tuple(banks), outs)
    # constants read as they are made are wires, as min_words leaves them out (constant_ports.py)
    return dataclasses.replace(plan, words=words - wire_words(prog, sched, plan))


Organised = tuple[list[ReadPort], list[Register], list[Bank]]  # the final read ports, registers and banks
# (prog, sched, target, buffer, addressed reads, write ports, slices, first bank number) -> (banks, the bank read
# port serving each read port)
_Banker = Callable[[Program, Schedule, CGRA, str, list[Read], WritePorts, int, int],
                   tuple[list[Bank], dict[str, str]]]


def organised_words(wports: WritePorts, org: Organised) -> int:
    """Storage as `min_words` counts it (memories/ir.py): write ports, registers, bank words and read registers."""
    return len(wports) + len(org[1]) + sum(b.words + sum(p.output_registers for p in b.read_ports) for b in org[2])


def organised_tiles(org: Organised) -> int:
    return sum(b.tiles * b.slices for b in org[2])


def improves(wports: WritePorts, got: Organised, best: Organised) -> bool:
    """Whether `got` stores fewer words than `best` in no more tiles."""
    fewer = organised_words(wports, got) < organised_words(wports, best)
    return fewer and organised_tiles(got) <= organised_tiles(best)


def _far_taps_addressed(prog: Program, sched: Schedule, target: CGRA, name: str, reads: list[Read],
                        wports: WritePorts, slices: int, best: Organised) -> tuple[Organised, list[Read]]:
    """Where a stream's far taps read few of its values (the edges of a small image, one channel of a stream, a
    plane read a row later), a delay line still holds every value for the whole delay: serve those taps from
    an addressed bank holding only the values they read, when that stores fewer words in no more tiles. Each
    write port in turn, the taps from its farthest down, keeping what improves. Returns the mapping and its
    reads."""
    kept = reads
    for wp in wports.values():
        # taps a few registers reach cost a register each: only those a delay line would serve are candidates
        delays = sorted({r.port.delay for r in kept if r.port.source == wp.name and r.port.delay is not None
                         and r.port.delay > max(target.register_delay_limit, 1)})
        current = kept
        for d in reversed(delays):
            trial = [Read(dataclasses.replace(r.port, delay=None), r.flow)
                     if r.port.source == wp.name and r.port.delay is not None and r.port.delay >= d else r
                     for r in current]
            got = _least(wports, [try_organise(prog, sched, target, name, trial, wports, slices, banker)
                                  for banker in (None, packed_banks)])
            if got is None:
                break  # more streams or reads than an addressed bank takes: keep the taps
            if improves(wports, got, best):
                best, kept = got, trial
            current = trial
    return best, kept


def try_organise(prog: Program, sched: Schedule, target: CGRA, name: str, reads: list[Read], wports: WritePorts,
           slices: int, banker: _Banker | None, fold: bool = False) -> Organised | None:
    try:
        return organise(prog, sched, target, name, reads, wports, slices, banker, fold)
    except MemoryMappingError:
        return None


def _least(wports: WritePorts, orgs: list[Organised | None]) -> Organised | None:
    """The organisation of fewest tiles, then words (the first of equals), of those that map."""
    got = [o for o in orgs if o is not None]
    return min(got, key=lambda o: (organised_tiles(o), organised_words(wports, o))) if got else None


def _addressed_as_write_taps(prog: Program, sched: Schedule, target: CGRA, name: str, reads: list[Read],
                             wports: WritePorts, slices: int, best: Organised) -> tuple[Organised, list[Read]]:
    """Where a write port's addressed reads each take their value a constant number of its writes later (a bank
    of one word: every value read before the next is written, as a pixel's channels are), serve them as write
    taps: a register enabled by the root's writes costs no memory tile. Each write port in turn, kept when it
    takes no more tiles and no more words, and fewer of either. Returns the mapping and its reads."""
    kept = reads
    for wp in wports.values():
        mine = [r for r in kept if r.port.source == wp.name]
        if all(r.port.delay is not None or r.by_writes for r in mine) \
                or write_steps(sched, prog.stmt(wp.op), [r.flow for r in mine]) is None:
            continue
        trial = [dataclasses.replace(r, by_writes=True) if r.port.source == wp.name and r.port.delay is None else r
                 for r in kept]
        try:
            got = organise(prog, sched, target, name, trial, wports, slices)
        except MemoryMappingError:
            continue
        cost = (organised_tiles(got), organised_words(wports, got))
        was = (organised_tiles(best), organised_words(wports, best))
        if cost[0] <= was[0] and cost[1] <= was[1] and cost != was:
            best, kept = got, trial
    return best, kept


def small_banks_in_registers(target: CGRA, org: Organised) -> Organised:
    """`org` with its addressed banks of at most `target.register_bank_words` words held in registers: a memory
    tile for a pixel pair is waste. Applied to the mapping the searches chose (comparing tiles as if every bank
    took its tile), so it takes tiles away and never adds a word: counted so, a search would trade words for the
    tile of a small bank (fuzz case downsample_banked_on_one_tile_read_port: 15 words on 2 tiles for f0 became 19
    on 1). The ports and their timing stay, so the schedule and the checker's proof do not change; words stay as
    counted (a register per word and per tile read port's output register, which bank read ports by residue
    share as on the tile). A bank of one word is read without output registers where only its ports' ops read
    them (`BankPort.direct`): its word's register holds in a port's cycles what the output register would."""
    final, registers, banks = org
    fed = {r.source for r in registers} | {r.root for r in registers} | {
        p.source for k in banks for p in k.write_ports if p.source is not None}

    def small(k: Bank) -> Bank:
        direct = tuple(dataclasses.replace(p, direct=k.words == 1 and p.name not in fed and p.shares is None
                                           and not any(o.shares == p.name for o in k.read_ports))
                       for p in k.read_ports)
        return dataclasses.replace(k, tiles=0, in_registers=True, read_ports=direct)

    return final, registers, [small(k) if k.kind == "addressed" and k.words <= target.register_bank_words else k
                              for k in banks]


def _registers_after_reads(prog: Program, sched: Schedule, target: CGRA, name: str, reads: list[Read],
                           wports: WritePorts, slices: int, best: Organised,
                           splits: residue.Splits | None = None) -> Organised:
    """`best`, or the mapping with registers after bank read ports (their roots in the usual banks or chained by
    age, then banks by residue, with `splits` as `banks.residue_banked` takes it) that stores fewer words in no
    more tiles."""
    try:
        got = organise(prog, sched, target, name, reads, wports, slices, fold=True)
    except MemoryMappingError:
        return best
    if not folds_clash(got) and improves(wports, got, best):
        best = got
    chain = try_organise(prog, sched, target, name, reads, wports, slices, chained.chained_banks, fold=True)
    if chain is not None and not folds_clash(chain) and improves(wports, chain, best):
        best = chain
    return residue.residue_banked(prog, sched, target, name, reads, wports, slices, best, fold=True, splits=splits)


def folds_clash(got: Organised) -> bool:
    """Whether registers after bank read ports made two reads share a tile read port in one cycle (a root read
    before its box takes a cycle of a port sharing its tile read port: test_flow_update_lanes); the checker would
    refuse the plan."""
    return any(checker.shared_collision(b) is not None for b in got[2] if b.kind == "addressed")


def organise(prog: Program, sched: Schedule, target: CGRA, name: str, reads: list[Read], wports: WritePorts,
              slices: int, addressed_banks: _Banker | None = None, fold: bool = False) -> Organised:
    """Registers and banks serving `reads`: tap chains for those with a delay, addressed banks for the others
    (`_addressed_banks`, or the given banker); with `fold`, registers after a bank read port for the addressed
    reads that take another's words some cycles later (`read_registers`)."""
    registers: list[Register] = []
    banks: list[Bank] = []
    taps: dict[tuple[str, int], str] = {}  # (write port, delay) -> the element delivering it
    steps: dict[str, int] = {}  # read port -> the root's writes from its value's to the one in its read cycle
    for wp in wports.values():
        mine = [r for r in reads if r.port.source == wp.name and (r.port.delay is not None or r.by_writes)]
        src = prog.stmt(wp.op)
        per_flow = write_steps(sched, src, [r.flow for r in mine])
        assert per_flow is not None or not any(r.by_writes for r in mine), "write taps whose steps vary"
        if per_flow is not None:
            steps.update({r.port.name: per_flow[r.flow] for r in mine})
        # (every port in `mine` has a delay: the filter on the last line restates it for the type checker)
        delays = ({per_flow[r.flow] for r in mine} if per_flow is not None
                  else {r.port.delay for r in mine if r.port.delay is not None})
        regs, dl_banks, elements = tap_chain(wp, src.time_dims, delays, per_flow is not None, target, slices,
                                             len(banks))
        registers += regs
        banks += dl_banks
        taps.update({(wp.name, d): e for d, e in elements.items()})
    addressed = [r for r in reads if r.port.delay is None and not r.by_writes]
    served: dict[str, str] = {}  # logical read port -> addressed bank read port, or a register after one
    folded = read_registers.fold(prog, sched, addressed) if fold and addressed else None
    if addressed:
        abanks, served = (addressed_banks or _addressed_banks)(prog, sched, target, name,
                                                               folded.roots if folded else addressed, wports,
                                                               slices, len(banks))
        banks += abanks
    if folded:
        bank_ports = {p.name: p for b in banks for p in b.read_ports}
        regs, after = read_registers.chains(folded, served, bank_ports)
        registers += regs
        served |= after
    final = []
    for r in reads:
        p = r.port
        k = steps.get(p.name)
        at = k if k is not None else p.delay  # a write tap's steps, else a cycle tap's delay
        tap = served[p.name] if at is None else taps[(p.source, at)]
        final.append(ReadPort(p.name, p.buffer, p.op, p.load, p.lane, p.source, p.domain, p.delay, tap,
                              p.controller, k))
    return final, registers, banks


# ---- logical ports ---------------------------------------------------------------------------------------

def logical_write_port(prog: Program, sched: Schedule, buf: str, s: Stmt, lane: tuple[int, ...], k: int) -> WritePort:
    store = next(a for a in prog.accesses if a.stmt is s and a.is_write)
    t = sched.timing[s.name]
    ctrl = timed_controller(s.time_dims, s.time_dims, t, s.latency, element_address(prog, buf, store.index, s, lane))
    return WritePort(f"{buf}.w{k}", buf, s.name, lane, ctrl)


def logical_read_ports(prog: Program, sched: Schedule, buf: str, flows: list[Flow], wports: WritePorts) -> list[Read]:
    out: list[Read] = []
    for f in flows:
        lo, hi = flow_delay(f, sched)
        load = next(a for a in prog.accesses if a.stmt is f.dst and a.name == f.load)
        t = sched.timing[f.dst.name]
        for box in _read_boxes(f, load, flows):
            addr = element_address(prog, buf, load.index, f.dst, f.dst_lane, box)
            ctrl = timed_controller(box, f.dst.time_dims, t, f.read_offset, addr)
            port = ReadPort(f"{buf}.r{len(out)}", buf, f.dst.name, f.load, f.dst_lane,
                            wports[(f.src.name, f.src_lane)].name, box, lo if lo == hi else None, "", ctrl)
            out.append(Read(port, f))
    return out


def _read_boxes(f: Flow, load: Access, flows: list[Flow]) -> list[tuple[Dim, ...]]:
    """The boxes of the reader's iterations one read port each serves: the flow's reads as disjoint boxes, or for
    a guarded load (a tail rounded up inside the accelerator, a reduction's steps past its domain) that is the
    only flow of its load, their hull, the shape of the load without its guard: one controller, a tap where the
    reads are at a constant delay. Where the guard fails, the value read is never used (the op's result there
    is not read, or its guard selects another value), as at the iterations no read port of a load serves."""
    got = boxes(f.rel.range(), f.dst.time_dims, f"op '{f.dst.name}' load '{f.load}'")
    sole = [g for g in flows if (g.dst, g.load, g.dst_lane) == (f.dst, f.load, f.dst_lane)] == [f]
    if len(got) > 1 and load.guard and sole:
        return [hull(f.rel.range(), f.dst.time_dims)]
    return got


def element_address(prog: Program, buf: str, index: tuple[Affine, ...], s: Stmt, lane: tuple[int, ...],
                     box: tuple[Dim, ...] | None = None,
                     over: Elements | None = None) -> tuple[int, tuple[int, ...]]:
    """(address at the box's min corner, address stride per iteration of each time dim, innermost first),
    x-fastest linear over the buffer's box, or over the elements `over` a bank holds (every step-th element of
    a dimension at consecutive addresses)."""
    bbox = over or tuple((lo, ext, 1) for lo, ext in prog.nest.buffer(buf).box)
    strides, p = [], 1
    for _, ext, _ in bbox:
        strides.append(p)
        p *= ext
    dims = box or s.time_dims
    env = {d.var: v for d, v in zip(s.lane_dims, lane)}
    env |= {d.var: d.min for d in dims}
    start = sum(st * _on_step(a.evaluate(env) - lo, step) for st, a, (lo, _, step) in zip(strides, index, bbox))
    # A dim of one iteration never steps: its stride is free (0 where the element's step is off the grid)
    per_dim = [sum(st * (0 if d.extent == 1 and dict(a.terms).get(d.var, 0) * d.step % step
                         else _on_step(dict(a.terms).get(d.var, 0) * d.step, step))
                   for st, a, (_, _, step) in zip(strides, index, bbox)) for d in dims]
    return start, tuple(reversed(per_dim))


def _on_step(delta: int, step: int) -> int:
    assert delta % step == 0, f"an element {delta} off a bank's grid of step {step}"
    return delta // step




# ---- addressed banks -------------------------------------------------------------------------------------

def _addressed_banks(prog: Program, sched: Schedule, target: CGRA, buf: str, reads: list[Read],
                     wports: WritePorts, slices: int, first: int) -> tuple[list[Bank], dict[str, str]]:
    """Addressed memories of `buf`: write streams in groups of a tile's write ports (banked by lane: the lanes of
    an op are separate streams), each group's banks serving the reads of its streams' values. Also returns the
    bank read port serving each logical read port."""
    srcs = sorted({(r.flow.src.index, r.flow.src_lane): r.flow.src for r in reads}.items())
    if len(srcs) <= target.mem_tile_write_ports:
        return _addressed_group(prog, sched, target, buf, reads, wports, slices, first, srcs)
    lanes = {s.index: {lane for (i, lane), _ in srcs if i == s.index} for _, s in srcs}
    if all(len(v) == 1 for v in lanes.values()):
        raise MemoryMappingError(
            f"buffer '{buf}' needs {len(srcs)} write streams into one addressed memory but a memory tile has "
            f"{target.mem_tile_write_ports} write ports")
    # Group by lane: each lane's streams (its ops' stores of that lane) share banks.
    by_lane: dict[tuple[int, ...], list[tuple[_Source, Stmt]]] = {}
    for key, src in srcs:
        by_lane.setdefault(key[1], []).append((key, src))
    for lane in sorted(by_lane):
        if len(by_lane[lane]) > target.mem_tile_write_ports:
            raise MemoryMappingError(
                f"buffer '{buf}' lane {list(lane)} needs {len(by_lane[lane])} write streams into one addressed memory "
                f"but a memory tile has {target.mem_tile_write_ports} write ports")
    return grouped_banks(prog, sched, target, buf, reads, wports, slices, first,
                          [by_lane[lane] for lane in sorted(by_lane)])


def grouped_banks(prog: Program, sched: Schedule, target: CGRA, buf: str, reads: list[Read], wports: WritePorts,
                   slices: int, first: int,
                   groups: list[list[tuple[_Source, Stmt]]]) -> tuple[list[Bank], dict[str, str]]:
    """The banks of each group of write streams, serving the reads of the group's values, numbered from `first`."""
    banks: list[Bank] = []
    served: dict[str, str] = {}
    for group in groups:
        keys = {k for k, _ in group}
        mine = [r for r in reads if (r.flow.src.index, r.flow.src_lane) in keys]
        got, by = _addressed_group(prog, sched, target, buf, mine, wports, slices, first + len(banks), group)
        banks += got
        served |= by
    return banks, served


def packed_banks(prog: Program, sched: Schedule, target: CGRA, buf: str, reads: list[Read],
                  wports: WritePorts, slices: int, first: int) -> tuple[list[Bank], dict[str, str]]:
    """`_addressed_banks` with its groups of streams (each lane's, else each stream alone) packed in order into
    banks of a tile's write ports: three channels each read by a load of its own in two tiles, not three."""
    srcs = sorted({(r.flow.src.index, r.flow.src_lane): r.flow.src for r in reads}.items())
    multi = len({key[0] for key, _ in srcs}) < len(srcs)
    parts: dict[object, list[tuple[_Source, Stmt]]] = {}
    for key, src in srcs:
        parts.setdefault(key[1] if multi else key, []).append((key, src))
    per = target.mem_tile_write_ports
    bins: list[list[tuple[_Source, Stmt]]] = []
    for part in (parts[k] for k in sorted(parts)):  # type: ignore[type-var]
        if len(part) > per:
            raise MemoryMappingError(f"buffer '{buf}': {len(part)} write streams of one lane into one memory")
        if not bins or len(bins[-1]) + len(part) > per:
            bins.append([])
        bins[-1] += part
    bin_of = {key: j for j, b in enumerate(bins) for key, _ in b}
    loads: dict[tuple, set[int]] = {}
    for r in reads:
        loads.setdefault((r.flow.dst.index, r.flow.load, r.flow.dst_lane), set()).add(
            bin_of[(r.flow.src.index, r.flow.src_lane)])
    if len(bins) == 1 or any(len(v) > 1 for v in loads.values()):
        # a load reading the values of two banks' streams would need both; one bin is `_addressed_banks`' own
        raise MemoryMappingError(f"buffer '{buf}': no packing of its write streams into banks helps")
    return grouped_banks(prog, sched, target, buf, reads, wports, slices, first, bins)


def _addressed_group(prog: Program, sched: Schedule, target: CGRA, buf: str, reads: list[Read],
                     wports: WritePorts, slices: int, first: int,
                     srcs: Sequence[tuple[_Source, Stmt]]) -> tuple[list[Bank], dict[str, str]]:
    """Banks of a tile's read ports each. A bank holds only the elements its reads touch (their hull, linear
    over it) and gets only the writes of those: reads of disjoint parts (the unrolled input channels of a
    reduction tree, each lane's weights) partition the buffer instead of replicating it whole.

    Reads of one stream that take different values of it (a 2x downsample's even pixels of one row and odd
    ones of the next) may each get a region of the tile of their own, written by a write port of their own with
    only the values they read (every step-th: `Dim.step`) at consecutive addresses, when that is fewer words."""
    same = same_words(reads)
    grouped = _read_groups(prog, buf, list(same), target.mem_tile_read_ports)
    layouts: _Layouts = {}  # groupings share groups and every single read's region: each laid out once
    best = _group_banks(prog, sched, target, buf, grouped[0], same, wports, slices, first, srcs, layouts)
    for chunks in grouped[1:]:
        try:
            got = _group_banks(prog, sched, target, buf, chunks, same, wports, slices, first, srcs, layouts)
        except MemoryMappingError:
            continue
        if _banks_cost(got[0]) < _banks_cost(best[0]):
            best = got
    return best


def _banks_cost(banks: list[Bank]) -> tuple[int, int]:
    return sum(b.tiles for b in banks), sum(b.words for b in banks)


def _group_banks(prog: Program, sched: Schedule, target: CGRA, buf: str, chunks: list[list[Read]],
                 same: dict[Read, list[Read]], wports: WritePorts, slices: int, first: int,
                 srcs: Sequence[tuple[_Source, Stmt]], layouts: _Layouts) -> tuple[list[Bank], dict[str, str]]:
    """`_addressed_group`'s banks for one grouping of its reads, a tile's read ports each."""
    def layout(part: list[Read], mine: list[tuple[tuple[int, ...], Stmt]]) -> tuple[Elements, list[_Write], int]:
        key = (tuple(id(r) for r in part), tuple((lane, src.index) for lane, src in mine))
        if key not in layouts:
            layouts[key] = region_layout(prog, sched, buf, part, mine)
        return layouts[key]

    banks: list[Bank] = []
    served: dict[str, str] = {}
    for chunk in chunks:
        mine = [(lane, src) for (_, lane), src in srcs
                if any(r.flow.src is src and r.flow.src_lane == lane for r in chunk)]
        parts = [(chunk, layout(chunk, mine))]
        if len(mine) == 1 and 1 < len(chunk) <= target.mem_tile_write_ports:
            try:
                apart = [([r], layout([r], mine)) for r in chunk]
            except MemoryMappingError:
                apart = parts  # a read's values alone do not fit a circular region: keep them together
            if sum(p[1][2] for p in apart) < parts[0][1][2]:
                parts = apart
        name = f"{buf}.bank{first + len(banks)}"
        wps: list[BankPort] = []
        rps: list[tuple[Read, BankPort]] = []
        offset = 0
        for part, (elements, writes, words) in parts:
            region = (offset, words)
            offset += words
            wps += [BankPort(f"{name}.w{len(wps) + k}", "write", src.name, lane, box, ctrl,
                             source=wports[(src.name, lane)].name, region=region)
                    for k, (src, lane, box, ctrl) in enumerate(writes)]
            rps += [(r, BankPort(f"{name}.r{len(rps) + k}", "read", r.port.op, r.port.lane, r.port.domain,
                                 read_controller(prog, sched, buf, r, elements), load=r.port.load, region=region,
                                 shared=tuple(o.port.lane for o in same[r][1:])))
                    for k, r in enumerate(part)]
        banks.append(Bank(name, "addressed", offset, math.ceil(offset / target.mem_tile_words), slices, tuple(wps),
                          tuple(p for _, p in rps)))
        served |= {o.port.name: p.name for r, p in rps for o in same[r]}
    return banks, served


def region_layout(prog: Program, sched: Schedule, buf: str, reads: list[Read],
                   mine: list[tuple[tuple[int, ...], Stmt]]) -> tuple[Elements, list[_Write], int]:
    """(the elements, the writes, the circular words) of a region serving `reads` from the streams `mine`."""
    hull = _hull_elements(prog, buf, [_addressed_write(prog, sched, buf, src, lane, reads) for lane, src in mine])
    writes = [_addressed_write(prog, sched, buf, src, lane, reads, hull) for lane, src in mine]
    return hull, writes, _circular_words(sched, buf, reads, writes)


def same_words(reads: list[Read]) -> dict[Read, list[Read]]:
    """The reads by the first of those reading the same words in the same cycles (lanes of one op whose load
    does not depend on the lane): one bank read port serves them all."""
    out: dict[tuple, list[Read]] = {}
    for r in reads:
        out.setdefault((r.port.op, r.port.load, r.port.domain, r.port.controller), []).append(r)
    return {group[0]: group for group in out.values()}


def _read_groups(prog: Program, buf: str, reads: list[Read], per: int) -> list[list[list[Read]]]:
    """Groupings of the reads in groups of `per` (`read_groups`), by the elements each takes, outermost first."""
    def span(r: Read) -> Elements:
        load = next(a for a in prog.accesses if a.stmt is r.flow.dst and a.name == r.flow.load)
        return tuple(reversed(element_hull(load.index, r.flow.dst, r.port.lane, r.port.domain)))

    return read_groups(reads, [span(r) for r in reads], per)


def element_hull(index: tuple[Affine, ...], s: Stmt, lane: tuple[int, ...], box: tuple[Dim, ...]) -> Elements:
    """The hull of the elements `index` touches over `box` of s's time dims, in lane `lane`."""
    env = {d.var: v for d, v in zip(s.lane_dims, lane)}
    span = {d.var: (d.min, d.min + d.step * (d.extent - 1), d.step) for d in box}
    out = []
    for a in index:
        lo = hi = a.const
        step = 0
        for v, c in a.terms:
            a0, a1, k = (env[v], env[v], 0) if v in env else span[v]
            lo, hi = lo + min(c * a0, c * a1), hi + max(c * a0, c * a1)
            step = math.gcd(step, c * k if a1 != a0 else 0)
        out.append((lo, (hi - lo) // max(step, 1) + 1, max(step, 1)))
    return tuple(out)


def _hull_elements(prog: Program, buf: str, writes: list[_Write]) -> Elements:
    """The hull of the elements the writes store."""
    boxes_ = []
    for src, lane, box, _ in writes:
        store = next(a for a in prog.accesses if a.stmt is src and a.is_write)
        boxes_.append(element_hull(store.index, src, lane, box))
    return merge_elements(boxes_)


def merge_elements(parts: list[Elements]) -> Elements:
    """The hull of element boxes, on the grid all of them lie on."""
    out = []
    for k in range(len(parts[0])):
        lo = min(b[k][0] for b in parts)
        hi = max(b[k][0] + b[k][2] * (b[k][1] - 1) for b in parts)
        step = 0
        for b in parts:  # a box of one element along k constrains the grid by its offset only
            step = math.gcd(step, b[k][0] - lo, b[k][2] if b[k][1] > 1 else 0)
        step = max(step, 1)
        out.append((lo, (hi - lo) // step + 1, step))
    return tuple(out)


def read_controller(prog: Program, sched: Schedule, buf: str, r: Read, over: Elements) -> Controller:
    """The read port's controller with its addresses linear over the bank's elements `over`."""
    f, box = r.flow, r.port.domain
    load = next(a for a in prog.accesses if a.stmt is f.dst and a.name == f.load)
    t = sched.timing[f.dst.name]
    addr = element_address(prog, buf, load.index, f.dst, f.dst_lane, box, over)
    return timed_controller(box, f.dst.time_dims, t, f.read_offset, addr)


def _addressed_write(prog: Program, sched: Schedule, buf: str, src: Stmt, lane: tuple[int, ...],
                     reads: list[Read], over: Elements | None = None) -> _Write:
    """(op, lane, box, controller) writing every value in the hull of those read through memory."""
    dom: isl.Set | None = None
    for r in reads:
        if r.flow.src is src and r.flow.src_lane == lane:
            dom = r.flow.rel.domain() if dom is None else dom.union(r.flow.rel.domain())
    assert dom is not None, "the sources are those of `reads`: each has a read"
    box = strided_hull(dom, src.time_dims)  # one affine controller; values nobody reads are written too
    t = sched.timing[src.name]
    store = next(a for a in prog.accesses if a.stmt is src and a.is_write)
    ctrl = timed_controller(box, src.time_dims, t, src.latency, element_address(prog, buf, store.index, src, lane, box,
                                                                                 over))
    return src, lane, box, ctrl


def _circular_words(sched: Schedule, buf: str, reads: list[Read], writes: list[_Write]) -> int:
    """The least circular size such that no value's slot is rewritten between its write and last read."""
    streams = []
    for src, lane, box, ctrl in writes:
        t = sched.timing[src.name]
        flows = tuple((str(r.flow.rel), r.flow.dst.time_name, r.flow.dst.time_dims, sched.timing[r.flow.dst.name].rates,
                       sched.timing[r.flow.dst.name].delay + r.flow.read_offset)
                      for r in reads if r.flow.src is src and r.flow.src_lane == lane)
        streams.append((src.time_name, len(src.time_dims), box, t.rates,
                        t.delay + src.latency + box_offset(box, src.time_dims, t.rates), ctrl, flows))
    return circular.circular_words(buf, tuple(streams))
