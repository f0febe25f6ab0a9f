"""Memory tiles shared by two banks: a tile's second port pair, idle where a bank has one write and one read port,
serves another bank (of another buffer or the same), in words of the tile past the first bank's.

Each buffer is mapped alone (memories/mapping.py), so a bank of one write and one read port (an addressed bank
of one stream read once, a single delay line) leaves half of its tile's ports unused, while another buffer may
hold a run of registers only because its own tiles' ports are all taken (unsharp's 7x7 window: the 6 row gaps
take the 6 delay lines of gray's 3 tiles, and the 4 cycles by which sharpen reads gray(x, y) after blur's window
are 4 registers). After every buffer is mapped:
- a run of registers between two taps of a stream (t - b >= 2 registers, none of them read but by the next)
  becomes a delay line from b to t on such a spare port pair: t - b - 1 SRAM words and its read port's output
  register, so the words stay as counted and t - b registers go; the longest runs first;
- then two banks with spare port pairs share one tile (one a guest on the other's), a tile fewer.
A guest bank keeps its ports, controllers and proof (memories/checker.py proves each bank alone, and that the
two banks' words and ports on the tile are apart); the Verilog gives it the tile's port pair 1 (verilog/top.py).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable

from mainspring.target import CGRA

from .delay_lines import delay_line_bank
from .ir import Bank, BufferPlan, Register
from .polyhedral import Program


@dataclasses.dataclass(frozen=True)
class _Run:
    buffer: str
    root: str  # the write port at the head of the chain
    base: int  # the delay of the element feeding the run
    source: str  # that element
    registers: tuple[Register, ...]  # delays base + 1 .. tap, in order

    @property
    def tap(self) -> int:
        return self.registers[-1].delay


def share_tiles(prog: Program, buffers: tuple[BufferPlan, ...], target: CGRA) -> tuple[BufferPlan, ...]:
    """`buffers` with register runs moved onto spare port pairs of other banks' tiles, then banks with spare port
    pairs paired on one tile."""
    out = {b.name: b for b in buffers}
    taken: set[str] = set()  # banks whose tile has both port pairs used (hosts and guests)
    while True:  # the runs found again after each move: a run's end may feed the next run, renamed by it
        placed = _place_run(prog, out, target, taken)
        if placed is None:
            break
        out[placed[0]] = placed[1]
        taken |= {placed[2]}
    spare = _spare(out.values(), target, taken)
    for k, (hbuf, host) in enumerate(spare):
        if host.name in taken:
            continue
        guest = next(((gbuf, g) for gbuf, g in spare[k + 1:] if g.name not in taken
                      and host.words + g.words <= target.mem_tile_words and out[gbuf].bits == out[hbuf].bits), None)
        if guest is None:
            continue
        gbuf, g = guest
        moved = dataclasses.replace(g, tiles=0, host=host.name, base=host.words)
        out[gbuf] = dataclasses.replace(out[gbuf], banks=tuple(moved if b.name == g.name else b
                                                               for b in out[gbuf].banks))
        taken |= {host.name, g.name}
    return tuple(out[b.name] for b in buffers)


def _place_run(prog: Program, out: dict[str, BufferPlan], target: CGRA,
               taken: set[str]) -> tuple[str, BufferPlan, str] | None:
    """(buffer, the buffer with its longest run that finds a host moved there, the host), or None."""
    runs = sorted((r for b in out.values() for r in _runs(b)),
                  key=lambda r: (-(r.tap - r.base), r.buffer, r.root, r.base))
    for run in runs:
        bits = out[run.buffer].bits
        found = next((h for hbuf, h in _spare(out.values(), target, taken)
                      if h.words + run.tap - run.base - 1 <= target.mem_tile_words and out[hbuf].bits == bits
                      and math.ceil(bits / target.word_bits) == 1), None)
        if found is not None:
            return run.buffer, _run_on(prog, out[run.buffer], run, found, target), found.name
    return None


def spare_pair(bank: Bank, target: CGRA) -> bool:
    """Whether `bank` alone on its one tile leaves the tile's second port pair unused (and could take another
    bank's one write and one read port there)."""
    return (bank.kind in ("delay_line", "addressed") and not bank.in_registers and bank.host is None
            and bank.tiles == 1 and bank.slices == 1 and len(bank.write_ports) == 1
            and len(bank.read_ports) == len(bank.tile_read_ports) == 1
            and target.mem_tile_write_ports >= 2 and target.mem_tile_read_ports >= 2)


def _spare(buffers: Iterable[BufferPlan], target: CGRA, taken: set[str]) -> list[tuple[str, Bank]]:
    return [(b.name, k) for b in sorted(buffers, key=lambda b: b.name) if b.init is None for k in b.banks
            if spare_pair(k, target) and k.name not in taken
            and not any(o.host == k.name for o in b.banks)]


def _runs(b: BufferPlan) -> list[_Run]:
    """The buffer's runs of registers on a write port's stream between two taps, at least two registers long."""
    if b.init is not None:
        return []
    uses: dict[str, int] = {}
    for name in [r.source for r in b.registers] + [p.tap for p in b.read_ports] + \
            [p.source for k in b.banks for p in k.write_ports if p.source is not None]:
        uses[name] = uses.get(name, 0) + 1
    out = []
    for wp in b.write_ports:
        chain = {r.delay: r for r in b.registers if r.root == wp.name}
        regs: list[Register] = []
        for d in sorted(chain):
            r = chain[d]
            prev = chain.get(d - 1)
            if prev is None or r.source != prev.name or uses.get(prev.name, 0) != 1:
                regs = []  # r starts a run: its source is a tap, a line's read port or the write port
            regs.append(r)
            if uses.get(r.name, 0) != 1 or chain.get(d + 1) is None or chain[d + 1].source != r.name:
                if len(regs) >= 2:
                    out.append(_Run(b.name, wp.name, regs[0].delay - 1, regs[0].source, tuple(regs)))
                regs = []
    return out


def _run_on(prog: Program, b: BufferPlan, run: _Run, host: Bank, target: CGRA) -> BufferPlan:
    """`b` with `run`'s registers replaced by a delay line on `host`'s tile."""
    wp = next(p for p in b.write_ports if p.name == run.root)
    index = 1 + max((int(m.group(1)) for k in b.banks if (m := re.fullmatch(r".*\.bank(\d+)", k.name))), default=-1)
    line = delay_line_bank(wp, prog.stmt(wp.op).time_dims, [("line", run.base, run.tap)], {run.base: run.source},
                           run.registers[0].gated, 1, target, index)
    line = dataclasses.replace(line, tiles=0, host=host.name, base=host.words)
    old, new = run.registers[-1].name, line.read_ports[0].name
    gone = {r.name for r in run.registers}

    def renamed(name: str | None) -> str | None:
        return new if name == old else name

    registers = tuple(dataclasses.replace(r, source=renamed(r.source) or r.source) for r in b.registers
                      if r.name not in gone)
    reads = tuple(dataclasses.replace(p, tap=renamed(p.tap) or p.tap) for p in b.read_ports)
    banks = tuple(dataclasses.replace(k, write_ports=tuple(dataclasses.replace(p, source=renamed(p.source))
                                                           for p in k.write_ports)) for k in b.banks)
    return dataclasses.replace(b, level="mem_tile", registers=registers, read_ports=reads, banks=banks + (line,))
