"""A RAM buffer (`hwlower.ir.Buffer.init`: a Func updated at computed coordinates) on memory tiles (proved by
memories/checker.py).

The whole box is one bank of kind "ram", each element at its x-fastest linear address, spanning the tiles its
words need. Its write port is the update op's read-modify-write (`Op.scatter`): its address kernel, pipelined over
d stages, gives the address d - 1 cycles after the op fires (in the firing cycle when it is one stage) and the
tile reads the element there; in the next cycle (the write cycle, fire + the op's latency d) the op's value,
computed from the word read (its kernel's input named by the write bank port's `load`), is written back. A
read issued in a write cycle at the address being written gets the new value (forwarding), so consecutive
updates of one element chain at one per cycle. Every element reads as `init` (one constant, or its own entry of
the table) until its first update (a valid bit per word, cleared when the schedule restarts). The readers load the
RAM at affine indices through addressed read ports, each read at least one cycle after the last write
(`Program.orders`, which the schedule meets). A reader at computed coordinates (`Op.lookup`) gives the address from
its own address kernel in the cycle it fires; the word comes in the next, where its value kernel takes it (its
latency counts the cycle).

Storage: the SRAM words, the update's read register and write port, and one output register per read port.
"""

from __future__ import annotations

import math

from mainspring.target import CGRA

from .errors import MemoryMappingError
from .ir import Bank, BankPort, BufferPlan, ReadPort, WritePort
from .mapping import element_address
from .polyhedral import Program
from .port_controllers import controller
from .schedule import Schedule


def ram_words(prog: Program, name: str) -> int:
    """Every element of a RAM may be updated, and all are read after the last update: the box is live."""
    return math.prod(extent for _, extent in prog.nest.buffer(name).box)


def map_ram(prog: Program, sched: Schedule, target: CGRA, name: str, min_words: int) -> BufferPlan:
    buf = prog.nest.buffer(name)
    writers = [s for s in prog.stmts if s.op is not None and s.op.scatter and s.op.store.buffer == name]
    wps, wbanks = [], []
    words = ram_words(prog, name)
    for k, writer in enumerate(writers):  # the updates in sequence (Program.orders), through the one update port
        t = sched.timing[writer.name]
        wctrl = controller(writer.time_dims, t.rates, t.delay + writer.latency)
        wps.append(WritePort(f"{name}.w{k}", name, writer.name, (), wctrl))
        assert writer.op is not None, "the RAM's writer is an op"
        old = [p.name for p in writer.op.loads if not p.access.index]  # the element it updates, before the update
        wbanks.append(BankPort(f"{name}.ram.w{k}", "write", writer.name, (), writer.time_dims, wctrl,
                               source=wps[-1].name, load=old[0] if old else None, region=(0, words)))
    reads: list[ReadPort] = []
    bank_reads: list[BankPort] = []
    for f in [f for f in prog.orders if f.buffer == name]:
        if f.dst in writers:  # an update after the one before it: through the update port
            continue
        load = next(a for a in prog.accesses if a.stmt is f.dst and a.name == f.load)
        td = sched.timing[f.dst.name]
        assert not f.read_offset, f"{f.dst.name}: a RAM's readers read as they fire"
        if load.index:
            ctrl = controller(f.dst.time_dims, td.rates, td.delay,
                              element_address(prog, name, load.index, f.dst, f.dst_lane))
        else:  # at computed coordinates: the reader's address kernel gives the address as it fires, the word
            ctrl = controller(f.dst.time_dims, td.rates, td.delay + 1)  # comes a cycle later
        k = len(reads)
        bank_reads.append(BankPort(f"{name}.ram.r{k}", "read", f.dst.name, f.dst_lane, f.dst.time_dims, ctrl,
                                   load=f.load, region=(0, words)))
        reads.append(ReadPort(f"{name}.r{k}", name, f.dst.name, f.load, f.dst_lane, wps[-1].name, f.dst.time_dims,
                              None, bank_reads[-1].name, ctrl))
    copied = name.rstrip("_") == f"{prog.nest.output}_acc" and all(
        (op := prog.stmt(r.op).op) is not None and op.store.buffer == prog.nest.output for r in reads)
    if len(reads) > target.mem_tile_read_ports and copied:  # the output's own RAM (hwlower/output_copy.py)
        raise MemoryMappingError(
            f"the accelerator's output '{prog.nest.output}' is a RAM (a table updated at computed coordinates), "
            f"streamed out through {len(reads)} lanes per cycle, and a memory tile serves "
            f"{target.mem_tile_read_ports} reads per cycle; unroll its pure definition by at most "
            f"{target.mem_tile_read_ports}", reads[-1].op)
    if len(reads) > target.mem_tile_read_ports and buf.copy_of is not None:
        raise MemoryMappingError(
            f"'{buf.copy_of}' is read at computed coordinates from a RAM (its copy '{name}': a scan cannot be one) "
            f"read through {len(reads)} ports after its updates, and a memory tile has "
            f"{target.mem_tile_read_ports}; read '{buf.copy_of}' at fewer places per cycle (fewer lanes or taps in "
            "the Funcs that read it)", reads[-1].op)
    if len(reads) > target.mem_tile_read_ports:
        raise MemoryMappingError(
            f"buffer '{name}' is a RAM (updated at computed coordinates) read through {len(reads)} ports after its "
            f"updates, and a memory tile has {target.mem_tile_read_ports}; read it at fewer places per cycle (fewer "
            "lanes or taps in the Funcs that read it), or copy it into a Func that the others read",
            reads[-1].op)
    bank = Bank(f"{name}.ram", "ram", words, math.ceil(words / target.mem_tile_words),
                math.ceil(buf.type.bits() / target.word_bits), tuple(wbanks), tuple(bank_reads))
    storage = 1 + len(wps) + words + len(reads)  # the write ports' values, the update's read register, SRAM, reads
    return BufferPlan(name, str(buf.type), buf.type.bits(), buf.box, "internal", "mem_tile", min_words, storage,
                      tuple(wps), tuple(reads), (), (bank,), init=buf.init)
