"""Halide schedule calls that choose how a CPU or GPU runs a Func, never its values, nor what the accelerator
builds: accepted and ignored on the accelerator, so that a schedule Halide accepts compiles. Code written for a
CPU first (camera_pipeline's `prefetch` and `fold_storage`, an `async_()` left in) keeps working.

`align_bounds` and `align_extent` change what is computed (the region grows), so they are not here: bounds
inference applies them (func.py, bounds.py). GPU and Hexagon schedules name a device the target does not have,
and are refused as Halide refuses them for a target without one.
"""

from __future__ import annotations

from .errors import ScheduleError, user_location
from .schedule import StageScheduling


class HostDirectives(StageScheduling):
    """The calls a Stage (an update) and a Func share."""

    def compute_with(self, f, var, align=None):
        """Halide fuses this stage's loops with f's at var: the same values, computed in one loop nest. Hardware
        runs every op in its own loops, scheduled together by the memory analysis."""
        return self

    def prefetch(self, f, at, from_, offset=1, strategy=None):
        """A CPU's prefetch of f's values into its cache: the accelerator's memories are its caches."""
        return self

    def allow_race_conditions(self):
        return self

    def atomic(self, override_associativity_test=False):
        return self

    def partition(self, var, policy):
        """Halide 17+'s loop partitioning (a CPU's steady-state loop apart from its edges): the accelerator's
        controllers run every iteration alike."""
        return self

    def always_partition(self, *loop_vars):
        return self

    def never_partition(self, *loop_vars):
        return self

    def always_partition_all(self):
        return self

    def never_partition_all(self):
        return self

    def specialize(self, condition):
        """Halide's second version of this stage's loops for when `condition` holds (frontend/specialize.py: the
        accelerator is built with the generic schedule, which computes the same values)."""
        from .specialize import specialize

        return specialize(self, condition)

    def specialize_fail(self, message) -> None:
        """The generic version must never run: `message` fails the pipeline when no specialization holds."""
        from .specialize import specialize_fail

        specialize_fail(self, message)

    def _specialize_state(self):  # pragma: no cover
        raise AssertionError("subclass must override _specialize_state")

    def _function(self):  # pragma: no cover
        raise AssertionError("subclass must override _function")

    def _device(self, call: str):
        raise ScheduleError(
            f"{user_location()}: In schedule for {self._owner_name()}: {call} is for a GPU or Hexagon device, "
            "which the target (a CGRA) does not have (Halide refuses it for a target without one too); remove the "
            "call, or schedule the Func for the accelerator (compute_at inside its hw_accelerate loop)"
        )

    def gpu_threads(self, *args, **kw):
        return self._device("gpu_threads")

    def gpu_blocks(self, *args, **kw):
        return self._device("gpu_blocks")

    def gpu_tile(self, *args, **kw):
        return self._device("gpu_tile")

    def gpu_single_thread(self, *args, **kw):
        return self._device("gpu_single_thread")

    def gpu_lanes(self, *args, **kw):
        return self._device("gpu_lanes")

    def gpu(self, *args, **kw):
        return self._device("gpu")

    def hexagon(self, *args, **kw):
        return self._device("hexagon")

    def copy_to_host(self):
        """Halide accepts it on a CPU target for a Func that copies another (e.g. `f.in_().copy_to_host()`): the
        copy runs as scheduled, here as on a CPU; anything else Halide refuses, and so do we."""
        fn = getattr(self, "_fn", None)
        if fn is None or not _is_copy(fn):
            what = "it is an update stage" if fn is None else (
                "it has no definition yet" if not fn.definitions else
                f"its value is not a single call to another Func at ({', '.join(fn.args)})")
            raise ScheduleError(
                f"{user_location()}: In schedule for {self._owner_name()}: copy_to_host marks a Func that copies "
                f"another (Halide: 'Expected a single call to another Func with matching dimensionality and "
                f"argument order'), but {what}; call it on a copy, e.g. {self._owner_name()}.in_().copy_to_host(), "
                f"or remove it (on this target every Func's values are where its schedule puts them)")
        return self

    def copy_to_device(self, *args, **kw):
        return self._device("copy_to_device")


class FuncHostDirectives(HostDirectives):
    """The Func-level ones: how a CPU stores, caches, overlaps and traces a Func."""

    def compute_with(self, f, var, align=None):
        """Halide fuses this Func's loops with f's down to var: recorded, since a Func computed at f's loop then
        encloses this one's reads as well (pipeline.py), and outputs fused so share one accelerator
        (fuse_outputs.py)."""
        from .vars import var_name

        fn = getattr(f, "_fn", None)
        if fn is not None:
            self._fn.placement.compute_with = (fn, var_name(var, "compute_with"), user_location())
        return self

    def async_(self):
        return self

    def memoize(self, eviction_key=None):
        return self

    def fold_storage(self, dim, extent, fold_forward=True):
        """A CPU's circular buffer over dim: the accelerator's memories size every buffer to its live values."""
        return self

    def hoist_storage(self, *args):
        """Halide 17+: allocate the Func's storage at an outer loop (a CPU's allocation hoisted out of a loop).
        The accelerator sizes each buffer to its live values wherever it is allocated."""
        return self

    def hoist_storage_root(self):
        return self

    def ring_buffer(self, extent):
        """Halide 18+: a CPU's ring of `extent` copies of storage for async producers; the accelerator's
        buffers already overlap producer and consumer."""
        return self

    def add_trace_tag(self, trace_tag):
        return self

    def debug_to_file(self, filename):
        return self

    def align_storage(self, dim, alignment):
        return self

    def bound_storage(self, dim, bound):
        return self

    def trace_loads(self):
        return self

    def trace_stores(self):
        return self

    def trace_realizations(self):
        return self


def _is_copy(fn) -> bool:
    """fn's one definition is a call to another Func or an image at fn's own Vars, in order."""
    from . import ir

    if len(fn.definitions) != 1:
        return False
    v = fn.definitions[0].value
    return isinstance(v, ir.Call) and v.callee is not fn and bool(v.args) and len(v.args) == len(fn.args) and all(
        isinstance(a, ir.Var) and a.name == n for a, n in zip(v.args, fn.args))
