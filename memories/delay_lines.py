"""Build each write stream's taps: register chains and chained delay lines, packed into memory tiles.

A stream's taps are counted in the root's writes when each read sits a constant number of writes after its
value (`write_steps`), else in cycles. Both give the same chain:
- a tap at most `target.register_delay_limit` (and at least one) after the previous tap is a run of registers;
- a farther tap `t` is a delay line fed by the previous tap's element (at `b`) and read once at `t`: its SRAM
  holds `t - b - 1` words and its read port's output register the last one, so the chain holds each value
  exactly once. The classic 3x3 window on a W-wide stream: wire, 2 registers, a line of W - 2, 2 registers, a
  line of W - 2, 2 registers: 2W + 3 values, the exact minimum. Counting writes, a 62-pixel row in a 64-cycle
  row costs 62 words, not 64. A delay longer than a tile chains lines through intermediate taps (no loss).
- Delay lines of one stream share a memory tile, each in its own region, while the tile's words and ports
  (one write and one read per line) allow.
"""

from __future__ import annotations

import math

import islpy as isl

from mainspring.target import CGRA

from .ir import Bank, BankPort, Controller, Dim, Register, WritePort
from .polyhedral import Flow, Stmt
from .schedule import Schedule
from .timing import flat_map, linear_map, writes_before


def write_steps(sched: Schedule, src: Stmt, flows: list[Flow]) -> dict[Flow, int] | None:
    """Per flow, the steps of its write tap: `n - v` for a read of value number v in a cycle before which `src`
    has written n values; None unless that is constant per flow (else the taps count cycles)."""
    t = sched.timing[src.name]
    written = flat_map(src.time_name, src.time_dims, t.rates, t.delay + src.latency)
    out = {}
    for f in flows:
        td = sched.timing[f.dst.name]
        steps = _steps(f.rel, written, flat_map(f.dst.time_name, f.dst.time_dims, td.rates, td.delay + f.read_offset),
                       src.time_name, src.time_dims)
        if steps is None:
            return None
        out[f] = steps
    return out


def _steps(rel: isl.Map, written: isl.Map, read: isl.Map, name: str, dims: tuple[Dim, ...]) -> int | None:
    # Cached by the relation's text and the cycle maps' identities (`flat_map` hands out one object per schedule):
    # the mapping's trials place the same buffer's taps again and again, and a process compiles the same design
    # again (the autoscheduler's budget, then the user), whose flows are new objects of the same text.
    key = (rel.to_str(), id(written), id(read), name, dims)
    hit = _STEPS.get(key)
    if hit is not None and hit[0] is written and hit[1] is read:
        return hit[2]
    if len(_STEPS) >= 4096:
        _STEPS.clear()
    before = writes_before(written, dims)
    steps = rel.apply_range(read).apply_range(before).apply_domain(linear_map(name, dims)).deltas()
    value = None
    if not steps.is_empty():
        lo, hi = steps.dim_min_val(0).to_python(), steps.dim_max_val(0).to_python()
        value = lo if lo == hi else None
    _STEPS[key] = (written, read, value)  # the maps kept alive with their ids
    return value


_STEPS: dict[tuple[str, int, int, str, tuple[Dim, ...]], tuple[isl.Map, isl.Map, int | None]] = {}


def tap_chain(wp: WritePort, dims: tuple[Dim, ...], delays: set[int], gated: bool, target: CGRA, slices: int,
              first_bank: int) -> tuple[list[Register], list[Bank], dict[int, str]]:
    """Registers and delay-line banks delivering `wp`'s stream at each delay; the element name per delay."""
    items = _layout(sorted(delays - {0}), target)
    groups = _pack([it for it in items if it[0] == "line"], target)
    names = {}  # (base, tap) -> (bank name, port index)
    for k, group in enumerate(groups):
        for j, (_, base, tap) in enumerate(group):
            names[(base, tap)] = (f"{wp.buffer}.bank{first_bank + k}", j)
    elements = {0: wp.name}
    registers = []
    for kind, base, tap in items:  # ascending, so each source element is named before it is used
        if kind == "register":
            elements[tap] = f"{wp.name}.reg{tap}"
            registers.append(Register(elements[tap], elements[base], wp.name, tap, gated))
        else:
            bank, j = names[(base, tap)]
            elements[tap] = f"{bank}.r{j}"
    banks = [delay_line_bank(wp, dims, group, elements, gated, slices, target, first_bank + k)
             for k, group in enumerate(groups)]
    return registers, banks, elements


def _layout(taps: list[int], target: CGRA) -> list[tuple[str, int, int]]:
    """("register", tap - 1, tap) and ("line", base, tap) items in ascending tap order."""
    items: list[tuple[str, int, int]] = []
    prev = 0
    for d in taps:
        if d - prev <= max(target.register_delay_limit, 1):  # a delay line delivers two cycles after a write
            items += [("register", k - 1, k) for k in range(prev + 1, d + 1)]
        else:
            base = prev
            while d - base - 1 > target.mem_tile_words:  # a full tile, then chain on from its tap
                items.append(("line", base, base + target.mem_tile_words + 1))
                base += target.mem_tile_words + 1
            # one tap past a full tile is a register, not a line of no words
            items.append(("register", base, d) if d == base + 1 else ("line", base, d))
        prev = d
    return items


def _pack(lines: list[tuple[str, int, int]], target: CGRA) -> list[list[tuple[str, int, int]]]:
    """Consecutive delay lines grouped into tiles: within the tile's words, one write and one read port each."""
    per_tile = min(target.mem_tile_write_ports, target.mem_tile_read_ports)
    groups: list[list[tuple[str, int, int]]] = []
    used = 0
    for line in lines:
        words = line[2] - line[1] - 1
        if groups and len(groups[-1]) < per_tile and used + words <= target.mem_tile_words:
            groups[-1].append(line)
            used += words
        else:
            groups.append([line])
            used = words
    return groups


def delay_line_bank(wp: WritePort, dims: tuple[Dim, ...], group: list[tuple[str, int, int]],
                    elements: dict[int, str], gated: bool, slices: int, target: CGRA, index: int) -> Bank:
    """Bank `index` of `wp`'s buffer: the delay lines of `group` ("line", base, tap) in regions of one tile."""
    name = f"{wp.buffer}.bank{index}"
    w = wp.controller
    count, p = [], 1
    for e in w.extent:
        count.append(p)
        p *= e
    stream = Controller(w.extent, w.cycle_starting_addr, w.cycle_stride, 0, tuple(count), w.then)
    writes, reads, offset = [], [], 0
    for j, (_, base, tap) in enumerate(group):
        region = (offset, tap - base - 1)
        offset += region[1]
        if gated:  # write value i - base in write cycle i; read value i + 1 - tap in the cycle after it
            wc, rc = _addressed(stream, -base, region[1]), _addressed(stream.shifted(1), 1 - tap, region[1])
        else:  # write and read value i in write cycle i shifted by the delays
            wc, rc = stream.shifted(base), stream.shifted(tap)
        writes.append(BankPort(f"{name}.w{j}", "write", wp.op, wp.lane, dims, wc, source=elements[base], delay=base,
                               region=region))
        reads.append(BankPort(f"{name}.r{j}", "read", wp.op, wp.lane, dims, rc, delay=tap, region=region))
    return Bank(name, "delay_line", offset, math.ceil(offset / target.mem_tile_words), slices, tuple(writes),
                tuple(reads), root=wp.name, gated=gated)


def _addressed(c: Controller, start: int, words: int) -> Controller:
    return Controller(c.extent, c.cycle_starting_addr, c.cycle_stride, start % words, c.data_stride, c.then)

