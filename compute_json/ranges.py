"""Value ranges of graph nodes (an analysis: it returns facts, not a graph).

`value_ranges` bounds each node's bit pattern, read as unsigned, by an interval [lo, hi] that holds for every
input. It is conservative (the full range when unsure) and exact enough to decide the comparisons that a
zero extension, a mask or a shift makes constant (`zext(u8 x) < 300` is always true), which the folder then
removes: they cost a PE each, and Verilator's lint rightly flags them.
"""

from __future__ import annotations

import networkx as nx

from .graph import const_value, operands, topological

Range = tuple[int, int]


def value_ranges(g: nx.MultiDiGraph) -> dict[str, Range]:
    """Unsigned bounds of every node's pattern."""
    ranges: dict[str, Range] = {}
    for n in topological(g):
        ranges[n] = node_range(g, n, ranges)
    return ranges


def node_range(g: nx.MultiDiGraph, n: str, ranges: dict[str, Range]) -> Range:
    """Bounds of node n's pattern given its operands' bounds (in `ranges`)."""
    d = g.nodes[n]
    args = operands(g, n)
    full = (0, (1 << d["width"]) - 1)
    in_width = g.nodes[args[-1]]["width"] if args else d["width"]
    lo, hi = _bounds(d, [ranges[a] for a in args], [const_value(g, a) for a in args], full, in_width)
    return (lo, hi) if 0 <= lo <= hi <= full[1] else full  # out of range: the op may wrap


def _bounds(d: dict, r: list[Range], k: list, full: Range, in_width: int) -> Range:
    """Bounds from the operands' bounds `r` and constant values `k` (None if not constant); may exceed `full`
    when the op can wrap, which the caller treats as unknown."""
    op, width = d["op"], d["width"]
    top = full[1]
    if op == "const":
        return d["value"], d["value"]
    if op == "rom":
        return min(d["table"] + (0,)), max(d["table"] + (0,))
    if op in ("zext", "output"):
        return r[0]
    if op == "slice":
        return (r[0][0] >> d["lo"], r[0][1] >> d["lo"]) if r[0][1] >> d["lo"] <= top else full
    if op == "lshr":
        return (r[0][0] >> k[1], r[0][1] >> k[1]) if k[1] is not None else (0, r[0][1])
    if op == "shl":
        if r[0][1] == 0:
            return 0, 0
        return (r[0][0] << k[1], r[0][1] << k[1]) if k[1] is not None and k[1] < width else full
    signed_operands = r[:2] if op in ("smin", "smax") else r[:1]
    if op in ("ashr", "sext", "abs", "smin", "smax") and all(hi >> (in_width - 1) == 0 for _, hi in signed_operands):
        # Non-negative operands: these act as their unsigned kin (ashr as lshr, sext as zext, ...).
        kin = {"ashr": "lshr", "smin": "umin", "smax": "umax"}.get(op, "zext")
        return _bounds({**d, "op": kin}, r, k, full, in_width)
    if op == "and":
        return 0, min(r[0][1], r[1][1])
    if op in ("or", "xor"):
        upper = (1 << max(r[0][1], r[1][1]).bit_length()) - 1
        return (max(r[0][0], r[1][0]) if op == "or" else 0), upper
    if op in ("umin", "umax"):
        pick = min if op == "umin" else max
        return pick(r[0][0], r[1][0]), pick(r[0][1], r[1][1])
    if op == "mux":
        return min(r[1][0], r[2][0]), max(r[1][1], r[2][1])
    if op == "add":
        return r[0][0] + r[1][0], r[0][1] + r[1][1]
    if op == "sub":
        return (r[0][0] - r[1][1], r[0][1] - r[1][0]) if r[0][0] >= r[1][1] else full
    if op == "mul":
        return r[0][0] * r[1][0], r[0][1] * r[1][1]
    if op == "umulhi":
        return (r[0][0] * r[1][0]) >> width, (r[0][1] * r[1][1]) >> width
    if op == "udiv":
        return (r[0][0] // r[1][1], r[0][1] // r[1][0]) if r[1][0] > 0 else (0, r[0][1])
    if op == "umod":
        return 0, min(r[0][1], max(r[1][1] - 1, 0))
    if d["width"] == 1 or op in ("eq", "neq") or op[1:] in ("lt", "le", "gt", "ge"):
        return 0, 1
    return full


def decide_comparison(op: str, a: Range, b: Range, width: int) -> int | None:
    """1 or 0 when comparison `op` of patterns in ranges a and b has one result for all of them, else None.
    Signed comparisons are decided only when both sides are non-negative (then they order as unsigned)."""
    if op[0] == "s":
        if max(a[1], b[1]) >> (width - 1):
            return None
        op = "u" + op[1:]
    if op in ("eq", "neq"):
        if a[0] == a[1] == b[0] == b[1]:
            return int(op == "eq")
        return int(op == "neq") if a[1] < b[0] or b[1] < a[0] else None
    if op in ("ugt", "uge"):  # a > b is b < a
        a, b, op = b, a, "ult" if op == "ugt" else "ule"
    if op == "ult":
        return 1 if a[1] < b[0] else (0 if a[0] >= b[1] else None)
    return 1 if a[1] <= b[0] else (0 if a[0] > b[1] else None)  # ule
