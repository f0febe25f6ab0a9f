"""User-facing expressions: `Expr` and its operators, with Halide's type coercion.

An `Expr` wraps an internal IR node (`ir.py`). Its `==` builds an expression and `bool()` of it raises, as in
Halide, so user expressions are not dataclasses. The coercion rules were read off Halide 21's Python bindings:
- Arithmetic, comparisons, min/max between Exprs: equal types stay; two uints widen to the wider; otherwise
  both become Int(max bits) (so uint8 + int8 is int8, uint32 + int8 is int32). Bool counts as UInt(1).
- A Python int beside an Expr in an operator takes the Expr's type and must fit it (`u8 + 300` is an error).
  In function calls (`min`, `max`, `absd`, `select`, ...) a Python int is an Int(32) Expr first.
- Bitwise `& | ^` need both operands signed or both unsigned; the narrower widens.
- Shifts: both operands widen to the wider width, each keeping its signedness; the result has the left
  operand's signedness. A Python int amount must fit the signed type of the left operand's width.
"""

from __future__ import annotations

from . import ir
from .errors import ExprTruthError, HalideError
from .types import BOOL, I32, INT, UINT, Type


def to_ir(value, what: str = "value") -> ir.Expr:
    """The IR of anything usable as an expression (Expr, Var, RVar, FuncRef, Param, Python int/bool)."""
    if isinstance(value, ExprLike):
        return value._ir()
    if isinstance(value, bool):
        return ir.Const(BOOL, int(value))
    if isinstance(value, int):
        if not I32.can_represent(value):
            raise HalideError(f"Integer constant {value} does not fit in Int(32); use an explicit cast of a smaller constant")
        return ir.Const(I32, value)
    if isinstance(value, float):
        raise HalideError(
            f"Floating-point constant {value} in {what}: mainspring compiles integer pipelines for the CGRA's "
            "integer PEs; use integer arithmetic (e.g. fixed point with a shift)"
        )
    raise HalideError(f"Cannot use {type(value).__name__} {value!r} as an expression in {what}")


def wrap(node: ir.Expr) -> "Expr":
    return Expr(node)


def _is_py_int(v) -> bool:
    return isinstance(v, int)


def _literal_for(t: Type, value: int, op: str) -> ir.Const:
    """A Python int beside an Expr of type t, as Halide's operators coerce it (checked, not wrapped)."""
    if not t.can_represent(value):
        raise HalideError(
            f"Integer constant {value} will be implicitly coerced to type {t}, which changes its value to "
            f"({t}){t.wrap(value)}. Use an explicit cast (e.g. hl.cast(hl.{_type_ctor(t)}, ...)) on the other "
            f"operand of {op} if you meant a wider type."
        )
    return ir.Const(t, value)


def _type_ctor(t: Type) -> str:
    return "Bool()" if t.is_bool() else repr(t)


def cast_ir(t: Type, e: ir.Expr) -> ir.Expr:
    if e.type == t:
        return e
    return ir.Cast(t, e)


def match_types(a: ir.Expr, b: ir.Expr) -> tuple[ir.Expr, ir.Expr]:
    ta, tb = a.type, b.type
    if ta == tb:
        return a, b
    if ta.is_uint() and tb.is_uint():
        t = ta if ta.bits() > tb.bits() else tb
        return cast_ir(t, a), cast_ir(t, b)
    t = Type(INT, max(ta.bits(), tb.bits(), 8))
    return cast_ir(t, a), cast_ir(t, b)


def _operands(a, b, op: str) -> tuple[ir.Expr, ir.Expr]:
    if _is_py_int(b) and isinstance(a, ExprLike):
        ai = a._ir()
        return ai, _literal_for(ai.type, b, op)
    if _is_py_int(a) and isinstance(b, ExprLike):
        bi = b._ir()
        return _literal_for(bi.type, a, op), bi
    return match_types(to_ir(a, op), to_ir(b, op))


