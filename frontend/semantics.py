"""Halide's integer semantics on NumPy arrays: the one definition the reference evaluator, the constant folder
and the compute-graph checks all use.

Values are carried as int64 arrays holding the value of their type (uint8 in [0, 255], int8 in [-128, 127],
Bool as 0/1). int64 has room for every product of two 32-bit values modulo 2**64, and every type here divides
that modulus, so wrapping after each operation gives exactly the narrow-type result.

Float values are carried as float32/float64 arrays of their own type, with IEEE arithmetic (`floatmath.py`
has the parts of Halide's CPU code generation that decide the last bits: FMA contraction and its own exp,
log and pow).
"""

from __future__ import annotations

import numpy as np

from . import ir
from .types import Type


def wrap(values, t: Type) -> np.ndarray:
    """Two's-complement truncation of int64 `values` to type `t` (Bool keeps only bit 0: callers turn
    truth values into 0/1 first)."""
    if t.is_float():
        return np.asarray(values).astype(t.dtype)[()]
    a = np.asarray(values, dtype=np.int64)
    if t.bits() == 1:
        return a & 1
    # NumPy's integer narrowing truncates (two's complement), in one pass each way.
    return a.astype(_NARROW[t.code, t.bits()]).astype(np.int64)[()]  # [()]: a 0-d array becomes a scalar


_NARROW = {("int", 8): np.int8, ("int", 16): np.int16, ("int", 32): np.int32,
           ("uint", 8): np.uint8, ("uint", 16): np.uint16, ("uint", 32): np.uint32}


def carry(values, t: Type) -> np.ndarray:
    """values (or a scalar) as the array type the evaluator carries for t."""
    return np.asarray(values, dtype=t.dtype if t.is_float() else np.int64)


def _fits(src: Type, dst: Type) -> bool:
    """Every value of src is a value of dst (Halide's Type::can_represent)."""
    if dst.is_int():
        return src.bits() <= dst.bits() if src.is_int() else src.bits() < dst.bits()
    return src.is_uint() and src.bits() <= dst.bits()


def cast(values, src: Type, dst: Type) -> np.ndarray:
    """Two's-complement truncation to dst. A cast to Bool keeps bit 0 (it is not `!= 0`): Halide 21 folds
    `cast(Bool, 2)` to false and its LLVM backend truncates, so `cast(Bool, x)` is `x & 1`.
    A float becomes an integer by truncation toward zero, then wraps like an integer (Halide leaves values
    outside the target type undefined; this is what its x86 code gives for values within int64)."""
    if dst.is_float():
        return np.asarray(values).astype(dst.dtype)[()]
    if src.is_float():
        with np.errstate(invalid="ignore"):
            whole = np.trunc(np.nan_to_num(np.asarray(values, dtype=np.float64), nan=0.0))
            return wrap(np.clip(whole, -2.0**63, 2.0**63 - 1024).astype(np.int64), dst)
    a = np.asarray(values, dtype=np.int64)
    return a[()] if _fits(src, dst) else wrap(a, dst)


def _euclid_divmod(a: np.ndarray, b: np.ndarray):
    zero = b == 0
    safe_b = np.where(zero, 1, b)
    r = np.mod(a, np.abs(safe_b))  # np.mod with a positive divisor is never negative
    q = (a - r) // safe_b  # exact
    return np.where(zero, 0, q), np.where(zero, 0, r)


def _shift(op: str, a: np.ndarray, b: np.ndarray, t: Type) -> np.ndarray:
    # A negative (signed) amount shifts the other way; amounts past the width are undefined in Halide,
    # clipping keeps NumPy's shifts defined.
    left = (b >= 0) if op == "shl" else (b < 0)
    amount = np.minimum(np.abs(b), 63)
    shifted_left = a << amount
    shifted_right = a >> amount  # arithmetic on int64, so signed values keep their sign
    return wrap(np.where(left, shifted_left, shifted_right), t)


