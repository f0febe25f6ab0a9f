"""Narrow 32-bit ops whose values fit 16 bits to 16-bit ops (a pass).

A 32-bit op takes two (add, compare) or four (multiply) 16-bit PE ops; users write Int(32) intermediates
all the time (Halide's type of `x + 1`, a cast before a subtraction) whose values fit 16 bits. Two facts make
a 16-bit op exact, both read off `widths.value_intervals` (intervals of the 32-bit patterns, sound through
wrap-around):
- ring-like ops (add, sub, mul, neg, not, and, or, xor, mux, shl by an amount that fits) give low 16 bits
  that depend only on their operands' low 16 bits, so when the node's own interval lies in the unsigned
  (zext) or signed (sext) 16-bit window, the 32-bit pattern is that extension of the 16-bit op's result;
- ordered ops (comparisons, min, max, lshr, ashr, abs, udiv) read values: their operands must all be the zero-
  or all the sign-extension of their low 16 bits (sign-extension keeps the unsigned order of 16-bit patterns,
  zero-extension turns a signed order into the unsigned one), and the result is that same extension.
A narrowed node's 32-bit users that stay 32-bit read its extension (zext is wiring; sext costs PE ops), so
the pass tries narrowing every node it can and narrowing only those needing no sext outside the narrowed
part, and keeps whichever graph (or the original) counts fewest PE ops on the target's PEs.

before: out: i32 = 66 * zext(u8 p)     (mul_3: u32, 4 PE ops)
after:  out: i32 = zext(mul_5: u16 = 66 * zext(u8 p))     (1 PE op; the product is at most 16830)
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from .graph import COMPARISONS, add_const, add_node, const_value, operands, remove_dead, replace_uses, topological
from .report import count_ops
from .widths import Interval, signed_view, unsigned_view, value_intervals

_WIDE, _NARROW = 32, 16
_RING = frozenset({"add", "sub", "mul", "neg", "not", "and", "or", "xor", "mux", "shl"})
_ORDERED_UNSIGNED = frozenset({"ult", "ule", "ugt", "uge", "umin", "umax", "eq", "neq"})
_ORDERED_SIGNED = {"slt": "ult", "sle": "ule", "sgt": "ugt", "sge": "uge", "smin": "umin", "smax": "umax"}


@dataclass(frozen=True, slots=True)
class _Plan:
    op: str  # the 16-bit op
    ext: str | None  # how the 32-bit pattern extends the 16-bit result; None: the node keeps its width


def narrow_32_bit_ops(g: nx.MultiDiGraph, pe_bits: int = 16) -> nx.MultiDiGraph:
    """Compute 32-bit ops whose operands and results fit 16 bits as 16-bit ops, when that saves PE ops on
    PEs of `pe_bits` bits."""
    if pe_bits >= _WIDE:
        return g
    plans = _plans(g, value_intervals(g))
    best, cost = g, _cost(g, pe_bits)
    for chosen in (plans, _without_sign_boundaries(g, plans)):
        if chosen:
            narrowed = _rewrite(g, chosen)
            if _cost(narrowed, pe_bits) < cost:
                best, cost = narrowed, _cost(narrowed, pe_bits)
    return best


def _cost(g: nx.MultiDiGraph, pe_bits: int) -> tuple[int, int]:
    count = count_ops(g, pe_bits)
    return count.pe_ops, count.const_words


def _plans(g: nx.MultiDiGraph, ivs: dict[str, Interval]) -> dict[str, _Plan]:
    """The nodes that may be computed at 16 bits, and how."""
    plans: dict[str, _Plan] = {}
    for n, d in g.nodes(data=True):
        args = operands(g, n)
        if d["op"] == "slice" and g.nodes[args[0]]["width"] == _WIDE and d["lo"] + d["width"] <= _NARROW:
            plans[n] = _Plan("slice", None)  # reads low bits only
            continue
        if d["op"] in ("input", "output", "const") or not args or g.nodes[args[-1]]["width"] != _WIDE:
            continue
        plan = _plan(d["op"], ivs[n], args, ivs)
        if plan is not None:
            plans[n] = plan
    return plans


def _plan(op: str, own: Interval, args: tuple[str, ...], ivs: dict[str, Interval]) -> _Plan | None:
    """How 32-bit node `op` (of interval `own`, with operands `args`) may be computed at 16 bits, if it may."""
    if op in ("shl", "lshr", "ashr") and not _zero_extended(ivs[args[1]]):
        return None  # the amount must survive truncation
    if op in _RING:
        ext = _extension(own)
        return _Plan(op, ext) if ext else None
    values = [ivs[a] for a in (args[:1] if op in ("lshr", "ashr", "abs") else args)]
    zext, sext = all(map(_zero_extended, values)), all(map(_sign_extended, values))
    # the result is one of the operands' extensions, or zero-extended where its own interval says so (a ReLU)
    result = None if op in COMPARISONS else ("zext" if zext or _zero_extended(own) else "sext")
    if op in _ORDERED_UNSIGNED and (zext or sext):
        return _Plan(op, result)
    if op in _ORDERED_SIGNED and (zext or sext):
        return _Plan(op if sext and not zext else _ORDERED_SIGNED[op], result)
    if op in ("lshr", "udiv") and zext:
        return _Plan(op, "zext")
    if op == "ashr" and sext:
        return _Plan(op, result)
    if op == "abs" and sext:
        return _Plan(op, "zext")  # |x| <= 2**15, an unsigned 16-bit pattern
    return None


def _zero_extended(iv: Interval) -> bool:
    """Whether a 32-bit pattern of interval `iv` is the zero-extension of its low 16 bits."""
    return unsigned_view(iv, _WIDE)[1] < 1 << _NARROW


def _sign_extended(iv: Interval) -> bool:
    lo, hi = signed_view(iv, _WIDE)
    return lo >= -(1 << (_NARROW - 1)) and hi < 1 << (_NARROW - 1)


def _extension(iv: Interval) -> str | None:
    """The cheapest extension that makes a 16-bit pattern the 32-bit one of interval `iv` (None: none does)."""
    return "zext" if _zero_extended(iv) else "sext" if _sign_extended(iv) else None


def _without_sign_boundaries(g: nx.MultiDiGraph, plans: dict[str, _Plan]) -> dict[str, _Plan]:
    """`plans` less the nodes whose 32-bit users would read a sign-extension (which costs PE ops), repeated until
    none is left: each node dropped turns its operands' users into 32-bit ones."""
    kept = dict(plans)
    changed = True
    while changed:
        changed = False
        for n in sorted(kept, key=lambda n: g.nodes[n]["seq"]):
            if kept[n].ext == "sext" and any(u not in kept for u in g.successors(n)):
                del kept[n]
                changed = True
    return kept


