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

Late inputs (`g.graph["late"]`, the ports of an accumulation's own element) are read in the last stage: they and
every node depending on them (their cone: the combine with the accumulator) sit in the last stage, which is
the first one where the cone's PE ops plus those of the operands it meets fit in K. The kernel then takes its
accumulator d - 1 cycles after its other inputs and gives the new value a stage later, so a serial reduction still
runs a step a cycle (the memories read that port d - 1 cycles after the op fires: `read_offsets`). A cone of more
than K PE ops on a path (or with a ROM or divider) cannot run a step a cycle at any depth: such a kernel is left
in one stage.

before (K = 1):  out = acc + (a * 3) * b     after: stage 0: a * 3 | stage 1: * b | stage 2: acc + | output
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
    cone = _late_cone(g)
    tail = _tails(g, cone, pe_bits)
    if cone and (max(tail.values(), default=0) > k or any(g.nodes[n]["op"] in _OWN_STAGE for n in cone)):
        for _, d in g.nodes(data=True):  # a step needs more than K PE ops: one stage (see the module notes)
            d["stage"] = None if d["op"] == "const" else 0
        g.graph["stages"] = 1
        return g
    ready: dict[str, tuple[int, int] | None] = {}  # node -> (stage its value is ready in, PE ops used there)
    for n in topological(g):
        if n in cone:
            continue
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
    depth = 1 + max((ready[n][0] for n in outputs if n in ready and ready[n] is not None),  # type: ignore[index]
                    default=0)
    # The cone's stage: after each operand it meets, or with it when their PE ops fit in K together.
    for n in cone:
        for u in operands(g, n):
            r = ready.get(u)
            if u not in cone and r is not None:
                depth = max(depth, 1 + r[0] + (r[1] + tail[n] > k))
    for n in cone:
        if g.nodes[n]["op"] != "const":
            g.nodes[n]["stage"] = depth - 1
    for n in outputs:
        g.nodes[n]["stage"] = depth - 1
    g.graph["stages"] = depth
    verify_stages(g)
    return g


def late_inputs(g: nx.MultiDiGraph) -> list[str]:
    """The input nodes of the ports the kernel reads in its last stage (`g.graph["late"]`)."""
    late = set(g.graph.get("late", ()))
    return [n for n, d in g.nodes(data=True) if d["op"] == "input" and d["port"] in late]


def _late_cone(g: nx.MultiDiGraph) -> set[str]:
    """The late inputs and every node that depends on one."""
    cone: set[str] = set()
    for n in late_inputs(g):
        cone |= {n} | nx.descendants(g, n)
    return cone


def _tails(g: nx.MultiDiGraph, cone: set[str], pe_bits: int) -> dict[str, int]:
    """For each node of the cone, the most PE ops on a path from it (itself included) to an output."""
    tail: dict[str, int] = {}
    for n in reversed(topological(g)):
        if n in cone:
            tail[n] = op_weight(g, n, pe_bits) + max((tail[v] for v in g.successors(n) if v in cone), default=0)
    return tail


def verify_stages(g: nx.MultiDiGraph) -> None:
    """Check the stages are a balanced pipeline: inputs in stage 0 (late ones in the last), outputs in the last,
    no edge backwards."""
    depth = g.graph["stages"]
    late = set(g.graph.get("late", ()))
    for n, d in g.nodes(data=True):
        if d["op"] == "input":
            assert d["stage"] == (depth - 1 if d["port"] in late else 0), (n, d["stage"])
        elif d["op"] == "output":
            assert d["stage"] == depth - 1, (n, d["stage"], depth)
        elif d["op"] != "const":
            assert 0 <= d["stage"] < depth, (n, d["stage"], depth)
    for u, v in g.edges():
        su, sv = g.nodes[u]["stage"], g.nodes[v]["stage"]
        assert su is None or sv >= su, f"edge {u} -> {v} goes back from stage {su} to {sv}"


def stage_ops(g: nx.MultiDiGraph, ops_per_stage: int, pe_bits: int = 16) -> int:
    """The most PE ops on a path between stage registers, recounted from the stages alone (an unpipelined graph:
    on any path). An op heavier than K spans ceil(weight / K) stages and counts K in each but its last, where it
    counts the rest, as a CGRA splits it over its PEs; a ROM or divider is a stage of its own (K)."""
    k = ops_per_stage if "stages" in g.graph else 1 << 30  # unpipelined: the PE ops of the longest path
    ready: dict[str, tuple[int, int]] = {}  # node -> (stage its value is ready in, PE ops on its path there)
    for n in topological(g):
        d = g.nodes[n]
        if d["op"] == "const":
            continue
        stage = d.get("stage", 0)  # an unpipelined graph has none: one stage
        found = [ready[u] for u in operands(g, n) if u in ready]
        assert all(s <= stage for s, _ in found), f"{n} reads a value of a later stage"
        used = max((u for s, u in found if s == stage), default=0)
        weight = k if d["op"] in _OWN_STAGE else op_weight(g, n, pe_bits)
        span = max(1, -(-weight // k))
        if span > 1:
            assert used == 0, f"{n} spans {span} stages but starts after {used} PE ops"
            ready[n] = (stage + span - 1, weight - (span - 1) * k)
        else:
            ready[n] = (stage, used + weight)
    return max((u for _, u in ready.values()), default=0)


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
