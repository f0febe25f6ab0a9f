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
- `Cast` truncates (two's complement) or extends by the source's signedness; a cast to Bool keeps bit 0, as
  Halide 21 does (`cast(Bool, 2)` is false), so it is not `!= 0`.
- `abs` and `absd` of an int type return the unsigned type of the same width, exactly (no overflow).
- `and`/`or`/`xor`/`not` are bitwise; on Bool they are the logical operations.
- `Select` evaluates both sides (there are no side effects).
- Loads (`Call`) read a Func, an input image or (with no args) a scalar Param.
- Float types follow IEEE 754 with Halide 21's CPU results (see `floatmath.py`): `div` is IEEE division,
  `mod` is `a - b*floor(a/b)`, a cast to an integer type truncates toward zero (out of range is undefined in
  Halide, and no test relies on it), `abs` keeps the float type. `MathCall` is exp/log/pow/sqrt/floor/ceil/
  round/trunc of a float type (`round` is to nearest, ties to even).

Nodes are frozen dataclasses with identity equality (`eq=False`) so that hashing and comparison never recurse
over whole trees; `structural_key` gives a hashable structural identity when one is needed (CSE, tests).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

from .types import BOOL, I32, Type

BINARY_OPS = (
    "add", "sub", "mul", "div", "mod", "min", "max", "absd",
    "and", "or", "xor", "shl", "shr",
    "eq", "ne", "lt", "le", "gt", "ge",
)
COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")
UNARY_OPS = ("not", "abs", "neg")  # "neg" (floats only) appears only in floatlower's evaluation form
MATH_FUNCS = {"exp": 1, "log": 1, "pow": 2, "sqrt": 1, "floor": 1, "ceil": 1, "round": 1, "trunc": 1,
              "sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1, "atan2": 2, "sinh": 1, "cosh": 1,
              "tanh": 1, "asinh": 1, "acosh": 1, "atanh": 1, "reinterpret": 1,
              "fast_log_sum": 5, "strict_float": 1}
# The C library's functions: Halide 21 calls libm's float versions (sinf, ...) at run time, its double ones to fold
# a constant argument (floatmath.libm_f32, floatmath.libm).
LIBM_FUNCS = ("sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh")


@dataclass(frozen=True, slots=True, eq=False)
class Expr:
    type: Type


@dataclass(frozen=True, slots=True, eq=False)
class Const(Expr):
    value: int | float  # a Python float, exactly a value of the type, for a float type

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
    dims: tuple[tuple[str, Expr, Expr], ...]  # (rvar name, min, extent)
    # RDom.where: Bool conditions, all of which a point must meet (each update folds them into a select); the
    # lists grow until a definition uses the domain (Halide then refuses new predicates).
    predicates: list = field(default_factory=list)
    used: list = field(default_factory=list)


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


@dataclass(frozen=True, slots=True, eq=False)
class MathCall(Expr):
    """A math function of MATH_FUNCS on float arguments of the node's type; or `reinterpret`, the bits of a float
    read as an integer of its width, or the other way round (the one MathCall that is not float to float);
    `fast_log_sum(a, b, c, d, e)` is a*b + c*d + e as Halide's fast_log computes it (frontend/fastmath.py);
    `strict_float(e)` is e, its operations kept from contraction into FMAs (frontend/floatlower.py)."""

    name: str
    args: tuple[Expr, ...]

    def __post_init__(self):
        assert MATH_FUNCS.get(self.name) == len(self.args), self.name
        if self.name == "reinterpret":
            a = self.args[0].type
            assert a.bits() == self.type.bits() and a.is_float() != self.type.is_float(), (a, self.type)
            return
        assert self.type.is_float() and all(a.type == self.type for a in self.args), (self.name, self.type)


def const(type_: Type, value: int) -> Const:
    return Const(type_, int(value))


def i32(value: int) -> Const:
    return Const(I32, int(value))


def children(e: Expr) -> tuple[Expr, ...]:
    try:
        kids = _CHILDREN[type(e)]
    except KeyError:
        raise AssertionError(f"unknown IR node {type(e).__name__}") from None
    return kids(e)


# by exact type: children() runs millions of times per compile, and a dict lookup beats a chain of isinstance;
# attrgetter (C) beats a lambda where a node's children are attributes already or a tuple of several
_CHILDREN: dict[type, Any] = {
    Const: lambda e: (), Var: lambda e: (), RVar: lambda e: (),
    Call: operator.attrgetter("args"), MathCall: operator.attrgetter("args"),
    Cast: lambda e: (e.value,), BinOp: operator.attrgetter("a", "b"), UnOp: lambda e: (e.a,),
    Select: operator.attrgetter("cond", "true_value", "false_value"),
}
_LEAVES = frozenset((Const, Var, RVar))


_NOTHING: dict = {}  # read only


def walk(e: Expr):
    """Every node of `e`, each distinct node object once, children before parents."""
    return iter(_post_order(e, set()))


def _post_order(e: Expr, seen: set[int], skip: dict = _NOTHING) -> list[Expr]:
    """The distinct nodes of e, children before parents, left to right, except those whose ids are in `seen`
    (to which the nodes returned are added) or in `skip` (nor their descendants, unless reached otherwise)."""
    out: list[Expr] = []
    if id(e) in seen or id(e) in skip:
        return out
    seen.add(id(e))
    if type(e) in _LEAVES:
        out.append(e)
        return out
    # the hottest loop of the compiler: locals bound once, leaves appended without a call for their children
    add, emit, leaves, kids_of = seen.add, out.append, _LEAVES, _CHILDREN
    stack = [(e, iter(children(e)))]
    push, pop = stack.append, stack.pop
    while stack:
        node, kids = stack[-1]
        for c in kids:
            i = id(c)
            if i in seen or i in skip:
                continue
            add(i)
            t = type(c)
            if t in leaves:
                emit(c)
                continue
            grandchildren = kids_of[t](c) if t in kids_of else children(c)
            if grandchildren:
                push((c, iter(grandchildren)))
                break
            emit(c)  # no children (a Call of no args): no need to stack it
        else:
            pop()
            emit(node)
    return out


def rebuild(n: Expr, kids: tuple[Expr, ...]) -> Expr:
    """n with its children replaced by `kids` (n itself when they are the same objects)."""
    if all(map(operator.is_, kids, children(n))):
        return n
    return _REBUILD[type(n)](n, kids)


_REBUILD = {
    Call: lambda n, k: Call(n.type, n.callee, tuple(k)), MathCall: lambda n, k: MathCall(n.type, n.name, tuple(k)),
    Cast: lambda n, k: Cast(n.type, k[0]), BinOp: lambda n, k: BinOp(n.type, n.op, k[0], k[1]),
    UnOp: lambda n, k: UnOp(n.type, n.op, k[0]), Select: lambda n, k: Select(n.type, k[0], k[1], k[2]),
}


def transform(e: Expr, fn, memo: dict | None = None) -> Expr:
    """Rebuild e bottom-up: `fn(node, new_children)` gives each node's replacement. Iterative, so trees of any
    depth are fine; `memo` (by node id) may be shared between calls over trees that share nodes."""
    memo = {} if memo is None else memo
    if id(e) in memo:
        return memo[id(e)]
    leaves, kids_of = _LEAVES, _CHILDREN
    # a node already in memo is not descended into: what lies below it was memoised with it
    for n in _post_order(e, set(), memo):
        i = id(n)
        if i not in memo:  # fn may transform other trees with the same memo
            t = type(n)
            kids = () if t in leaves else kids_of[t](n)
            memo[i] = fn(n, tuple([memo[id(c)] for c in kids]) if kids else ())
    return memo[id(e)]


def structural_key(e: Expr, memo: dict | None = None):
    """A hashable value equal for structurally equal trees (callees compared by identity)."""
    return transform(e, _key, memo)


def _key(e: Expr, kids: tuple):
    t = (e.type.code, e.type.bits())
    if isinstance(e, Const):
        return ("const", t, e.value)
    if isinstance(e, Var):
        return ("var", e.name)
    if isinstance(e, RVar):
        return ("rvar", id(e.domain), e.index)
    if isinstance(e, Call):
        return ("call", t, id(e.callee), kids)
    if isinstance(e, MathCall):
        return ("math", e.name, t) + kids
    if isinstance(e, BinOp):
        return (e.op, t) + kids
    if isinstance(e, UnOp):
        return (e.op, t) + kids
    if isinstance(e, Cast):
        return ("cast", t) + kids
    if isinstance(e, Select):
        return ("select", t) + kids
    raise AssertionError(f"unknown IR node {type(e).__name__}")


def substitute(e: Expr, mapping: dict[str, Expr]) -> Expr:
    """Replace pure Vars (and RVars, by name) named in `mapping`."""

    def go(n: Expr, kids: tuple) -> Expr:
        if isinstance(n, (Var, RVar)):
            return mapping.get(n.name, n)
        return rebuild(n, kids)

    return transform(e, go)


def to_string(e: Expr) -> str:
    """Halide-like text of an expression (for loop-nest dumps and error messages)."""
    return transform(e, _text)


def user_text(e: Expr) -> str:
    """`to_string` as the user writes it, for messages: an RDom's variable `r.x` (`r$x` inside)."""
    return transform(e, _user_text)


def user_name(name: str) -> str:
    """A Var's or RVar's name as the user writes it (`r$x` is the RDom variable `r.x`)."""
    return name.replace("$", ".")


def _user_text(e: Expr, kids: tuple) -> str:
    return user_name(e.name) if isinstance(e, (Var, RVar)) else _text(e, kids)


def _text(e: Expr, kids: tuple) -> str:
    if isinstance(e, Const):
        if e.type.is_float():  # as Halide prints FloatImms
            return f"{e.value:f}f" if e.type.bits() == 32 else f"{e.value:f}"
        return str(e.value) if e.type == I32 else f"({e.type}){e.value}"
    if isinstance(e, (Var, RVar)):
        return e.name
    if isinstance(e, Call):
        return f"{e.callee.name}({', '.join(kids)})" if e.args else e.callee.name
    if isinstance(e, Cast):
        return f"{e.type}({kids[0]})"
    if isinstance(e, MathCall):
        return f"{e.name}_f{e.type.bits()}({', '.join(kids)})"
    if isinstance(e, BinOp):
        sym = _SYMBOLS.get(e.op)
        return f"({kids[0]} {sym} {kids[1]})" if sym else f"{e.op}({kids[0]}, {kids[1]})"
    if isinstance(e, UnOp):
        return {"not": "!", "neg": "-"}[e.op] + kids[0] if e.op != "abs" else f"abs({kids[0]})"
    if isinstance(e, Select):
        return f"select({kids[0]}, {kids[1]}, {kids[2]})"
    raise AssertionError(f"unknown IR node {type(e).__name__}")


_SYMBOLS = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "and": "&", "or": "|", "xor": "^",
    "shl": "<<", "shr": ">>", "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
}