def arith(op: str, a, b) -> "Expr":
    x, y = _operands(a, b, _OP_NAMES[op])
    return Expr(ir.BinOp(x.type, op, x, y))


def compare(op: str, a, b) -> "Expr":
    x, y = _operands(a, b, _OP_NAMES[op])
    return Expr(ir.BinOp(BOOL, op, x, y))


def bitwise(op: str, a, b) -> "Expr":
    name = {"and": "bitwise and", "or": "bitwise or", "xor": "bitwise xor"}[op]
    x, y = _operands(a, b, name) if (_is_py_int(a) or _is_py_int(b)) else (to_ir(a, name), to_ir(b, name))
    if x.type.is_int() != y.type.is_int():
        raise HalideError(
            f"Arguments to {name} must be both be signed or both be unsigned.\n"
            f"LHS type: {x.type} RHS type: {y.type}\nLHS value: {ir.to_string(x)} RHS value: {ir.to_string(y)}\n"
            "Cast one side (e.g. hl.cast(hl.UInt(8), ...)) so both have the same signedness."
        )
    t = x.type if x.type.bits() >= y.type.bits() else y.type
    return Expr(ir.BinOp(t, op, cast_ir(t, x), cast_ir(t, y)))


def shift(op: str, a, b) -> "Expr":
    name = "<<" if op == "shl" else ">>"
    if _is_py_int(b) and isinstance(a, ExprLike):
        x = a._ir()
        if x.type.is_bool():
            raise HalideError(f"Shift of a Bool ({ir.to_string(x)} {name} {b}): cast it to an integer type first")
        amount_t = x.type.with_code(INT)
        if not amount_t.can_represent(b):
            raise HalideError(
                f"Integer constant {b} will be implicitly coerced to type {amount_t}, which changes its value to "
                f"({amount_t}){amount_t.wrap(b)}. Shift amounts must fit the signed type of the shifted value's width."
            )
        return Expr(ir.BinOp(x.type, op, x, ir.Const(amount_t, b)))
    x, y = to_ir(a, name), to_ir(b, name)
    bits = max(x.type.bits(), y.type.bits())
    if bits == 1:
        raise HalideError(f"Shift of a Bool ({ir.to_string(x)} {name} {ir.to_string(y)}): cast it to an integer type first")
    bits = max(bits, 8)
    x = cast_ir(x.type.with_bits(bits) if not x.type.is_bool() else Type(UINT, bits), x)
    y = cast_ir(y.type.with_bits(bits) if not y.type.is_bool() else Type(UINT, bits), y)
    return Expr(ir.BinOp(x.type, op, x, y))


_OP_NAMES = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%",
    "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
}


