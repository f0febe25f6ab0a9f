"""What `compute_json` compiles: a kernel, i.e. named input ports and named output expressions.

A kernel is the compute of one op of the loop nest (`hwlower.ir.Op`): its inputs are the op's loads and scalar
Params, its outputs the values it stores. Expression leaves are constants and argument-less `ir.Call`s whose
`callee.name` is an input port; the port declares the Call's type.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

from mainspring.frontend import ir
from mainspring.frontend.errors import HalideError, did_you_mean
from mainspring.frontend.identifiers import verilog_identifier
from mainspring.frontend.types import I32, Type, UInt
from mainspring.hwlower.ir import Op, Rom

U16 = UInt(16)
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")

# Names a port cannot take because the Verilog and CoreIR we emit would break (keywords of Verilog-2005 and
# of the Verilog our JSON renders to; `self` is CoreIR's name for the module's own ports; `clk`, `rst_n` and `en`
# are the ports a pipelined kernel's stage registers take).
RESERVED_NAMES = frozenset("""
    always and assign automatic begin buf bufif0 bufif1 case casex casez cell cmos config deassign default
    defparam design disable edge else end endcase endconfig endfunction endgenerate endmodule endprimitive
    endspecify endtable endtask event for force forever fork function generate genvar highz0 highz1 if ifnone
    incdir include initial inout input instance integer join large liblist library localparam macromodule
    medium module nand negedge nmos nor noshowcancelled not notif0 notif1 or output parameter pmos posedge
    primitive pull0 pull1 pulldown pullup pulsestyle_ondetect pulsestyle_onevent rcmos real realtime reg
    release repeat rnmos rpmos rtran rtranif0 rtranif1 scalared showcancelled signed small specify specparam
    strong0 strong1 supply0 supply1 table task time tran tranif0 tranif1 tri tri0 tri1 triand trior trireg
    unsigned use uwire vectored wait wand weak0 weak1 while wire wor xnor xor self clk rst_n en
