"""Emit a compute graph as a CoreIR JSON module (the compute-graph format of the reference flow).

Every graph node becomes CoreIR instances that compute exactly the node's meaning (see `graph.py`), so the
JSON means what Halide means. Most nodes are one `coreir`/`commonlib` generator; where CoreIR's generator
differs, the node is a few instances named `{node}_{part}` whose last one is named `{node}`:
- `udiv`: `coreir.udiv` leaves x/0 undefined, so a mux selects 0 when the divisor is 0. (There is no
  remainder node left to emit: `lower_dividers` makes remainders from quotients, partly because CoreIR's
  Verilog backend has no module for `coreir.urem`/`srem`/`smod`: it prints "Module `coreir_urem__width16`
  defined externally" and instantiates it anyway.)
- `zext`: a `coreir.concat` with a zero constant, because CoreIR renders `coreir.zext` as
  `{{(width_out-width_in){1'b0},},in}`, which is not Verilog;
- `umin`/`umax`/`smin`/`smax`: a comparison and a mux, because `commonlib.umin` and its kin abort with
  "NYI non 16" at any width but 16 (CoreIR 2.0.156);
- `umulhi`: `commonlib.mult_high` sign-extends, so both operands are zero-extended to 2w bits, multiplied
  (`coreir.mul`) and the high half sliced off.
Other CoreIR choices are avoided rather than patched: `commonlib.absd` wraps at the input width, so absd is
lowered to max - min; `coreir.sdiv`/`srem` truncate and overflow, so signed division uses the unsigned
divider; shift amounts are unsigned in CoreIR and in the graph alike.
A pipelined kernel (`assign_stages`) stays a combinational CoreIR module, as the reference flow's CoreIR
graphs are (Cascade pipelines them after place and route): the metadata gives its number of `stages` and each
instance's `stage`, and a register sits on every connection from an instance (or input port) of stage s to one
of stage t > s, t - s of them (an output port is in the last stage, an input port in the first unless
`input_stage` names it: an accumulation's own element, read in the last; constants in every stage). After
`widths.annotate_widths`, the metadata's `ranges` give the ports' value ranges (the top narrows the registers
holding them) and `narrow` the values whose stage registers keep fewer bits (the instances keep the graph's
widths).
Comparisons have a `Bit` output and `mux` a `Bit` select; 1-bit values elsewhere are `Array 1`, and
connections between the two name bit 0. Output is byte-identical across runs: sorted keys, sorted
connections, names from the graph.
"""

from __future__ import annotations

import json
import os

import networkx as nx

from .assign_stages import late_inputs
from .graph import COMPARISONS, operands, ports, topological

FORMAT_NOTE = "written by mainspring.compute_json; metadata gives each port's Halide type and each output's expression"

_COREIR_SAME = {
    "add": "coreir.add", "sub": "coreir.sub", "mul": "coreir.mul", "and": "coreir.and", "or": "coreir.or",
    "xor": "coreir.xor", "shl": "coreir.shl", "lshr": "coreir.lshr", "ashr": "coreir.ashr",
    "not": "coreir.not", "neg": "coreir.neg", "mux": "coreir.mux",
    "abs": "commonlib.abs",
}
_COREIR_COMPARE = {op: "coreir." + op for op in COMPARISONS}
_MIN_MAX = {"umin": "coreir.ult", "umax": "coreir.ugt", "smin": "coreir.slt", "smax": "coreir.sgt"}


def _int(v: int) -> list:
    return ["Int", v]


def const_literal(width: int, value: int) -> str:
    """CoreIR's spelling of a bit vector, e.g. 16'h0008."""
    return f"{width}'h{value:0{-(-width // 4)}x}"


def _port_type(width: int, direction: str) -> list | str:
    """1-bit ports are single bits (so the Verilog port is a scalar), wider ones arrays."""
    return direction if width == 1 else ["Array", width, direction]


