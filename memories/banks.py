"""Banks by residue: an addressed buffer's elements split by one coordinate modulo m, one bank per residue.

Why: reads that take several rows in one cycle (an upsample's rows y / 2 and y / 2 +- 1, a stencil's rows y - 1
and y + 1) need more read ports than a tile has, so `mapping` serves them from banks holding overlapping rows
(copies): storage above the exact minimum. When the rows read in one cycle have different residues modulo m,
a bank per residue holds each row once, and each read, split over the iterations of the op where the row it
reads has one residue (a time dim taken every p-th iteration: `Dim.step`), goes to the bank of that residue.
The split reads of one bank that fire in disjoint cycles (a read of the row above on odd rows and of the own row
on even rows) share a tile read port (`BankPort.shares`): its address comes from whichever controller fires.

Decided from the access maps: for each buffer dim k and modulus m, each addressed read is cut along the time
dims that step its index along k by other than a multiple of m (an upsample's y / 2 - 1 + 2 * (y % 2) is
yo - 1 + 2 * yi on the strip-mined loop: cut along yo only), and the banks are kept when the mapping stores
fewer words in no more memory tiles than the one before (`mapping.map_buffer`). Designs
whose buffers are at their minimum never reach here, so their output is unchanged.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math

import islpy as isl

from mainspring.target import CGRA

from . import mapping as mp
from . import port_controllers as pc
from .errors import MemoryMappingError
from .ir import CONTROLLERS_PER_TILE_READ_PORT, Bank, BankPort, Dim
from .isl_text import isl_set
from .polyhedral import Access, Program
from .schedule import Schedule
from .timing import bounds, flat_map

MODULI = (2, 3)  # residues tried: the rows of an upsample by 2, the taps of a 3-row stencil
MAX_PIECES = 9  # reads a read is split into at most (each its own controller)

# (dim, modulus) -> the reads split by residue (`_split_reads`): the same with and without registers after bank
# read ports, so `mapping` splits them once
Splits = dict[tuple[int, int], "list[mp.Read] | None"]


def residue_banked(prog: Program, sched: Schedule, target: CGRA, name: str, reads: list[mp.Read],
                   wports: mp.WritePorts, slices: int, best: mp.Organised, fold: bool = False,
                   splits: Splits | None = None) -> mp.Organised:
    """`best`, or the mapping with banks by residue that stores fewer words in no more tiles. Tried only where the
    addressed reads take more than one bank (more reads than a tile's read ports: banks holding the same rows).
    With `fold`, the split reads that are others delayed are registers after their bank read ports. `splits`
    keeps the reads split by (dim, modulus) for another call with the same `reads`."""
    if sum(1 for b in best[2] if b.kind == "addressed") < 2:
        return best
    splits = {} if splits is None else splits
    for k in reversed(range(len(prog.nest.buffer(name).box))):  # rows before columns where both do
        for m in MODULI:
            if (k, m) not in splits:
                splits[(k, m)] = _split_reads(prog, sched, name, reads, k, m)
            split = splits[(k, m)]
            if split is None:
                continue
            # The banks by residue alone already cost their words and tiles: a trial is dropped as soon as they
            # reach what would make the comparison below reject it (its banks' circular sizes are most of the
            # mapping's time, each an isl question of its own).
            budget = (mp.organised_words(wports, best) - len(wports), mp.organised_tiles(best))
            banker = functools.partial(_residue_banks, dim=k, modulus=m, budget=budget)
            try:
                got = mp.organise(prog, sched, target, name, split, wports, slices, banker, fold)
            except (MemoryMappingError, _OverBudget):
                continue  # more write streams or read controllers than a tile has, or no better than `best`
            if fold and mp.folds_clash(got):
                continue
            if mp.improves(wports, got, best):
                best = got
    return best



# ---- reads split by residue -------------------------------------------------------------------------------

def _split_reads(prog: Program, sched: Schedule, buf: str, reads: list[mp.Read], k: int,
                 m: int) -> list[mp.Read] | None:
    """The reads with each addressed one split into reads whose element along dim k has one residue modulo m
    (None: a read would be split into too many, or none changes residue: nothing to bank). Read ports are
    renumbered in order."""
    out: list[mp.Read] = []
    split_any = False
    for r in reads:
        if r.port.delay is not None or r.by_writes:
            out.append(r)
            continue
        boxes = _residue_boxes(prog, r, k, m)
        if boxes is None:
            return None
        split_any |= len(boxes) > 1
        out += [_piece(prog, sched, buf, r, box) for box in boxes]
    if not split_any:
        return None
    return [dataclasses.replace(r, port=dataclasses.replace(r.port, name=f"{buf}.r{j}")) for j, r in enumerate(out)]


def _residue_boxes(prog: Program, r: mp.Read, k: int, m: int) -> list[tuple[Dim, ...]] | None:
    """The read's domain cut along each time dim that changes its element's residue along dim k: every p-th
    iteration from each of the first p (p = m / gcd(m, the element's step per iteration)), so that in each box
    the residue is one (None: more than `MAX_PIECES` boxes)."""
    coef = dict(_load(prog, r).index[k].terms)
    cuts = []
    for d in r.port.domain:
        step = coef.get(d.var, 0) * d.step
        p = m // math.gcd(m, step) if d.extent > 1 else 1
        cuts.append([Dim(d.var, d.min + rho * d.step, (d.extent - rho + p - 1) // p, d.strip, d.step * p)
                     for rho in range(min(p, d.extent))] if p > 1 else [d])
    if math.prod(len(c) for c in cuts) > MAX_PIECES:
        return None
    return [tuple(box) for box in itertools.product(*cuts)]


def _piece(prog: Program, sched: Schedule, buf: str, r: mp.Read, box: tuple[Dim, ...]) -> mp.Read:
    """The read over `box` (part of its domain): its flow restricted to it, its controller over it."""
    f = r.flow
    if box == r.port.domain:
        return r
    ts = ", ".join(f"t{j}" for j in range(len(box)))
    flow = dataclasses.replace(f, rel=f.rel.intersect_range(isl_set(f"{{ {f.dst.time_name}[{ts}] : {bounds(box)} }}")))
    t = sched.timing[f.dst.name]
    addr = mp.element_address(prog, buf, _load(prog, r).index, f.dst, f.dst_lane, box)
    ctrl = pc.controller(box, t.rates, t.delay + f.read_offset + pc.box_offset(box, f.dst.time_dims, t.rates), addr)
    return mp.Read(dataclasses.replace(r.port, domain=box, controller=ctrl), flow)


def _load(prog: Program, r: mp.Read) -> Access:
    return next(a for a in prog.accesses if a.stmt is r.flow.dst and a.name == r.flow.load)


def _residue(prog: Program, r: mp.Read, k: int, m: int) -> int:
    """The residue modulo m of the elements the read takes along dim k (one over its domain)."""
    env = {d.var: v for d, v in zip(r.flow.dst.lane_dims, r.port.lane)} | {d.var: d.min for d in r.port.domain}
    return _load(prog, r).index[k].evaluate(env) % m


# ---- banks and shared tile read ports ---------------------------------------------------------------------

class _OverBudget(Exception):
    """The banks by residue made so far store at least the words, or take more tiles, than the budget allows."""


def _residue_banks(prog: Program, sched: Schedule, target: CGRA, buf: str, reads: list[mp.Read],
                   wports: mp.WritePorts, slices: int, first: int, *, dim: int, modulus: int,
                   budget: tuple[int, int] | None = None) -> tuple[list[Bank], dict[str, str]]:
    """A `mapping._Banker`: per residue, the reads (one bank read port for reads of the same words in the same
    cycles) on tile read ports that each serve reads of disjoint cycles, two tile read ports per bank. With a
    `budget` (words as `mapping.organised_words` counts a bank's, tiles), raise `_OverBudget` once the banks reach
    either (those words or more, more tiles): the mapping holding them would store no fewer words or take more tiles."""
    classes: dict[int, list[mp.Read]] = {}
    for r in reads:
        classes.setdefault(_residue(prog, r, dim, modulus), []).append(r)
    groups = []  # (the reads by the first of those reading the same words, one bank's tile read ports)
    for res in sorted(classes):
        same = mp.same_words(classes[res])
        ports = _tile_ports(prog, sched, list(same))
        groups += [(same, ports[j: j + target.mem_tile_read_ports])
                   for j in range(0, len(ports), target.mem_tile_read_ports)]
    # a bank stores at least a word and takes a tile per slice: often over budget before any circular size
    _check_budget(budget, sum(1 + len(group) for _, group in groups), len(groups) * slices)
    banks: list[Bank] = []
    served: dict[str, str] = {}
    for same, group in groups:
        bank, by = _bank(prog, sched, target, buf, group, same, wports, slices, f"{buf}.bank{first + len(banks)}")
        banks.append(bank)
        served |= by
        _check_budget(budget, sum(b.words + len(b.tile_read_ports) for b in banks),
                      sum(b.tiles * b.slices for b in banks))
    return banks, served


def _check_budget(budget: tuple[int, int] | None, words: int, tiles: int) -> None:
    if budget is not None and (words >= budget[0] or tiles > budget[1]):
        raise _OverBudget


def _tile_ports(prog: Program, sched: Schedule, reads: list[mp.Read]) -> list[list[mp.Read]]:
    """The reads on tile read ports, first fit in buffer order: reads on one port fire in disjoint cycles."""
    ports: list[list[mp.Read]] = []
    busy: list[isl.Set] = []  # the cycles each tile read port reads in
    for r in sorted(reads, key=lambda r: (_least(prog, r), reads.index(r))):
        cycles = _read_cycles(sched, r)
        free = next((j for j, used in enumerate(busy)
                     if len(ports[j]) < CONTROLLERS_PER_TILE_READ_PORT and used.intersect(cycles).is_empty()), None)
        if free is not None:
            ports[free].append(r)
            busy[free] = busy[free].union(cycles)
        else:
            ports.append([r])
            busy.append(cycles)
    return ports


def _least(prog: Program, r: mp.Read) -> tuple[int, ...]:
    box = mp.element_hull(_load(prog, r).index, r.flow.dst, r.port.lane, r.port.domain)
    return tuple(reversed([e[0] for e in box]))


def _read_cycles(sched: Schedule, r: mp.Read) -> isl.Set:
    s, t = r.flow.dst, sched.timing[r.flow.dst.name]
    return _box_cycles(s.time_name, s.time_dims, t.rates, t.delay + r.flow.read_offset, r.port.domain)


@functools.lru_cache(maxsize=4096)
def _box_cycles(name: str, dims: tuple[Dim, ...], rates: tuple[int, ...], offset: int,
                box: tuple[Dim, ...]) -> isl.Set:
    """The cycles of the iterations `box` of a stmt's time dims `dims`: asked again for the same read by every
    trial of banks by residue (each residue's reads, with and without registers after their bank read ports)."""
    ts = ", ".join(f"t{j}" for j in range(len(dims)))
    within = isl_set(f"{{ {name}[{ts}] : {bounds(box)} }}")
    return flat_map(name, dims, rates, offset).intersect_domain(within).range()


def _bank(prog: Program, sched: Schedule, target: CGRA, buf: str, ports: list[list[mp.Read]],
          same: dict[mp.Read, list[mp.Read]], wports: mp.WritePorts, slices: int,
          name: str) -> tuple[Bank, dict[str, str]]:
    """One tile's bank: the elements its reads take, written by their streams, read through `ports` (the first
    read of each tile read port owns it, the others share it)."""
    reads = [r for port in ports for r in port]
    mine = sorted({(r.flow.src_lane, r.flow.src.index): (r.flow.src_lane, r.flow.src) for r in reads}.items())
    srcs = [v for _, v in mine]
    if len(srcs) > target.mem_tile_write_ports:
        raise MemoryMappingError(f"buffer '{buf}': a bank by residue needs {len(srcs)} write streams")
    hull, writes, words = mp.region_layout(prog, sched, buf, reads, srcs)
    wps = tuple(BankPort(f"{name}.w{k}", "write", src.name, lane, box, ctrl, source=wports[(src.name, lane)].name,
                         region=(0, words)) for k, (src, lane, box, ctrl) in enumerate(writes))
    owners = [port[0] for port in ports]
    order = owners + [r for port in ports for r in port[1:]]
    owner_of = {r: f"{name}.r{owners.index(port[0])}" for port in ports for r in port[1:]}
    rps = tuple(BankPort(f"{name}.r{k}", "read", r.port.op, r.port.lane, r.port.domain,
                         mp.read_controller(prog, sched, buf, r, hull), load=r.port.load, region=(0, words),
                         shared=tuple(o.port.lane for o in same[r][1:]), shares=owner_of.get(r))
                for k, r in enumerate(order))
    served = {o.port.name: p.name for r, p in zip(order, rps) for o in same[r]}
    return Bank(name, "addressed", words, math.ceil(words / target.mem_tile_words), slices, wps, rps), served