""".split())


@dataclass(frozen=True, slots=True, eq=False)
class Kernel:
    """One combinational compute kernel: `inputs` are (port, Type), `outputs` are (port, ir.Expr); `source`
    says where it comes from (it is copied into the JSON and the Verilog)."""

    name: str
    inputs: tuple[tuple[str, Type], ...]
    outputs: tuple[tuple[str, ir.Expr], ...]
    source: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "inputs", tuple(self.inputs))
        object.__setattr__(self, "outputs", tuple(self.outputs))
        _check_name(self.name, "kernel name", self.name)
        seen: set[str] = set()
        for port, _ in self.inputs + self.outputs:
            _check_name(port, "port name", self.name)
            if port in seen:
                raise HalideError(f"Kernel '{self.name}': port '{port}' is declared twice; port names must be unique")
            seen.add(port)
        if not self.outputs:
            raise HalideError(f"Kernel '{self.name}' has no outputs")
        types = dict(self.inputs)
        for port, expr in self.outputs:
            _check_leaves(self.name, port, expr, types)

    def input_type(self, port: str) -> Type:
        return dict(self.inputs)[port]

    def output_type(self, port: str) -> Type:
        return dict(self.outputs)[port].type


def _check_name(name: str, what: str, kernel: str) -> None:
    if not isinstance(name, str) or not _IDENTIFIER.match(name):
        raise HalideError(
            f"Kernel '{kernel}': {what} {name!r} is not usable in Verilog; use letters, digits and '_', "
            "starting with a letter"
        )
    if name in RESERVED_NAMES or "__" in name:
        raise HalideError(
            f"Kernel '{kernel}': {what} '{name}' is a Verilog keyword, a pipeline port (clk, rst_n, en) or "
            f"contains '__' (which CoreIR uses for its own names); rename it, e.g. to '{name.replace('__', '_')}_p'"
        )


def _check_leaves(kernel: str, port: str, expr: ir.Expr, types: dict[str, Type]) -> None:
    for node in ir.walk(expr):
        if isinstance(node, (ir.Var, ir.RVar)):
            raise HalideError(
                f"Kernel '{kernel}', output '{port}': loop variable '{node.name}' in a kernel expression; "
                "kernels compute on loaded values only (pass the index in as an input port)"
            )
        if not isinstance(node, ir.Call):
            continue
        if isinstance(node.callee, Rom) and len(node.args) == len(node.callee.box):
            continue  # a ROM read at computed coordinates (its args are checked as nodes of their own)
        name = getattr(node.callee, "name", None)
        if node.args or name not in types:
            raise HalideError(
                f"Kernel '{kernel}', output '{port}': '{ir.to_string(node)}' is not an input port "
                f"(inputs: {', '.join(types) or 'none'}){did_you_mean(str(name), types)}"
            )
        if types[name] != node.type:
            raise HalideError(
                f"Kernel '{kernel}', output '{port}': input '{name}' is declared {types[name]} but read as "
                f"{node.type}; declare the port with the type of its loads"
            )


def kernel_from_op(op: Op, name: str | None = None, output: str = "out") -> Kernel:
    """The kernel of a loop-nest op (`hwlower.ir.Op`): ports for the loads its value reads (in the op's load
    order), then for its scalar Params (by name), and one output port for the stored value."""
    stage = "pure definition" if op.stage == 0 else f"update {op.stage}"
    value = _port_safe_params(op.value)
    return Kernel(name or op.name, _inputs(op, value), ((output, value),),
                  source=f"Func {op.func}, {stage} (op {op.name})")


def address_kernel(op: Op, box: tuple[tuple[int, int], ...], name: str, output: str = "addr") -> Kernel:
    """The address a RAM update (`Op.scatter`) reads and then writes (or a RAM read, `Op.lookup`, reads): its
    computed coordinates as one x-fastest
    linear address into `box` ((min, extent) per dimension). The address is below the box's size, so it is
    computed in 16 bits (wrapping arithmetic gives the same low bits) when the box has at most 65536 elements."""
    t = U16 if math.prod(e for _, e in box) <= 1 << 16 else I32
    terms, stride = [], 1
    for e, (lo, extent) in zip(op.scatter or op.lookup, box):
        c = e if e.type == t else ir.Cast(t, e)
        if lo:
            c = ir.BinOp(t, "sub", c, ir.const(t, lo & 0xFFFF if t == U16 else lo))
        if stride != 1:
            c = ir.BinOp(t, "mul", c, ir.const(t, stride))
        terms.append(c)
        stride *= extent
    addr = _port_safe_params(functools.reduce(lambda a, b: ir.BinOp(t, "add", a, b), terms))
    what = "the address it updates" if op.scatter else "the RAM address it reads"
    return Kernel(name, _inputs(op, addr), ((output, addr),), source=f"Func {op.func}, update {op.stage}: {what} "
                  f"(op {op.name})")


def _port_safe_params(e: ir.Expr) -> ir.Expr:
    """e with each scalar read whose name is no Verilog identifier (an image's shape, `input.width()`, is Halide's
    `input.extent.0`; a Param may be `3gain`) reading the port of its top-level configuration input's name instead
    (frontend.identifiers.verilog_identifier, the name design.simulate drives)."""
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        if isinstance(n, ir.Call) and not n.args and not isinstance(n.callee, PortRef) \
                and getattr(n.callee, "kind", None) in ("scalar", "shape") \
                and verilog_identifier(n.callee.name) != n.callee.name:
            return read_port(verilog_identifier(n.callee.name), n.type)
        return ir.rebuild(n, kids)

    return ir.transform(e, go)


def _inputs(op: Op, value: ir.Expr) -> tuple[tuple[str, Type], ...]:
    found: dict[str, Type] = {}
    for node in ir.walk(value):
        if isinstance(node, ir.Call) and not node.args:
            found.setdefault(node.callee.name, node.type)
    load_names = [port.name for port in op.loads if port.name in found]
    params = sorted(set(found) - set(load_names))
    return tuple((n, found[n]) for n in load_names + params)


@dataclass(frozen=True, slots=True, eq=False)
class PortRef:
    """The callee of a kernel input read when no loop-nest `LoadPort` or Param exists (tests, examples)."""

    name: str


def read_port(name: str, t: Type) -> ir.Call:
    """An expression reading input port `name` of type `t`."""
    return ir.Call(t, PortRef(name), ())
