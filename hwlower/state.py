"""The state hwlower's passes hand to each other, from the scheduled pipeline to the hardware program.

Each pass (`hwlower.lower.PASSES`) fills in its fields and returns a new state; the frontend objects live only
here, inside hwlower, and the last pass resolves them into the self-contained `HwProgram`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the passes import this module; it needs their types only for annotations
    from mainspring.frontend.bounds import Box
    from mainspring.frontend.func import Definition
    from mainspring.frontend.pipeline import Pipeline

    from .ir import Loop, LoopNest, Op
    from .lanes import Lanes
    from .program import HwProgram, Tile
    from .region import Region


@dataclass(frozen=True, slots=True)
class GlbTiles:
    """The GLB level's invocations and loops (the region's `glb` says which Funcs form it)."""

    mem_tiles: tuple[Tile, ...]  # the array's invocations in the first GLB tile, in loop order
    host_loops: tuple[tuple[str, int], ...]  # the host's loops over GLB tiles, outermost first, with trip counts
    mem_loops: tuple[tuple[str, int], ...]  # the array output's loops over memory tiles in one GLB tile


@dataclass(frozen=True, slots=True)
class Lowering:
    pipe: Pipeline
    name: str
    region: Region | None = None  # find_region
    output_box: Box | None = None  # infer_bounds: the pipeline output's box
    boxes: dict[str, Box] = field(default_factory=dict)  # infer_bounds: every Func's box over the whole output
    required: dict[str, Box] = field(default_factory=dict)  # infer_bounds: what consumers read, before RoundUp
    tiles: tuple[Tile, ...] = ()  # tile_invocations: host invocations (GLB tiles with a GLB level)
    glb: GlbTiles | None = None  # tile_invocations
    tables: dict = field(default_factory=dict)  # evaluate_tables: id(Function) -> tables.Table
    definitions: dict = field(default_factory=dict)  # inline_funcs: id(Function) -> [Definition], inlined
    nest: LoopNest | None = None  # build_ops, then assign_lanes (stream lanes)
    op_lanes: dict[str, Lanes] = field(default_factory=dict)  # build_ops: each op's lanes as the schedule says
    readback: tuple[tuple[Loop, ...], Op] | None = None  # build_ops: the GLB output's copy, loops outermost first
    program: HwProgram | None = None  # make_program

    @property
    def tile(self) -> Tile:
        """The invocation the array is built for: the first tile (the first memory tile of a GLB tile)."""
        return self.glb.mem_tiles[0] if self.glb is not None else self.tiles[0]

    def defs(self, f) -> list[Definition]:
        return self.definitions[id(f)]
