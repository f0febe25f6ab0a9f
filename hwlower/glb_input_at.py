"""Where the accelerator's input and its GLB copy may be computed in seed 002's three levels.

The accelerator input (`accelerator_input()` / `stream_to_accelerator()`) is computed on the host and loaded into
the GLB a GLB tile at a time, so, as for a one-level accelerator (region.py `_check_streamed`), the loop it is
computed at changes nothing: users write seed 002's schedule with it computed inside the GLB tile,

    hw_input.in_().compute_at(hw_output.in_(), xo).store_in(GLB)       # the GLB input tile
    hw_input.compute_at(hw_output.in_(), xo).accelerator_input()       # the host computes it per GLB tile

or, with no copy, store the input itself in the GLB at the GLB tile loop
(`hw_input.compute_at(hw_output.in_(), xo).store_in(GLB).accelerator_input()`): it is then its own GLB input
tile, as an accelerator input with no GLB copy is (hierarchy.py). Both compiled to internal refusals before
session 38 (a memory-tile buffer outside the array; a GLB buffer that copies nothing).

The GLB copy itself holds one GLB tile, loaded once per GLB tile: at the root (the whole image) or at a host loop
outside the GLB tile (a row of GLB tiles) Halide would keep more than a tile in the GLB, which the GLB's
double-buffered tile buffers cannot; that is refused with the compute_at that loads it per GLB tile.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Function, user_handle
from mainspring.frontend.schedule import LoopLevel, MemoryType

from .placement import store_in_call


def on_host(f: Function) -> bool:
    """Whether f is an accelerator input, computed on the host wherever its schedule computes it."""
    return f.placement.accelerator_input is not None


def own_glb_tile(f: Function) -> bool:
    """Whether f is an accelerator input stored in the GLB itself (no copy): its own GLB input tile."""
    mt = f.placement.memory_type
    return on_host(f) and mt is not None and mt[0] is MemoryType.GLB


def inputs_at_host_loops(funcs: Iterable[Function], array: Function, glb: Function, store_var: str) -> None:
    """Where a GLB input level alone (glb_input_level.py) gives the accelerated Func `array` a GLB output copy
    `glb` with its loops, the accelerator inputs computed or stored at a host loop of `array` (its GLB tile loop
    `store_var` or outside it: `hw_input.compute_at(hw_output, xo)`) are at glb's loop of that name, which
    encloses the array's tiles as array's did (the array's own host loops now run once per GLB tile)."""
    loops = array.definitions[0].schedule.dim_names()  # innermost first
    host = set(loops[loops.index(store_var):]) if store_var in loops else set()
    def moved(level: LoopLevel) -> LoopLevel:
        if level.kind == "at" and level.func is array and level.var in host:
            return LoopLevel("at", glb, level.var, level.loc)
        return level

    for f in funcs:
        if on_host(f):
            store = f.placement.store
            f.placement = dataclasses.replace(f.placement, compute=moved(f.placement.compute),
                                              store=None if store is None else moved(store))


def check_copy_level(f: Function, out: Function, store_var: str) -> None:
    """Refuse a GLB input copy `f` of the GLB output `out` (GLB tile loop `store_var`) computed elsewhere than at
    the GLB tile loop."""
    w: LoopLevel = f.placement.compute
    if w.kind == "at" and w.func is out and w.var == store_var:
        return
    fix = f"{user_handle(f)}.compute_at({user_handle(out)}, {store_var})"
    loops = out.definitions[0].schedule.dim_names()  # innermost first
    host = w.kind == "root" or (w.kind == "at" and w.func is out and w.var in loops and store_var in loops
                                and loops.index(w.var) > loops.index(store_var))
    if host:
        where = "computed at the root" if w.kind == "root" else f"{w}, a host loop outside the GLB tile"
        held = "the whole image" if w.kind == "root" else f"the GLB tiles of each iteration of {w.var}"
        raise ScheduleError(
            f"{w.loc or store_in_call(f)[1]}: Func '{f.name}' is stored in the GLB but {where}, so the GLB would "
            f"hold {held} at once; the GLB holds one GLB tile of each input (double-buffered), loaded by the host "
            f"once per GLB tile: {fix}")
    raise ScheduleError(
        f"{w.loc or store_in_call(f)[1]}: Func '{f.name}' is stored in the GLB but is {w}; a GLB "
        f"input tile is loaded once per GLB tile: {fix}")
