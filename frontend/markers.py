"""Halide calls that mark a value rather than compute one (`print`, `print_when`, `unsafe_promise_clamped`), and
the Tuple spellings `Tuple` and `undef` (Tuple Funcs: frontend/tuples.py; argmax, argmin: frontend/library.py).

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
    """Halide's Tuple, a Python tuple in its Python bindings (a Func defined as one packs it: frontend/tuples.py)."""
    return tuple(elements[0]) if len(elements) == 1 and isinstance(elements[0], (list, tuple)) else elements


def undef(_type=None):
    """Halide's undef(): an element a Tuple update leaves unchanged."""
    from .tuples import UNDEF

    return UNDEF
