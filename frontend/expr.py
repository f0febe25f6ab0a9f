"""User-facing expressions: `Expr` and its operators, with Halide's type coercion.

An `Expr` wraps an internal IR node (`ir.py`). Its `==` builds an expression and `bool()` of it raises, as in
Halide, so user expressions are not dataclasses. The coercion rules are Halide 21's (IROperator.cpp and the
Python bindings' PyBinaryOperators.h):
- Arithmetic and comparisons between Exprs: equal types stay; two uints widen to the wider; otherwise both
  become Int(max bits) (so uint8 + int8 is int8, uint32 + int8 is int32). Bool counts as UInt(1).
- A Python int beside an Expr in an operator takes the Expr's type and must fit it (`u8 + 300` is an error).
  Halide's bindings pass a Python int outside 32 bits as an Int(64) Expr, which mainspring cannot represent:
  that is an error here. In function calls (`min`, `max`, `absd`, `select`, ...) a Python int is an Int(32)
  Expr first.
- Bitwise `& | ^` need both operands signed or both unsigned; the narrower widens.
- Shifts between Exprs: both widen to the wider width, each keeping its signedness; the result has the left
  operand's type. A Python int amount becomes an unsigned constant of the left operand's width; a negative one
  shifts the other way (`u8 << -1` is `u8 >> 1`).
- `hl.cast` of a constant folds to a constant of the new type (wrapped; a Bool keeps bit 0), as Halide's
  `cast` does, so later coercions (select's) see a constant.
- Floats: a Python float is a Float(32) constant (with Halide's RuntimeWarning when that rounds it). A float
  operand makes the other operand that float type; two floats widen to the wider. A Python int beside a
  float Expr becomes that float type and must survive the rounding (16777217 beside a float32 is an error).
  `//` of floats is floor(a / b); bitwise operators and shifts refuse floats.
"""

from __future__ import annotations

import math
import warnings

from . import ir
from .errors import ExprTruthError, HalideError, user_location
from .types import BOOL, F32, I32, INT, UINT, Type


def to_ir(value, what: str = "value") -> ir.Expr:
    """The IR of anything usable as an expression (Expr, Var, RVar, FuncRef, Param, Python int/bool)."""
    if isinstance(value, ExprLike):
        return value._ir()
    if isinstance(value, bool):
        return ir.Const(BOOL, int(value))
    if isinstance(value, int):
        _check_32_bits(value)
        return ir.Const(I32, value)
    if isinstance(value, float):
        return float_literal(value)
    raise HalideError(f"Cannot use {type(value).__name__} {value!r} as an expression in {what}")


# An Expr's value exists only when the pipeline runs (a Param's too), so Python cannot branch, loop or size on it.
_NO_VALUE = ": its value is known only when the pipeline runs; use a Python number here (e.g. a constant)"


def _check_32_bits(value: int) -> None:
    if not I32.can_represent(value):
        raise HalideError(
            f"{user_location()}: Integer constant {value} does not fit in 32 bits. Halide would make it an Int(64) "
            "expression, and mainspring has no 64-bit types (UInt(1|8|16|32), Int(8|16|32) only); use a smaller "
            "constant or build it from smaller pieces with explicit casts (e.g. hl.cast(hl.UInt(32), ...))."
        )


def float_literal(value: float) -> ir.Const:
    """A Python float as Halide's bindings take it: a Float(32) constant, warning when that loses precision."""
    rounded = F32.wrap(value)
    if rounded != value and not math.isnan(value):
        warnings.warn(
            f"The floating-point value {value!r} will be interpreted as a float32 by Halide and lose precision "
            f"(it becomes {rounded!r}); add an explicit `f32()` or `f64()` cast to avoid this warning.",
            RuntimeWarning, stacklevel=_user_stacklevel(),
        )
    return ir.Const(F32, rounded)


def _user_stacklevel() -> int:
    """The warnings stack level of the user's line (the first frame outside the compiler)."""
    import sys

    from .errors import is_own_frame

    level, frame = 1, sys._getframe(1)
    while frame is not None and is_own_frame(frame.f_code.co_filename):
        level, frame = level + 1, frame.f_back
    return level


def wrap(node: ir.Expr) -> Expr:
    return Expr(node)


def _is_py_int(v) -> bool:
    return isinstance(v, int)


def make_const(t: Type, value) -> ir.Const:
    """Halide's make_const: `value` wrapped to type t (a Bool keeps bit 0); a float truncates toward zero
    into an integer type and rounds to nearest into a float type."""
    if t.is_float():
        return ir.Const(t, t.wrap(float(value)))
    if isinstance(value, float):
        value = int(value) if not math.isnan(value) and abs(value) != float("inf") else 0  # undefined in Halide
    return ir.Const(t, t.wrap(int(value)))


