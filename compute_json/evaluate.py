"""What graph ops compute, written with `frontend.semantics` (the reference), and two evaluators.

`apply_op` is the one definition of every PE op: the constant folder folds with it, so a folded constant is
exactly what the reference gives. `evaluate_graph` runs a whole graph on NumPy arrays (the verifier of the
passes); `evaluate_kernel` runs a kernel's IR expressions with `semantics` directly (the ground truth).
Values are int64 arrays; graph values are bit patterns, kernel port values are values of the port's type.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np
import numpy.typing as npt

from mainspring.frontend import ir
from mainspring.frontend import semantics as sem
from mainspring.frontend.types import BOOL, Int, Type, UInt

from .graph import OPS, operands, ports, topological
from .kernel import Kernel

_HALIDE_BINARY = {
    "add": "add", "sub": "sub", "mul": "mul", "and": "and", "or": "or", "xor": "xor",
    "umin": "min", "umax": "max", "smin": "min", "smax": "max", "shl": "shl", "lshr": "shr", "ashr": "shr",
    "udiv": "div", "umod": "mod", "sdiv": "div", "smod": "mod",
    "eq": "eq", "neq": "ne", "ult": "lt", "ule": "le", "ugt": "gt", "uge": "ge",
    "slt": "lt", "sle": "le", "sgt": "gt", "sge": "ge",
}


def pattern(values: npt.ArrayLike, t: Type) -> np.ndarray:
    """Values of type `t` as `t.bits()`-bit patterns."""
    return sem.wrap(values, UInt(t.bits()))


def from_pattern(patterns: npt.ArrayLike, t: Type) -> np.ndarray:
    """Bit patterns as values of type `t`."""
    return sem.wrap(patterns, t)


def node_value(g: nx.MultiDiGraph, n: str, args: Sequence[npt.ArrayLike]) -> np.ndarray:
    """The result pattern of node `n` of graph `g` on operand patterns `args`."""
    d = g.nodes[n]
    in_width = g.nodes[operands(g, n)[-1]]["width"] if args else d["width"]
    return apply_op(d["op"], d["width"], in_width, args, lo=d.get("lo", 0), value=d.get("value", 0),
                    table=d.get("table", ()))


def apply_op(op: str, width: int, in_width: int, operand_patterns: Sequence[npt.ArrayLike], lo: int = 0, value: int = 0,
             table: tuple[int, ...] = ()) -> np.ndarray:
    """The result pattern of graph op `op` with `width`-bit result on `in_width`-bit `operand_patterns`
    (for a mux, `in_width` is that of its data operands)."""
    args = [np.asarray(a, dtype=np.int64) for a in operand_patterns]
    spec = OPS[op]
    t_in = Int(in_width) if spec.signed else UInt(in_width)
    t_out = UInt(width)
    if op == "const":
        return np.asarray(value, dtype=np.int64)
    if op in ("input", "output"):
        raise AssertionError(f"{op} has no value of its own")
    if op in _HALIDE_BINARY:
        b = args[1] if op in ("shl", "lshr", "ashr") else sem.wrap(args[1], t_in)  # amounts are unsigned
        result_type = BOOL if spec.kind == "compare" else t_in
        return pattern(sem.binop(_HALIDE_BINARY[op], result_type, t_in, sem.wrap(args[0], t_in), b), t_out)
    if op == "not":
        return sem.unop("not", t_out, args[0])
    if op == "neg":
        return sem.binop("sub", t_out, t_out, 0, args[0])
    if op == "abs":
        return sem.unop("abs", t_out, sem.wrap(args[0], t_in))
    if op == "mux":
        return sem.select(args[0], args[2], args[1])
    if op in ("zext", "sext"):
        return pattern(sem.cast(sem.wrap(args[0], t_in), t_in, t_in.with_bits(width)), t_out)
    if op == "slice":
        return sem.wrap(args[0] >> lo, t_out)
    if op == "umulhi":
        return _umulhi(args[0], args[1], width)
    if op == "rom":
        rom = np.asarray(table + (0,), dtype=np.int64)  # past the end: 0
        return rom[np.where((args[0] >= 0) & (args[0] < len(table)), args[0], len(table))]
    raise AssertionError(f"unknown graph op {op}")


def _umulhi(a: np.ndarray, b: np.ndarray, width: int) -> np.ndarray:
    if width <= 16:
        return (a * b) >> width
    # a * b can need 64 bits: split b in 16-bit halves so every partial product fits in int64.
    b_hi, b_lo = b >> 16, b & 0xFFFF
    return (a * b_hi + ((a * b_lo) >> 16)) >> (width - 16)


def evaluate_graph(g: nx.MultiDiGraph, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Run graph `g` on input port values (values of each port's type); return output port values."""
    values: dict[str, np.ndarray] = {}
    for port, t in ports(g, "input"):
        values[port] = pattern(inputs[port], t)
    shape = np.broadcast_shapes(*(np.shape(v) for v in values.values())) if values else ()
    result: dict[str, np.ndarray] = {}
    users_left = {n: g.out_degree(n) for n in g}  # free each value after its last use: graphs can be big
    for n in topological(g):
        d = g.nodes[n]
        if d["op"] == "input":
            continue
        args = [values[s] for s in operands(g, n)]
        for s in set(operands(g, n)):
            users_left[s] -= g.number_of_edges(s, n)
            if users_left[s] == 0:
                del values[s]
        if d["op"] == "output":
            result[d["port"]] = np.broadcast_to(from_pattern(args[0], d["type"]), shape)
        else:
            values[n] = node_value(g, n, args)
    return result


def evaluate_kernel(kernel: Kernel, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Run a kernel's IR expressions with `frontend.semantics`: the reference every compiled form must match."""
    env = {port: sem.wrap(inputs[port], t) for port, t in kernel.inputs}
    shape = np.broadcast_shapes(*(np.shape(v) for v in env.values())) if env else ()
    memo: dict[int, np.ndarray] = {}
    result = {}
    for port, expr in kernel.outputs:
        for node in ir.walk(expr):
            if id(node) not in memo:
                memo[id(node)] = _evaluate_node(node, memo, env)
        result[port] = np.broadcast_to(memo[id(expr)], shape)
    return result


def _evaluate_node(e: ir.Expr, memo: dict[int, np.ndarray], env: dict[str, np.ndarray]) -> np.ndarray:
    if isinstance(e, ir.Const):
        return np.asarray(e.value, dtype=np.int64)
    if isinstance(e, ir.Call):
        return env[e.callee.name]
    if isinstance(e, ir.Cast):
        return sem.cast(memo[id(e.value)], e.value.type, e.type)
    if isinstance(e, ir.BinOp):
        return sem.binop(e.op, e.type, e.a.type, memo[id(e.a)], memo[id(e.b)])
    if isinstance(e, ir.UnOp):
        return sem.unop(e.op, e.type, memo[id(e.a)])
    if isinstance(e, ir.Select):
        return sem.select(memo[id(e.cond)], memo[id(e.true_value)], memo[id(e.false_value)])
    raise AssertionError(f"cannot evaluate {type(e).__name__} in a kernel")
