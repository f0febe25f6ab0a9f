"""A narrowed kernel's two views for its proof: widened (the function it computes when no stage register loses a
bit) and cut (each narrowed register an input), and the obligations that make the widened view its function.

A kernel whose value ranges let a stage register keep fewer bits (`kernel_widths`) reads the register through a
wire that extends it back (`X_x = {3'd0, X};  // X held in 13 bits, whole: Y in [0, 6120]`); the register (after
`combinational_view`, a wire) takes the low bits of the value Y (`X = Y[12:0]`, or a copy of such a register).
- The widened view replaces each such wire with Y itself: the module as it was before narrowing, whose terms meet
  the reference's shape for shape (z3 proves them equal at once, as it did before narrowing).
- The two are equal when every such Y lies in its stated interval (which its low bits, extended, represent).
  The cut view makes each narrowed register read by such a wire an input; each obligation is then proved from
  the module's input ranges and the cut registers' intervals: by induction over the stages, every register
  holds a value of its interval. Each obligation is a bound on one stage's logic, quick for z3, where bounding
  a deep adder tree from the inputs, or comparing the narrowed module with the reference, runs out of time.
The chain from the wire to Y is read from the text and checked (each identifier declared with the held bits,
copies down to Y's low bits), so the views are what the narrowed module computes, not what a comment says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .kernel_widths import extended
from .prove_netlist import NetlistError

_WHOLE = re.compile(r"^(\s*)wire \[(\d+):0\] (\w+) = (\{.*\});  // (\w+) held in (\d+) bits, whole: \w+ in "
                    r"\[(-?\d+), (-?\d+)\]$", re.MULTILINE)
_ASSIGN = re.compile(r"^\s*assign (\w+) = (\w+)(?:\[(\d+):0\])?;$", re.MULTILINE)
_DECL = re.compile(r"^\s*(?:wire|reg) (?:\[(\d+):0\] )?(\w+);$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Narrowed:
    """Register `held` (of `bits` bits) holds the low bits of value `root` (`width` bits), which lies in [lo, hi]
    (as a signed number when `signed`: then sign-extended)."""

    held: str
    root: str
    width: int
    bits: int
    signed: bool
    lo: int
    hi: int


def narrowed(text: str) -> list[Narrowed]:
    """The narrowed registers `text` (a kernel module after `combinational_view`) reads through extension wires."""
    assigns = {m.group(1): (m.group(2), m.group(3)) for m in _ASSIGN.finditer(text)}
    widths = {m.group(2): int(m.group(1) or 0) + 1 for m in _DECL.finditer(text)}
    out = []
    for m in _WHOLE.finditer(text):
        width, name, expr, held, bits = int(m.group(2)) + 1, m.group(3), m.group(4), m.group(5), int(m.group(6))
        signed = expr == extended(held, bits, width, True)
        if not signed and expr != extended(held, bits, width, False):
            raise NetlistError(f"{name} = {expr}: not the extension of {held}'s {bits} bits")
        out.append(Narrowed(held, _root(held, bits, assigns, widths), width, bits, signed, int(m.group(7)),
                            int(m.group(8))))
    return out


def widened(text: str) -> str:
    """`text` with every extension wire replaced by the value its register holds the low bits of."""
    roots = {n.held: n.root for n in narrowed(text)}
    return _WHOLE.sub(lambda m: f"{m.group(1)}wire [{m.group(2)}:0] {m.group(3)} = {roots[m.group(5)]};  // widened",
                      text)


def cut(text: str, regs: list[Narrowed]) -> str:
    """`text` with each register of `regs` an input port, and each register's root an output `ms_root_K` (K its
    index in `regs`)."""
    held = {n.held: n for n in regs}
    out = re.sub(r"^\s*assign (\w+) = [^;]+;\n", lambda m: "" if m.group(1) in held else m.group(0), text,
                 flags=re.MULTILINE)
    out = re.sub(r"^\s*wire (?:\[\d+:0\] )?(\w+);\n", lambda m: "" if m.group(1) in held else m.group(0), out,
                 flags=re.MULTILINE)
    ports = "".join(f",\n    input wire [{n.bits - 1}:0] {n.held}" for n in regs)
    ports += "".join(f",\n    output wire [{n.width - 1}:0] ms_root_{k}" for k, n in enumerate(regs))
    out = out.replace("\n);", ports + "\n);", 1)
    roots = "".join(f"    assign ms_root_{k} = {n.root};\n" for k, n in enumerate(regs))
    return re.sub(r"^endmodule", lambda _: roots + "endmodule", out, count=1, flags=re.MULTILINE)


def _root(held: str, bits: int, assigns: dict[str, tuple[str, str | None]], widths: dict[str, int]) -> str:
    """The value whose low `bits` bits `held` carries: through copies of `bits`-bit wires to `Y[bits-1:0]`."""
    name, seen = held, set()
    while name not in seen:
        seen.add(name)
        if widths.get(name) != bits or name not in assigns:
            raise NetlistError(f"{name} (holding {held}) is not a {bits}-bit wire assigned a value's low bits")
        source, top = assigns[name]
        if top is not None:
            if int(top) != bits - 1:
                raise NetlistError(f"{name} takes bits [{top}:0], not the {bits} bits {held} holds")
            return source
        name = source
    raise NetlistError(f"{held}: a loop of copies")
