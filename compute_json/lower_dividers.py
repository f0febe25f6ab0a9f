"""Division by a variable on one kind of divider: unsigned division (`udiv`, x/0 == 0).

Signed Euclidean x / y and x % y divide |x| by |y| (unsigned, so int8 -128 / -1 cannot overflow) and fix
the signs up with muxes; a remainder is x - (x / y) * y, so a quotient and a remainder of the same operands
share one divider (and CoreIR's missing `coreir.urem` Verilog is never needed).
"""

from __future__ import annotations

import networkx as nx

from .graph import add_const, add_node, operands, remove_dead, replace_uses, topological


def lower_dividers(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Rewrite signed division and every remainder with unsigned division, the one divider left."""
    g = g.copy()
    for n in topological(g):
        op = g.nodes[n]["op"]
        if op in ("sdiv", "smod"):
            x, y = operands(g, n)
            quotient, remainder = _signed_divide(g, g.nodes[n]["width"], x, y)
            replace_uses(g, n, quotient if op == "sdiv" else remainder)
    for n in topological(g):  # after the first loop, which makes remainders of its own
        if g.nodes[n]["op"] == "umod":
            replace_uses(g, n, _unsigned_remainder(g, g.nodes[n]["width"], *operands(g, n)))
    remove_dead(g)  # drops the half (quotient or remainder) nobody reads
    return g


def _unsigned_remainder(g: nx.MultiDiGraph, w: int, x: str, y: str, quotient: str | None = None) -> str:
    """x % y as x - (x / y) * y, and 0 when y == 0 (where x / y is 0). A divider makes its remainder for free,
    but CoreIR's Verilog has no `coreir.urem` module, and sharing the quotient keeps one divider per pair
    (`eliminate_common_subexpressions` merges a quotient made here with an existing x / y)."""
    zero = add_const(g, w, 0)
    quotient = quotient or add_node(g, "udiv", w, (x, y))
    product = add_node(g, "mul", w, (quotient, y))
    is_zero = add_node(g, "eq", 1, (y, zero))
    return add_node(g, "mux", w, (is_zero, add_node(g, "sub", w, (x, product)), zero))


def _signed_divide(g: nx.MultiDiGraph, w: int, x: str, y: str) -> tuple[str, str]:
    """With q, r = |x| / |y|, |x| % |y| (unsigned, so |int8 -128| == 128 divides without overflow):
    x >= 0: quotient sign(y)*q, remainder r; x < 0 and r == 0: -sign(y)*q, 0; x < 0 and r != 0:
    -sign(y)*(q+1), |y| - r. y == 0 gives q == r == 0 and so 0, 0, as Halide defines.
    An unsigned divider avoids sdiv's overflow (-128 / -1) and its truncation toward zero."""

    def op(name: str, *args: str, width: int = w) -> str:
        return add_node(g, name, width, args)

    zero = add_const(g, w, 0)
    x_negative, y_negative = op("slt", x, zero, width=1), op("slt", y, zero, width=1)
    abs_x, abs_y = op("abs", x), op("abs", y)
    q = op("udiv", abs_x, abs_y)
    r = _unsigned_remainder(g, w, abs_x, abs_y, quotient=q)
    round_away = op("and", x_negative, op("neq", r, zero, width=1), width=1)
    magnitude = op("mux", round_away, q, op("add", q, add_const(g, w, 1)))
    negate = op("xor", x_negative, y_negative, width=1)
    quotient = op("mux", negate, magnitude, op("neg", magnitude))
    remainder = op("mux", round_away, r, op("sub", abs_y, r))
    return quotient, remainder
