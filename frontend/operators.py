"""The functions of the language (`hl.cast`, `hl.min`, `hl.select`, `hl.mux`, `hl.clamp`, ...), as Halide 21's
IROperator.cpp and Python bindings define them.

- `hl.min`/`hl.max` take two or more arguments, each an Int(32) Expr if it is a Python int, and fold from the
  right: `max(a, b, c)` is `max(a, max(b, c))`.
- `select` turns a signed integer constant on one side into the other side's type, wrapping (300 beside a
  uint8 is (uint8)44; 2 beside a Bool is false); a signed integer constant condition becomes a Bool the same
  way. A multi-way select folds from the right.
- `mux(i, values)` is `values[i]` for 0 <= i < len(values) and the last value otherwise (negative i too).
- `clamp(a, lo, hi)` converts lo and hi to a's type when that loses nothing (Halide's `lossless_cast`).
- `abs` and `absd` of signed values are unsigned of the same width; `abs` of an unsigned value is the value;
  of floats they keep the float type.
"""

from __future__ import annotations

import math

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, cast_ir, make_const, match_types, to_ir
from .types import BOOL, F32, F64, I32, UINT, Type


def cast(t: Type, e) -> Expr:
    if not isinstance(t, Type):
        raise HalideError(f"cast: the first argument must be a type such as hl.UInt(8), not {t!r}")
    return Expr(cast_ir(t, to_ir(e, "cast")))


def _fold_right(op: str, args) -> Expr:
    if len(args) < 2:
        raise HalideError(f"{op}() must have at least 2 arguments")
    value = to_ir(args[-1], op)
    for a in reversed(args[:-1]):
        x, y = match_types(to_ir(a, op), value)
        value = ir.BinOp(x.type, op, x, y)
    return Expr(value)


def min_(*args) -> Expr:
    return _fold_right("min", args)


def max_(*args) -> Expr:
    return _fold_right("max", args)


def absd(a, b) -> Expr:
    x, y = match_types(to_ir(a, "absd"), to_ir(b, "absd"))
    if x.type.is_float():  # Halide: abs(a - b)
        return Expr(ir.UnOp(x.type, "abs", ir.BinOp(x.type, "sub", x, y)))
    return Expr(ir.BinOp(x.type.with_code(UINT), "absd", x, y))


def abs_(a) -> Expr:
    x = to_ir(a, "abs")
    if x.type.is_float():
        return Expr(ir.UnOp(x.type, "abs", x))
    if not x.type.is_int():
        return Expr(x)  # Halide warns "abs of an unsigned type is a no-op"
    return Expr(ir.UnOp(x.type.with_code(UINT), "abs", x))


def _can_represent_type(t: Type, other: Type) -> bool:
    """Halide's Type::can_represent(Type): every value of `other` is a value of `t`."""
    if t.is_float():  # the integer must fit the significand (24 or 53 bits)
        return other.bits() <= t.bits() if other.is_float() else other.bits() < (24 if t.bits() == 32 else 53)
    if other.is_float():
        return False
    if t.is_int():
        return (other.is_int() and other.bits() <= t.bits()) or (other.is_uint() and other.bits() < t.bits())
    return other.is_uint() and other.bits() <= t.bits()


def lossless_cast(t: Type, e: ir.Expr) -> ir.Expr | None:
    """e as type t if no value changes, else None: Halide's lossless_cast, with our interval bounds in place
    of Halide's constant_integer_bounds."""
    if e.type == t:
        return e
    if _can_represent_type(t, e.type):
        return cast_ir(t, e)
    if isinstance(e, ir.Cast):
        return lossless_cast(t, e.value) if _can_represent_type(e.type, e.value.type) else None
    if isinstance(e, ir.Const):
        value = e.value
        if e.type.is_float() and not t.is_float():  # an integral float constant converts exactly
            if math.isnan(value) or value in (float("inf"), float("-inf")) or value != int(value):
                return None
            value = int(value)
        return make_const(t, value) if t.can_represent(value) else None
    if t.is_float() or e.type.is_float():
        return None
    lo, hi = _constant_bounds(e)
    if not (t.can_represent(lo) and t.can_represent(hi)):
        return None
    if isinstance(e, ir.BinOp) and e.op in ("add", "sub", "mul", "min", "max", "mod", "shl", "shr"):
        a, b = lossless_cast(t, e.a), lossless_cast(t, e.b)
        if a is not None and b is not None:
            if e.op not in ("shl", "shr"):
                return ir.BinOp(t, e.op, a, b)
            amount = _constant_bounds(b)
            if -t.bits() < amount[0] and amount[1] < t.bits():
                return ir.BinOp(t, e.op, a, b)
    # The value fits t; Halide casts it when that does not narrow the type.
    return cast_ir(t, e) if e.type.bits() <= t.bits() else None


class _Unbounded(dict):
    def __missing__(self, name):
        return (I32.min(), I32.max())


def _constant_bounds(e: ir.Expr) -> tuple[int, int]:
    from .bounds import Bounder

    return Bounder(_Unbounded(), lambda p: None)(e)


def clamp(a, lo, hi) -> Expr:
    x = to_ir(a, "clamp")
    bounds = []
    for position, b in (("second", lo), ("third", hi)):
        b_ir = to_ir(b, "clamp")
        got = lossless_cast(x.type, b_ir)
        if got is None:
            raise HalideError(
                f"{user_location()}: Type mismatch in call to clamp. First argument ({ir.to_string(x)}) has type "
                f"{x.type}, but {position} argument ({ir.to_string(b_ir)}) has type {b_ir.type}. Use an explicit cast."
            )
        bounds.append(got)
    lo_ir, hi_ir = bounds
    return Expr(ir.BinOp(x.type, "max", ir.BinOp(x.type, "min", x, hi_ir), lo_ir))