class _Module:
    """The instances and connections of one module being emitted."""

    def __init__(self, g: nx.MultiDiGraph):
        self.g = g
        self.instances: dict[str, dict] = {}
        self.connections: list[list[str]] = []
        self.bit_ports = {p for p, t in ports(g, "input") + ports(g, "output") if t.bits() == 1}
        self.stage: int | None = None  # the pipeline stage of the node being emitted (all its instances)
        self.stages: dict[str, int] = {}

    def instance(self, name: str, genref: str, **genargs: int) -> str:
        assert name not in self.instances and name not in self.g.graph["ports"], f"instance name clash: {name}"
        self.instances[name] = {"genref": genref, "genargs": {k: _int(v) for k, v in genargs.items()}}
        if self.stage is not None and genref != "coreir.const":
            self.stages[name] = self.stage
        return name

    def const(self, name: str, width: int, value: int) -> str:
        self.instance(name, "coreir.const", width=width)
        self.instances[name]["modargs"] = {"value": [["BitVector", width], const_literal(width, value)]}
        return name

    def source(self, n: str) -> tuple[str, bool]:
        """Where node n's value comes from, and whether that is a single Bit (not an Array)."""
        d = self.g.nodes[n]
        if d["op"] == "input":
            return f"self.{n}", n in self.bit_ports
        return f"{n}.out", d["op"] in COMPARISONS

    def connect(self, src: tuple[str, bool], dst: str, dst_is_bit: bool = False) -> None:
        (path, src_is_bit) = src
        if src_is_bit and not dst_is_bit:
            dst += ".0"
        elif dst_is_bit and not src_is_bit:
            path += ".0"
        self.connections.append(sorted([path, dst]))

    def connect_operands(self, n: str, inst: str, keys: tuple[str, ...]) -> None:
        for key, src in zip(keys, operands(self.g, n)):
            self.connect(self.source(src), f"{inst}.{key}", dst_is_bit=key == "sel")

    def emit(self, n: str) -> None:
        d = self.g.nodes[n]
        op, w = d["op"], d["width"]
        self.stage = d.get("stage")
        if op == "input":
            return
        if op == "output":
            self.connect(self.source(operands(self.g, n)[0]), f"self.{n}", dst_is_bit=n in self.bit_ports)
        elif op == "const":
            self.const(n, w, d["value"])
        elif op in _COREIR_SAME:
            self.instance(n, _COREIR_SAME[op], width=w)
            self.connect_operands(n, n, _operand_keys(op))
        elif op in _COREIR_COMPARE:
            self.instance(n, _COREIR_COMPARE[op], width=self.g.nodes[operands(self.g, n)[0]]["width"])
            self.connect_operands(n, n, ("in0", "in1"))
        elif op in _MIN_MAX:
            self.min_max(n, op, w)
        elif op == "zext":
            src = operands(self.g, n)[0]
            self.zero_extend(n, self.source(src), self.g.nodes[src]["width"], w)
        elif op == "sext":
            self.instance(n, "coreir.sext", width_in=self.g.nodes[operands(self.g, n)[0]]["width"], width_out=w)
            self.connect_operands(n, n, ("in",))
        elif op == "slice":
            width_in = self.g.nodes[operands(self.g, n)[0]]["width"]
            self.instance(n, "coreir.slice", width=width_in, lo=d["lo"], hi=d["lo"] + w)
            self.connect_operands(n, n, ("in",))
        elif op == "rom":  # our generator: CoreIR's memory.rom2 is clocked, the kernels are combinational
            self.instance(n, "mainspring.rom", width=w, depth=len(d["table"]))
            self.instances[n]["modargs"] = {"init": ["Json", list(d["table"])]}
            self.connect_operands(n, n, ("in",))
        elif op == "udiv":
            self.divider(n, w)
        elif op == "umulhi":
            self.multiply_high(n, w)
        else:
            raise AssertionError(f"no CoreIR emission for graph op {op} (node {n})")

    def zero_extend(self, name: str, src: tuple[str, bool], width_in: int, width_out: int) -> str:
        """{zeros, src} as `name` (see the module docstring for why not `coreir.zext`)."""
        zeros = self.const(f"{name}_zeros", width_out - width_in, 0)
        self.instance(name, "coreir.concat", width0=width_in, width1=width_out - width_in)
        self.connect(src, f"{name}.in0")
        self.connect((f"{zeros}.out", False), f"{name}.in1")
        return name

    def divider(self, n: str, w: int) -> None:
        """x / y, but 0 when y == 0: CoreIR's divider leaves that case undefined."""
        x, y = (self.source(s) for s in operands(self.g, n))
        divide = self.instance(f"{n}_div", "coreir.udiv", width=w)
        self.connect(x, f"{divide}.in0")
        self.connect(y, f"{divide}.in1")
        zero = self.const(f"{n}_zero", w, 0)
        is_zero = self.instance(f"{n}_is_zero", "coreir.eq", width=w)
        self.connect(y, f"{is_zero}.in0")
        self.connect((f"{zero}.out", False), f"{is_zero}.in1")
        self.instance(n, "coreir.mux", width=w)
        self.connect((f"{divide}.out", False), f"{n}.in0")
        self.connect((f"{zero}.out", False), f"{n}.in1")
        self.connect((f"{is_zero}.out", True), f"{n}.sel", dst_is_bit=True)

    def min_max(self, n: str, op: str, w: int) -> None:
        """min(a, b) as (a < b) ? a : b, max(a, b) as (a > b) ? a : b (see the module docstring)."""
        a, b = (self.source(s) for s in operands(self.g, n))
        compare = self.instance(f"{n}_cmp", _MIN_MAX[op], width=w)
        self.connect(a, f"{compare}.in0")
        self.connect(b, f"{compare}.in1")
        self.instance(n, "coreir.mux", width=w)
        self.connect(a, f"{n}.in1")
        self.connect(b, f"{n}.in0")
        self.connect((f"{compare}.out", True), f"{n}.sel", dst_is_bit=True)

    def multiply_high(self, n: str, w: int) -> None:
        """The high half of the unsigned 2w-bit product (`commonlib.mult_high` is the signed one)."""
        product = self.instance(f"{n}_mul", "coreir.mul", width=2 * w)
        for key, src in zip(("in0", "in1"), operands(self.g, n)):
            ext = self.zero_extend(f"{n}_{key}", self.source(src), w, 2 * w)
            self.connect((f"{ext}.out", False), f"{product}.{key}")
        self.instance(n, "coreir.slice", width=2 * w, lo=w, hi=2 * w)
        self.connect((f"{product}.out", False), f"{n}.in")