def binop(op: str, t: Type, operand_type: Type, a, b) -> np.ndarray:
    """Apply binary op `op`; `t` is the result type, `operand_type` the type of `a` (the two operand types
    are equal except for shifts, whose amount keeps its own signedness and is given already wrapped)."""
    if operand_type.is_float():
        return _float_binop(op, operand_type, a, b)
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    if op == "add":
        return wrap(a + b, t)
    if op == "sub":
        return wrap(a - b, t)
    if op == "mul":
        return wrap(a * b, t)
    if op == "div":
        return wrap(_euclid_divmod(a, b)[0], t)
    if op == "mod":
        return wrap(_euclid_divmod(a, b)[1], t)
    if op == "min":
        return np.minimum(a, b)
    if op == "max":
        return np.maximum(a, b)
    if op == "absd":
        return wrap(np.abs(a - b), t)
    if op == "and":
        return wrap(a & b, t)
    if op == "or":
        return wrap(a | b, t)
    if op == "xor":
        return wrap(a ^ b, t)
    if op in ("shl", "shr"):
        return _shift(op, a, b, t)
    if op == "eq":
        return (a == b).astype(np.int64)
    if op == "ne":
        return (a != b).astype(np.int64)
    if op == "lt":
        return (a < b).astype(np.int64)
    if op == "le":
        return (a <= b).astype(np.int64)
    if op == "gt":
        return (a > b).astype(np.int64)
    if op == "ge":
        return (a >= b).astype(np.int64)
    raise AssertionError(f"unknown binary op {op}")


_FLOAT_OPS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
              "min": np.minimum, "max": np.maximum, "eq": np.equal, "ne": np.not_equal, "lt": np.less,
              "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def _float_binop(op: str, t: Type, a, b) -> np.ndarray:
    from .floatmath import fma

    a, b = np.asarray(a, dtype=t.dtype), np.asarray(b, dtype=t.dtype)
    with np.errstate(all="ignore"):
        if op == "mod":  # Halide: a - b*floor(a/b), the product contracted into the subtraction
            return fma(-b, np.floor(a / b), a, t.dtype)
        if op == "absd":
            return np.abs(a - b)[()]
        out = _FLOAT_OPS[op](a, b)
    return out.astype(np.int64)[()] if op in ("eq", "ne", "lt", "le", "gt", "ge") else out[()]


def math_call(name: str, t: Type, *args) -> np.ndarray:
    """A MathCall evaluated at run time: Halide's own exp/log/pow for Float(32), the C library's for
    Float(64) and for the trigonometric and hyperbolic functions, IEEE sqrt and rounding."""
    from . import floatmath

    if name == "reinterpret":
        return _reinterpret(t, args[0])
    if name == "strict_float":
        return np.asarray(args[0], dtype=t.dtype)[()]
    args = [np.asarray(a, dtype=t.dtype) for a in args]
    if name == "fast_log_sum":  # LLVM reassociates a*b + c*d + e to a*b + (c*d + e), then contracts both sums
        a, b, c, d, e = args
        return floatmath.fma(a, b, floatmath.fma(c, d, e, t.dtype), t.dtype)
    with np.errstate(all="ignore"):
        if name in ("exp", "log", "pow"):
            if t.bits() == 32:
                return getattr(floatmath, f"{name}_f32")(*args)
            return floatmath.libm(name, *args)
        if name in ir.LIBM_FUNCS:
            return floatmath.libm_f32(name, *args) if t.bits() == 32 else floatmath.libm(name, *args)
        return _ROUNDING[name](args[0])[()]


def _reinterpret(t: Type, a) -> np.ndarray:
    """The bits of a float as the integer type t of its width (carried in int64), or of an integer as the float t."""
    unsigned = np.uint32 if t.bits() == 32 else np.uint64
    if t.is_float():
        return np.asarray(a, dtype=np.int64).astype(unsigned).view(t.dtype)[()]
    a = np.asarray(a, dtype=np.float32 if t.bits() == 32 else np.float64)
    return a.view(unsigned).astype(t.dtype).astype(np.int64)[()]


_ROUNDING = {"sqrt": np.sqrt, "floor": np.floor, "ceil": np.ceil, "round": np.rint, "trunc": np.trunc}


def unop(op: str, t: Type, a) -> np.ndarray:
    if t.is_float():
        a = np.asarray(a, dtype=t.dtype)
        return (np.abs(a) if op == "abs" else np.negative(a))[()]
    a = np.asarray(a, dtype=np.int64)
    if op == "not":
        return (1 - a) if t.is_bool() else wrap(~a, t)
    if op == "abs":
        return wrap(np.abs(a), t)
    raise AssertionError(f"unknown unary op {op}")


def select(cond, t_value, f_value) -> np.ndarray:
    out = np.where(np.asarray(cond) != 0, t_value, f_value)
    return out if out.dtype.kind == "f" else out.astype(np.int64)


def to_numpy(values, t: Type) -> np.ndarray:
    """Carried int64 values as an array of the type's own dtype."""
    a = np.asarray(values)
    return (a != 0) if t.is_bool() else a.astype(t.dtype)
