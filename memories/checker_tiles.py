"""The checker's rules for banks beside the usual tile (memories/checker.py runs them): a register bank's read
port without an output register, and a bank on another bank's tile (memories/shared_tiles.py)."""

from __future__ import annotations

from typing import NoReturn

from .errors import MemoryCheckError
from .ir import Bank, BufferPlan, MemoryPlan


def _fail(buf: str, message: str) -> NoReturn:
    raise MemoryCheckError(f"memories check: buffer '{buf}': {message}")


def check_direct(buf: BufferPlan, bank: Bank) -> None:
    """A read port without an output register (`BankPort.direct`) reads a register bank's one word, which in the
    port's cycles holds the last value written before the cycle, as the output register would (the proof of
    the bank's reads stands); but between them it changes, so nothing may read the port but its op then."""
    fed = {r.source for r in buf.registers} | {r.root for r in buf.registers} | {
        p.source for k in buf.banks for p in k.write_ports}
    for p in bank.read_ports:
        if p.direct and (not bank.in_registers or bank.words != 1 or p.shares is not None or p.name in fed
                         or any(o.shares == p.name for o in bank.read_ports)):
            _fail(buf.name, f"bank {bank.name} read port {p.name} is read without an output register, which only a "
                            "register bank of one word read by its op alone allows")


def check_guest(buf: BufferPlan, bank: Bank, plan: MemoryPlan) -> None:
    """A bank on another's tile (memories/shared_tiles.py) takes the tile's second port pair and its words from
    `base` on: the host is one bank alone on one tile, of one write and one read port, with no other guest and
    not a guest itself; the guest is as small in ports; their words lie apart within the tile (each bank's ports
    address only its own words, checked with its ports), so neither sees the other's values; and both are words
    of one slice, as the tile is. The rest of each bank's proof is its own."""
    t = plan.target
    hosts = [(b, k) for b in plan.buffers for k in b.banks if k.name == bank.host]
    if len(hosts) != 1:
        _fail(buf.name, f"bank {bank.name} is on the tile of {bank.host}, which is not one bank of the plan")
    hbuf, host = hosts[0]
    guests = [k.name for b in plan.buffers for k in b.banks if k.host == host.name]
    ports = (len(host.write_ports) + len(bank.write_ports), len(host.tile_read_ports) + len(bank.tile_read_ports))
    if host.host is not None or host.in_registers or host.tiles != 1 or host.kind not in ("delay_line", "addressed") \
            or guests != [bank.name] or bank.tiles != 0 or bank.kind not in ("delay_line", "addressed"):
        _fail(buf.name, f"bank {bank.name} on the tile of {host.name} ({host.kind}, {host.tiles} tiles, guests "
                        f"{guests}): a tile is shared by one bank alone on it and one guest on no tile of its own")
    if ports[0] > t.mem_tile_write_ports or ports[1] > t.mem_tile_read_ports or \
            any(p.shares is not None for p in host.read_ports + bank.read_ports):
        _fail(buf.name, f"bank {bank.name} and its host {host.name} take {ports[0]} write and {ports[1]} read ports "
                        f"of one tile, which has {t.mem_tile_write_ports} and {t.mem_tile_read_ports}")
    if bank.base < host.words or bank.words < 1 or bank.base + bank.words > t.mem_tile_words:
        _fail(buf.name, f"bank {bank.name} holds words {bank.base}..{bank.base + bank.words - 1} of the tile of "
                        f"{host.name}, which holds words 0..{host.words - 1} of {t.mem_tile_words}")
    if bank.slices != 1 or host.slices != 1 or buf.bits != hbuf.bits:
        _fail(buf.name, f"bank {bank.name} ({buf.bits} bits, {bank.slices} slices) shares the tile of {host.name} "
                        f"({hbuf.bits} bits, {host.slices} slices): one slice of one width")
