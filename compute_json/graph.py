"""The compute graph: a dataflow graph of PE ops, the IR of `compute_json`.

Semantics:
- A graph is a `networkx.MultiDiGraph`; `graph.graph["name"]` is the kernel's name. Each node is one op with
  attributes `op` (a key of `OPS`), `width` (the result's bits: 1, 8, 16 or 32) and `seq` (creation order; it
  orders every iteration, so results never depend on hashing). `const` nodes have `value`, the bit pattern
  (0 <= value < 2**width); `input`/`output` nodes have `port` and `type` (the port's Halide `Type`), and
  `output` nodes `expr` (the Halide expression, as text); `slice` nodes have `lo`. After `assign_stages`,
  `graph.graph["stages"]` is the kernel's pipeline depth and each node's `stage` its pipeline stage.
- An edge u -> v with key k says: operand k of v is u. Keys are CoreIR's port names (`in0`, `in1`, `in`, `sel`).
- Values are bit patterns. Signedness is in the op (`slt`/`ult`, `ashr`/`lshr`, `sext`/`zext`, `smin`/`umin`).
- Every op is total, and arithmetic wraps at the node's width:
  - `shl`/`lshr`/`ashr` shift by the unsigned amount `in1`; amounts >= width give 0 (sign copies for `ashr`);
  - `udiv`/`umod` (unsigned) and `sdiv`/`smod` (signed) are Halide's Euclidean division with x/0 == x%0 == 0;
    after `lower_dividers` only `udiv` is left;
  - `umulhi` is the high `width` bits of the 2*width-bit unsigned product;
  - `abs` is |x| of the signed operand as an unsigned pattern (abs(int8 -128) == 128); `neg` is 0 - x;
  - comparisons give one bit; `mux` is `sel ? in1 : in0`;
  - `zext`/`sext` widen, `slice` keeps bits lo .. lo + width - 1;
  - `rom` is `table[in]` (attributes `rom`, the table's name, and `table`, its patterns), 0 past its end.
Node names are `{op}_{seq}`; `input`/`output` nodes are named by their port.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from mainspring.frontend.types import Type

WIDTHS = (1, 8, 16, 32)


@dataclass(frozen=True, slots=True)
class OpSpec:
    operands: tuple[str, ...]  # operand keys, in order
    kind: str  # how widths relate: see _check_widths
    signed: bool = False  # reads its operands as signed
    commutative: bool = False


def _specs() -> dict[str, OpSpec]:
    bin_, un = ("in0", "in1"), ("in",)
    specs = {
        "input": OpSpec((), "leaf"), "const": OpSpec((), "leaf"), "output": OpSpec(un, "same"),
        "not": OpSpec(un, "same"), "neg": OpSpec(un, "same"), "abs": OpSpec(un, "same", signed=True),
        "mux": OpSpec(("sel", "in0", "in1"), "mux"),
        "zext": OpSpec(un, "widen"), "sext": OpSpec(un, "widen", signed=True), "slice": OpSpec(un, "slice"),
        "rom": OpSpec(un, "rom"),  # `table[in]`: a constant table (attribute `table`, patterns) read at an address
    }
    for op in ("add", "mul", "and", "or", "xor", "umin", "umax", "umulhi"):
        specs[op] = OpSpec(bin_, "same", commutative=True)
    for op in ("smin", "smax"):
        specs[op] = OpSpec(bin_, "same", signed=True, commutative=True)
    for op in ("sub", "shl", "lshr", "udiv", "umod"):
        specs[op] = OpSpec(bin_, "same")
    for op in ("ashr", "sdiv", "smod"):
        specs[op] = OpSpec(bin_, "same", signed=True)
    for op in ("eq", "neq"):
        specs[op] = OpSpec(bin_, "compare", commutative=True)
    for rel in ("lt", "le", "gt", "ge"):
        specs["u" + rel] = OpSpec(bin_, "compare")
        specs["s" + rel] = OpSpec(bin_, "compare", signed=True)
    return specs


OPS: dict[str, OpSpec] = _specs()
COMPARISONS = frozenset(op for op, spec in OPS.items() if spec.kind == "compare")


def new_graph(name: str, ports: Iterable[str] = (), source: str = "") -> nx.MultiDiGraph:
    """An empty graph for kernel `name`; `ports` are names no op node may take; `source` is the kernel's."""
    return nx.MultiDiGraph(name=name, next_seq=0, ports=tuple(ports), source=source)


def add_node(g: nx.MultiDiGraph, op: str, width: int, operands: Sequence[str] = (), name: str | None = None,
             **attrs: Any) -> str:
    """Add an op whose operands (node names) are given in `OPS[op].operands` order; return its name."""
    spec = OPS[op]
    assert len(operands) == len(spec.operands), (op, operands)
    seq = g.graph["next_seq"]
    g.graph["next_seq"] = seq + 1
    if name is None:
        name = f"{op}_{seq}"
        while name in g or name in g.graph["ports"]:  # a port may happen to look like a generated name
            name += "_"
    assert name not in g, name
    g.add_node(name, op=op, width=width, seq=seq, **attrs)
    for key, src in zip(spec.operands, operands):
        g.add_edge(src, name, key=key)
    return name


def add_const(g: nx.MultiDiGraph, width: int, value: int) -> str:
    """A constant node holding `value` (any integer; stored as its `width`-bit pattern)."""
    return add_node(g, "const", width, value=value & ((1 << width) - 1))


