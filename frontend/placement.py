"""A Func's placement calls (compute_at, store_at, bound, store_in, ...) and its hardware boundaries
(hw_accelerate, stream_to_accelerator, ...): records on its Function's `Placement`, independent of call order, as
Halide keeps them (the loop transformations, applied in call order, are in schedule.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .declarative import refuse_declarative
from .errors import HalideError, ScheduleError, SourceLoc, did_you_mean, user_location
from .schedule import LoopLevel, MemoryType, _require_const_int
from .vars import var_name

if TYPE_CHECKING:  # func.py builds Func on this class
    from .func import Function


class FuncPlacement:
    """The placement calls of a Func (func.Func inherits them)."""

    _fn: Function

    if TYPE_CHECKING:
        def _require_defined(self, what: str) -> None: ...

    def compute_root(self):
        self._fn.placement.compute = LoopLevel.root(user_location())
        return self

    def store_root(self):
        self._fn.placement.store = LoopLevel.root(user_location())
        return self

    def compute_inline(self):
        self._fn.placement.compute = LoopLevel.inlined()
        return self

    def fifo_depth(self, func, depth):
        """Halide-to-Hardware's hint for the FIFO between this Func and `func` (`gray.fifo_depth(hw_output,
        tilesize * 9)`). Accepted and not needed: the static schedule sizes every buffer exactly."""
        from .func import Func

        self._require_defined("fifo_depth")
        if not isinstance(func, Func):
            raise ScheduleError(f"{user_location()}: Func '{self._fn.name}': fifo_depth(func, depth) takes the "
                                f"consumer Func first, got {type(func).__name__}")
        _require_const_int(depth, "fifo_depth depth")
        return self


    # Parameter names are Halide's (its Python bindings take them as keywords: `bound(var=x, min=0, extent=8)`).
    # Halide 21's overloads: (f, var), (f, rvar) and (loop_level), each by position or keyword
    def compute_at(self, f=None, var=None, *, rvar=None, loop_level=None):
        where = _loop_level_args(f, var, rvar, loop_level, "compute_at", self._fn.name)
        self._fn.placement.compute = _loop_level(*where, "compute_at", user_location(), self._fn.name)
        return self

    def store_at(self, f=None, var=None, *, rvar=None, loop_level=None):
        where = _loop_level_args(f, var, rvar, loop_level, "store_at", self._fn.name)
        self._fn.placement.store = _loop_level(*where, "store_at", user_location(), self._fn.name)
        return self

    def bound(self, var, min, extent):  # noqa: A002 - Halide's names
        return self._bound(var, min, extent, "bound")

    def set_estimate(self, var, min, extent):  # noqa: A002 - Halide's names
        """The size the Func is expected to be computed at (for the autoscheduler; not a bound)."""
        self._require_defined("set_estimate")
        name = var_name(var, "set_estimate")
        if name not in self._fn.args:
            raise ScheduleError(f"{user_location()}: Func '{self._fn.name}': set_estimate({name}, ...): "
                                f"'{self._fn.name}' has no variable {name} (its variables are "
                                f"{', '.join(self._fn.args)})")
        lo, ext = _require_const_int(min, "set_estimate min"), _require_const_int(extent, "set_estimate extent")
        self._fn.placement.estimates = {**(self._fn.placement.estimates or {}), name: (lo, ext)}
        return self

    def set_estimates(self, estimates):
        """One (min, extent) per variable, in order: `output.set_estimates([(0, 1920), (0, 1080)])`."""
        self._require_defined("set_estimates")
        from .define import SCALAR_VAR

        if not estimates and tuple(self._fn.args) == (SCALAR_VAR,):  # a Func of no dimensions, as Halide's
            return self.set_estimate(SCALAR_VAR, 0, 1)
        if len(estimates) != len(self._fn.args):
            raise ScheduleError(f"{user_location()}: Func '{self._fn.name}': set_estimates takes one (min, extent) "
                                f"per variable ({', '.join(self._fn.args)}), got {len(estimates)}")
        for v, (lo, ext) in zip(self._fn.args, estimates):
            self.set_estimate(v, lo, ext)
        return self

    def bound_extent(self, var, extent):
        return self._bound(var, None, extent, "bound_extent")

    def align_bounds(self, var, modulus, remainder=0):
        """Compute a region whose min is remainder modulo `modulus` and whose extent is a multiple of it (the
        region grows; bounds inference applies it)."""
        return self._align(var, modulus, remainder, "align_bounds")

    def align_extent(self, var, modulus):
        """Compute a region whose extent is a multiple of `modulus`, from the same min."""
        return self._align(var, modulus, None, "align_extent")

    def _align(self, v, modulus, remainder, call):
        loc = user_location()
        self._require_defined(call)
        name = var_name(v, call)
        if name not in self._fn.args:
            raise ScheduleError(f"{loc}: Func '{self._fn.name}': {call}({name}, ...): '{self._fn.name}' has no "
                                f"variable {name} (its variables are {', '.join(self._fn.args)})")
        m = _require_const_int(modulus, f"{call}({name}) modulus")
        if m < 1:
            raise ScheduleError(f"{loc}: Func '{self._fn.name}': {call}({name}, {m}): the modulus must be positive")
        r = None if remainder is None else _require_const_int(remainder, f"{call}({name}) remainder") % m
        self._fn.placement.aligns[name] = (m, r)
        return self

    def _bound(self, v, lo, extent, call):
        loc = user_location()
        self._require_defined(call)
        name = var_name(v, call)
        if name not in self._fn.args:
            raise ScheduleError(
                f"{loc}: Func '{self._fn.name}': {call}({name}, ...): can't bound variable {name} because it is not "
                f"one of its dimensions ({', '.join(self._fn.args)}){did_you_mean(name, self._fn.args)}"
            )
        lo_v = None if lo is None else _require_const_int(lo, f"Func '{self._fn.name}': {call}({name}) min")
        ext_v = _require_const_int(extent, f"Func '{self._fn.name}': {call}({name}) extent")
        if ext_v < 1:
            raise ScheduleError(f"{loc}: Func '{self._fn.name}': {call}({name}, ..., {ext_v}): "
                                "the extent must be positive")
        _covered(self._fn.name, name, self._fn.placement.bounds.get(name), lo_v, ext_v, loc)
        self._fn.placement.bounds[name] = (lo_v, ext_v, loc)
        return self

    def reorder_storage(self, *vars_):
        loc = user_location()
        names = [var_name(v, "reorder_storage") for v in vars_]
        self._require_defined("reorder_storage")
        if sorted(names) != sorted(self._fn.args):
            raise ScheduleError(
                f"{loc}: Func '{self._fn.name}': reorder_storage({', '.join(names)}) must list each of its "
                f"dimensions ({', '.join(self._fn.args)}) once"
            )
        self._fn.placement.storage_order = tuple(names)
        return self

    def store_in(self, memory_type: MemoryType):
        if not isinstance(memory_type, MemoryType):
            raise HalideError(f"{user_location()}: Func '{self._fn.name}': store_in takes an hl.MemoryType, got "
                              f"{memory_type!r}; e.g. {self._fn.name}.store_in(hl.MemoryType.ROM)")
        self._fn.placement.memory_type = (memory_type, user_location())
        return self

    # hardware boundaries (seed 002)
    def hw_accelerate(self, compute_var, store_var):
        loc = user_location()
        self._fn.placement.hw_accelerate = (
            var_name(compute_var, "hw_accelerate"), var_name(store_var, "hw_accelerate"), loc)
        return self

    def accelerate(self, inputs, compute_var, store_var, taps=None):
        """The CoreIR branch's spelling (Halide-HLS): hw_accelerate(compute_var, store_var), with each Func of
        `inputs` streamed in (stream_to_accelerator); `taps` (constant inputs) are not supported."""
        from .func import Func

        if taps:
            raise ScheduleError(f"{user_location()}: {self._fn.name}.accelerate(..., taps): taps (constant inputs "
                                "of Halide-HLS) are not supported; compute them as constant Funcs (tables)")
        for f in inputs:
            if not isinstance(f, Func):
                raise ScheduleError(
                    f"{user_location()}: {self._fn.name}.accelerate(inputs, ...): the inputs are the Funcs the "
                    f"accelerator streams in (e.g. a copy hw_input(x, y) = input(x, y)), not {type(f).__name__}")
            f.stream_to_accelerator()
        return self.hw_accelerate(compute_var, store_var)

    def linebuffer(self):
        """Halide-HLS's line buffer: this Func is computed at the accelerator's store loop (compute_at there),
        unless the schedule computes it somewhere else."""
        self._fn.placement.linebuffer = user_location()
        return self

    def stream_to_accelerator(self, levels=None, loop_levels=None):
        if levels is not None or loop_levels is not None:  # the reference system's streams over named levels
            raise refuse_declarative(self._fn.name, "stream_to_accelerator(levels, loop_levels)")
        self._fn.placement.accelerator_input = user_location()
        return self

    def accelerator_input(self):
        self._fn.placement.accelerator_input = user_location()
        return self

    def accelerator_output(self):
        self._fn.placement.accelerator_output = user_location()
        return self


def _covered(fname: str, var: str, first, lo: int | None, extent: int, loc: SourceLoc) -> None:
    """Halide 21 keeps every bound of a dimension: the last gives the region, which each earlier one must cover
    (`bound(x, 0, 8).bound(x, 0, 4)` computes 4; `bound(x, 0, 4).bound(x, 0, 8)` fails when the pipeline runs)."""
    if first is None:
        return
    lo0, ext0, loc0 = first
    # a bound_extent's min is the region's own: then the extents alone tell
    covers = extent <= ext0 if lo0 is None or lo is None else lo0 <= lo and lo + extent <= lo0 + ext0
    if not covers:
        given = f"from {lo0} to {lo0 + ext0 - 1}" if lo0 is not None else f"{ext0} wide"
        wanted = f"from {lo} to {lo + extent - 1}" if lo is not None else f"{extent} wide"
        raise ScheduleError(
            f"{loc}: Bounds given for {fname} in {var} ({given}, at {loc0}) do not cover required region ({wanted}): "
            f"Halide keeps both bounds and fails when the pipeline runs; give {fname} one bound in {var}")


def _loop_level_args(f, var, rvar, loop_level, call: str, owner: str) -> tuple:
    """The (f, var) or (loop_level, None) a compute_at / store_at call gives, however its arguments are passed."""
    given = [a for a in (var, rvar) if a is not None]
    if (loop_level is not None and (f is not None or given)) or len(given) > 1:
        raise ScheduleError(f"{user_location()}: Func '{owner}': {call} takes a Func and one of its loop variables "
                            f"(var= or rvar=), or loop_level= alone, e.g. {owner}.{call}(consumer, xo)")
    return (loop_level, None) if loop_level is not None else (f, given[0] if given else None)


def _loop_level(f, v, call: str, loc: SourceLoc, owner: str) -> LoopLevel:
    from .func import Func

    if isinstance(f, LoopLevel) and v is None:  # compute_at(hl.LoopLevel(consumer, xo)), as in Halide
        return LoopLevel(f.kind, f.func, f.var, loc)
    if not isinstance(f, Func) or v is None:
        raise HalideError(f"{loc}: Func '{owner}': {call} takes a Func and one of its loop variables, got "
                          f"{type(f).__name__} first, e.g. {owner}.{call}(consumer, xo)")
    name = var_name(v, call)
    return LoopLevel("at", f._fn, name, loc)
