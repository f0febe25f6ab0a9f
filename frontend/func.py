"""Funcs: definitions (pure and update), references `f[x, y]`, stages and the Func-level schedule calls.

A `Func` is the user's handle; its `Function` holds the definitions as internal IR (`Definition`s) and the
schedule records. A first definition whose left side is distinct Vars is the pure definition; every later one
is an update, as in Halide. `f[...] += e` on a Func with no definition first defines it as 0 (1 for `*=`)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import ir
from .declarative import DeclarativeSchedule
from .errors import HalideError, SourceLoc, user_location
from .expr import Expr, ExprLike, arith, cast_ir, to_ir
from .host_directives import FuncHostDirectives, HostDirectives
from .placement import FuncPlacement
from .schedule import Dim, Placement, StageSchedule
from .types import Type
from .vars import Implicit, Var

if TYPE_CHECKING:  # params imports this module lazily; the type is for annotations only
    from .params import Parameter


@dataclass(frozen=True, slots=True, eq=False)
class Definition:
    args: tuple[ir.Expr, ...]  # left side; all ir.Var for the pure definition
    value: ir.Expr
    rdom: ir.ReductionDomain | None
    loc: SourceLoc
    schedule: StageSchedule

    def pure_vars(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args if isinstance(a, ir.Var))


class Function:
    """The internal record behind a Func (identity matters: IR calls point at it)."""

    def __init__(self, name: str, loc: SourceLoc):
        self.name = name
        self.loc = loc
        self.serial = next(_serials)  # creation order: duplicate names are numbered in it, as Halide does
        self.definitions: list[Definition] = []
        self.placement = Placement()
        self.wrappers: dict[str, Function] = {}  # "" for the global in_() wrapper, else consumer name
        self.wrapped: Function | None = None  # for a wrapper: the Function it wraps
        self.wrapper_for: tuple[Function, ...] = ()  # for in_(g) / in_([g, h]): those consumers; () for in_()
        self.wrapped_image: Parameter | None = None  # for an ImageParam's wrapper (`input.in_()`): the image
        self.cloned: tuple[Function, tuple[Function, ...]] | None = None  # f.clone_in(gs)'s copy: (f, gs)
        self.handle: Func | None = None
        self.requirements: list = []  # Halide's add_requirement conditions (frontend/requirements.py)
        self.specializations: dict[int, Any] = {}  # definition index -> its SpecializeState (frontend/specialize.py)
        self.tuple_layout: Any = None  # a Tuple Func's packing (frontend/tuples.py); None for one value
        self.scalar = False  # written with no dimensions: one element (frontend/define.py's key_args)
        # the Tuple Func frontend/fuse_outputs.py computes several outputs in: how the user names it (the first)
        self.user_name: str | None = None

    @property
    def type(self) -> Type:
        return self.definitions[0].value.type

    @property
    def args(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.definitions[0].args)

    def defined(self) -> bool:
        return bool(self.definitions)

    def __repr__(self) -> str:
        return f"<Function {self.name}>"


_func_anon = itertools.count()
_serials = itertools.count()


def _expand_implicit(args: tuple, count: int, fname: str) -> tuple:
    """`_` as `count` implicit Vars `_0`, `_1`, ... (Halide's names)."""
    if sum(isinstance(a, Implicit) for a in args) > 1 or count < 0:
        raise HalideError(f"{user_location()}: Func \"{fname}\": the implicit variable _ stands for the remaining "
                          "dimensions and may appear once, after the explicit arguments")
    out: list = []
    for a in args:
        out += [Var(f"_{k}") for k in range(count)] if isinstance(a, Implicit) else [a]
    return tuple(out)


class PendingUpdate(ExprLike):
    """`f[args] op e` on a Func with no definition yet (Halide's UnevaluatedFuncRefExpr): assigned back to the
    same place (`f[args] += e`, or `f[args] = f[args] + e`) it defines f as 0 (1 for * and /) of e's type and
    adds the update; used any other way it is an error."""

    __slots__ = ("op", "ref", "rhs")

    def __init__(self, op: str, ref: FuncRef, rhs):
        self.op, self.ref, self.rhs = op, ref, rhs

    def _ir(self):
        fn = self.ref._func._fn
        raise HalideError(
            f"{user_location()}: Cannot use an unevaluated reference to '{fn.name}' in an expression: '{fn.name}' "
            f"has no definition yet. Define it first (e.g. {fn.name}[x, y] = 0)."
        )


class FuncRef(ExprLike):
    """`f[x, y]`: a call when read, a definition's left side when assigned."""

    __slots__ = ("_func", "_args")

    def __init__(self, func: Func, args: tuple):
        self._func = func
        self._args = args

    def _ir(self) -> ir.Expr:
        fn = self._func._fn
        if fn.tuple_layout is not None:
            n = len(fn.tuple_layout.fields)
            raise HalideError(
                f"{user_location()}: Can't convert a reference Func \"{fn.name}\" to an Expr, because {fn.name} "
                f"returns a Tuple of {n} elements; read one element, e.g. {fn.name}[...][0] (up to [{n - 1}])"
            )
        return self._call()

    def _call(self) -> ir.Call:
        """The load of f there (a Tuple Func's packed word)."""
        fn = self._func._fn
        if not fn.defined():
            raise HalideError(
                f"{user_location()}: Can't call Func \"{fn.name}\" because it has not yet been defined. "
                f"Give it a definition (e.g. {fn.name}[x, y] = ...) before using it."
            )
        args = tuple(arg_ir(a, fn.name, i) for i, a in enumerate(self._args))
        if len(args) != len(fn.args):
            raise HalideError(
                f"{user_location()}: Func \"{fn.name}\" was called with {len(args)} arguments, but was defined "
                f"with {len(fn.args)} ({', '.join(fn.args)})"
            )
        return ir.Call(fn.type, fn, args)

    def __getitem__(self, i):
        """Element i of a Tuple Func's value there (0 of a single-valued Func is its value, as in Halide)."""
        fn = self._func._fn
        n = 1 if fn.tuple_layout is None else len(fn.tuple_layout.fields)
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n:
            raise HalideError(
                f"{user_location()}: Tuple index {i!r} out of range in reference to Func \"{fn.name}\", which has "
                f"{n} element{'s' if n > 1 else ''}: use an index from 0 to {n - 1}"
            )
        if hasattr(fn.tuple_layout, "reads"):  # a Tuple over 32 bits: the one element read is recorded
            from .wide_tuples import read_one

            return Expr(read_one(fn.tuple_layout, self._call().args, i))
        return self.elements()[i]

    def elements(self) -> tuple[Expr, ...]:
        """The Tuple's elements there, as Exprs (a single-valued Func's one value)."""
        from .tuples import elements

        fn = self._func._fn
        return (Expr(self._ir()),) if fn.tuple_layout is None else elements(fn, self._call())

    def _unevaluated(self, op: str, e):
        if self._func._fn.defined():
            return arith(op, self, e)
        return PendingUpdate(op, self, e)

    # On an undefined Func, `f[x] + e` (and so `f[x] += e`) is an update waiting for its assignment.
    def __add__(self, e):
        return self._unevaluated("add", e)

    def __sub__(self, e):
        return self._unevaluated("sub", e)

    def __mul__(self, e):
        return self._unevaluated("mul", e)

    def __truediv__(self, e):
        return self._unevaluated("div", e)


def arg_ir(a, fname: str, position: int = 0) -> ir.Expr:
    """An argument of a call (or a left side): Int(32), as Halide casts narrower ones; a UInt(32) or a float would
    change value, which Halide refuses."""
    node = to_ir(a, f"an argument of {fname}")
    if (node.type.bits() == 32 and node.type.is_uint()) or node.type.is_float():
        raise HalideError(
            f"{user_location()}: Implicit cast from {node.type} to int in argument {position + 1} in call to "
            f"\"{fname}\" is not allowed. Use an explicit cast (hl.i32(...)) of {ir.to_string(node)}. Inside an "
            f"accelerator, where addresses must be affine, compute the index in Int(32) instead (no {node.type} on "
            "the way)."
        )
    return cast_ir(Type("int", 32), node)


class Stage(HostDirectives):
    """An update definition's handle for its loop transformations (`f.update(0).unroll(r.x)`)."""

    def __init__(self, func: Func, index: int):
        self._func = func
        self._index = index

    def _stage(self) -> StageSchedule:
        return self._func._fn.definitions[self._index].schedule

    def _owner_name(self) -> str:
        return f"{self._func._fn.name}.update({self._index - 1})"

    def _function(self) -> Function:
        return self._func._fn

    def _specialize_state(self):
        from .specialize import stage_state

        return stage_state(self._func._fn, self._index)

    def rfactor(self, *args) -> Func:
        """Halide's rfactor: the reduction split into an intermediate Func of partial results over the preserved
        RVars, made pure Vars (`rfactor(r.y, v)` or `rfactor([(r.y, v)])`); returns the intermediate."""
        from .rfactor import rfactor

        return rfactor(self._func._fn, self._index, args)

    def name(self) -> str:
        return f"{self._func._fn.name}.s{self._index}"


class Func(FuncHostDirectives, DeclarativeSchedule, FuncPlacement):
    """A function of the algorithm: `f = hl.Func("f"); f[x, y] = ...`."""

    def __init__(self, *args):
        name = None
        for a in args:
            if isinstance(a, str):
                name = a
            elif isinstance(a, Function):
                self._fn = a
                return
        self._fn = Function(name if name is not None else f"f{next(_func_anon)}", user_location())
        self._fn.handle = self

    # ---- identity and introspection ----
    def name(self) -> str:
        return self._fn.name

    def defined(self) -> bool:
        return self._fn.defined()

    def type(self) -> Type:
        self._require_defined("type()")
        self._refuse_tuple("Func::type", "types()")
        return self._fn.type

    def _refuse_tuple(self, call: str, instead: str) -> None:
        if self._fn.tuple_layout is not None:
            raise HalideError(
                f"{user_location()}: Can't call {call} on Func \"{self._fn.name}\" because it returns a Tuple (of "
                f"{self.outputs()} elements); call {instead}, which gives one per element"
            )

    def dimensions(self) -> int:
        return len(self._fn.args) if self._fn.defined() and not self._fn.scalar else 0

    def args(self) -> list[Var]:
        return [Var(n) for n in self._fn.args]

    def value(self) -> Expr:
        self._require_defined("value()")
        self._refuse_tuple("Func::value", "values()")
        return Expr(self._fn.definitions[0].value)

    def values(self) -> list[Expr]:
        """The pure definition's elements (a Tuple Func's unpacked from its word)."""
        if self._fn.tuple_layout is None:
            return [self.value()]
        return self._stage_values(0)

    def types(self) -> list[Type]:
        layout = self._fn.tuple_layout
        return [self.type()] if layout is None else [f.type for f in layout.fields]

    def outputs(self) -> int:
        return 1 if self._fn.tuple_layout is None else len(self._fn.tuple_layout.fields)

    def rvars(self, i: int = 0) -> list:
        """The RVars of update i's reduction domain (none for an update over pure Vars only), as Halide's."""
        from .vars import RVar

        rdom = self._fn.definitions[self.update(i)._index].rdom
        return [] if rdom is None else [RVar(rdom, k) for k in range(len(rdom.dims))]

    def update_args(self, i: int = 0) -> list[Expr]:
        return [Expr(a) for a in self._fn.definitions[self.update(i)._index].args]

    def update_value(self, i: int = 0) -> Expr:
        self._refuse_tuple("Func::update_value", "update_values(i)")
        return Expr(self._fn.definitions[self.update(i)._index].value)

    def update_values(self, i: int = 0) -> list[Expr]:
        if self._fn.tuple_layout is None:
            return [self.update_value(i)]
        return self._stage_values(self.update(i)._index)

    def _stage_values(self, stage: int) -> list[Expr]:
        """A Tuple Func's elements as stage `stage` (0 the pure definition) gives them, unpacked from its word(s)."""
        from .tuples import TupleLayout, elements
        from .wide_tuples import stage_values

        if isinstance(self._fn.tuple_layout, TupleLayout):
            return list(elements(self._fn, self._fn.definitions[stage].value))
        return [Expr(e) for e in stage_values(self._fn.tuple_layout, stage)]

    def has_update_definition(self) -> bool:
        return len(self._fn.definitions) > 1

    def num_update_definitions(self) -> int:
        return max(0, len(self._fn.definitions) - 1)

    def function(self) -> Function:
        return self._fn

    def _require_defined(self, what: str):
        if not self._fn.defined():
            raise HalideError(f"{user_location()}: Func '{self._fn.name}' has no definition yet; {what} needs one")

    def __repr__(self) -> str:
        return f"<mainspring.Func '{self._fn.name}'>"

    # ---- definitions ----
    def __getitem__(self, key) -> FuncRef:
        from .define import key_args

        args = key_args(self._fn, key, not self._fn.defined())
        if any(isinstance(a, Implicit) for a in args) and self._fn.defined():
            args = _expand_implicit(args, len(self._fn.args) - (len(args) - 1), self._fn.name)
        return FuncRef(self, args)

    def __setitem__(self, key, value):
        from .define import define, key_args

        args = key_args(self._fn, key, not self._fn.defined() or isinstance(value, PendingUpdate))
        if any(isinstance(a, Implicit) for a in args):
            used = {n.name for n in ir.walk(to_ir(value, f"the definition of {self._fn.name}"))
                    if isinstance(n, ir.Var) and n.name.startswith("_") and n.name[1:].isdigit()}
            args = _expand_implicit(args, len(used), self._fn.name)
        define(self._fn, args, value, user_location())

    # ---- stages ----
    def _stage(self) -> StageSchedule:
        self._require_defined("a schedule call")
        return self._fn.definitions[0].schedule

    def _owner_name(self) -> str:
        return self._fn.name

    def _function(self) -> Function:
        return self._fn

    def _specialize_state(self):
        from .specialize import stage_state

        self._require_defined("specialize")
        return stage_state(self._fn, 0)

    def update(self, idx: int = 0) -> Stage:
        from .library import no_update_hint

        i, n = idx, len(self._fn.definitions) - 1
        if not 0 <= i < n:
            raise HalideError(
                f"{user_location()}: Call to update with index larger than last defined update stage for Func "
                f"\"{self._fn.name}\": update({i}), but it has {n} update definition(s)"
                + (no_update_hint(self._fn) if n == 0 else f"; use update(0) .. update({n - 1})"))
        return Stage(self, i + 1)

    # ---- debugging ----
    def print_loop_nest(self):
        """Print the loops the schedule makes, producers first (Halide's Func.print_loop_nest)."""
        from .loop_nest import loop_nest

        self._require_defined("print_loop_nest")
        print(loop_nest(self), end="")

    # ---- evaluation ----
    def realize(self, sizes, target=None):
        """Evaluate over [0, size) in each dimension with the NumPy reference (Halide's JIT's on any target)."""
        from .pipeline import Pipeline

        if self._fn.tuple_layout is not None:  # Halide's Realization: one buffer per element
            vs = tuple(Var(n) for n in self._fn.args)
            parts = [Func(f"{self._fn.name}_{i}") for i in range(self.outputs())]
            for i, part in enumerate(parts):
                part[vs] = self[vs][i]
            return [Pipeline(part).realize(sizes) for part in parts]
        if self._fn.scalar and not list(sizes):  # Halide's realize([]) of a Func of no dimensions: a 0-D buffer
            from .define import realize_scalar

            return realize_scalar(Pipeline(self))
        return Pipeline(self).realize(sizes)

    # ---- wrappers ----
    def clone_in(self, f=None, fs=None) -> Func:
        """Halide's clone_in: `f` (or the list `fs`) reads a copy of this Func, scheduled apart."""
        from .wrappers import make_clone

        return make_clone(self, f if fs is None else fs)

    def in_(self, f=None, fs=None) -> Func:  # Halide's keywords: in_(f=g), in_(fs=[g, h])
        from .wrappers import make_wrapper

        return make_wrapper(self, f if fs is None else fs)


def handle_of(fn: Function) -> Func:
    return fn.handle if fn.handle is not None else Func(fn)


def new_stage_schedule(args: tuple[ir.Expr, ...], rdom: ir.ReductionDomain | None) -> StageSchedule:
    dims = [Dim(d[0], True) for d in rdom.dims] if rdom is not None else []
    dims += [Dim(a.name, False) for a in args if isinstance(a, ir.Var)]
    return StageSchedule(dims)


def user_handle(f: Function) -> str:
    """How the user names f in a schedule call: a wrapper is `g.in_()` (or `g.in_(consumer)`), not its name."""
    if f.user_name is not None:
        return f.user_name
    if f.wrapped_image is not None:
        base = f.wrapped_image.name
    elif f.wrapped is None:
        return f.name
    else:
        base = user_handle(f.wrapped)
    names = [c.name for c in f.wrapper_for]
    return f"{base}.in_({names[0] if len(names) == 1 else '[' + ', '.join(names) + ']' if names else ''})"
