"""memories' steps as text (`--dump-after dependences | rates | capacities | mapping`)."""

from __future__ import annotations

from .ir import BufferPlan
from .polyhedral import Program


def format_dependences(prog: Program) -> str:
    """Each statement's time loops and lanes, and each flow: which lane of which store a load reads, exactly."""
    lines = ["// statements (time loops; lanes)"]
    for s in prog.stmts:
        dims = ", ".join(f"{d.var} in [{d.min}, {d.min + d.extent - 1}]" for d in s.time_dims)
        lanes = ", ".join(f"{d.var} x{d.extent}" for d in s.lane_dims)
        lines.append(f"{s.name}: {dims or '-'}" + (f"; lanes {lanes}" if lanes else ""))
    lines.append("// flows (buffer: source lane -> reader lane, as an isl map)")
    for f in prog.flows:
        lines.append(f"{f.buffer}: {f.src.name}{list(f.src_lane)} -> {f.dst.name}{list(f.dst_lane)} "
                     f"({f.load}): {f.rel}")
    return "\n".join(lines) + "\n"


def format_capacities(capacities: dict[str, int]) -> str:
    """Each buffer's exact maximum number of live values (barvinok)."""
    return "".join(f"{name}: {words} live words at most\n" for name, words in capacities.items())


def format_mapping(buffers: tuple[BufferPlan, ...]) -> str:
    """Where each buffer lives: wires, registers, memory-tile banks (kind, words, ports)."""
    lines = []
    for b in buffers:
        lines.append(f"{b.name}: {b.level}, {b.words} words (minimum {b.min_words}), {len(b.registers)} "
                     f"registers, {len(b.write_ports)} write / {len(b.read_ports)} read ports")
        for k in b.banks:
            where = "in registers" if k.in_registers else (
                f"on {k.host}'s tile from word {k.base}" if k.host is not None else
                f"{k.tiles} tile(s) x {k.slices} slice(s)")
            lines.append(f"  {k.name}: {k.kind}, {k.words} words, {where}, "
                         f"{len(k.write_ports)} write / {len(k.read_ports)} read ports")
    return "\n".join(lines) + "\n"
