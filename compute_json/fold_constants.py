"""Constant folding of the compute graph.

Values are computed with `frontend.semantics` (through `evaluate.node_value`), so a folded constant is what
the reference computes. Besides all-constant ops, it removes ops made trivial by a constant operand (x + 0,
x * 1, x * 0, a mux with a constant select), by a repeated operand (x & x, x ^ x, x < x) and by the operands'
value ranges (`ranges.py`: zext(u8 x) < 300 is 1, (x & 15) > 20 is 0, min(zext(u8 x), 1000) is the zext).
"""

from __future__ import annotations

from typing import Literal

import networkx as nx

from .evaluate import node_value
from .graph import COMPARISONS, add_const, const_value, operands, remove_dead, replace_uses, topological
from .ranges import Range, decide_comparison, node_range

_SAME_OPERANDS: dict[str, Literal["x"] | int] = {  # op(x, x): x itself or a constant
    "and": "x", "or": "x", "umin": "x", "umax": "x", "smin": "x", "smax": "x", "xor": 0, "sub": 0,
    "eq": 1, "ule": 1, "uge": 1, "sle": 1, "sge": 1, "neq": 0, "ult": 0, "ugt": 0, "slt": 0, "sgt": 0,
}
_MIN_MAX = {"umin": "ult", "smin": "slt", "umax": "ugt", "smax": "sgt"}  # op(a, b) is a when a CMP b


def fold_constants(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Fold constant ops, and ops that constants, repeated operands or operand ranges make trivial."""
    g = g.copy()
    ranges: dict[str, Range] = {}  # of the nodes visited so far, and of the constants made
    for node in topological(g):
        n = node
        op = g.nodes[n]["op"]
        if op not in ("input", "output", "const"):
            new = _fold(g, n, op, ranges)
            if new is not None:
                replace_uses(g, n, new)
                n = new
        if n not in ranges:
            ranges[n] = node_range(g, n, ranges)
    remove_dead(g)
    return g


def _fold(g: nx.MultiDiGraph, n: str, op: str, ranges: dict[str, Range]) -> str | None:
    args = operands(g, n)
    values = [const_value(g, a) for a in args]
    known = [v for v in values if v is not None]
    if len(known) == len(values):
        return add_const(g, g.nodes[n]["width"], int(node_value(g, n, known)))
    return _identity(g, n, op, args, values) or _decided(g, n, op, args, ranges)


def _identity(g: nx.MultiDiGraph, n: str, op: str, args: tuple[str, ...], values: list) -> str | None:
    """The node `n` equals when one constant operand or a repeated operand makes the op trivial (x + 0,
    x * 1, x & x, mux of a constant select); a new constant for the absorbing cases (x * 0, x & 0, x ^ x)."""
    width = g.nodes[n]["width"]
    ones = (1 << width) - 1
    if op == "mux":
        _sel, if_false, if_true = args
        if values[0] is not None:
            return if_true if values[0] else if_false
        return if_false if if_false == if_true else None
    if len(args) != 2:
        return None
    (a, b), (va, vb) = args, values
    if a == b and op in _SAME_OPERANDS:
        result = _SAME_OPERANDS[op]
        return a if result == "x" else add_const(g, width, result)
    neutral_right = {"add": 0, "sub": 0, "or": 0, "xor": 0, "shl": 0, "lshr": 0, "ashr": 0, "mul": 1,
                     "and": ones}
    if op in neutral_right and vb == neutral_right[op]:
        return a
    if op in ("add", "or", "xor", "mul", "and") and va == neutral_right[op]:
        return b
    absorbing = {"mul": 0, "and": 0, "or": ones}
    if op in absorbing and absorbing[op] in (va, vb):
        return add_const(g, width, absorbing[op])
    if op == "shl" and vb is not None and vb >= width:
        return add_const(g, width, 0)  # every bit shifted out
    if op in ("shl", "lshr", "ashr", "udiv", "umod", "sdiv", "smod", "umulhi") and va == 0:
        return a  # 0 stays 0
    return None


def _decided(g: nx.MultiDiGraph, n: str, op: str, args: tuple[str, ...], ranges: dict[str, Range]) -> str | None:
    """A comparison the operand ranges decide becomes a constant; a min or max they decide, an operand;
    any other node whose range is a single value, that value."""
    if op in COMPARISONS or op in _MIN_MAX:
        a, b = args
        width = g.nodes[a]["width"]
        decided = decide_comparison(_MIN_MAX.get(op, op), ranges[a], ranges[b], width)
        if decided is None:
            return None
        return add_const(g, 1, decided) if op in COMPARISONS else (a if decided else b)
    lo, hi = node_range(g, n, ranges)
    return add_const(g, g.nodes[n]["width"], lo) if lo == hi else None
