"""Helpers for the compute_json tests: small kernels and the reference check."""

from __future__ import annotations

from collections import Counter

import numpy as np

from mainspring.compute_json import Kernel, evaluate_graph, evaluate_kernel, read_port
from mainspring.compute_json.examples import all_values, random_values
from mainspring.frontend import ir
from mainspring.frontend.types import Bool, Type


def binop(op: str, a: ir.Expr, b: ir.Expr) -> ir.BinOp:
    t = Bool() if op in ir.COMPARISONS else (a.type.with_code("uint") if op == "absd" else a.type)
    return ir.BinOp(t, op, a, b)


def const(t: Type, v: int) -> ir.Const:
    return ir.Const(t, v)


def unary_kernel(t: Type, make, name: str = "k") -> Kernel:
    """Kernel `name` with input x: t and output `out` = make(x) (make may return several: out0, out1, ...)."""
    x = read_port("x", t)
    made = make(x)
    outs = [("out", made)] if isinstance(made, ir.Expr) else [(f"out{i}", e) for i, e in enumerate(made)]
    return Kernel(name, (("x", t),), tuple(outs))


def binary_kernel(t: Type, make, name: str = "k") -> Kernel:
    x, y = read_port("x", t), read_port("y", t)
    return Kernel(name, (("x", t), ("y", t)), (("out", make(x, y)),))


def ops_of(g) -> Counter:
    return Counter(d["op"] for _, d in g.nodes(data=True) if d["op"] not in ("input", "output"))


def x_values(t: Type, count: int = 20000, seed: int = 1) -> np.ndarray:
    """Every value of an 8/16-bit type; random, extreme and small values of a 32-bit one."""
    if t.bits() <= 16:
        return all_values(t)
    return random_values(t, count, np.random.default_rng(seed))


def assert_graph_matches(kernel: Kernel, g, inputs: dict[str, np.ndarray]) -> None:
    """The graph computes what frontend.semantics computes, bit for bit, on every vector."""
    got, want = evaluate_graph(g, inputs), evaluate_kernel(kernel, inputs)
    for port in want:
        bad = np.nonzero(got[port] != want[port])[0]
        if bad.size:
            i = bad[0]
            case = {p: int(v[i]) for p, v in inputs.items()}
            raise AssertionError(f"{kernel.name}.{port}: {bad.size} mismatches; first at {case}: graph gives "
                                 f"{int(got[port][i])}, reference {int(want[port][i])}")
