"""The internal expression IR the frontend hands to every later stage.

Semantics (Halide's, for the integer types of `types.py`):
- Every node has a `type`; both operands of a binary arithmetic op have the node's type (the frontend inserts
  the casts Halide's type coercion would). Comparisons take two operands of one type and return Bool.
- Arithmetic wraps around (two's complement) at the type's width. Halide leaves signed 32-bit overflow
  undefined; we wrap, and no test relies on it.
- `div` and `mod` are Euclidean: the remainder is never negative (`-8 div -3 == 3`, `-7 mod 3 == 2`); a zero
  divisor gives 0 for both.
- `shl`/`shr` shift by the second operand, which has the first's width but may differ in signedness; a negative
  signed amount shifts the other way. `shr` of a signed value is arithmetic. Amounts >= the width are
  undefined in Halide (we give what the wrapped shift gives; no test relies on it).
- `abs` and `absd` of an int type return the unsigned type of the same width, exactly (no overflow).
- `and`/`or`/`xor`/`not` are bitwise; on Bool they are the logical operations.
- `Select` evaluates both sides (there are no side effects).
- Loads (`Call`) read a Func, an input image or (with no args) a scalar Param.

Nodes are frozen dataclasses with identity equality (`eq=False`) so that hashing and comparison never recurse
over whole trees; `structural_key` gives a hashable structural identity when one is needed (CSE, tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .types import BOOL, I32, Type

BINARY_OPS = (
    "add", "sub", "mul", "div", "mod", "min", "max", "absd",
    "and", "or", "xor", "shl", "shr",
    "eq", "ne", "lt", "le", "gt", "ge",
)
COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")
UNARY_OPS = ("not", "abs")


@dataclass(frozen=True, slots=True, eq=False)
class Expr:
    type: Type


@dataclass(frozen=True, slots=True, eq=False)
class Const(Expr):
    value: int

    def __post_init__(self):
        assert self.type.can_represent(self.value), (self.type, self.value)


@dataclass(frozen=True, slots=True, eq=False)
class Var(Expr):
    """A pure variable of a Func's definition (always Int(32))."""

    name: str


@dataclass(frozen=True, slots=True, eq=False)
class ReductionDomain:
    """An RDom: named dimensions, each with an Int(32) min and extent (expressions without pure vars)."""

    name: str
    dims: tuple[tuple[str, "Expr", "Expr"], ...]  # (rvar name, min, extent)


@dataclass(frozen=True, slots=True, eq=False)
class RVar(Expr):
    """Dimension `index` of a reduction domain (always Int(32))."""

    name: str
    domain: ReductionDomain
    index: int


@dataclass(frozen=True, slots=True, eq=False)
class Call(Expr):
    """A load: from a Func (`callee` is its Function), an input image (a Parameter), or a scalar Param
    (a Parameter, no args)."""

    callee: Any
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Cast(Expr):
    value: Expr


@dataclass(frozen=True, slots=True, eq=False)
class BinOp(Expr):
    op: str
    a: Expr
    b: Expr

    def __post_init__(self):
        assert self.op in BINARY_OPS, self.op
        if self.op in ("shl", "shr"):
            assert self.a.type.bits() == self.b.type.bits(), (self.a.type, self.b.type)
        else:
            assert self.a.type == self.b.type, (self.op, self.a.type, self.b.type)


@dataclass(frozen=True, slots=True, eq=False)
class UnOp(Expr):
    op: str
    a: Expr

    def __post_init__(self):
        assert self.op in UNARY_OPS, self.op


@dataclass(frozen=True, slots=True, eq=False)
class Select(Expr):
    cond: Expr
    true_value: Expr
    false_value: Expr

    def __post_init__(self):
        assert self.cond.type == BOOL
        assert self.true_value.type == self.false_value.type == self.type


def const(type_: Type, value: int) -> Const:
    return Const(type_, int(value))


def i32(value: int) -> Const:
    return Const(I32, int(value))


def children(e: Expr) -> tuple[Expr, ...]:
    if isinstance(e, (Const, Var, RVar)):
        return ()
    if isinstance(e, Call):
        return e.args
    if isinstance(e, Cast):
        return (e.value,)
    if isinstance(e, BinOp):
        return (e.a, e.b)
    if isinstance(e, UnOp):
        return (e.a,)
    if isinstance(e, Select):
        return (e.cond, e.true_value, e.false_value)
    raise AssertionError(f"unknown IR node {type(e).__name__}")


