"""How many PE operations a compute graph needs on PEs of a given width (an analysis: it returns facts, not a
graph). The width is the target's word (`hl.CGRA(word_bits=...)`, 16 on the reference chip)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import networkx as nx

from .graph import operands

# Pure wiring on a CGRA: no PE needed.
_FREE = frozenset({"input", "output", "zext", "slice"})


@dataclass(frozen=True, slots=True)
class OpCount:
    """`pe_ops`: PE operations (on 16-bit PEs a 32-bit add is 2; a w-bit multiply is ceil(w/16)**2 partial
    products); `const_words`: constant words of the PE width; `dividers`: unsigned dividers (a PE has none:
    they need a divider unit or a sequential schedule); `by_op`: PE operations per op; `roms`: the words of each
    ROM the kernel reads, by table; `rom_reads`: how many addresses the kernel reads it at (read ports)."""

    pe_ops: int
    const_words: int
    dividers: int
    by_op: dict[str, int] = field(default_factory=dict)
    roms: dict[str, tuple[int, int]] = field(default_factory=dict)  # table -> (words, bits)
    rom_reads: dict[str, int] = field(default_factory=dict)  # table -> ROM nodes (reads at distinct addresses)

    def __add__(self, other: OpCount) -> OpCount:
        """Both kernels of one op (a RAM update's value and address kernels)."""
        by_op = Counter(self.by_op) + Counter(other.by_op)
        reads = Counter(self.rom_reads) + Counter(other.rom_reads)
        return OpCount(self.pe_ops + other.pe_ops, self.const_words + other.const_words,
                       self.dividers + other.dividers, dict(sorted(by_op.items())), self.roms | other.roms,
                       dict(sorted(reads.items())))

    def __str__(self) -> str:
        ops = ", ".join(f"{op} {count}" for op, count in sorted(self.by_op.items()))
        return (f"{self.pe_ops} PE ops ({ops or 'none'}), {self.const_words} constant words, "
                f"{self.dividers} dividers")


def op_weight(g: nx.MultiDiGraph, n: str, pe_bits: int = 16) -> int:
    """The PE operations node `n` needs on PEs of `pe_bits` bits: 0 for wiring and constants (and for ROMs and
    dividers, which are not PEs), a w-bit op ceil(w / pe_bits), a multiply that squared."""
    d = g.nodes[n]
    op = d["op"]
    if op in _FREE or op in ("rom", "const", "udiv", "umod", "sdiv", "smod"):
        return 0
    # A comparison's cost is that of its operands, not of its 1-bit result.
    words = -(-max([d["width"]] + [g.nodes[s]["width"] for s in operands(g, n)]) // pe_bits)
    return words * words if op in ("mul", "umulhi") else words


def count_ops(g: nx.MultiDiGraph, pe_bits: int = 16) -> OpCount:
    """Count the PE operations, constant words and dividers of graph `g` on PEs of `pe_bits` bits."""
    by_op: Counter[str] = Counter()
    const_words = dividers = 0
    roms: dict[str, tuple[int, int]] = {}
    rom_reads: Counter[str] = Counter()
    for n, d in sorted(g.nodes(data=True), key=lambda item: item[1]["seq"]):
        op = d["op"]
        if op == "rom":  # a memory tile, not a PE
            roms[d["rom"]] = (len(d["table"]), d["width"])
            rom_reads[d["rom"]] += 1
        elif op == "const":
            const_words += -(-d["width"] // pe_bits)
        elif op in ("udiv", "umod", "sdiv", "smod"):
            dividers += 1
        elif op not in _FREE:
            by_op[op] += op_weight(g, n, pe_bits)
    return OpCount(sum(by_op.values()), const_words, dividers, dict(sorted(by_op.items())), dict(sorted(roms.items())),
                   dict(sorted(rom_reads.items())))
