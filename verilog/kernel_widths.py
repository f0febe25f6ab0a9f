"""The value ranges of a kernel module: what `compute_json.widths` found, as the printer states them and the
proofs and the top read them back.

A kernel's JSON metadata may carry `ranges`: the intervals assumed of its inputs (what the buffers they load
hold, `compute_json.buffer_ranges`) and those found for its outputs, as values of the ports' Halide types. The
kernel's Verilog states them in its body (`range_lines`); the proof (`prove`) reads them back (`parse_ranges`)
and proves the module under the inputs' ranges, and that its outputs stay in theirs; the top narrows the
registers that hold those values (`top_widths`). The module's ports and wires keep their types' widths.
"""

from __future__ import annotations

import re


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
