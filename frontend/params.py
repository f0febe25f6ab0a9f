"""Inputs: `Buffer` (an ndarray seen with Halide's indexing), `ImageParam` and scalar `Param`."""

from __future__ import annotations

import itertools
import re

import numpy as np

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, ExprLike
from .types import I32, Type, type_of_dtype
from .vars import Implicit

_buf_anon = itertools.count()
_MADE_BY_COUNTER = re.compile(r"[bp]\d+")


def made_by_buffer_counter(name: str) -> bool:
    """Whether an image's name is one the counter gives a Buffer or ImageParam made without a name (`b0`, `p1`):
    a copy of the algorithm built again names it otherwise (mainspring/autoschedule_names.py)."""
    return _MADE_BY_COUNTER.fullmatch(name) is not None


class _Dim:
    __slots__ = ("_min", "_extent")

    def __init__(self, lo, extent):
        self._min, self._extent = lo, extent

    def min(self):
        return self._min

    def extent(self):
        return self._extent

    def max(self):
        return self._min + self._extent - 1


class Buffer:
    """An n-dimensional image. `Buffer(arr)` views `arr` with Halide's axis order: `buf[x, y] == arr[y, x]`;
    `np.asarray(buf)` gives `arr` back."""

    def __init__(self, data=None, sizes=None, name: str | None = None):
        if isinstance(data, np.ndarray) and isinstance(sizes, str):  # Halide's Buffer(ndarray, name)
            sizes, name = None, sizes
        if isinstance(data, Type):
            t, shape = data, tuple(reversed(list(sizes or [])))
            self._arr = np.zeros(shape, dtype=t.dtype)
        elif isinstance(data, np.ndarray):
            type_of_dtype(data.dtype)
            self._arr = data
        else:
            raise HalideError("Buffer takes an ndarray, or a type and a list of sizes "
                              "(e.g. Buffer(hl.UInt(8), [64, 64]))")
        self._mins = [0] * self._arr.ndim
        self._name = name if name is not None else f"b{next(_buf_anon)}"
        self._param: ImageParam | None = None

    def __array__(self, dtype=None, copy=None):
        return self._arr if dtype is None else self._arr.astype(dtype)

    def name(self) -> str:
        return self._name

    def type(self) -> Type:
        return type_of_dtype(self._arr.dtype)

    def dimensions(self) -> int:
        return self._arr.ndim

    def dim(self, i: int) -> _Dim:
        return _Dim(self._mins[i], self._arr.shape[self._arr.ndim - 1 - i])

    def width(self) -> int:
        return self.dim(0).extent() if self._arr.ndim > 0 else 1

    def height(self) -> int:
        return self.dim(1).extent() if self._arr.ndim > 1 else 1

    def channels(self) -> int:
        return self.dim(2).extent() if self._arr.ndim > 2 else 1

    def defined(self) -> bool:
        return True

    def number_of_elements(self) -> int:
        return int(self._arr.size)

    def left(self) -> int:
        return self.dim(0).min()

    def right(self) -> int:
        return self.dim(0).max()

    def top(self) -> int:
        return self.dim(1).min()

    def bottom(self) -> int:
        return self.dim(1).max()

    def fill(self, value):
        self._arr[...] = value
        return self

    def copy(self) -> Buffer:
        return Buffer(self._arr.copy()).set_min(self._mins)

    def set_min(self, mins):
        self._mins = list(mins) + [0] * (self._arr.ndim - len(mins))
        return self

    def halide_view(self) -> np.ndarray:
        """The data with axis i = Halide dimension i (x first)."""
        return self._arr.transpose()

    def mins(self) -> tuple[int, ...]:
        return tuple(self._mins)

    def image_param(self) -> ImageParam:
        """The input this Buffer is when an expression reads it (`f[x, y] = buf[x, y]`), as in Halide."""
        if self._param is None:
            self._param = ImageParam(self.type(), self.dimensions(), self._name)
            self._param.set(self)
        return self._param

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        if any(isinstance(k, (ExprLike, Implicit)) for k in key):
            return self.image_param()[key]
        idx = tuple(k - m for k, m in zip(key, self._mins))
        return self._arr[tuple(reversed(idx))]

    def __setitem__(self, key, value):
        key = key if isinstance(key, tuple) else (key,)
        idx = tuple(k - m for k, m in zip(key, self._mins))
        self._arr[tuple(reversed(idx))] = value


