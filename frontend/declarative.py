"""The reference system's experimental declarative schedule (gaussian_generator.cpp's schedules 9 to 12):
`IterLevel`, `iteration_order`, `get_looplevel`, `get_memory_level`, `create_memories`, `output_rate`, and
`stream_to_accelerator` over named levels. Halide has none of these, and that branch's meaning of them is not
published beside the generators; mainspring refuses them with the Halide spelling of the same three levels (CGRA
tiles inside GLB tiles inside host tiles), as the same generator's schedule 3 writes them."""

from __future__ import annotations

from .errors import ScheduleError, user_location


class IterLevel:
    """A named level of an `iteration_order`: its loops and their extents (`[(x, 62), (y, 196)]` or a dict)."""

    def __init__(self, name: str, loops) -> None:
        self.name = name
        self.loops = list(loops.items()) if isinstance(loops, dict) else list(loops)


def refuse_declarative(func: str, call: str, tile: tuple[int, int] | None = None) -> ScheduleError:
    w, h = tile or ("W", "H")
    return ScheduleError(
        f"{user_location()}: Func '{func}': {call} is the reference system's experimental declarative schedule "
        f"(IterLevel, iteration_order, get_looplevel, get_memory_level, create_memories, output_rate), which "
        f"Halide does not have and mainspring does not support; spell its levels with Halide's calls, as "
        f"gaussian_generator.cpp's schedule 3 does (its names: hw_output, hw_input): the host tiles "
        f"output.bound(x, 0, ...).bound(y, 0, ...) over all of them; the GLB level "
        f"hw_output.in_().compute_root().tile(x, y, xo, yo, "
        f"xi, yi, {w}, {h}).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB); the CGRA level "
        f"hw_output.compute_at(hw_output.in_(), xo), and each buffered Func (create_memories) "
        f".compute_at(hw_output.in_(), xo); the input's levels hw_input.in_().compute_at(hw_output.in_(), xo)"
        f".store_in(hl.MemoryType.GLB) and hw_input.compute_root().accelerator_input(); an output_rate of n: "
        f"unroll(xi, n, hl.TailStrategy.RoundUp) on hw_output.in_() (and unroll(x, n, ...) on the Funcs inside)")


class DeclarativeSchedule:
    """The calls on a Func; each raises `refuse_declarative`."""

    def iteration_order(self, levels):
        cgra = next((lv for lv in levels if isinstance(lv, IterLevel) and lv.name == "CGRA"), None)
        extents = [e for _, e in cgra.loops] if cgra is not None else []
        tile = (int(extents[0]), int(extents[1])) if len(extents) == 2 else None
        raise refuse_declarative(self.name(), "iteration_order", tile)

    def get_looplevel(self, level, var):
        raise refuse_declarative(self.name(), "get_looplevel")

    def get_memory_level(self, level):
        raise refuse_declarative(self.name(), "get_memory_level")

    def create_memories(self, funcs, *level):
        raise refuse_declarative(self.name(), "create_memories")

    def output_rate(self, *rate):
        raise refuse_declarative(self.name(), "output_rate")