class ExprLike:
    """Anything with operators that builds expressions: Expr, Var, RVar, FuncRef, Param."""

    __slots__ = ()

    def _ir(self) -> ir.Expr:  # pragma: no cover - every subclass overrides
        raise AssertionError("subclass must override _ir")

    def type(self) -> Type:
        return self._ir().type

    def __add__(self, o): return arith("add", self, o)
    def __radd__(self, o): return arith("add", o, self)
    def __sub__(self, o): return arith("sub", self, o)
    def __rsub__(self, o): return arith("sub", o, self)
    def __mul__(self, o): return arith("mul", self, o)
    def __rmul__(self, o): return arith("mul", o, self)
    def __truediv__(self, o): return arith("div", self, o)
    def __rtruediv__(self, o): return arith("div", o, self)
    def __floordiv__(self, o): return arith("div", self, o)
    def __rfloordiv__(self, o): return arith("div", o, self)
    def __mod__(self, o): return arith("mod", self, o)
    def __rmod__(self, o): return arith("mod", o, self)
    def __lshift__(self, o): return shift("shl", self, o)
    def __rlshift__(self, o): return shift("shl", o, self)
    def __rshift__(self, o): return shift("shr", self, o)
    def __rrshift__(self, o): return shift("shr", o, self)
    def __and__(self, o): return bitwise("and", self, o)
    def __rand__(self, o): return bitwise("and", o, self)
    def __or__(self, o): return bitwise("or", self, o)
    def __ror__(self, o): return bitwise("or", o, self)
    def __xor__(self, o): return bitwise("xor", self, o)
    def __rxor__(self, o): return bitwise("xor", o, self)
    def __lt__(self, o): return compare("lt", self, o)
    def __le__(self, o): return compare("le", self, o)
    def __gt__(self, o): return compare("gt", self, o)
    def __ge__(self, o): return compare("ge", self, o)
    def __eq__(self, o): return compare("eq", self, o)  # type: ignore[override]
    def __ne__(self, o): return compare("ne", self, o)  # type: ignore[override]

    __hash__ = None  # type: ignore[assignment]  # == builds an Expr, so Exprs are not dict keys

    def __neg__(self):
        x = self._ir()
        return Expr(ir.BinOp(x.type, "sub", ir.Const(x.type, 0), x))

    def __pos__(self):
        return Expr(self._ir())

    def __invert__(self):
        x = self._ir()
        return Expr(ir.UnOp(x.type, "not", x))

    def __abs__(self):
        return abs_(self)

    def __bool__(self):
        raise ExprTruthError(
            f"The halide.Expr ({ir.to_string(self._ir())}) cannot be converted to a bool. If this error occurs "
            "using the 'and'/'or' keywords, consider using the '&'/'|' operators instead."
        )

    def __pow__(self, o):
        raise HalideError("'**' is floating-point in Halide; mainspring has integer types only: multiply instead")

    def __float__(self):
        raise HalideError("an Expr has no Python float value")

    def __int__(self):
        raise HalideError(f"the Expr ({ir.to_string(self._ir())}) has no Python int value")

    def __index__(self):
        raise HalideError(f"the Expr ({ir.to_string(self._ir())}) cannot be used as a Python index or size")

    def __repr__(self):
        node = self._ir()
        return f"<mainspring.Expr of type {node.type}: {ir.to_string(node)}>"

    def __str__(self):
        return ir.to_string(self._ir())


class Expr(ExprLike):
    """An expression of the algorithm language."""

    __slots__ = ("_node",)

    def __init__(self, value=0):
        self._node = value if isinstance(value, ir.Expr) else to_ir(value, "Expr()")

    def _ir(self) -> ir.Expr:
        return self._node


# ---- functions of the language -------------------------------------------------------------------------

def cast(t: Type, e) -> Expr:
    if not isinstance(t, Type):
        raise HalideError(f"cast: the first argument must be a type such as hl.UInt(8), not {t!r}")
    return Expr(cast_ir(t, to_ir(e, "cast")))


def _fn_pair(a, b, fn: str) -> tuple[ir.Expr, ir.Expr]:
    return match_types(to_ir(a, fn), to_ir(b, fn))


def min_(a, b, *rest) -> Expr:
    x, y = _fn_pair(a, b, "min")
    out = Expr(ir.BinOp(x.type, "min", x, y))
    return min_(out, *rest) if rest else out


def max_(a, b, *rest) -> Expr:
    x, y = _fn_pair(a, b, "max")
    out = Expr(ir.BinOp(x.type, "max", x, y))
    return max_(out, *rest) if rest else out


def absd(a, b) -> Expr:
    x, y = _fn_pair(a, b, "absd")
    return Expr(ir.BinOp(x.type.with_code(UINT) if x.type.bits() > 1 else x.type, "absd", x, y))


def abs_(a) -> Expr:
    x = to_ir(a, "abs")
    return Expr(ir.UnOp(x.type.with_code(UINT) if x.type.is_int() else x.type, "abs", x)) if x.type.is_int() else Expr(x)


def _lossless_to(t: Type, e: ir.Expr, fn: str, position: str, first: ir.Expr) -> ir.Expr:
    if e.type == t:
        return e
    if isinstance(e, ir.Const) and t.can_represent(e.value):
        return ir.Const(t, e.value)
    raise HalideError(
        f"Type mismatch in call to {fn}. First argument ({ir.to_string(first)}) has type {first.type}, but "
        f"{position} argument ({ir.to_string(e)}) has type {e.type}. Use an explicit cast."
    )


