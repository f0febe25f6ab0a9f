"""Strength reduction of multiplies, divisions and remainders by constant powers of two.

x * 2**k is x << k (for any constant whose bit pattern is a power of two: int8 x * -128 is x << 7); unsigned
x / 2**k is a logical shift; signed Euclidean x / 2**k rounds down, exactly an arithmetic shift, and
x / -2**k is its negation; x % ±2**k keeps the low k bits for either signedness (the Euclidean remainder is
never negative); x / 0 and x % 0 are 0.
"""

from __future__ import annotations

import networkx as nx

from .graph import add_const, add_node, as_signed, const_value, operands, remove_dead, replace_uses, topological


def shifts_for_powers_of_two(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Rewrite multiplication, division and remainder by 0 and ±2**k as shifts, masks and negations."""
    g = g.copy()
    for n in topological(g):
        op = g.nodes[n]["op"]
        if op not in ("mul", "udiv", "umod", "sdiv", "smod"):
            continue
        a, b = operands(g, n)
        if op == "mul" and const_value(g, a) is not None:
            a, b = b, a  # the constant on the right (mul commutes)
        divisor = const_value(g, b)
        if divisor is None:
            continue
        new = _rewrite(g, op, g.nodes[n]["width"], a, divisor)
        if new is not None:
            replace_uses(g, n, new)
    remove_dead(g)
    return g


def _rewrite(g: nx.MultiDiGraph, op: str, width: int, x: str, pattern: int) -> str | None:
    """The replacement of `x op pattern`, or None when the constant is not 0 or ± a power of two."""
    if pattern == 0:
        return add_const(g, width, 0)  # Halide: x / 0 == x % 0 == 0 (and x * 0 == 0)
    # Multiplication wraps, so only the pattern matters: int8 x * -128 is x << 7.
    value = as_signed(pattern, width) if op in ("sdiv", "smod") else pattern
    magnitude = abs(value)
    if magnitude & (magnitude - 1):
        return None
    k = magnitude.bit_length() - 1

    def shift(kind: str) -> str:
        return x if k == 0 else add_node(g, kind, width, (x, add_const(g, width, k)))

    if op == "mul":
        return shift("shl")
    if op in ("umod", "smod"):
        # Euclidean remainders are never negative, so for either signedness x % ±2**k keeps the low k bits.
        return add_node(g, "and", width, (x, add_const(g, width, magnitude - 1)))
    if op == "udiv":
        return shift("lshr")
    # Euclidean x / 2**k rounds down (the remainder is >= 0): exactly an arithmetic shift right; and
    # x / -d == -(x / d) under Euclidean division.
    quotient = shift("ashr")
    return quotient if value > 0 else add_node(g, "neg", width, (quotient,))
