"""The values an addressed bank read port must load, and the write port of its region that writes each: for
the checker (memories/checker.py), which proves each such pair.

A value is named by the buffer's write port (op and lane) that produces it and that op's iteration. A bank write
port fed by the stream writes the value of its own iteration; a chained bank write port (memories/chained.py),
fed by another bank's read port F, writes in F's load cycles the word F loads there: the value F is proven to
load at that iteration (its flows', or a register after it needs), so its values are F's composed (reader
iteration -> value -> F's iteration), never assumed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import islpy as isl

from . import checker as ck
from .ir import Bank, BankPort, BufferPlan, OpSchedule, last_of_runs
from .iteration_boxes import box_set
from .polyhedral import Program, point_values

# (the buffer write port producing the values, { reader iteration -> that port's op iteration (tuple V) })
Values = tuple[str, isl.Map]
# { chained bank write port -> { buffer write port -> { its feeder's iteration (tuple X) -> value } } }
Fed = dict[str, dict[str, isl.Map]]


def feeder(buf: BufferPlan, w: BankPort) -> BankPort | None:
    """The addressed bank read port feeding bank write port w (a chained bank), or None (fed by the stream)."""
    return next((p for b in buf.banks if b.kind == "addressed" for p in b.read_ports if p.name == w.source), None)


def flow_values(buf: BufferPlan, r: BankPort, prog: Program, rn: str) -> Iterator[Values]:
    """The values read port r must load for its own load's flows, over its domain (tuple rn)."""
    ports = {(p.op, p.lane): p.name for p in buf.write_ports}
    dom = box_set(rn, r.domain)
    for f in prog.flows:
        if f.buffer == buf.name and f.dst.name == r.op and f.load == r.load and f.dst_lane in (r.lane, *r.shared):
            m = f.rel.reverse().set_tuple_name(isl.dim_type.in_, rn).set_tuple_name(isl.dim_type.out, "V")
            yield ports[(f.src.name, f.src_lane)], m.intersect_domain(dom)


def register_values(buf: BufferPlan, r: BankPort, prog: Program, rn: str,
                    ops: dict[str, OpSchedule]) -> Iterator[Values]:
    """The values of the read ports served by registers after addressed bank read port r: a register k cycles
    after r delivers in cycle t the word r loads in cycle t - k (gated, the word r loads in the k-th last cycle
    before t that ends a run of one address), so for every iteration of such a read port at cycle t, r must
    fire then (checked here) and load there the value its flow names."""
    mine = {g.name: g for g in buf.registers if g.root == r.name}
    ports = {(p.op, p.lane): p.name for p in buf.write_ports}
    rc = ck._ctrl_map(rn, r.domain, r.controller, False)
    for p in buf.read_ports:
        if p.delay is not None or p.tap not in mine:
            continue
        op, g = ops[p.op], mine[p.tap]
        for f in prog.flows:
            if f.buffer != buf.name or (f.dst.name, f.load, f.dst_lane) != (p.op, p.load, p.lane):
                continue
            need = f.rel.intersect_range(box_set(f.dst.time_name, p.domain))
            if g.gated:
                cycles = ck._op_cycles(op, f.dst.time_name, f.read_offset).intersect_domain(need.range())
                at = _runs_back(cycles, rn, r, g.delay)
            else:
                shifted = ck._op_cycles(op, f.dst.time_name, f.read_offset - g.delay).intersect_domain(need.range())
                at = shifted.apply_range(rc.reverse())  # { read iteration -> r's iteration k cycles before }
            missing = need.range().subtract(at.domain())
            if not missing.is_empty():
                unit = "runs of a word" if g.gated else "cycles"
                ck._fail(buf.name, f"read port {p.name} (register {p.tap}, {g.delay} {unit} after {r.name}) "
                                   f"at {ck._at(p.domain, point_values(missing.lexmin()))}: {r.name} does not load "
                                   f"{g.delay} {unit} before")
            m = at.reverse().apply_range(need.reverse()).set_tuple_name(isl.dim_type.out, "V")
            yield ports[(f.src.name, f.src_lane)], m


def _runs_back(cycles: isl.Map, rn: str, r: BankPort, k: int) -> isl.Map:
    """{ read iteration -> r's iteration (tuple rn) ending a run of one address, the k-th last such before the
    read's cycle } (`cycles`: { read iteration -> [its cycle] }): the word a gated register of delay k holds."""
    box, ctrl = last_of_runs(r.domain, r.controller)
    ends = ck._ctrl_map(rn, box, ctrl, False)
    earlier = isl.Map("{ [t] -> [c] : c < t }").intersect_range(ends.range())
    at = cycles
    for _ in range(k):
        at = at.apply_range(earlier).lexmax()
    return at.apply_range(ends.reverse())


def fed_values(buf: BufferPlan, bank: Bank, prog: Program, ops: dict[str, OpSchedule]) -> Fed:
    """The values each chained write port of `bank` writes: those its feeding read port is proven to load
    (computed once per bank: every read port of the bank looks them up)."""
    return {w.name: loaded_values(buf, f, prog, ops) for w in bank.write_ports if (f := feeder(buf, w)) is not None}


def through(bank: Bank, r: BankPort, wanted: Iterable[Values], names: dict[str, str],
            fed: Fed) -> Iterator[tuple[BankPort, isl.Map]]:
    """(write port, { r's iteration -> write iteration }) for the values `wanted`, through each write port of
    r's region that writes them (`fed`: the bank's `fed_values`)."""
    region = [w for w in bank.write_ports if w.region == r.region]
    chained = any(w.name in fed for w in region)
    for port, m in wanted:
        for w in region:
            wn = names[w.name]
            if w.name not in fed:
                if w.source != port:
                    continue
                got = m.set_tuple_name(isl.dim_type.out, wn)
                # a stream write port beside a chained one writes some values only (those the chain never loads)
                yield w, got.intersect_range(box_set(wn, w.domain)) if chained else got
                continue
            writes = fed[w.name].get(port)
            if writes is not None:
                writes = writes.set_tuple_name(isl.dim_type.in_, wn).intersect_domain(box_set(wn, w.domain))
                yield w, m.apply_range(writes.reverse())


def loaded_values(buf: BufferPlan, f: BankPort, prog: Program, ops: dict[str, OpSchedule]) -> dict[str, isl.Map]:
    """{ buffer write port -> { f's iteration (tuple X) -> value } }: the values the checker proves addressed bank
    read port f loads (its flows' and those of the reads served by registers after it)."""
    out: dict[str, isl.Map] = {}
    for port, m in [*flow_values(buf, f, prog, "X"), *register_values(buf, f, prog, "X", ops)]:
        out[port] = m if port not in out else out[port].union(m)
    return out