def _operand_keys(op: str) -> tuple[str, ...]:
    if op == "mux":
        return ("sel", "in0", "in1")
    return ("in",) if op in ("not", "neg", "abs") else ("in0", "in1")


def to_coreir_json(g: nx.MultiDiGraph) -> dict:
    """The CoreIR JSON document (a dict) of graph `g`: one module, the top, named after the kernel."""
    module = _Module(g)
    for n in topological(g):
        module.emit(n)
    fields = [[p, _port_type(t.bits(), "BitIn")] for p, t in ports(g, "input")]
    fields += [[p, _port_type(t.bits(), "Bit")] for p, t in ports(g, "output")]
    port_types = {p: str(t) for p, t in ports(g, "input") + ports(g, "output")}
    exprs = {p: _short(g.nodes[p]["expr"]) for p, _ in ports(g, "output")}
    meta = {"note": FORMAT_NOTE, "port_types": port_types, "outputs": exprs, "source": g.graph["source"]}
    if g.graph.get("stages", 1) > 1:  # a pipelined kernel (assign_stages): registers where stages change
        meta |= {"stages": g.graph["stages"], "stage": module.stages}
        late = {g.nodes[n]["port"]: g.nodes[n]["stage"] for n in late_inputs(g)}
        if late:  # input ports read in the last stage (an accumulation's own element), not the first
            meta["input_stage"] = late
    meta |= _widths(g)
    body = {
        "type": ["Record", fields],
        "instances": module.instances,
        "connections": sorted(module.connections),
        "metadata": {"mainspring": meta},
    }
    name = g.graph["name"]
    return {"top": f"global.{name}", "namespaces": {"global": {"modules": {name: body}}}}


def _widths(g: nx.MultiDiGraph) -> dict:
    """The metadata of `widths.annotate_widths`, when it ran: `ranges` (the intervals assumed of the inputs and
    found for the outputs, as values of their types) and `narrow` (instance -> [bits, "u" or "s", lo, hi]: its
    value, in [lo, hi], is the zero- or sign-extension of its low bits; the node's last instance, the one named
    after it)."""
    if "ranges" not in g.graph:
        return {}
    ranges = {side: {p: list(iv) for p, iv in g.graph["ranges"][side].items()} for side in ("inputs", "outputs")}
    narrow = {n: [bits, "s" if signed else "u", lo, hi] for n, d in g.nodes(data=True) if "narrow" in d
              for bits, signed, lo, hi in [d["narrow"]]}
    return {"ranges": ranges} | ({"narrow": narrow} if narrow else {})


def _short(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def dumps_coreir_json(doc: dict) -> str:
    """The JSON text: sorted keys, anything short on one line (an instance, a connection), a final newline;
    the same document always gives the same bytes."""
    return _format(doc, "") + "\n"


_LINE = 100


def _format(value: object, indent: str) -> str:
    compact = json.dumps(value, sort_keys=True, separators=(", ", ": "))
    if len(compact) + len(indent) <= _LINE or not isinstance(value, (dict, list)) or not value:
        return compact
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_format(value[k], inner)}" for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    return "[\n" + ",\n".join(inner + _format(v, inner) for v in value) + "\n" + indent + "]"


def write_coreir_json(g: nx.MultiDiGraph, path: str | os.PathLike[str]) -> str:
    """Write graph `g` as CoreIR JSON to `path`; return the text."""
    text = dumps_coreir_json(to_coreir_json(g))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return text
