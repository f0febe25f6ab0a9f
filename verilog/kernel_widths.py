"""The value ranges of a kernel module: what `compute_json.widths` found, as the printer states them and uses
them, and as the proofs and the top read them back.

A kernel's JSON metadata may carry `ranges` (the intervals assumed of its inputs, which the buffers they load
hold: `compute_json.buffer_ranges`; and those found for its outputs, as values of the ports' Halide types) and
`narrow` (instance -> [bits, "u" or "s", lo, hi]). The kernel's Verilog states the port ranges in its body
(`range_lines`), and keeps a narrowed value's stage registers at its bits (`stage_narrowing`; readers extend them
back, `extended`). The proof (`prove`) reads the ranges back (`parse_ranges`) and proves the module under the
inputs' ranges, that its outputs stay in theirs and that no narrowed register loses a bit (`prove_widen`); the
top narrows the registers that hold the ports' values (`top_widths`). Ports and wires keep their types' widths.
"""

from __future__ import annotations

import re

from mainspring.compute_json.widths import needed_bits


def stage_narrowing(meta: dict, input_widths: dict[str, int]) -> dict[str, tuple[int, bool, int, int]]:
    """instance or input port -> (bits, signed, lo, hi): the values (in [lo, hi]) whose stage registers keep
    fewer bits (the metadata's `narrow`, and the input ports whose assumed ranges need fewer bits)."""
    out = {inst: (int(bits), kind == "s", lo, hi) for inst, (bits, kind, lo, hi) in meta.get("narrow", {}).items()}
    for port, (lo, hi) in meta.get("ranges", {}).get("inputs", {}).items():
        bits, signed = needed_bits((lo, hi), input_widths[port])
        if bits < input_widths[port]:
            out[port] = (bits, signed, lo, hi)
    return out


def extended(name: str, bits: int, width: int, signed: bool) -> str:
    """`name`, held in its low `bits` bits, as its `width`-bit value."""
    fill = f"{{{width - bits}{{{name}[{bits - 1}]}}}}" if signed else f"{width - bits}'d0"
    return f"{{{fill}, {name}}}"


def range_lines(meta: dict) -> list[str]:
    """The comments stating the ranges (read back by `parse_ranges`)."""
    ranges = meta.get("ranges")
    if not ranges:
        return []
    lines = []
    if ranges["inputs"]:
        lines.append("// Input ranges assumed (the values the buffers it loads hold): "
                     + ", ".join(f"{p} in [{lo}, {hi}]" for p, (lo, hi) in sorted(ranges["inputs"].items())) + ".")
    lines.append("// Output ranges (proved under the input ranges): "
                 + ", ".join(f"{p} in [{lo}, {hi}]" for p, (lo, hi) in sorted(ranges["outputs"].items())) + ".")
    return lines


_LINE = re.compile(r"^\s*// (Input ranges assumed|Output ranges)[^:]*: (.*)\.$", re.MULTILINE)
_ITEM = re.compile(r"(\w+) in \[(-?\d+), (-?\d+)\]")


def parse_ranges(text: str) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """(input ranges assumed, output ranges) stated in a kernel module's text (empty without them)."""
    found: dict[str, dict[str, tuple[int, int]]] = {"Input ranges assumed": {}, "Output ranges": {}}
    for m in _LINE.finditer(text):
        found[m.group(1)] = {p: (int(lo), int(hi)) for p, lo, hi in _ITEM.findall(m.group(2))}
    return found["Input ranges assumed"], found["Output ranges"]
