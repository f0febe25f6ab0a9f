"""Value intervals of graph nodes and the bits each value needs (an analysis: it returns facts, not a graph).

`value_intervals` gives every node an integer interval [lo, hi] such that the node's `width`-bit pattern is
v mod 2**width for some integer v in [lo, hi]. The interval lies in the unsigned window [0, 2**w - 1] or in the
signed one [-2**(w-1), 2**(w-1) - 1]; it is computed exactly through the ops from the input ports' intervals
(their Halide types' ranges unless the caller knows better: an 8-bit pixel widened to uint16 is [0, 255]).
Arithmetic wraps at the node's width, as the graph says (graph.py), so a value that may wrap gets the whole
window (`_fit`): the pattern of u8 `x - y` over all x, y needs all 8 bits, while u8 `x + 200` for x in
[100, 110] is [44, 54] (it always wraps, by the same amount).

`needed_bits` turns an interval into the narrowest representation of the pattern: its low `bits` bits, zero-
extended (an unsigned interval) or sign-extended (one with negative values). Registers and wires may hold the
value at that width; memory tiles keep their words (`annotate_widths` only records the facts; the Verilog
narrows).

before: u16 out = 24 * zext(u8 p) + 30 * zext(u8 q)      after: p, q in [0, 255]; products [0, 6120] and
[0, 7650]: 13 bits each; the sum [0, 13770]: 14 bits; the output needs 14 of its 16 bits.
"""

from __future__ import annotations

import networkx as nx

from mainspring.frontend.types import Type

from .graph import const_value, operands, ports, topological

Interval = tuple[int, int]  # inclusive, in the unsigned or the signed window of the node's width


def full(width: int) -> Interval:
    return 0, (1 << width) - 1


def type_interval(t: Type) -> Interval:
    """The values of Halide type `t` (a Bool is 0 or 1)."""
    return (0, 1) if t.is_bool() else (int(t.min()), int(t.max()))


