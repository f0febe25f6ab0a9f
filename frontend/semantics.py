"""Halide's integer semantics on NumPy arrays: the one definition the reference evaluator, the constant folder
and the compute-graph checks all use.

Values are carried as int64 arrays holding the value of their type (uint8 in [0, 255], int8 in [-128, 127],
Bool as 0/1). int64 has room for every product of two 32-bit values modulo 2**64, and every type here divides
that modulus, so wrapping after each operation gives exactly the narrow-type result.
"""

from __future__ import annotations

import numpy as np

from .types import Type


def wrap(values, t: Type) -> np.ndarray:
    """Two's-complement truncation of int64 `values` to type `t` (Bool keeps only bit 0: callers turn
    truth values into 0/1 first)."""
    a = np.asarray(values, dtype=np.int64)
    bits = t.bits()
    a = a & ((1 << bits) - 1)
    if t.is_int():
        a = a - ((a >> (bits - 1)) << bits)
    return a


def cast(values, src: Type, dst: Type) -> np.ndarray:
    a = np.asarray(values, dtype=np.int64)
    if dst.is_bool():
        return (a != 0).astype(np.int64)
    return wrap(a, dst)


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


def unop(op: str, t: Type, a) -> np.ndarray:
    a = np.asarray(a, dtype=np.int64)
    if op == "not":
        return (1 - a) if t.is_bool() else wrap(~a, t)
    if op == "abs":
        return wrap(np.abs(a), t)
    raise AssertionError(f"unknown unary op {op}")


def select(cond, t_value, f_value) -> np.ndarray:
    return np.where(np.asarray(cond) != 0, t_value, f_value).astype(np.int64)


def to_numpy(values, t: Type) -> np.ndarray:
    """Carried int64 values as an array of the type's own dtype."""
    a = np.asarray(values)
    return (a != 0) if t.is_bool() else a.astype(t.dtype)