def type_name(t: Type) -> str:
    """The type as Halide's messages print it (Bool is uint1 there)."""
    return "uint1" if t.is_bool() else str(t)


def _literal_for(t: Type, value: int, op: str) -> ir.Const:
    """A Python int beside an Expr of type t, as Halide's operators coerce it (checked, not wrapped)."""
    if t.is_float():
        if not t.can_represent(value):
            raise HalideError(
                f"{user_location()}: Integer constant {value} will be implicitly coerced to type {t}, which changes "
                f"its value to {t.wrap(value):f}. Write it as a float (e.g. {value}.0 in hl.f64(...)) or cast the "
                "other operand to a wider type."
            )
        return ir.Const(t, float(value))
    _check_32_bits(value)
    if not t.can_represent(value):
        raise HalideError(
            f"{user_location()}: Integer constant {value} will be implicitly coerced to type {type_name(t)}, which "
            f"changes its value to ({type_name(t)}){t.wrap(value)}. Use an explicit cast "
            f"(e.g. hl.cast(hl.{_type_ctor(t)}, ...)) on the other operand of {op} if you meant a wider type."
        )
    return ir.Const(t, value)


def _type_ctor(t: Type) -> str:
    return "Bool()" if t.is_bool() else repr(t)


def cast_ir(t: Type, e: ir.Expr) -> ir.Expr:
    """Halide's cast(): nothing for the same type, a folded constant for a constant, else a Cast node."""
    if e.type == t:
        return e
    if isinstance(e, ir.Const):
        return make_const(t, e.value)
    return ir.Cast(t, e)


def match_types(a: ir.Expr, b: ir.Expr) -> tuple[ir.Expr, ir.Expr]:
    ta, tb = a.type, b.type
    if ta == tb:
        return a, b
    if ta.is_float() or tb.is_float():
        t = max((x for x in (ta, tb) if x.is_float()), key=lambda x: x.bits())
        return cast_ir(t, a), cast_ir(t, b)
    if ta.is_uint() and tb.is_uint():
        t = ta if ta.bits() > tb.bits() else tb
        return cast_ir(t, a), cast_ir(t, b)
    t = Type(INT, max(ta.bits(), tb.bits()))
    return cast_ir(t, a), cast_ir(t, b)


def _operands(a, b, op: str) -> tuple[ir.Expr, ir.Expr]:
    if _is_py_int(b) and isinstance(a, ExprLike):
        ai = a._ir()
        return ai, _literal_for(ai.type, b, op)
    if _is_py_int(a) and isinstance(b, ExprLike):
        bi = b._ir()
        return _literal_for(bi.type, a, op), bi
    return match_types(to_ir(a, op), to_ir(b, op))


def arith(op: str, a, b) -> Expr:
    x, y = _operands(a, b, _OP_NAMES[op])
    return Expr(ir.BinOp(x.type, op, x, y))


def floor_div(a, b) -> Expr:
    """Python's `//`: Halide's division for integers, floor(a / b) for floats."""
    q = arith("div", a, b)
    if not q.type().is_float():
        return q
    return Expr(ir.MathCall(q.type(), "floor", (q._ir(),)))


def _refuse_float(name: str, *operands: ir.Expr) -> None:
    for v in operands:
        if v.type.is_float():
            raise HalideError(
                f"{user_location()}: {name} needs integer operands, but {ir.to_string(v)} has type {v.type}. "
                "Cast it to an integer type first (e.g. hl.i32(...), which truncates toward zero)."
            )


def compare(op: str, a, b) -> Expr:
    x, y = _operands(a, b, _OP_NAMES[op])
    return Expr(ir.BinOp(BOOL, op, x, y))


def bitwise(op: str, a, b) -> Expr:
    name = {"and": "bitwise and", "or": "bitwise or", "xor": "bitwise xor"}[op]
    x, y = _operands(a, b, name) if (_is_py_int(a) or _is_py_int(b)) else (to_ir(a, name), to_ir(b, name))
    _refuse_float(name, x, y)
    if x.type.is_int() != y.type.is_int():
        raise HalideError(
            f"{user_location()}: Arguments to {name} must be both be signed or both be unsigned.\n"
            f"LHS type: {x.type} RHS type: {y.type}\nLHS value: {ir.to_string(x)} RHS value: {ir.to_string(y)}\n"
            "Cast one side (e.g. hl.cast(hl.UInt(8), ...)) so both have the same signedness."
        )
    t = x.type if x.type.bits() >= y.type.bits() else y.type
    return Expr(ir.BinOp(t, op, cast_ir(t, x), cast_ir(t, y)))


_FLIP = {"shl": "shr", "shr": "shl"}