def _rewrite(g: nx.MultiDiGraph, plans: dict[str, _Plan]) -> nx.MultiDiGraph:
    """`g` with the planned nodes at 16 bits; users outside the plan read their extensions."""
    g = g.copy()
    low: dict[str, str] = {}  # 32-bit node -> a node holding its low 16 bits
    for n in [n for n in topological(g) if n in plans]:
        plan, d = plans[n], g.nodes[n]
        args = tuple(a if g.nodes[a]["width"] != _WIDE else _low_bits(g, a, plans, low) for a in operands(g, n))
        if plan.op == "slice":
            new = args[0] if (d["lo"], d["width"]) == (0, _NARROW) else add_node(g, "slice", d["width"], args,
                                                                                 lo=d["lo"])
            replace_uses(g, n, new)
            continue
        new = add_node(g, plan.op, _NARROW if plan.ext else 1, args)
        if plan.ext is None:
            replace_uses(g, n, new)
            continue
        low[n] = new
        replace_uses(g, n, add_node(g, plan.ext, _WIDE, (new,)))
    remove_dead(g)
    return g


def _low_bits(g: nx.MultiDiGraph, a: str, plans: dict[str, _Plan], low: dict[str, str]) -> str:
    """A 16-bit node holding the low 16 bits of 32-bit node `a` (made once)."""
    if a in low:
        return low[a]
    d = g.nodes[a]
    value = const_value(g, a)
    if value is not None:
        low[a] = add_const(g, _NARROW, value)
    elif d["op"] in ("zext", "sext") and g.nodes[operands(g, a)[0]]["width"] == _NARROW:
        low[a] = operands(g, a)[0]
    elif d["op"] in ("zext", "sext") and all(u in plans for u in g.successors(a)):
        low[a] = add_node(g, d["op"], _NARROW, operands(g, a))  # the wide extension dies
    else:
        low[a] = add_node(g, "slice", _NARROW, (a,), lo=0)
    return low[a]
