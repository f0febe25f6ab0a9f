"""A RAM buffer (`hwlower.ir.Buffer.init`: a Func updated at computed coordinates) on memory tiles, and its proof.

The whole box is one bank of kind "ram", each element at its x-fastest linear address, spanning the tiles its
words need. Its write port is the update op's read-modify-write (`Op.scatter`): in the cycle the op fires, its
kernel computes the address and the tile reads the element there; in the next cycle (the write cycle, fire + 1)
the op's value, computed from the word read (its kernel's input named by the write bank port's `load`), is
written back. A read issued in a write cycle at the address being written gets the new value (forwarding), so
consecutive updates of one element chain at one per cycle. Every element reads as `init` until its first update
(a valid bit per word, cleared when the schedule restarts). The readers load the RAM at affine indices through
addressed read ports, each read at least one cycle after the last write (`Program.orders`, which the schedule
meets).

Storage: the SRAM words, the update's read register and write port, and one output register per read port.
"""

from __future__ import annotations

import math

import islpy as isl

from mainspring.hwlower.ir import Affine
from mainspring.target import CGRA

from .errors import MemoryCheckError, MemoryMappingError
from .ir import Bank, BankPort, BufferPlan, Controller, Dim, OpSchedule, ReadPort, WritePort
from .mapping import controller, element_address
from .polyhedral import Program
from .schedule import Schedule


def ram_words(prog: Program, name: str) -> int:
    """Every element of a RAM may be updated, and all are read after the last update: the box is live."""
    return math.prod(extent for _, extent in prog.nest.buffer(name).box)


def map_ram(prog: Program, sched: Schedule, target: CGRA, name: str, min_words: int) -> BufferPlan:
    buf = prog.nest.buffer(name)
    (writer,) = [s for s in prog.stmts if s.op is not None and s.op.scatter and s.op.store.buffer == name]
    t = sched.timing[writer.name]
    wctrl = controller(writer.time_dims, t.rates, t.delay + writer.latency)
    wp = WritePort(f"{name}.w0", name, writer.name, (), wctrl)
    words = ram_words(prog, name)
    reads: list[ReadPort] = []
    bank_reads: list[BankPort] = []
    for f in [f for f in prog.orders if f.buffer == name]:
        load = next(a for a in prog.accesses if a.stmt is f.dst and a.name == f.load)
        td = sched.timing[f.dst.name]
        ctrl = controller(f.dst.time_dims, td.rates, td.delay,
                          element_address(prog, name, load.index, f.dst, f.dst_lane))
        k = len(reads)
        bank_reads.append(BankPort(f"{name}.ram.r{k}", "read", f.dst.name, f.dst_lane, f.dst.time_dims, ctrl,
                                   load=f.load, region=(0, words)))
        reads.append(ReadPort(f"{name}.r{k}", name, f.dst.name, f.load, f.dst_lane, wp.name, f.dst.time_dims, None,
                              bank_reads[-1].name, ctrl))
    if len(reads) > target.mem_tile_read_ports:
        raise MemoryMappingError(
            f"buffer '{name}' is a RAM (updated at computed coordinates) read through {len(reads)} ports after its "
            f"updates, and a memory tile has {target.mem_tile_read_ports}; read it at fewer places per cycle (fewer "
            "lanes or taps in the Funcs that read it), or copy it into a Func that the others read",
            reads[-1].op)
    assert writer.op is not None, "the RAM's writer is an op"
    old = [p.name for p in writer.op.loads if not p.access.index]  # the element it updates, before the update
    wbank = BankPort(f"{name}.ram.w0", "write", writer.name, (), writer.time_dims, wctrl, source=wp.name,
                     load=old[0] if old else None, region=(0, words))
    bank = Bank(f"{name}.ram", "ram", words, math.ceil(words / target.mem_tile_words),
                math.ceil(buf.type.bits() / target.word_bits), (wbank,), tuple(bank_reads))
    storage = 2 + words + len(reads)  # the write port's value, the update's read register, SRAM, read registers
    return BufferPlan(name, str(buf.type), buf.type.bits(), buf.box, "internal", "mem_tile", min_words, storage,
                      (wp,), tuple(reads), (), (bank,), init=buf.init)


