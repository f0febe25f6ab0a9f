"""The schedule calls a pass knows a Func has: `frontend.schedule.Placement`'s optional fields, narrowed.

A pass that reads the hw_accelerate Func's call, or the store_in call of a Func it found in the GLB, relies on
the region's checks having established that the call exists; these accessors state that (and fail loudly if a
bug broke it) instead of indexing an optional value."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mainspring.frontend.errors import SourceLoc
    from mainspring.frontend.func import Function
    from mainspring.frontend.schedule import MemoryType


def accelerate_call(f: Function) -> tuple[str, str, SourceLoc]:
    """(compute var, store var, location) of the hw_accelerate call of `f`, which the caller knows it has."""
    call = f.placement.hw_accelerate
    assert call is not None, f"Func '{f.name}' is not scheduled hw_accelerate"
    return call


def store_in_call(f: Function) -> tuple[MemoryType, SourceLoc]:
    """(memory type, location) of the store_in call of `f`, which the caller knows it has."""
    call = f.placement.memory_type
    assert call is not None, f"Func '{f.name}' has no store_in call"
    return call
