"""The two kinds of failure of the memories stage.

`MemoryCheckError` is our bug (or a tampered plan): the checker found a schedule or mapping that would compute a
wrong value; it is an AssertionError, as Halide's `internal_assert`. `MemoryMappingError` is a loop nest this
stage cannot implement on the target (a ScheduleError, so the user sees it as a schedule to change).
"""

from __future__ import annotations

from mainspring.frontend.errors import ScheduleError


class MemoryCheckError(AssertionError):
    """The final schedule or mapping violates a dependence, a capacity or a port limit."""


class MemoryMappingError(ScheduleError):
    """The loop nest needs a buffer organisation this stage does not implement on the target. `subject` is the
    op or buffer it concerns, when one is known, so that the compiler can point at the user's definition."""

    def __init__(self, message: str, subject: str | None = None):
        super().__init__(message)
        self.subject = subject


class OverCapacity(Exception):
    """The buffers need more memory tiles than the target has, by a lower bound counted before their exact
    capacities (capacity_bound.py): the compiler refuses the design as it refuses one whose report is too large."""

    def __init__(self, tiles: int, buffer: str, values: int):
        super().__init__(f"at least {tiles} memory tiles ('{buffer}' holds at least {values} values at once)")
        self.tiles, self.buffer, self.values = tiles, buffer, values
