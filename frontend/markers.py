"""Halide calls that mark a value rather than compute one (`print`, `print_when`, `unsafe_promise_clamped`), and
the Tuple calls (`Tuple`, `undef`, `argmax`, `argmin`), which a single-valued hardware Func cannot hold and are
refused with a rewrite that works.

`print` cannot print from hardware, and the reference evaluator computes whole images at once, so neither
prints: the value is the first argument, as Halide's is. `unsafe_promise_clamped(e, lo, hi)` is undefined
behaviour when e leaves [lo, hi], so clamping is a correct implementation, and it gives bounds inference (and a
table read at e) the promised range, which is why users write it.
"""

from __future__ import annotations

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, to_ir
from .operators import clamp, lossless_cast

# Python's bindings spell a Tuple as a Python tuple; `define` refuses one with this reason and fix.
TUPLE_FIX = (
    "a mainspring Func holds one value per point (hardware Funcs are single-valued; Tuples are not supported): "
    "define one Func per element (e.g. f0[x, y] = a; f1[x, y] = b). When elements of a reduction read each "
    "other, as argmax does, pack them into one integer: best = hl.maximum((hl.u32(v) << 16) | hl.u32(65535 - "
    "r.x)) keeps the first maximum; its value is best >> 16 and its index 65535 - (best & 65535)"
)
_ARGMIN_FIX = (
    "a mainspring Func holds one value per point (hardware Funcs are single-valued; Tuples are not supported): "
    "pack the value and its index into one integer: best = hl.minimum((hl.u32(v) << 16) | hl.u32(r.x)) keeps the "
    "first minimum; its value is best >> 16 and its index best & 65535"
)


def print_(*args) -> Expr:  # Halide's name is print
    """The first argument's value (nothing is printed: see the module's docstring)."""
    return Expr(to_ir(_first(args, "print"), "print"))


def print_when(condition, *args) -> Expr:
    """The first argument after the condition (nothing is printed)."""
    to_ir(condition, "print_when")
    return Expr(to_ir(_first(args, "print_when"), "print_when"))


def _first(args: tuple, name: str):
    if not args or isinstance(args[0], str):
        raise HalideError(f"{user_location()}: hl.{name} takes the value to pass through first, then what else to "
                          f"print (e.g. hl.{name}(f[x, y], \"at\", x)); got {args[:1]!r}")
    return args[0]


def unsafe_promise_clamped(value, min_value, max_value) -> Expr:
    """value, promised to lie in [min_value, max_value] (None: the type's bound)."""
    x = to_ir(value, "unsafe_promise_clamped")
    bounds = []
    for b, edge in ((min_value, x.type.min()), (max_value, x.type.max())):
        got = ir.Const(x.type, edge) if b is None else lossless_cast(x.type, to_ir(b, "unsafe_promise_clamped"))
        if got is None:
            raise HalideError(f"{user_location()}: hl.unsafe_promise_clamped expects min and max to fit in the type "
                              f"of value ({x.type}); got {b!r}: cast the value or the bounds")
        bounds.append(got)
    return clamp(Expr(x), Expr(bounds[0]), Expr(bounds[1]))


def Tuple(*elements):  # noqa: N802 - Halide's name
    """Halide's Tuple is a Python tuple in its Python bindings; a definition refuses it (TUPLE_FIX)."""
    return tuple(elements[0]) if len(elements) == 1 and isinstance(elements[0], (list, tuple)) else elements


def undef(*_args):
    raise HalideError(f"{user_location()}: hl.undef leaves an element of a Tuple unchanged, and {TUPLE_FIX}")


def argmax(*_args):
    raise HalideError(f"{user_location()}: hl.argmax returns a Tuple (the coordinates and the value), and "
                      f"{TUPLE_FIX}")


def argmin(*_args):
    raise HalideError(f"{user_location()}: hl.argmin returns a Tuple (the coordinates and the value), and "
                      f"{_ARGMIN_FIX}")
