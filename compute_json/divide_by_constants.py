"""Division and remainder by constants as multiply-high and shifts (Halide's lowering, for every divisor).

Unsigned x / d uses a `magic.py` plan; signed Euclidean x / d (d > 0, so floor division) divides the
non-negative x ^ sign by d and flips the result back with the same sign mask; x / -d is -(x / d); the
remainder is x - (x / |d|) * |d|. A quotient that can only be 0 or 1 is a comparison instead.
"""

from __future__ import annotations

import networkx as nx

from .graph import add_const, add_node, as_signed, const_value, operands, remove_dead, replace_uses, topological
from .magic import unsigned_division


def divide_by_constants(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Rewrite division and remainder by other constants as multiply-high and shifts, exact for every x."""
    g = g.copy()
    for n in topological(g):
        op = g.nodes[n]["op"]
        if op not in ("udiv", "umod", "sdiv", "smod"):
            continue
        x, b = operands(g, n)
        divisor = const_value(g, b)
        width = g.nodes[n]["width"]
        if divisor is None:
            continue
        signed_divisor = as_signed(divisor, width) if op in ("sdiv", "smod") else divisor
        divisor = abs(signed_divisor)
        if divisor & (divisor - 1) == 0:
            continue  # 0 or a power of two
        new = _Divide(g, width).rewrite(op, x, divisor, negative=signed_divisor < 0)
        replace_uses(g, n, new)
    remove_dead(g)
    return g


class _Divide:
    def __init__(self, g: nx.MultiDiGraph, width: int):
        self.g, self.w = g, width

    def op(self, op: str, *args: str, width: int | None = None) -> str:
        return add_node(self.g, op, width or self.w, args)

    def const(self, value: int) -> str:
        return add_const(self.g, self.w, value)

    def rewrite(self, op: str, x: str, d: int, negative: bool) -> str:
        """x op d, where `d` is the divisor's magnitude (> 2, not a power of two) and `negative` its sign."""
        if op in ("udiv", "umod"):
            quotient = self.unsigned_quotient(x, d, (1 << self.w) - 1)
        else:
            quotient = self.floor_quotient(x, d)
        if op in ("umod", "smod"):
            # x - floor(x / |d|) * |d| is the Euclidean remainder for either sign of d; it is exact modulo
            # 2**w, and the true value fits.
            return self.op("sub", x, self.op("mul", quotient, self.const(d)))
        return self.op("neg", quotient) if negative else quotient  # Euclidean x / -d == -(x / d)

    def floor_quotient(self, x: str, d: int) -> str:
        """floor(x / d) of signed x. With sign = x >> (w-1) (all ones when x < 0), x ^ sign is x or -x-1,
        never negative, and floor(x / d) == (((x ^ sign) / d) ^ sign): for x < 0,
        floor(x / d) == -floor((-x-1) / d) - 1."""
        sign = self.op("ashr", x, self.const(self.w - 1))
        magnitude = self.op("xor", x, sign)
        return self.op("xor", self.unsigned_quotient(magnitude, d, (1 << (self.w - 1)) - 1), sign)

    def unsigned_quotient(self, x: str, d: int, max_x: int) -> str:
        """floor(x / d) for unsigned x <= max_x."""
        if d > max_x:
            return self.const(0)
        if 2 * d > max_x:  # the quotient is 0 or 1: one comparison beats a multiply
            return self.op("zext", self.op("uge", x, self.const(d), width=1))
        plan = unsigned_division(d, self.w, max_x)
        if plan.pre_shift:
            x = self.op("lshr", x, self.const(plan.pre_shift))
        high = self.op("umulhi", x, self.const(plan.multiplier))
        if plan.add_back:
            half = self.op("lshr", self.op("sub", x, high), self.const(1))
            high, shift = self.op("add", half, high), plan.post_shift - 1
        else:
            shift = plan.post_shift
        return self.op("lshr", high, self.const(shift)) if shift else high
