"""Common subexpression elimination on the compute graph: equal constants (width and value) and equal ops on
equal operands (in either order when the op commutes) become one node, the earliest made."""

from __future__ import annotations

import networkx as nx

from .graph import OPS, operands, remove_dead, replace_uses, topological


def eliminate_common_subexpressions(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Merge the nodes that compute the same op on the same operands."""
    g = g.copy()
    first: dict[tuple, str] = {}
    for n in topological(g):  # operands are merged before their users, so equal users see equal operands
        d = g.nodes[n]
        if d["op"] in ("input", "output"):
            continue
        args = operands(g, n)
        if OPS[d["op"]].commutative:
            args = tuple(sorted(args, key=lambda a: g.nodes[a]["seq"]))
        key = (d["op"], d["width"], d.get("value"), d.get("lo"), d.get("rom"), args)
        if key in first:
            replace_uses(g, n, first[key])
        else:
            first[key] = n
    remove_dead(g)
    return g