def shift(op: str, a, b) -> Expr:
    name = "<<" if op == "shl" else ">>"
    _refuse_float(f"The shift {name}", *(v._ir() for v in (a, b) if isinstance(v, ExprLike)))
    if _is_py_int(b) and isinstance(a, ExprLike):
        x = a._ir()
        _check_32_bits(b)
        if b < 0:
            op, b = _FLIP[op], -b
        return Expr(ir.BinOp(x.type, op, x, _literal_for(x.type.with_code(UINT), b, name)))
    x, y = to_ir(a, name), to_ir(b, name)
    bits = max(x.type.bits(), y.type.bits())
    x, y = cast_ir(x.type.with_bits(bits), x), cast_ir(y.type.with_bits(bits), y)
    return Expr(ir.BinOp(x.type, op, x, y))


def wide_shift_error(func: str, loc, node: ir.Expr) -> HalideError | None:
    """The error for `node`, a shift of a Func's definition by a constant of the value's width or more (either way):
    Halide 21 refuses it when the pipeline compiles (its constant folding finds the result undefined), not when the
    expression is made, so the Pipeline checks its definitions. An amount known only when the pipeline runs shifts
    in zeros (or the sign, right) in the NumPy reference and in the hardware alike, as Halide's own code does below
    32. (A negative constant was made a shift the other way when the expression was made.)"""
    if not (isinstance(node, ir.BinOp) and node.op in _FLIP and isinstance(node.b, ir.Const)) \
            or node.a.type.is_bool():
        return None
    bits, amount, name = node.a.type.bits(), int(node.b.value), "<<" if node.op == "shl" else ">>"
    if abs(amount) < bits:
        return None
    wide = next((b for b in (16, 32) if abs(amount) < b), None)
    widen = "" if wide is None else (
        f", or widen the value first: hl.cast(hl.{_type_ctor(node.a.type.with_bits(wide))}, ...) {name} {amount}")
    return HalideError(
        f"{loc}: Func '{func}': the shift {name} of the {bits}-bit value {ir.to_string(node.a)} by the constant "
        f"{amount}: a constant shift by the value's width or more is undefined, and Halide refuses it when the "
        f"pipeline compiles. Shift by less than {bits}{widen}"
    )


def power(base, exponent) -> Expr:
    """Halide's pow: repeated multiplication for an integer constant exponent (1 / e**-k for k < 0), else
    pow_f32 / pow_f64 of the base's float type (an integer base makes both Float(32))."""
    k = exponent._ir() if isinstance(exponent, ExprLike) else exponent
    if isinstance(k, ir.Const) and k.type.is_int():
        k = k.value
    if isinstance(k, int) and not isinstance(k, bool):
        _check_32_bits(k)
        return _raise_to_integer_power(Expr(to_ir(base, "**")), k)
    x, y = to_ir(base, "pow"), to_ir(exponent, "pow")
    t = x.type if x.type.is_float() else F32
    return Expr(ir.MathCall(t, "pow", (cast_ir(t, x), cast_ir(t, y))))


def _raise_to_integer_power(e: Expr, p: int) -> Expr:
    if p == 0:
        return Expr(make_const(e.type(), 1))
    if p == 1:
        return e
    if p < 0:
        return Expr(make_const(e.type(), 1)) / _raise_to_integer_power(e, -p)
    y = _raise_to_integer_power(e, p >> 1)
    return y * y * e if p & 1 else y * y


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
    def __floordiv__(self, o): return floor_div(self, o)
    def __rfloordiv__(self, o): return floor_div(o, self)
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
        return Expr(ir.BinOp(x.type, "sub", make_const(x.type, 0), x))

    def __pos__(self):
        return Expr(self._ir())

    def __invert__(self):
        x = self._ir()
        _refuse_float("Bitwise not (~)", x)
        return Expr(ir.UnOp(x.type, "not", x))

    def __abs__(self):
        from .operators import abs_

        return abs_(self)

    def defined(self) -> bool:
        return True

    def logical_not(self) -> Expr:
        return ~Expr(self._ir())

    def __bool__(self):
        raise ExprTruthError(
            f"{user_location()}: The halide.Expr ({ir.to_string(self._ir())}) cannot be converted to a bool. If "
            "this error occurs "
            "using the 'and'/'or' keywords, consider using the '&'/'|' operators instead."
        )

    def __pow__(self, o):
        return power(self, o)

    def __rpow__(self, o):
        return power(o, self)

    def __float__(self):
        raise HalideError(f"{user_location()}: an Expr has no Python float value{_NO_VALUE}")

    def __int__(self):
        raise HalideError(
            f"{user_location()}: the Expr ({ir.to_string(self._ir())}) has no Python int value{_NO_VALUE}"
        )

    def __index__(self):
        raise HalideError(
            f"{user_location()}: the Expr ({ir.to_string(self._ir())}) cannot be used as a Python index or "
            f"size{_NO_VALUE}"
        )

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