class Parameter:
    """The callee of loads from an ImageParam, or (with no args) of a scalar Param or a buffer-shape query."""

    def __init__(self, name: str, type_: Type, dims: int, kind: str, owner=None):
        self.name = name
        self.type = type_
        self.dims = dims
        self.kind = kind  # "image" | "scalar" | "shape"
        self.owner = owner
        self.wrappers: dict = {}  # an image's in_() wrappers: "" for the global one, else the consumer's name

    def __repr__(self) -> str:
        return f"<Parameter {self.name}>"

    def bound(self) -> int | None:
        """An image's min or extent (a shape query) given by `dim(i).set_bounds`, else None: a constant, as the
        pipeline's definitions read it (an RDom over the image's size keeps the query in its bounds)."""
        if self.kind != "shape":
            return None
        image, what, i = self.owner
        got = image.given_bounds().get(i)
        return None if got is None else got[0 if what == "min" else 1]

    def held(self) -> int | None:
        """An image's min or extent (a shape query) as the buffer its ImageParam holds (`input.set(buf)`) has it,
        else None: what Halide's realize reads it as. Only an RDom's bounds take it (its loops are fixed at compile
        time); other reads of the size stay the accelerator's run-time configuration."""
        if self.kind != "shape":
            return None
        image, what, i = self.owner
        buf = image.get()
        if buf is None or i >= buf.dimensions():
            return None
        return buf.dim(i).min() if what == "min" else buf.dim(i).extent()


def as_buffer(value, what: str) -> Buffer:
    if isinstance(value, Buffer):
        return value
    if isinstance(value, np.ndarray):
        return Buffer(value)
    raise HalideError(f"{what} takes an hl.Buffer or a NumPy array, got {type(value).__name__}")


class _ShapeDim:
    def __init__(self, param: ImageParam, i: int):
        self._p, self._i = param, i

    def _q(self, what: str) -> Expr:
        return Expr(ir.Call(I32, self._p._shape_param(what, self._i), ()))

    def min(self) -> Expr:
        return self._q("min")

    def extent(self) -> Expr:
        return self._q("extent")

    def max(self) -> Expr:
        return self.min() + self.extent() - 1

    def set_bounds(self, min, extent) -> _ShapeDim:  # noqa: A002 - Halide's parameter names
        """Halide's `Dimension.set_bounds`: the image is known to span [min, min + extent) in this dimension, so
        its min and extent are these constants (a boundary condition's clamp becomes constant: hardware)."""
        for what, v in (("min", min), ("extent", extent)):
            if isinstance(v, bool) or not isinstance(v, int) or (what == "extent" and v < 1):
                raise HalideError(f"{user_location()}: ImageParam {self._p.name()}.dim({self._i}).set_bounds: {what} "
                                  f"must be a{' positive' if what == 'extent' else 'n'} integer, got {v!r}")
        self._p._bounds[self._i] = (min, extent)
        return self

    def set_estimate(self, min, extent) -> _ShapeDim:  # noqa: A002 - Halide's parameter names
        """Halide's `Dimension.set_estimate`: the size the autoscheduler plans for."""
        self._p._estimates[self._i] = (int(min), int(extent))
        return self


