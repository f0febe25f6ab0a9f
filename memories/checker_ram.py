"""The checker's proof for RAMs (memories/ram.py): written in its update ops' write cycles, one update after
another, read at the elements its readers' loads name, and only after its last write."""

from __future__ import annotations

import math

import islpy as isl

from mainspring.target import CGRA

from .ir import BufferPlan, OpSchedule
from .isl_text import isl_map
from .polyhedral import Access, Program, point_values
from .timing import bounds


def check_ram(buf: BufferPlan, prog: Program, ops: dict[str, OpSchedule], target: CGRA) -> None:
    """The RAM's write ports write in the cycles their update ops' values are written (fire + latency), one update
    after another, each read port loads at its op's firings the element its load names, after the last write, and
    the tiles hold the box."""
    from .checker import _ctrl_map, _fail, _follow  # the checker's own rules; it imports this module

    (bank,) = buf.banks
    words = math.prod(e for _, e in buf.box)
    if bank.kind != "ram" or bank.words != words or bank.tiles * target.mem_tile_words < words:
        _fail(buf.name, f"RAM bank {bank.name} ({bank.kind}, {bank.words} words on {bank.tiles} tiles) does not hold "
                        f"its {words} elements")
    last_write = -1
    for wp in buf.write_ports:  # the updates in sequence through one update port: each reads after the last write
        writer = ops[wp.op]
        _follow(buf.name, wp.name, "W", writer.dims, wp.controller, writer, writer.latency)
        cycles = _ctrl_map("W", writer.dims, wp.controller, False).range()
        first_read = point_values(cycles.lexmin())[0] - 1  # it reads the old word a cycle before it writes
        if first_read < last_write:
            _fail(buf.name, f"write port {wp.name} reads its first element in cycle {first_read}, before the update "
                            f"before it is done (cycle {last_write})")
        last_write = point_values(cycles.lexmax())[0]
    for rp in buf.read_ports:
        op = ops[rp.op]
        load = next(a for a in prog.accesses if a.stmt.name == rp.op and a.name == rp.load)
        computed = not load.index  # the reader's address kernel addresses it as it fires; the word comes after
        _follow(buf.name, rp.name, "R", op.dims, rp.controller, op, int(computed))
        first = point_values(_ctrl_map("R", op.dims, rp.controller, False).range().lexmin())[0]
        if first <= last_write:
            _fail(buf.name, f"read port {rp.name} loads in cycle {first}, before the last update's write (cycle "
                            f"{last_write}) is done")
        if not computed and not _ctrl_map("R", op.dims, rp.controller, True).is_equal(
                _ram_addresses(buf, load, rp.lane)):
            _fail(buf.name, f"read port {rp.name} does not address the elements load '{rp.load}' of op '{rp.op}' "
                            "reads")


def _ram_addresses(buf: BufferPlan, load: Access, lane: tuple[int, ...]) -> isl.Map:
    """{ R[time dims] -> [linear address] } of a load for one lane, x fastest over the box (from the nest)."""
    time, lanes = load.stmt.time_dims, load.stmt.lane_dims
    env = {d.var: f"t{k}" for k, d in enumerate(time)} | {d.var: str(v) for d, v in zip(lanes, lane)}
    stride, terms = 1, []
    for a, (lo, extent) in zip(load.index, buf.box):
        terms.append(f"{stride}*({' + '.join([f'{c}*{env[v]}' for v, c in a.terms] + [str(a.const - lo)])})")
        stride *= extent
    ts = ", ".join(f"t{k}" for k in range(len(time)))
    return isl_map(f"{{ R[{ts}] -> [{' + '.join(terms) or '0'}] : {bounds(time)} }}")
