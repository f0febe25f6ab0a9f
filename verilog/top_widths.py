"""Registers of the top narrowed to the values they hold, from the ranges the kernels state.

A buffer's registers (taps of a line buffer, delays) hold its values: the ranges its readers' kernels assume
of the loads (`kernel_widths`; `prove_ranges` checks every assumption against what the buffer's writers are proved
to output, or what its input stream carries). An op's PE output registers hold its kernel's output, in the range
the kernel is proved to keep to. Such a register keeps the low bits its range needs (`needed_bits`, zero- or
sign-extended); readers that need the whole word (a memory tile's write port, a kernel input, the output
stream) get it extended. Memory tiles and RAMs keep their `word_bits` words.

before: reg [15:0] hw_input_w0_reg1  (an 8-bit pixel widened to uint16)     after: reg [7:0] hw_input_w0_reg1
"""

from __future__ import annotations

from mainspring.compute_json.widths import needed_bits
from mainspring.memories.ir import MemoryPlan

from .names import kernel_module, signal

Narrow = tuple[int, bool]  # (bits, signed)


def _ranges(compute: dict, module: str) -> dict:
    body = compute["namespaces"]["global"]["modules"].get(module, {})
    return body.get("metadata", {}).get("mainspring", {}).get("ranges", {})


def buffer_widths(plan: MemoryPlan, compute: dict) -> dict[str, Narrow]:
    """buffer -> (bits, signed) for the buffers (not RAMs) whose every reader assumes a range of fewer bits."""
    out = {}
    for b in plan.buffers:
        if b.init is not None or not b.read_ports or not b.registers:
            continue
        assumed = [_ranges(compute, kernel_module(rp.op)).get("inputs", {}).get(rp.load) for rp in b.read_ports]
        if any(iv is None for iv in assumed):
            continue
        hull = (min(iv[0] for iv in assumed), max(iv[1] for iv in assumed))  # type: ignore[index]
        bits, signed = needed_bits(hull, b.bits)
        if bits < b.bits:
            out[b.name] = (bits, signed)
    return out


def op_widths(plan: MemoryPlan, compute: dict) -> dict[str, Narrow]:
    """op -> (bits, signed) for the ops whose kernel output needs fewer bits than the buffer it writes."""
    out = {}
    for op in plan.ops:
        iv = _ranges(compute, kernel_module(op.op)).get("outputs", {}).get("out")
        writes = [b for b in plan.buffers for wp in b.write_ports if wp.op == op.op]
        if op.host or iv is None or not writes or any(b.init is not None for b in writes):
            continue
        bits, signed = needed_bits(tuple(iv), writes[0].bits)
        if bits < writes[0].bits:
            out[op.op] = (bits, signed)
    return out


def storage_bits(plan: MemoryPlan, compute: dict) -> dict[str, int]:
    """buffer -> the bits of its storage words (`words`): registers at their narrowed width, the rest (memory
    tile words, read ports' output registers, the write port's wire) at the buffer's bits."""
    narrow = buffer_widths(plan, compute)
    out = {}
    for b in plan.buffers:
        regs = len(b.registers)
        out[b.name] = (b.words - regs) * b.bits + regs * narrow.get(b.name, (b.bits, False))[0]
    return out


class Widths:
    """The top's narrowed signals, and the reads of them at other widths."""

    def __init__(self, decls: list[str], body: list[str]):
        self.decls, self.body = decls, body
        self.narrow: dict[str, Narrow] = {}
        self.unused: set[tuple[str, int]] = set()

    def full(self, sig: str, width: int) -> str:
        """`sig` as its `width`-bit value (extended when it is held narrower)."""
        if sig not in self.narrow:
            return sig
        bits, signed = self.narrow[sig]
        fill = f"{{{width - bits}{{{sig}[{bits - 1}]}}}}" if signed else f"{width - bits}'d0"
        return f"{{{fill}, {sig}}}"

    def through(self, sig: str, narrow: Narrow | None, width: int) -> str:
        """`sig`, a `width`-bit value of a buffer whose values fit `narrow`, as its word rebuilt from the bits
        they need (so that logic after it sees the bits above as the extension they are)."""
        if narrow is None or sig in self.narrow:
            return self.full(sig, width)
        bits, signed = narrow
        low = self.low(sig, bits, width)
        fill = f"{{{width - bits}{{{sig}[{bits - 1}]}}}}" if signed else f"{width - bits}'d0"
        return f"{{{fill}, {low}}}"

    def low(self, sig: str, bits: int, width: int) -> str:
        """The low `bits` bits of `sig`'s value (a `width`-bit word, or a signal held narrower): what a narrowed
        register takes. The bits above go to an `_unused` wire (Verilator's -Wall exempts it)."""
        held = self.narrow[sig][0] if sig in self.narrow else width
        if held <= bits:
            return sig if held == bits else self.full(sig, bits)
        if (sig, bits) not in self.unused:
            self.unused.add((sig, bits))
            self.decls.append(f"wire [{held - bits - 1}:0] {signal(sig)}_high{bits}_unused;")
            self.body.append(f"assign {signal(sig)}_high{bits}_unused = {sig}[{held - 1}:{bits}];  // the "
                             "range needs fewer bits")
        return f"{sig}[{bits - 1}:0]"