class ImageParam:
    """An input image of a pipeline: `ImageParam(hl.UInt(8), 2, "input")`; `input[x, y]`."""

    def __init__(self, type: Type, dimensions: int, name: str | None = None):  # noqa: A002 - Halide's names
        type_, dims = type, dimensions
        if not isinstance(type_, Type):
            raise HalideError(f"ImageParam takes a type first (e.g. hl.UInt(8)), got {type_!r}")
        self._param = Parameter(name if name is not None else f"p{next(_buf_anon)}", type_, dims, "image", self)
        self._buffer: Buffer | None = None
        self._shape: dict[tuple[str, int], Parameter] = {}
        self._bounds: dict[int, tuple[int, int]] = {}  # dim(i).set_bounds: (min, extent)
        self._estimates: dict[int, tuple[int, int]] = {}  # dim(i).set_estimate / set_estimates: (min, extent)
        self.loc = user_location()

    def name(self) -> str:
        return self._param.name

    def type(self) -> Type:
        return self._param.type

    def dimensions(self) -> int:
        return self._param.dims

    def parameter(self) -> Parameter:
        return self._param

    def set(self, value):
        buf = as_buffer(value, f"ImageParam {self.name()}.set")
        if buf.type() != self.type():
            raise HalideError(
                f"{user_location()}: Can't bind ImageParam {self.name()} of type {self.type()} to Buffer "
                f"{buf.name()} of type {buf.type()}; convert the array (e.g. arr.astype(np.{self.type().dtype}))"
            )
        self._buffer = buf
        return self

    def get(self) -> Buffer | None:
        return self._buffer

    def reset(self):
        self._buffer = None

    def __getitem__(self, key) -> Expr:
        from .func import _expand_implicit

        key = key if isinstance(key, (tuple, list)) else (key,)
        if any(isinstance(k, Implicit) for k in key):  # input[_], input[x, _]: the remaining dimensions
            key = _expand_implicit(tuple(key), self.dimensions() - (len(key) - 1), self.name())
        if len(key) != self.dimensions():
            raise HalideError(
                f"{user_location()}: ImageParam {self.name()} has {self.dimensions()} dimensions but is accessed "
                f"with {len(key)} arguments"
            )
        from .func import arg_ir

        args = tuple(arg_ir(k, self.name(), i) for i, k in enumerate(key))
        return Expr(ir.Call(self.type(), self._param, args))

    def in_(self, consumer=None):
        """Halide's `ImageParam.in_()`: a Func wrapping the image, which every Func reads instead of the image
        (`in_(g)`: only g does); it schedules like any Func, e.g. `input.in_().compute_root()
        .stream_to_accelerator()` streams the image into the accelerator."""
        from .wrappers import make_image_wrapper

        return make_image_wrapper(self, consumer)

    def dim(self, i: int) -> _ShapeDim:
        if not 0 <= i < self.dimensions():
            raise HalideError(f"ImageParam {self.name()} has no dimension {i}")
        return _ShapeDim(self, i)

    def given_bounds(self) -> dict[int, tuple[int, int]]:
        """mainspring's: the (min, extent) each `dim(i).set_bounds` gave, by dimension (a copy)."""
        return dict(self._bounds)

    def given_estimates(self) -> dict[int, tuple[int, int]]:
        """mainspring's: the (min, extent) each `set_estimates` / `dim(i).set_estimate` gave, by dimension (a copy)."""
        return dict(self._estimates)

    def reset_bounds(self, bounds: dict[int, tuple[int, int]]) -> ImageParam:
        """mainspring's: forget every `dim(i).set_bounds`, then give `bounds` as `given_bounds` returns them (the
        autoscheduler tries candidate schedules, each binding the image's size anew in its own source)."""
        self._bounds.clear()
        for i, (lo, ext) in sorted(bounds.items()):
            self.dim(i).set_bounds(lo, ext)
        return self

    def set_estimates(self, estimates) -> ImageParam:
        """Halide's `set_estimates([(min, extent), ...])`, one per dimension: the size the autoscheduler plans for."""
        if len(estimates) != self.dimensions():
            raise HalideError(f"{user_location()}: ImageParam {self.name()}.set_estimates takes one (min, extent) per "
                              f"dimension ({self.dimensions()}), got {len(estimates)}")
        for i, (lo, ext) in enumerate(estimates):
            self.dim(i).set_estimate(lo, ext)
        return self

    def defined(self) -> bool:
        return True

    def left(self) -> Expr:
        return self.dim(0).min()

    def right(self) -> Expr:
        return self.dim(0).max()

    def top(self) -> Expr:
        return self.dim(1).min()

    def bottom(self) -> Expr:
        return self.dim(1).max()

    def width(self) -> Expr:
        return self.dim(0).extent()

    def height(self) -> Expr:
        return self.dim(1).extent()

    def channels(self) -> Expr:
        return self.dim(2).extent()

    def _shape_param(self, what: str, i: int) -> Parameter:
        key = (what, i)
        if key not in self._shape:
            self._shape[key] = Parameter(f"{self.name()}.{what}.{i}", I32, 0, "shape", (self, what, i))
        return self._shape[key]