def _is_int_const(e: ir.Expr) -> bool:
    """Halide's as_const_int: a constant of a signed integer type."""
    return isinstance(e, ir.Const) and e.type.is_int()


def _select_condition(c) -> ir.Expr:
    ci = to_ir(c, "select")
    if _is_int_const(ci):
        ci = make_const(BOOL, ci.value)
    if ci.type != BOOL:
        raise HalideError(
            f"{user_location()}: The first argument to a select must be a boolean:\n"
            f"  {ir.to_string(ci)} has type {ci.type}\n"
            "Compare it (e.g. x != 0) to make a condition."
        )
    return ci


def select(*args) -> Expr:
    if len(args) < 3:
        raise HalideError("select() must have at least 3 arguments: (condition, true_value, false_value)")
    if len(args) % 2 == 0:
        raise HalideError("select() must have an odd number of arguments: (c1, v1, c2, v2, ..., default)")
    values = args[1::2] + args[-1:]
    if any(_is_tuple(v) for v in values):
        return _tuple_select(args, values)
    false_value = to_ir(args[-1], "select")
    for k in range(len(args) - 3, -1, -2):
        false_value = select_expr(args[k], to_ir(args[k + 1], "select"), false_value)
    return Expr(false_value)


def _is_tuple(v) -> bool:
    from .func import FuncRef

    return isinstance(v, (tuple, list)) or (isinstance(v, FuncRef) and v._func._fn.tuple_layout is not None)


def _tuple_select(args, values) -> tuple:
    """Halide's select of Tuples: a Tuple of selects, element by element (each value a Tuple of one size)."""
    tuples = [tuple(v) if isinstance(v, (tuple, list)) else v.elements() if _is_tuple(v) else None for v in values]
    sizes = {len(t) for t in tuples if t is not None}
    if None in tuples or len(sizes) > 1:
        shown = ", ".join("a value" if t is None else f"a Tuple of {len(t)}" for t in tuples)
        raise HalideError(
            f"{user_location()}: select of Tuples needs every value to be a Tuple of the same size; got {shown}: "
            "write each value as a Tuple of as many elements (e.g. (v, f[x, y][1])), or select each element apart"
        )
    conds = args[0:-1:2]
    return tuple(select(*[p for c, t in zip(conds, tuples) for p in (c, t[i])], tuples[-1][i])
                 for i in range(sizes.pop()))


def select_expr(c, t: ir.Expr, f: ir.Expr) -> ir.Expr:
    cond = _select_condition(c)
    if _is_int_const(t):
        t = cast_ir(f.type, t)
    if _is_int_const(f):
        f = cast_ir(t.type, f)
    if t.type != f.type:
        raise HalideError(
            f"{user_location()}: The second and third arguments to a select do not have a matching type:\n"
            f"  {ir.to_string(t)} has type {t.type}\n  {ir.to_string(f)} has type {f.type}\n"
            "Cast one of them (e.g. hl.cast(...)) so both have the same type."
        )
    return ir.Select(t.type, cond, t, f)


def mux(idx, values) -> Expr:
    vals = [to_ir(v, "mux") for v in values]
    if not vals:
        raise HalideError(f"{user_location()}: mux() requires a non-empty vector of values")
    if len(vals) == 1:
        return Expr(vals[0])
    if any(v.type != vals[0].type for v in vals):
        raise HalideError(
            f"{user_location()}: mux() requires all the values to have the same type. Got "
            + ", ".join(str(v.type) for v in vals) + "; cast them to one type."
        )
    i = to_ir(idx, "mux")
    out = vals[-1]
    # Halide lowers mux to select(i == 0, v0, select(i == 1, v1, ... vlast)): out of range gives the last.
    for k in range(len(vals) - 2, -1, -1):
        out = ir.Select(out.type, ir.BinOp(BOOL, "eq", i, make_const(i.type, k)), vals[k], out)
    return Expr(out)


def saturating_cast(t: Type, e) -> Expr:
    x = to_ir(e, "saturating_cast")
    src = x.type
    if src.is_float() or t.is_float():
        raise HalideError(
            f"{user_location()}: saturating_cast between {src} and {t} is not supported by mainspring; clamp "
            f"the value (hl.clamp(v, lo, hi)) and then cast it (hl.cast(hl.{t!r}, ...))"
        )
    if isinstance(x, ir.Const):
        # Halide's saturating_cast is an intrinsic call even of a constant, so select() and clamp() do not see
        # a constant there: keep it from looking like one (max with the type's minimum changes nothing).
        x = ir.BinOp(src, "max", x, ir.Const(src, src.min()))
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
i8 = _typed_cast(Type("int", 8))
i16 = _typed_cast(Type("int", 16))
i32 = _typed_cast(I32)


def _unsupported_cast(name: str, what: str):
    def f(e) -> Expr:
        raise HalideError(f"{user_location()}: hl.{name}(...) casts to {what}, which mainspring does not support "
                          "(UInt(1|8|16|32), Int(8|16|32), Float(32|64) and Bool() only)")

    return f


def f32(e) -> Expr:
    # Halide's f32 rounds a Python float itself, so it does not warn about the rounding.
    return Expr(ir.Const(F32, F32.wrap(e))) if isinstance(e, float) else cast(F32, e)


def f64(e) -> Expr:
    # Halide's f64 takes a Python float at full double precision (not through a float32 constant).
    return Expr(ir.Const(F64, e)) if isinstance(e, float) else cast(F64, e)


i64 = _unsupported_cast("i64", "Int(64)")
u64 = _unsupported_cast("u64", "UInt(64)")