def operands(g: nx.MultiDiGraph, n: str) -> tuple[str, ...]:
    """The operand nodes of `n`, in its op's operand order."""
    by_key = {key: src for src, keys in g.pred[n].items() for key in keys}
    return tuple(by_key[k] for k in OPS[g.nodes[n]["op"]].operands)


def const_value(g: nx.MultiDiGraph, n: str) -> int | None:
    """The bit pattern of `n` if it is a constant, else None."""
    node = g.nodes[n]
    return node["value"] if node["op"] == "const" else None


def as_signed(pattern: int, width: int) -> int:
    return pattern - (1 << width) if pattern >> (width - 1) else pattern


def replace_uses(g: nx.MultiDiGraph, old: str, new: str) -> None:
    """Make every user of `old` read `new` instead (`old` stays, maybe dead)."""
    if old == new:
        return
    for _, dst, key in list(g.out_edges(old, keys=True)):
        g.remove_edge(old, dst, key=key)
        g.add_edge(new, dst, key=key)


def remove_dead(g: nx.MultiDiGraph) -> None:
    """Remove the ops no output depends on (inputs stay: they are the module's ports)."""
    stack = [n for n, d in g.nodes(data=True) if d["op"] == "output"]
    live = set(stack)
    while stack:
        for src in g.predecessors(stack.pop()):
            if src not in live:
                live.add(src)
                stack.append(src)
    g.remove_nodes_from([n for n, d in g.nodes(data=True) if n not in live and d["op"] != "input"])


def topological(g: nx.MultiDiGraph) -> list[str]:
    """Nodes, operands before users, ties broken by creation order (deterministic)."""
    return list(nx.lexicographical_topological_sort(g, key=lambda n: g.nodes[n]["seq"]))


def ports(g: nx.MultiDiGraph, op: str) -> list[tuple[str, Type]]:
    """(port, Type) of the `input` or `output` nodes, in declaration order."""
    found = [(d["seq"], d["port"], d["type"]) for _, d in g.nodes(data=True) if d["op"] == op]
    return [(p, t) for _, p, t in sorted(found, key=lambda x: x[0])]


def format_graph(g: nx.MultiDiGraph) -> str:
    """One line per node, in topological order: `name: width = op operands` (for dumps and failures)."""
    lines = [f"kernel {g.graph['name']}" + (f" ({g.graph['stages']} stages)" if "stages" in g.graph else "")]
    for n in topological(g):
        d = g.nodes[n]
        extra = {"const": f" {d.get('value')}", "slice": f" lo={d.get('lo')}"}.get(d["op"], "")
        if d["op"] in ("input", "output"):
            extra = f" {d['type']}"
        stage = f"  [stage {d['stage']}]" if d.get("stage") is not None else ""
        lines.append(f"  {n}: u{d['width']} = {d['op']}{extra} {', '.join(operands(g, n))}".rstrip() + stage)
    return "\n".join(lines) + "\n"


def verify(g: nx.MultiDiGraph, lowered: bool = False) -> None:
    """Check the graph is well formed (our invariant, so failures are AssertionErrors): acyclic, one driver
    per operand, widths agree, constants in range; `lowered`: only `udiv` is left of the dividers."""
    assert nx.is_directed_acyclic_graph(g), "combinational loop in compute graph"
    for n, d in g.nodes(data=True):
        assert d["op"] in OPS, (n, d["op"])
        assert d["width"] in WIDTHS, (n, d["width"])
        spec = OPS[d["op"]]
        by_key = {key: src for src, keys in g.pred[n].items() for key in keys}
        assert sorted(by_key) == sorted(spec.operands) and g.in_degree(n) == len(spec.operands), (n, by_key)
        _check_widths(n, d, spec, [g.nodes[by_key[k]]["width"] for k in spec.operands])
        if lowered:
            assert d["op"] not in ("sdiv", "smod", "umod"), f"{n}: {d['op']} survived lower_dividers"
    outputs = [n for n, d in g.nodes(data=True) if d["op"] == "output"]
    assert outputs, "compute graph has no outputs"


def _check_widths(n: str, d: dict, spec: OpSpec, widths: list[int]) -> None:
    w = d["width"]
    if spec.kind == "leaf":
        if d["op"] == "const":
            assert 0 <= d["value"] < (1 << w), (n, d["value"], w)
        else:
            assert d["type"].bits() == w, (n, d["type"], w)
    elif spec.kind == "same":
        assert all(x == w for x in widths), (n, d["op"], w, widths)
        if d["op"] == "output":
            assert d["type"].bits() == w, (n, d["type"], w)
    elif spec.kind == "compare":
        assert w == 1 and widths[0] == widths[1], (n, w, widths)
    elif spec.kind == "mux":
        assert widths == [1, w, w], (n, w, widths)
    elif spec.kind == "widen":
        assert widths[0] < w, (n, w, widths)
    elif spec.kind == "slice":
        assert d["lo"] + w <= widths[0], (n, d["lo"], w, widths)
    elif spec.kind == "rom":
        assert all(0 <= v < (1 << w) for v in d["table"]), (n, w)
    if spec.signed:
        assert min(widths) > 1, f"{n}: signed op {d['op']} on a 1-bit value"