def walk(e: Expr):
    """Every node of `e`, each distinct node object once, children before parents."""
    seen: set[int] = set()
    stack = [(e, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in seen:
            continue
        if expanded:
            seen.add(id(node))
            yield node
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(children(node)))


def structural_key(e: Expr, memo: dict | None = None):
    """A hashable value equal for structurally equal trees (callees compared by identity)."""
    memo = {} if memo is None else memo
    got = memo.get(id(e))
    if got is not None:
        return got
    t = (e.type.code, e.type.bits())
    if isinstance(e, Const):
        k = ("const", t, e.value)
    elif isinstance(e, Var):
        k = ("var", e.name)
    elif isinstance(e, RVar):
        k = ("rvar", id(e.domain), e.index)
    elif isinstance(e, Call):
        k = ("call", t, id(e.callee), tuple(structural_key(a, memo) for a in e.args))
    elif isinstance(e, Cast):
        k = ("cast", t, structural_key(e.value, memo))
    elif isinstance(e, BinOp):
        k = (e.op, t, structural_key(e.a, memo), structural_key(e.b, memo))
    elif isinstance(e, UnOp):
        k = (e.op, t, structural_key(e.a, memo))
    elif isinstance(e, Select):
        k = ("select", t) + tuple(structural_key(c, memo) for c in children(e))
    else:
        raise AssertionError(f"unknown IR node {type(e).__name__}")
    memo[id(e)] = k
    return k


def substitute(e: Expr, mapping: dict[str, Expr]) -> Expr:
    """Replace pure Vars (and RVars, by name) named in `mapping`."""
    memo: dict[int, Expr] = {}

    def go(n: Expr) -> Expr:
        got = memo.get(id(n))
        if got is not None:
            return got
        if isinstance(n, (Var, RVar)):
            out = mapping.get(n.name, n)
        elif isinstance(n, Const):
            out = n
        elif isinstance(n, Call):
            args = tuple(go(a) for a in n.args)
            out = n if all(x is y for x, y in zip(args, n.args)) else Call(n.type, n.callee, args)
        elif isinstance(n, Cast):
            v = go(n.value)
            out = n if v is n.value else Cast(n.type, v)
        elif isinstance(n, BinOp):
            a, b = go(n.a), go(n.b)
            out = n if (a is n.a and b is n.b) else BinOp(n.type, n.op, a, b)
        elif isinstance(n, UnOp):
            a = go(n.a)
            out = n if a is n.a else UnOp(n.type, n.op, a)
        elif isinstance(n, Select):
            c, t, f = go(n.cond), go(n.true_value), go(n.false_value)
            out = n if (c is n.cond and t is n.true_value and f is n.false_value) else Select(n.type, c, t, f)
        else:
            raise AssertionError(f"unknown IR node {type(n).__name__}")
        memo[id(n)] = out
        return out

    return go(e)


def to_string(e: Expr) -> str:
    """Halide-like text of an expression (for loop-nest dumps and error messages)."""
    if isinstance(e, Const):
        return str(e.value) if e.type == I32 else f"({e.type}){e.value}"
    if isinstance(e, (Var, RVar)):
        return e.name
    if isinstance(e, Call):
        return f"{e.callee.name}({', '.join(to_string(a) for a in e.args)})" if e.args else e.callee.name
    if isinstance(e, Cast):
        return f"{e.type}({to_string(e.value)})"
    if isinstance(e, BinOp):
        sym = _SYMBOLS.get(e.op)
        if sym:
            return f"({to_string(e.a)} {sym} {to_string(e.b)})"
        return f"{e.op}({to_string(e.a)}, {to_string(e.b)})"
    if isinstance(e, UnOp):
        return f"!{to_string(e.a)}" if e.op == "not" else f"abs({to_string(e.a)})"
    if isinstance(e, Select):
        return f"select({to_string(e.cond)}, {to_string(e.true_value)}, {to_string(e.false_value)})"
    raise AssertionError(f"unknown IR node {type(e).__name__}")


_SYMBOLS = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "and": "&", "or": "|", "xor": "^",
    "shl": "<<", "shr": ">>", "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
}
