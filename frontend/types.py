"""Scalar types of the language: Halide's integer types, Bool, and Float(32|64).

A `Type` is a code (int, uint, float) and a bit width; `Bool()` is `UInt(1)`, as in Halide. Floats exist for
the reference language (weight tables, curves computed with exp and pow); the CGRA's PEs are integer units, so
the hardware path needs float values folded to integer constants first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

INT = "int"
UINT = "uint"
FLOAT = "float"

_WIDTHS = {INT: (8, 16, 32), UINT: (1, 8, 16, 32), FLOAT: (32, 64)}


@dataclass(frozen=True, slots=True)
class Type:
    code: str
    _bits: int

    def __post_init__(self):
        from .errors import HalideError

        if self.code not in _WIDTHS or self._bits not in _WIDTHS[self.code]:
            raise HalideError(
                f"Type {self.code}{self._bits} is not supported; use UInt(1|8|16|32), Int(8|16|32), Float(32|64) "
                "or Bool()"
            )

    # Halide's Python bindings expose these as methods.
    def bits(self) -> int:
        return self._bits

    def is_int(self) -> bool:
        return self.code == INT

    def is_uint(self) -> bool:
        return self.code == UINT

    def is_bool(self) -> bool:
        return self.code == UINT and self._bits == 1

    def is_float(self) -> bool:
        return self.code == FLOAT

    def bytes(self) -> int:
        return (self._bits + 7) // 8

    def lanes(self) -> int:
        return 1  # scalar types only: vectors are a schedule matter

    def is_scalar(self) -> bool:
        return True

    def is_vector(self) -> bool:
        return False

    def is_handle(self) -> bool:
        return False

    def element_of(self) -> Type:
        return self

    def with_lanes(self, lanes: int) -> Type:
        from .errors import HalideError

        if lanes != 1:
            raise HalideError(f"{self!r}.with_lanes({lanes}): mainspring has scalar types only")
        return self

    def is_max(self, value) -> bool:
        return value == self.max()

    def is_min(self, value) -> bool:
        return value == self.min()

    def with_bits(self, bits: int) -> Type:
        return Type(self.code, bits)

    def with_code(self, code: str) -> Type:
        return Type(code, self._bits)

    def min(self):
        """The lowest value; -inf for a float, as Halide's Float(32).min() is."""
        if self.is_float():
            return -math.inf
        return -(1 << (self._bits - 1)) if self.is_int() else 0

    def max(self):
        if self.is_float():
            return math.inf
        return (1 << (self._bits - 1)) - 1 if self.is_int() else (1 << self._bits) - 1

    def can_represent(self, value) -> bool:
        """`value` is exactly a value of this type (for a float: it survives rounding to the type; NaN is one)."""
        if self.is_float():
            return math.isnan(value) or float(self.dtype.type(value)) == value
        return self.min() <= value <= self.max()

    def wrap(self, value):
        """The value this type holds after conversion: two's-complement truncation for an integer type, rounding
        to nearest for a float type."""
        if self.is_float():
            return float(self.dtype.type(value))
        v = value & ((1 << self._bits) - 1)
        if self.is_int() and v >= (1 << (self._bits - 1)):
            v -= 1 << self._bits
        return v

    @property
    def dtype(self) -> np.dtype:
        if self.is_bool():
            return np.dtype(np.bool_)
        if self.is_float():
            return np.dtype(f"float{self._bits}")
        return np.dtype(f"{'u' if self.is_uint() else ''}int{self._bits}")

    def __str__(self) -> str:
        return "bool" if self.is_bool() else f"{self.code}{self._bits}"

    def __repr__(self) -> str:
        if self.is_bool():
            return "Bool()"
        return f"{ {INT: 'Int', UINT: 'UInt', FLOAT: 'Float'}[self.code]}({self._bits})"


def UInt(bits: int) -> Type:  # noqa: N802 - Halide's spelling
    return Type(UINT, bits)


def Int(bits: int) -> Type:  # noqa: N802
    return Type(INT, bits)


def Bool() -> Type:  # noqa: N802
    return Type(UINT, 1)


def Float(bits: int) -> Type:  # noqa: N802 - Halide's spelling
    from .errors import HalideError, user_location

    if bits not in _WIDTHS[FLOAT]:
        raise HalideError(f"{user_location()}: Float({bits}) is not supported; use Float(32) or Float(64)")
    return Type(FLOAT, bits)


def type_of_dtype(dtype) -> Type:
    from .errors import HalideError

    dt = np.dtype(dtype)
    if dt == np.bool_:
        return Bool()
    if dt.kind in "iu" and dt.itemsize in (1, 2, 4):
        return Type(INT if dt.kind == "i" else UINT, dt.itemsize * 8)
    if dt.kind == "f" and dt.itemsize in (4, 8):
        return Type(FLOAT, dt.itemsize * 8)
    from .errors import user_location

    raise HalideError(f"{user_location()}: arrays of dtype {dt} are not supported; convert the array (e.g. "
                      "arr.astype(np.uint16)) to uint8/16/32, int8/16/32, float32/64 or bool")


I32 = Int(32)
BOOL = Bool()
F32 = Type(FLOAT, 32)
F64 = Type(FLOAT, 64)