# ---- the proof (memories/checker.py calls it for RAM buffers) --------------------------------------------

def check_ram(buf: BufferPlan, prog: Program, ops: dict[str, OpSchedule], target: CGRA) -> None:
    """The RAM's write port writes in the cycles after its update op fires, each read port loads at the op's
    firings the element its load names, after the last write, and the tiles hold the box."""
    def fail(message: str) -> None:
        raise MemoryCheckError(f"memories check: RAM '{buf.name}': {message}")

    (bank,) = buf.banks
    (wp,) = buf.write_ports
    words = math.prod(e for _, e in buf.box)
    if bank.kind != "ram" or bank.words != words or bank.tiles * target.mem_tile_words < words:
        fail(f"bank {bank.name} ({bank.kind}, {bank.words} words on {bank.tiles} tiles) does not hold its {words}")
    writer = ops[wp.op]
    if not _cycles(wp.controller, writer.dims).is_equal(_cycles(writer.controller, writer.dims, writer.latency)):
        fail(f"write port {wp.name} does not write {writer.latency} cycle(s) after op '{writer.op}' fires")
    last_write = _value(_cycles(wp.controller, writer.dims).lexmax())
    for rp in buf.read_ports:
        op = ops[rp.op]
        if not _cycles(rp.controller, op.dims).is_equal(_cycles(op.controller, op.dims)):
            fail(f"read port {rp.name} does not load when op '{op.op}' fires")
        if _value(_cycles(rp.controller, op.dims).lexmin()) <= last_write:
            fail(f"read port {rp.name} loads before the last update's write (cycle {last_write}) is done")
        load = next(a for a in prog.accesses if a.stmt.name == rp.op and a.name == rp.load)
        want = _addresses(buf, load.index, load.stmt.time_dims, load.stmt.lane_dims, rp.lane)
        if not _addresses_of(rp.controller, op.dims).is_equal(want):
            fail(f"read port {rp.name} does not address the elements load '{rp.load}' of op '{rp.op}' reads")


def _value(s: isl.Set) -> int:
    return s.sample_point().get_coordinate_val(isl.dim_type.set, 0).to_python()


def _cycles(c: Controller, dims: tuple[Dim, ...], extra: int = 0) -> isl.Set:
    """The cycles a controller over `dims` (outermost first) fires in, plus `extra`."""
    return _ctrl(c, dims, c.cycle_starting_addr + extra, c.cycle_stride).range()


def _addresses_of(c: Controller, dims: tuple[Dim, ...]) -> isl.Map:
    return _ctrl(c, dims, c.data_starting_addr, c.data_stride)


def _ctrl(c: Controller, dims: tuple[Dim, ...], start: int, strides: tuple[int, ...]) -> isl.Map:
    n = len(dims)
    ts = [f"t{k}" for k in range(n)]
    terms = [f"{strides[n - 1 - k]}*({ts[k]} - {d.min})" for k, d in enumerate(dims)] if strides else []
    cond = " and ".join(f"{d.min} <= {v} < {d.min + d.extent}" for v, d in zip(ts, dims)) or "true"
    return isl.Map(f"{{ [{', '.join(ts)}] -> [{' + '.join(terms + [str(start)])}] : {cond} }}")


def _addresses(buf: BufferPlan, index: tuple[Affine, ...], time: tuple[Dim, ...], lanes: tuple[Dim, ...],
               lane: tuple[int, ...]) -> isl.Map:
    """{ [time dims] -> [linear address] } of a load at `index` for one lane, x fastest over the box."""
    env = {d.var: f"t{k}" for k, d in enumerate(time)} | {d.var: str(v) for d, v in zip(lanes, lane)}
    stride, terms = 1, []
    for a, (lo, extent) in zip(index, buf.box):
        expr = " + ".join([f"{c}*{env[v]}" for v, c in a.terms] + [str(a.const - lo)])
        terms.append(f"{stride}*({expr})")
        stride *= extent
    ts = ", ".join(f"t{k}" for k in range(len(time)))
    cond = " and ".join(f"{d.min} <= t{k} < {d.min + d.extent}" for k, d in enumerate(time)) or "true"
    return isl.Map(f"{{ [{ts}] -> [{' + '.join(terms) or '0'}] : {cond} }}")
