"""Kernels that exercise every op on every type, and input vectors that reach the corner cases.

Used by the tests of `compute_json` and `verilog.kernel` (and handy to look at: `compile_kernel(
op_kernel(Int(8)), dump_after="lower_dividers")`). Vectors mix the extreme values of each type (0, ±1, min,
max, ...) with small values (in-range shift amounts, small divisors) and uniformly random full-range values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

import numpy as np

from mainspring.frontend import ir
from mainspring.frontend.types import Bool, Int, Type, UInt

from .kernel import Kernel, read_port

TYPES = (Bool(), UInt(8), Int(8), UInt(16), Int(16), UInt(32), Int(32))
_T = TypeVar("_T")
_ARITHMETIC = ("add", "sub", "mul", "div", "mod", "min", "max", "and", "or", "xor")


def _name(t: Type) -> str:
    return str(t)


def _binop(op: str, a: ir.Expr, b: ir.Expr) -> ir.BinOp:
    t = Bool() if op in ir.COMPARISONS else (a.type.with_code("uint") if op == "absd" else a.type)
    return ir.BinOp(t, op, a, b)


def _cast(t: Type, e: ir.Expr) -> ir.Expr:
    return e if e.type == t else ir.Cast(t, e)


def _const(t: Type, v: int) -> ir.Const:
    return ir.Const(t, t.wrap(v) if not t.is_bool() else v & 1)


def special_constants(t: Type) -> list[int]:
    """Divisors and factors worth testing for type t: 0, ±1, powers of two, odd and even non-powers, extremes."""
    if t.is_bool():
        return [0, 1]
    w = t.bits()
    values = {0, 1, 2, 3, 5, 6, 7, 10, 12, 100, 255, 1 << (w // 2), (1 << (w - 2)) + 1, t.max(), t.max() - 1,
              (1 << (w - 1)) - 3}
    if t.is_int():
        values |= {-v for v in list(values)} | {t.min(), t.min() + 1}
    else:
        values |= {t.max() - 2, (1 << (w - 1)), (1 << (w - 1)) + 1, 641 if w >= 16 else 13}
    return sorted(v for v in values if t.can_represent(v))


def op_kernel(t: Type) -> Kernel:
    """Every binary and unary op, select and casts on operands `a`, `b` of type t; shifts by a signed amount
    `n` and an unsigned amount `u`; division, remainder and multiplication by constants."""
    a, b, c = read_port("a", t), read_port("b", t), read_port("c", Bool())
    inputs = [("a", t), ("b", t), ("c", Bool())]
    outs: list[tuple[str, ir.Expr]] = [(f"o_{op}", _binop(op, a, b)) for op in _ARITHMETIC + ("absd",)]
    outs += [(f"o_{op}", _binop(op, a, b)) for op in ir.COMPARISONS]
    outs += [("o_not", ir.UnOp(t, "not", a)), ("o_sel", ir.Select(t, c, a, b))]
    outs.append(("o_abs", ir.UnOp(t.with_code("uint"), "abs", a)))
    if not t.is_bool():
        w = t.bits()
        n, u = read_port("n", Int(w)), read_port("u", UInt(w))
        inputs += [("n", Int(w)), ("u", UInt(w))]
        outs += [("o_shl_n", ir.BinOp(t, "shl", a, n)), ("o_shr_n", ir.BinOp(t, "shr", a, n)),
                 ("o_shl_u", ir.BinOp(t, "shl", a, u)), ("o_shr_u", ir.BinOp(t, "shr", a, u))]
    outs += [(f"o_cast_{_name(dst)}", _cast(dst, a)) for dst in TYPES if dst != t]
    for i, k in enumerate(special_constants(t)):
        for op in ("div", "mod", "mul"):
            outs.append((f"o_{op}_k{i}", _binop(op, a, _const(t, k))))
    # Constant subtrees and identities that folding must get exactly right.
    one, two = _const(t, 1), _const(t, 2 if not t.is_bool() else 1)
    outs += [("o_fold", _binop("add", _binop("mul", _binop("add", one, two), a), _binop("sub", a, a))),
             ("o_sel_const", ir.Select(t, _binop("lt", one, two), a, b)),
             ("o_div_folded", _binop("div", a, _binop("add", one, one)))]
    return Kernel(f"ops_{_name(t)}", tuple(inputs), tuple(outs))


def clamp_pick_kernel() -> Kernel:
    """A clamp, a select, a comparison, a halving and a narrowing cast: small enough for golden files."""
    t = Int(16)
    a, b, c = read_port("a", t), read_port("b", t), read_port("c", Bool())
    clamp = ir.BinOp(t, "min", ir.BinOp(t, "max", a, ir.Const(t, 0)), ir.Const(t, 255))
    return Kernel("clamp_pick", (("a", t), ("b", t), ("c", Bool())), (
        ("clamped", clamp),
        ("pick", ir.Select(t, c, a, b)),
        ("less", ir.BinOp(Bool(), "lt", a, b)),
        ("half", ir.BinOp(t, "div", ir.BinOp(t, "add", a, b), ir.Const(t, 2))),
        ("low", ir.Cast(UInt(8), a)),
    ))


def wiring_kernel() -> Kernel:
    """An input nothing reads, an input read in part, pass-through and constant outputs (Bool ones too)."""
    a, c = read_port("a", UInt(16)), read_port("c", Bool())
    return Kernel("wiring", (("a", UInt(16)), ("b", Int(32)), ("c", Bool())), (
        ("low", ir.Cast(UInt(8), a)), ("seven", ir.Const(UInt(8), 7)), ("odd", ir.Cast(Bool(), a)),
        ("same", c), ("yes", ir.Const(Bool(), 1)),
    ))


def division_kernel(t: Type, divisors: Iterable[int]) -> Kernel:
    """x / d and x % d of input `x` of type t for each constant divisor d."""
    x = read_port("x", t)
    outs = []
    for i, d in enumerate(divisors):
        outs += [(f"q{i}", _binop("div", x, _const(t, d))), (f"r{i}", _binop("mod", x, _const(t, d)))]
    return Kernel(f"div_{_name(t)}", (("x", t),), tuple(outs))


def all_values(t: Type) -> np.ndarray:
    """Every value of an (at most 16-bit) type."""
    assert t.bits() <= 16, t
    return np.arange(t.min(), t.max() + 1, dtype=np.int64)


def extreme_values(t: Type) -> list[int]:
    candidates = {0, 1, 2, 3, -1, -2, t.min(), t.min() + 1, t.max(), t.max() - 1, t.bits(), t.bits() - 1,
                  t.bits() + 1, -t.bits(), 1 - t.bits(), -t.bits() - 1}
    return sorted(v for v in candidates if t.can_represent(v))


def random_values(t: Type, count: int, rng: np.random.Generator) -> np.ndarray:
    """A quarter extreme values, a quarter small (|v| < 40), half uniform over the type."""
    kind = rng.integers(0, 4, count)
    extreme = np.asarray(extreme_values(t), dtype=np.int64)
    small = np.clip(rng.integers(-40, 41, count), t.min(), t.max())
    full = rng.integers(t.min(), t.max() + 1, count, dtype=np.int64)
    return np.where(kind == 0, extreme[rng.integers(0, len(extreme), count)], np.where(kind == 1, small, full))


def near_multiples(t: Type, divisors: Iterable[int], count: int, rng: np.random.Generator) -> np.ndarray:
    """Values k*d - 1, k*d, k*d + 1 for random k (where rounding errors of a division show first)."""
    d = np.asarray([abs(x) for x in divisors if x], dtype=np.int64)
    d = d[rng.integers(0, len(d), count)]
    k = rng.integers(t.min(), t.max() + 1, count, dtype=np.int64) // np.maximum(d, 1)
    v = k * d + rng.integers(-1, 2, count)
    return np.clip(v, t.min(), t.max())


def kernel_vectors(kernel: Kernel, count: int, seed: int = 0) -> dict[str, np.ndarray]:
    """`count` vectors for every input port; when the kernel reads `a` and `b` of an at most 8-bit type and
    count >= 65536, (a, b) runs over every pair instead."""
    rng = np.random.default_rng(seed)
    types = dict(kernel.inputs)
    out = {port: random_values(t, count, rng) for port, t in kernel.inputs}
    if "a" in types and "b" in types and types["a"].bits() <= 8:
        pairs = np.stack(np.meshgrid(all_values(types["a"]), all_values(types["b"])), -1).reshape(-1, 2)
        if count >= len(pairs):
            reps = -(-count // len(pairs))
            out["a"], out["b"] = np.tile(pairs[:, 0], reps)[:count], np.tile(pairs[:, 1], reps)[:count]
    return out


class _RandomExpressions:
    """Random well-typed expression trees over one input port per type (`p_uint8`, ...), with constants that
    are often special (0, ±1, powers of two, extremes) so the strength reductions fire."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def pick(self, options: Sequence[_T]) -> _T:
        return options[int(self.rng.integers(0, len(options)))]

    def leaf(self, t: Type) -> ir.Expr:
        if self.rng.random() < 0.6:
            return read_port(f"p_{_name(t)}", t)
        special = special_constants(t) + [int(self.rng.integers(t.min(), t.max() + 1))]
        return _const(t, self.pick(special))

    def expr(self, t: Type, depth: int) -> ir.Expr:
        if depth == 0 or self.rng.random() < 0.15:
            return self.leaf(t)
        d = depth - 1
        kind = self.pick(["arith", "arith", "arith", "shift", "select", "cast", "unary"]
                         + (["compare", "compare"] if t.is_bool() else [])
                         + (["absd"] if t.is_uint() and not t.is_bool() else []))
        if kind == "arith":
            return ir.BinOp(t, self.pick(_ARITHMETIC), self.expr(t, d), self.expr(t, d))
        if kind == "shift" and not t.is_bool():
            amount = self.pick([t, t.with_code("int"), t.with_code("uint")])
            return ir.BinOp(t, self.pick(["shl", "shr"]), self.expr(t, d), self.expr(amount, d))
        if kind == "select":
            return ir.Select(t, self.expr(Bool(), d), self.expr(t, d), self.expr(t, d))
        if kind == "compare":
            u = self.pick(TYPES)
            return ir.BinOp(Bool(), self.pick(ir.COMPARISONS), self.expr(u, d), self.expr(u, d))
        if kind == "absd":
            u = self.pick([t, t.with_code("int")])
            return ir.BinOp(t, "absd", self.expr(u, d), self.expr(u, d))
        if kind == "unary" and t.is_uint() and not t.is_bool() and self.rng.random() < 0.5:
            return ir.UnOp(t, "abs", self.expr(t.with_code("int"), d))
        if kind == "unary":
            return ir.UnOp(t, "not", self.expr(t, d))
        return _cast(t, self.expr(self.pick(TYPES), d))


def random_kernel(seed: int, outputs: int = 40, depth: int = 4) -> Kernel:
    """A kernel of `outputs` random expressions (of random types) over the ports p_bool, p_uint8, ..."""
    gen = _RandomExpressions(np.random.default_rng(seed))
    outs = [(f"o{i}", gen.expr(gen.pick(TYPES), depth)) for i in range(outputs)]
    used = {n.callee.name for _, e in outs for n in ir.walk(e) if isinstance(n, ir.Call)}
    inputs = tuple((f"p_{_name(t)}", t) for t in TYPES if f"p_{_name(t)}" in used)
    return Kernel(f"random_{seed}", inputs, tuple(outs))