def _fit(lo: int, hi: int, width: int) -> Interval:
    """[lo, hi] as an interval of width-bit patterns: moved by a multiple of 2**width (the wrap) into the unsigned
    or the signed window when it fits one, else the whole window (the values wrap onto each other)."""
    m = 1 << width
    if hi - lo >= m:
        return full(width)
    shift = (lo // m) * m
    lo, hi = lo - shift, hi - shift  # now 0 <= lo < m
    if lo >= m >> 1:  # patterns with their top bit set: as negative numbers they may need fewer bits
        return lo - m, hi - m
    if hi < m:
        return lo, hi
    if lo - m >= -(m >> 1) and hi - m < (m >> 1):
        return lo - m, hi - m
    return full(width)


def unsigned_view(iv: Interval, width: int) -> Interval:
    """The patterns of iv read as unsigned numbers (their hull)."""
    lo, hi = iv
    if lo >= 0:
        return iv
    m = 1 << width
    return (lo + m, hi + m) if hi < 0 else full(width)


def signed_view(iv: Interval, width: int) -> Interval:
    """The patterns of iv read as two's complement numbers (their hull)."""
    lo, hi = iv
    half = 1 << (width - 1)
    if hi < half:
        return iv
    return (lo - 2 * half, hi - 2 * half) if lo >= half else (-half, half - 1)


def needed_bits(iv: Interval, width: int) -> tuple[int, bool]:
    """(bits, signed): the pattern is the zero- (signed False) or sign-extension of its low `bits` bits; bits is
    `width` when no narrowing is possible."""
    lo, hi = iv
    if lo >= 0:
        bits, signed = max(1, hi.bit_length()), False
    else:
        bits, signed = 1 + max((-lo - 1).bit_length(), max(hi, 0).bit_length()), True
    return (width, False) if bits >= width else (bits, signed)


def in_type(iv: Interval, t: Type) -> Interval:
    """A node's interval as values of Halide type `t` (an output port's)."""
    return signed_view(iv, t.bits()) if t.is_int() else unsigned_view(iv, t.bits())


def value_intervals(g: nx.MultiDiGraph, inputs: dict[str, Interval] | None = None) -> dict[str, Interval]:
    """The interval of every node; `inputs` gives some input ports' intervals (values of their Halide types;
    the others take their type's range)."""
    given = inputs or {}
    out: dict[str, Interval] = {}
    for n in topological(g):
        d = g.nodes[n]
        if d["op"] == "input":
            lo, hi = given.get(d["port"], type_interval(d["type"]))
            out[n] = _fit(lo, hi, d["width"])
            continue
        args = operands(g, n)
        ivs = [(out[a], g.nodes[a]["width"]) for a in args]
        lo, hi = _interval(d, ivs, [const_value(g, a) for a in args])
        out[n] = _fit(lo, hi, d["width"])
    return out


def _interval(d: dict, ivs: list[tuple[Interval, int]], k: list[int | None]) -> Interval:
    """[lo, hi] of node `d` from its operands' (interval, width) and constant values (None: not a constant);
    the caller fits it into the node's width."""
    op, w = d["op"], d["width"]
    if op == "const":  # (`_fit` reads a pattern with its top bit set as negative: -3, not 65533)
        return d["value"], d["value"]
    if op == "rom":  # 0 past the table's end
        return _table_interval(d["table"] + (0,), w)
    if w == 1 or op in ("eq", "neq") or op[1:] in ("lt", "le", "gt", "ge"):
        return 0, 1
    r = [iv for iv, _ in ivs]
    u = [unsigned_view(iv, width) for iv, width in ivs]
    s = [signed_view(iv, width) for iv, width in ivs]
    if op == "output":
        return r[0]
    if op in ("add", "sub", "mul", "neg", "not", "mux"):
        return _arithmetic(op, r)
    if op in ("zext", "sext"):
        return u[0] if op == "zext" else s[0]
    if op == "slice":  # bits lo .. lo + w - 1: the value itself when lo is 0, as the caller fits it
        return r[0] if d["lo"] == 0 else (u[0][0] >> d["lo"], u[0][1] >> d["lo"])
    if op in ("shl", "lshr", "ashr"):
        return _shift(op, r[0], u[0], s[0], k[1], w)
    if op in ("and", "or", "xor"):
        return _bitwise(op, r, ivs)
    if op in ("umin", "umax", "smin", "smax"):
        a, b = u if op[0] == "u" else s
        pick = min if op[1:] == "min" else max
        return pick(a[0], b[0]), pick(a[1], b[1])
    if op == "abs":
        lo, hi = s[0]
        return (lo, hi) if lo >= 0 else ((-hi, -lo) if hi <= 0 else (0, max(-lo, hi)))
    if op == "udiv":
        return (u[0][0] // u[1][1], u[0][1] // u[1][0]) if u[1][0] > 0 else (0, u[0][1])  # x / 0 is 0
    if op == "umod":
        return 0, min(u[0][1], max(u[1][1] - 1, 0))
    if op == "umulhi":
        return (u[0][0] * u[1][0]) >> w, (u[0][1] * u[1][1]) >> w
    return full(w)  # sdiv, smod: gone after lower_dividers; unknown here


def _table_interval(table: tuple[int, ...], w: int) -> Interval:
    """[lo, hi] of a ROM's w-bit patterns, read as signed numbers where that is the narrower: a table of small
    signed weights (-4 .. 4, conv_cin3_const's) holds patterns near 0 and near 2**w, whose unsigned interval is
    the whole window, so its products were computed at 32 bits (4 PE ops each for 1)."""
    signed = [v - (1 << w) if v >> (w - 1) & 1 else v for v in table]
    lo, hi = min(table), max(table)
    return (lo, hi) if hi - lo <= max(signed) - min(signed) else (min(signed), max(signed))


def _arithmetic(op: str, r: list[Interval]) -> Interval:
    """Exact integer bounds; wrapping is the caller's `_fit`."""
    if op == "add":
        return r[0][0] + r[1][0], r[0][1] + r[1][1]
    if op == "sub":
        return r[0][0] - r[1][1], r[0][1] - r[1][0]
    if op == "mul":
        p = [a * b for a in r[0] for b in r[1]]
        return min(p), max(p)
    if op == "neg":
        return -r[0][1], -r[0][0]
    if op == "not":  # ~v == -v - 1
        return -r[0][1] - 1, -r[0][0] - 1
    # mux: either value (operands sel, in0, in1); two windows that do not meet make the whole window
    return min(r[1][0], r[2][0]), max(r[1][1], r[2][1])


def _shift(op: str, r: Interval, u: Interval, s: Interval, amount: int | None, w: int) -> Interval:
    if op == "shl":
        if amount is None:
            return full(w) if r != (0, 0) else (0, 0)
        return (0, 0) if amount >= w else (r[0] << amount, r[1] << amount)
    if op == "lshr":
        return (u[0] >> amount, u[1] >> amount) if amount is not None else (0, u[1])
    if amount is not None:  # ashr: Python's >> is arithmetic; amounts past the width leave the sign copies
        return s[0] >> min(amount, w - 1), s[1] >> min(amount, w - 1)
    return min(s[0], 0), max(s[1], 0)


def _bitwise(op: str, r: list[Interval], ivs: list[tuple[Interval, int]]) -> Interval:
    """and/or/xor keep what both operands' representations share: non-negative values stay under the larger
    power of two (and: under the smaller bound); with a negative operand, the result needs the larger signed
    width."""
    if r[0][0] >= 0 and r[1][0] >= 0:
        if op == "and":
            return 0, min(r[0][1], r[1][1])
        upper = (1 << max(r[0][1], r[1][1]).bit_length()) - 1
        return (max(r[0][0], r[1][0]) if op == "or" else 0), upper
    if op == "and" and max(r[0][0], r[1][0]) >= 0:  # the non-negative operand bounds the result
        return 0, max(iv[1] for iv in r if iv[0] >= 0)
    bits = max(needed_bits(iv, width)[0] + (0 if iv[0] < 0 else 1) for iv, width in ivs)
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def annotate_widths(g: nx.MultiDiGraph, inputs: dict[str, Interval] | None = None) -> nx.MultiDiGraph:
    """Record on `g` each op's `narrow` = (bits, signed, lo, hi) where it needs fewer bits than its width (see
    `needed_bits`; none in a kernel with a wide product, `_wide_product`), and in `g.graph["ranges"]` the
    intervals assumed of the input ports and the output ranges it states, as values of their Halide types."""
    ivs = value_intervals(g, inputs)
    hard = _wide_product(g)
    for n in g:
        d = g.nodes[n]
        d.pop("narrow", None)
        if d["op"] not in ("input", "output", "const") and d["width"] > 1 and not hard:
            bits, signed = needed_bits(ivs[n], d["width"])
            if bits < d["width"]:
                d["narrow"] = (bits, signed, *ivs[n])
    g.graph["ranges"] = {
        "inputs": {p: in_type(ivs[p], t) for p, t in ports(g, "input") if (inputs or {}).get(p) is not None},
        "outputs": stated_outputs(g, ivs),
    }
    return g


def stated_outputs(g: nx.MultiDiGraph, ivs: dict[str, Interval]) -> dict[str, Interval]:
    """The output ranges a kernel states (of `ivs`, its nodes' intervals), which its proof must prove (see
    `_wide_product`: else its outputs' types' ranges)."""
    hard = _wide_product(g)
    return {p: type_interval(t) if hard else in_type(ivs[p], t) for p, t in ports(g, "output")}


def _wide_product(g: nx.MultiDiGraph) -> bool:
    """Whether the kernel has a product wider than 16 bits. The proofs must prove the bounds the Verilog relies
    on (its output ranges, its narrowed stage registers), and a 32-bit product's bounds take z3 past its time
    limit (harris's `cim`, `lgxx`): such a kernel states its outputs' types' ranges and narrows nothing."""
    return any(d["op"] in ("mul", "umulhi") and d["width"] > 16 for _, d in g.nodes(data=True))
