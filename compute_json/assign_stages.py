"""Levelise a kernel's op graph into pipeline stages of at most K PE operations on any path.

Each node gets `stage`: the stage its logic sits in (inputs 0, constants None: a constant is wired wherever it is
read). The graph gets `stages`, the kernel's depth d >= 1; its outputs sit in the last stage, d - 1. An edge
u -> v carries `stage(v) - stage(u)` registers, so every path from an input to an output crosses exactly d - 1
registers (the sum telescopes): the pipeline is balanced by construction, and the kernel computes the same
function as the unpipelined graph, d - 1 cycles later (its top adds the PE's output register after the last
stage). `verify_stages` checks those facts.

Stages are filled as soon as possible: a node goes into the latest stage of its operands when the PE ops on
its path there (`op_weight`: a 32-bit add is 2, a 32-bit multiply 4, wiring and constants 0) plus its own fit
in K, else into the next stage. An op heavier than K starts a stage of its own and spans ceil(weight / K)
stages: the RTL keeps it whole and registers its result that many times (a CGRA splits it over its PEs with a
register between them). A ROM (a memory tile) and a divider take a stage of their own.

before (K = 1):  out = (a * 3) + (b * 5) + c
after:           stage 0: a * 3, b * 5 | stage 1: + | stage 2: + c (c delayed 2 registers) | output
"""

from __future__ import annotations

import networkx as nx

from .graph import operands, topological
from .report import op_weight

_OWN_STAGE = frozenset({"rom", "udiv", "umod", "sdiv", "smod"})


def assign_stages(g: nx.MultiDiGraph, ops_per_stage: int, pe_bits: int = 16) -> nx.MultiDiGraph:
    """Give every node of `g` its pipeline stage (at most `ops_per_stage` PE ops of `pe_bits` bits per path
    in a stage) and `g` its number of stages."""
    k = ops_per_stage
    assert k >= 1, k
    ready: dict[str, tuple[int, int] | None] = {}  # node -> (stage its value is ready in, PE ops used there)
    for n in topological(g):
        d = g.nodes[n]
        if d["op"] == "const":
            d["stage"], ready[n] = None, None
            continue
        found = [r for r in (ready[u] for u in operands(g, n)) if r is not None]
        stage, used = max(found, default=(0, 0))
        weight = k if d["op"] in _OWN_STAGE else op_weight(g, n, pe_bits)
        if weight == 0 or used + weight <= k:
            d["stage"], ready[n] = stage, (stage, used + weight)
            continue
        start = stage + 1 if used else stage
        span = -(-weight // k)
        d["stage"], ready[n] = start, (start + span - 1, weight - (span - 1) * k)
    outputs = [n for n in g if g.nodes[n]["op"] == "output"]
    depth = 1 + max((ready[n][0] for n in outputs if ready[n] is not None), default=0)  # type: ignore[index]
    for n in outputs:
        g.nodes[n]["stage"] = depth - 1
    g.graph["stages"] = depth
    verify_stages(g)
    return g


def verify_stages(g: nx.MultiDiGraph) -> None:
    """Check the stages are a balanced pipeline: inputs in stage 0, outputs in the last, no edge backwards."""
    depth = g.graph["stages"]
    for n, d in g.nodes(data=True):
        if d["op"] == "input":
            assert d["stage"] == 0, (n, d["stage"])
        elif d["op"] == "output":
            assert d["stage"] == depth - 1, (n, d["stage"], depth)
        elif d["op"] != "const":
            assert 0 <= d["stage"] < depth, (n, d["stage"], depth)
    for u, v in g.edges():
        su, sv = g.nodes[u]["stage"], g.nodes[v]["stage"]
        assert su is None or sv >= su, f"edge {u} -> {v} goes back from stage {su} to {sv}"


def stage_registers(g: nx.MultiDiGraph) -> int:
    """Register bits the stages add (on edges, shared by a value's readers: the longest delay of each value)."""
    bits = 0
    for u in g:
        su = g.nodes[u].get("stage")
        if su is None:
            continue
        delays = [g.nodes[v]["stage"] - su for v in g.successors(u)]
        bits += max(delays, default=0) * g.nodes[u]["width"]
    return bits
