"""Whether an algorithm already has a schedule: Halide's autoschedulers schedule one written without any."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import ScheduleError, user_location
from .func import Function

if TYPE_CHECKING:
    from .pipeline import Pipeline


def _first_schedule_call(fn: Function) -> tuple[str, object] | None:
    """(the call, its location) of a schedule call that places fn or shapes its loops, if any (bound and
    set_estimates are facts about the algorithm's size, not a schedule)."""
    p = fn.placement
    for level, call in ((p.compute, "compute_at"), (p.store, "store_at")):
        if level is not None and level.kind != "inline":
            return ("compute_root" if call == "compute_at" else "store_root") if level.kind == "root" else call, \
                level.loc
    for loc, call in ((p.hw_accelerate and p.hw_accelerate[2], "hw_accelerate"),
                      (p.accelerator_input, "stream_to_accelerator"), (p.accelerator_output, "accelerator_output"),
                      (p.memory_type and p.memory_type[1], "store_in"), (p.linebuffer, "linebuffer")):
        if loc:
            return call, loc
    for d in fn.definitions:
        for dv in d.schedule.directives:
            return getattr(dv, "kind", type(dv).__name__.lower()), dv.loc
    return None


def refuse_scheduled(pipe: Pipeline) -> None:
    """Halide's autoschedulers schedule an algorithm written without a schedule, and refuse a scheduled Func."""
    for fn in pipe.order:
        found = _first_schedule_call(fn)
        if found is not None:
            call, loc = found
            raise ScheduleError(
                f"{user_location()}: apply_autoscheduler: Func '{fn.name}' already has a schedule ({call} at {loc}), "
                "and the autoscheduler schedules an algorithm written without one (Halide refuses a scheduled Func "
                f"too); remove the schedule calls of '{fn.name}' and of the other Funcs (keep bound and "
                "set_estimates), or compile the hand schedule without apply_autoscheduler")
