"""Translate a kernel's IR into a graph of PE ops (the first step of `compute_json`)."""

from __future__ import annotations

from typing import Any

import networkx as nx

from mainspring.frontend import ir

from .graph import add_const, add_node, new_graph
from .kernel import Kernel

_SAME_OPS = {"add": "add", "sub": "sub", "mul": "mul", "and": "and", "or": "or", "xor": "xor"}
_ORDER_OPS = {"lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}


def lower_kernel(kernel: Kernel) -> nx.MultiDiGraph:
    """Translate each IR op of the kernel into PE ops, spelling out signedness and Halide's special cases."""
    port_names = [p for p, _ in kernel.inputs] + [p for p, _ in kernel.outputs]
    g = new_graph(kernel.name, port_names, kernel.source)
    for port, t in kernel.inputs:
        add_node(g, "input", t.bits(), name=port, port=port, type=t)
    lowering = _Lowering(g)
    for port, expr in kernel.outputs:
        value = lowering.value(expr)
        add_node(g, "output", expr.type.bits(), (value,), name=port, port=port, type=expr.type,
                 expr=ir.to_string(expr))
    return g


class _Lowering:
    """One method per IR node class, so a node class without a rule fails loudly."""

    def __init__(self, g: nx.MultiDiGraph):
        self.g = g
        self.memo: dict[int, str] = {}

    def value(self, expr: ir.Expr) -> str:
        for node in ir.walk(expr):
            if id(node) not in self.memo:
                method = getattr(self, "_" + type(node).__name__, None)
                assert method is not None, f"no lowering for IR node {type(node).__name__}"
                self.memo[id(node)] = method(node)
        return self.memo[id(expr)]

    def _op(self, op: str, width: int, *args: str, **attrs: Any) -> str:
        return add_node(self.g, op, width, args, **attrs)

    def _const(self, width: int, value: int) -> str:
        return add_const(self.g, width, value)

    def _Const(self, e: ir.Const) -> str:  # noqa: N802 - named for the IR class
        # Floats stay off the array: hwlower folds constant float tables and refuses float ops in kernels.
        assert isinstance(e.value, int), f"float constant {e.value} in a kernel"
        return self._const(e.type.bits(), e.value)

    def _Call(self, e: ir.Call) -> str:  # noqa: N802
        if not e.args:
            return e.callee.name  # Kernel checked that it names an input port of this type
        # A ROM (hwlower.ir.Rom): the coordinates as one 32-bit address into its table, x fastest.
        addr: str | None = None
        stride = 1
        for a, (lo, extent) in zip(e.args, e.callee.box):
            v = self.memo[id(a)]
            if a.type.bits() < 32:
                v = self._op("sext" if a.type.is_int() else "zext", 32, v)
            v = self._op("sub", 32, v, self._const(32, lo))
            if stride != 1:
                v = self._op("mul", 32, v, self._const(32, stride))
            addr = v if addr is None else self._op("add", 32, addr, v)
            stride *= extent
        assert addr is not None  # e.args is not empty
        mask = (1 << e.type.bits()) - 1
        return self._op("rom", e.type.bits(), addr, rom=e.callee.name,
                        table=tuple(v & mask for v in e.callee.values))

    def _Cast(self, e: ir.Cast) -> str:  # noqa: N802
        src, dst = e.value.type, e.type
        x = self.memo[id(e.value)]
        if dst.bits() > src.bits():
            return self._op("sext" if src.is_int() else "zext", dst.bits(), x)
        if dst.bits() < src.bits():  # truncation; to Bool too (it keeps bit 0, as in Halide 21)
            return self._op("slice", dst.bits(), x, lo=0)
        return x  # same width: the bits are the value; signedness is in the ops that read it

    def _UnOp(self, e: ir.UnOp) -> str:  # noqa: N802
        x = self.memo[id(e.a)]
        if e.op == "not":
            return self._op("not", e.type.bits(), x)
        assert e.op == "abs", e.op
        return self._op("abs", e.type.bits(), x) if e.a.type.is_int() else x

    def _Select(self, e: ir.Select) -> str:  # noqa: N802
        c, t, f = (self.memo[id(x)] for x in (e.cond, e.true_value, e.false_value))
        return self._op("mux", e.type.bits(), c, f, t)

    def _BinOp(self, e: ir.BinOp) -> str:  # noqa: N802
        a, b = self.memo[id(e.a)], self.memo[id(e.b)]
        t = e.a.type
        w, s = t.bits(), ("s" if t.is_int() else "u")
        if e.op in _SAME_OPS:
            return self._op(_SAME_OPS[e.op], w, a, b)
        if e.op in ("min", "max"):
            return self._op(s + e.op, w, a, b)
        if e.op == "absd":
            # |a - b| < 2**w always fits the unsigned result, and max - min computes it without overflow.
            return self._op("sub", w, self._op(s + "max", w, a, b), self._op(s + "min", w, a, b))
        if e.op in ("div", "mod"):
            return self._op(s + e.op, w, a, b)
        if e.op in ("shl", "shr"):
            return self._shift(e, a, b)
        if e.op in ("eq", "ne"):
            return self._op("eq" if e.op == "eq" else "neq", 1, a, b)
        return self._op(s + _ORDER_OPS[e.op], 1, a, b)

    def _shift(self, e: ir.BinOp, a: str, b: str) -> str:
        w = e.type.bits()
        right = "ashr" if e.a.type.is_int() else "lshr"
        forward, backward = ("shl", right) if e.op == "shl" else (right, "shl")
        if not e.b.type.is_int():
            return self._op(forward, w, a, b)
        # A negative amount shifts the other way by its magnitude. Negating the most negative amount wraps
        # to itself, which as an unsigned amount is >= w and so shifts everything out, as Halide's does.
        negative = self._op("slt", 1, b, self._const(w, 0))
        other = self._op(backward, w, a, self._op("neg", w, b))
        return self._op("mux", w, negative, self._op(forward, w, a, b), other)