def _wider_param(name: str, value: int) -> str:
    """The fix of a Param too narrow for a value: the narrowest integer type that holds it, if one does."""
    for t in [Type(code, bits) for code in (("int",) if value < 0 else ("uint", "int")) for bits in (8, 16, 32)]:
        if t.can_represent(value):
            ctor = "hl.Int" if t.is_int() else "hl.UInt"
            return f", or declare it of a type that holds {value}: {name} = hl.Param({ctor}({t.bits()}), \"{name}\")"
    return ""


class Param(ExprLike):
    """A scalar parameter: `Param(hl.UInt(8), "gain", 2)`; a configuration register in hardware."""

    __slots__ = ("_param", "_value", "_min", "_max", "_estimate")

    def __init__(self, type: Type, name: str | None = None, value=None, min=None, max=None):  # noqa: A002
        type_ = type
        if not isinstance(type_, Type):
            raise HalideError(f"Param takes a type first (e.g. hl.UInt(8)), got {type_!r}")
        self._param = Parameter(name if name is not None else f"p{next(_buf_anon)}", type_, 0, "scalar", self)
        self._value = None
        self._min: int | None = None
        self._max: int | None = None
        self._estimate: int | float | None = None
        if value is not None:
            self.set(value)
        if min is not None or max is not None:  # Halide's Param(type, name, value, min, max)
            self.set_range(min, max)

    def name(self) -> str:
        return self._param.name

    def parameter(self) -> Parameter:
        return self._param

    def set(self, value):
        t = self._param.type
        if t.is_float() and isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
            self._value = t.wrap(float(value))  # Halide stores the value in the Param's type
            return
        if not isinstance(value, (int, np.integer, np.bool_)):
            raise HalideError(f"Param {self.name()}.set takes an integer, got {value!r}")
        if not t.can_represent(int(value)):
            raise HalideError(
                f"{user_location()}: Param {self.name()}.set({value}): The value {value} cannot be losslessly "
                f"converted to type {t}; set a value in [{t.min()}, {t.max()}]{_wider_param(self.name(), int(value))}"
            )
        self._value = int(value)

    def get(self) -> int | float | None:
        return self._value

    def set_range(self, min, max) -> None:  # noqa: A002 - Halide's parameter names
        """Halide's promise that the Param's value lies in [min, max] (None: unbounded on that side): an RDom whose
        bounds read the Param runs its loops over the widest domain the range allows (frontend/param_domains.py)."""
        self.set_min_value(min)
        self.set_max_value(max)

    def set_min_value(self, min) -> None:  # noqa: A002
        self._min = None if min is None else self._range_value(min, "set_min_value")

    def set_max_value(self, max) -> None:  # noqa: A002
        self._max = None if max is None else self._range_value(max, "set_max_value")

    def min_value(self) -> int | None:
        return self._min

    def max_value(self) -> int | None:
        return self._max

    def set_estimate(self, value) -> None:
        """Halide's estimate of the value, for an autoscheduler; it bounds nothing."""
        self._estimate = value

    def estimate(self) -> int | float | None:
        return self._estimate

    def _range_value(self, v, call: str) -> int:
        t = self._param.type
        if t.is_float() or not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise HalideError(f"{user_location()}: Param {self.name()}.{call}({v!r}): mainspring takes the ranges of "
                              f"integer Params, as constant integers (e.g. {self.name()}.set_range(0, 8))")
        if not t.can_represent(int(v)):
            raise HalideError(f"{user_location()}: Param {self.name()}.{call}({v}): {v} is outside the range of "
                              f"{t}, [{t.min()}, {t.max()}]")
        return int(v)

    def _ir(self) -> ir.Expr:
        return ir.Call(self._param.type, self._param, ())
