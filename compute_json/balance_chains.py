"""Tree-height reduction: a chain of one associative, commutative op becomes a balanced tree.

A reduction's loop adds its terms one after another (`((a + b) + c) + d`); wrapping adds, multiplies, bitwise
ops, minima and maxima give the same bits in any grouping and order, so the terms are combined two at a time,
the two that are ready earliest first (Huffman's rule, by each term's PE ops on its longest path from an input):
a chain of n terms then takes ceil(log2(n)) ops on the critical path instead of n - 1, and the pipeline stages
after it (`assign_stages`) fewer registers.

before: t = ((((m0 + m1) + m2) + m3) + m4)      after: t = ((m0 + m1) + (m2 + m3)) + m4

A late input (`g.graph["late"]`: an accumulation's own element, read in the kernel's last stage) counts as ready
last, so the chain adds it at its root: `acc + ((m0 + m1) + m2)`, one op after the accumulator.
"""

from __future__ import annotations

import heapq

import networkx as nx

from .graph import add_node, operands, remove_dead, replace_uses, topological
from .report import op_weight

_LATE = 1 << 30  # more PE ops than any kernel has on a path
ASSOCIATIVE = frozenset({"add", "mul", "and", "or", "xor", "umin", "umax", "smin", "smax"})


def balance_chains(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Rebuild every chain of three or more terms of one associative op as a tree of least height."""
    g = g.copy()
    late = set(g.graph.get("late", ()))
    level: dict[str, int] = {}
    for n in topological(g):
        if n not in g:
            continue
        leaves = _terms(g, n) if _is_root(g, n) else []
        if len(leaves) >= 3:
            top = _tree(g, n, leaves, level)
            replace_uses(g, n, top)
            continue
        if g.nodes[n]["op"] == "input" and g.nodes[n]["port"] in late:
            level[n] = _LATE
            continue
        level[n] = op_weight(g, n) + max((level.get(u, 0) for u in operands(g, n)), default=0)
    remove_dead(g)
    return g


def _chained(g: nx.MultiDiGraph, u: str, op: str, width: int) -> bool:
    d = g.nodes[u]
    return d["op"] == op and d["width"] == width and g.out_degree(u) == 1


def _is_root(g: nx.MultiDiGraph, n: str) -> bool:
    """`n` heads a chain: its op is associative and it is not itself a link of a longer chain."""
    d = g.nodes[n]
    if d["op"] not in ASSOCIATIVE:
        return False
    user = next(iter(g.successors(n)), None)
    return not (g.out_degree(n) == 1 and _chained(g, n, g.nodes[user]["op"], g.nodes[user]["width"])
                and g.nodes[user]["op"] == d["op"])


def _terms(g: nx.MultiDiGraph, root: str) -> list[str]:
    """The chain's terms, in operand order: the operands of its links that are not links themselves."""
    op, width = g.nodes[root]["op"], g.nodes[root]["width"]
    out: list[str] = []
    stack = [root]
    while stack:
        n = stack.pop()
        for u in reversed(operands(g, n)):
            if _chained(g, u, op, width):
                stack.append(u)
            else:
                out.append(u)
    return out


def _tree(g: nx.MultiDiGraph, root: str, leaves: list[str], level: dict[str, int]) -> str:
    """A tree of `root`'s op over `leaves`, combining the two earliest terms first; its top node."""
    op, width = g.nodes[root]["op"], g.nodes[root]["width"]
    heap = [(level.get(u, 0), k, u) for k, u in enumerate(leaves)]
    heapq.heapify(heap)
    k = len(leaves)
    while len(heap) > 1:
        (la, _, a), (lb, _, b) = heapq.heappop(heap), heapq.heappop(heap)
        n = add_node(g, op, width, (a, b))
        level[n] = max(la, lb) + op_weight(g, n)
        heapq.heappush(heap, (level[n], k, n))
        k += 1
    return heap[0][2]