def clamp(a, lo, hi) -> Expr:
    x = to_ir(a, "clamp")
    lo_ir = _lossless_to(x.type, to_ir(lo, "clamp"), "clamp", "second", x)
    hi_ir = _lossless_to(x.type, to_ir(hi, "clamp"), "clamp", "third", x)
    return Expr(ir.BinOp(x.type, "max", ir.BinOp(x.type, "min", x, hi_ir), lo_ir))


def _as_bool(c, fn: str) -> ir.Expr:
    ci = to_ir(c, fn)
    if ci.type != BOOL:
        raise HalideError(
            f"The first argument to {fn} must be a boolean condition, but ({ir.to_string(ci)}) has type "
            f"{ci.type}; compare it (e.g. x != 0) to make a condition"
        )
    return ci


def select(*args) -> Expr:
    if len(args) < 3 or len(args) % 2 == 0:
        raise HalideError("select takes (condition, true_value, false_value) or (c1, v1, c2, v2, ..., default)")
    if len(args) > 3:
        return select(args[0], args[1], select(*args[2:]))
    c = _as_bool(args[0], "select")
    t, f = to_ir(args[1], "select"), to_ir(args[2], "select")
    # Halide turns a signed integer constant into the other side's type (wrapping, as make_const does).
    if t.type != f.type and isinstance(t, ir.Const) and t.type.is_int():
        t = ir.Const(f.type, f.type.wrap(t.value) if not f.type.is_bool() else int(t.value != 0))
    elif t.type != f.type and isinstance(f, ir.Const) and f.type.is_int():
        f = ir.Const(t.type, t.type.wrap(f.value) if not t.type.is_bool() else int(f.value != 0))
    if t.type != f.type:
        raise HalideError(
            "The second and third arguments to a select do not have a matching type:\n"
            f"  {ir.to_string(t)} has type {t.type}\n  {ir.to_string(f)} has type {f.type}\n"
            "Cast one of them (e.g. hl.cast(...)) so both have the same type."
        )
    return Expr(ir.Select(t.type, c, t, f))


def mux(idx, values) -> Expr:
    vals = [to_ir(v, "mux") for v in values]
    if not vals:
        raise HalideError("mux() needs at least one value")
    if any(v.type != vals[0].type for v in vals):
        raise HalideError(
            "mux() requires all the values to have the same type; got "
            + ", ".join(str(v.type) for v in vals) + ". Cast them to one type."
        )
    i = to_ir(idx, "mux")
    if i.type.is_bool():
        i = cast_ir(Type(UINT, 8), i)
    out = vals[-1]
    # Halide clamps the index: out-of-range indices select the last value (and the first for negatives).
    for k in range(len(vals) - 2, -1, -1):
        cond = ir.BinOp(BOOL, "le", i, ir.Const(i.type, k)) if i.type.can_represent(k) else ir.Const(BOOL, 1)
        out = ir.Select(out.type, cond, vals[k], out)
    return Expr(out)


def saturating_cast(t: Type, e) -> Expr:
    x = to_ir(e, "saturating_cast")
    src = x.type
    if src == t:
        return Expr(x)
    lo, hi = max(t.min(), src.min()), min(t.max(), src.max())
    v = x
    if hi < src.max():
        v = ir.BinOp(src, "min", v, ir.Const(src, hi))
    if lo > src.min():
        v = ir.BinOp(src, "max", v, ir.Const(src, lo))
    return Expr(cast_ir(t, v))


def _typed_cast(t: Type):
    def f(e) -> Expr:
        return cast(t, e)

    return f


u8 = _typed_cast(Type(UINT, 8))
u16 = _typed_cast(Type(UINT, 16))
u32 = _typed_cast(Type(UINT, 32))
i8 = _typed_cast(Type(INT, 8))
i16 = _typed_cast(Type(INT, 16))
i32 = _typed_cast(Type(INT, 32))
