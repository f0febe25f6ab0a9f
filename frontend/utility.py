"""Halide's small helpers around expressions: `hl.evaluate` (the value of an expression of constants),
`hl.lambda_func` (a Func from Vars and an expression), `hl.extract_bits` and `hl.concat_bits` (bit fields)."""

from __future__ import annotations

import itertools

import numpy as np

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, cast_ir, to_ir, type_name
from .func import Func
from .intrinsics import reinterpret
from .types import Type, UInt

_lambdas = itertools.count()


def evaluate(e):
    """The value of an expression without free variables: a Python int, float or bool, as Halide's evaluate."""
    x = to_ir(e, "evaluate")
    free = sorted({n.name for n in ir.walk(x) if isinstance(n, (ir.Var, ir.RVar))})
    if free:
        raise HalideError(f"{user_location()}: hl.evaluate of an expression of {', '.join(free)}: it evaluates an "
                          "expression of constants (and Params with values); define a Func over the variables and "
                          "realize it instead")
    f = Func("evaluate")
    f[()] = Expr(x)
    value = np.asarray(f.realize([]))[()]
    return bool(value) if x.type.is_bool() else value.item()


def lambda_func(*args) -> Func:
    """`hl.lambda_func(x, y, x + y)`: a Func of the given Vars defined by the last argument."""
    if not args:
        raise HalideError(f"{user_location()}: hl.lambda_func takes the Vars and then the expression, e.g. "
                          "hl.lambda_func(x, y, x + y)")
    f = Func(f"lambda_{next(_lambdas)}")
    f[tuple(args[:-1])] = args[-1]
    return f


def extract_bits(t: Type, e, lsb) -> Expr:
    """The bits of e from bit `lsb` up, as a value of type t (zeros shifted in past e's top bit)."""
    x = to_ir(e, "extract_bits")
    wide = UInt(max(t.bits(), x.type.bits()))  # both at most 32 bits: the language has no wider types
    source = reinterpret(UInt(x.type.bits()), Expr(x)) if not x.type.is_uint() else Expr(x)
    shifted = Expr(cast_ir(wide, source._ir())) >> Expr(cast_ir(wide, to_ir(lsb, "extract_bits")))
    return reinterpret(t, Expr(cast_ir(UInt(t.bits()), shifted._ir())))


def concat_bits(values) -> Expr:
    """Values of one type, a power of two of them, concatenated into one of as many times the bits, the first in
    the lowest bits (Halide's concat_bits)."""
    xs = [to_ir(v, "concat_bits") for v in values]
    n = len(xs)
    if n == 0 or n & (n - 1) or any(x.type != xs[0].type for x in xs):
        raise HalideError(f"{user_location()}: hl.concat_bits takes a power of two of values of one type, got "
                          f"{', '.join(type_name(x.type) for x in xs) or 'none'}")
    t = xs[0].type
    if t.bits() * n > 32 or t.is_float() or t.is_bool():
        raise HalideError(f"{user_location()}: hl.concat_bits of {n} {type_name(t)} values: the result must be an "
                          "integer of at most 32 bits, mainspring's widest")
    wide = UInt(t.bits() * n)
    out = None
    for k, x in enumerate(xs):
        part = Expr(cast_ir(wide, reinterpret(UInt(t.bits()), Expr(x))._ir())) << k * t.bits()
        out = part if out is None else out | part
    return reinterpret(t.with_bits(t.bits() * n), out) if t.is_int() else out
