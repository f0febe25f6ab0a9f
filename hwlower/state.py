"""The state hwlower's passes hand to each other, from the scheduled pipeline to the hardware program.

Each pass (`hwlower.lower.PASSES`) fills in its fields and returns a new state; the frontend objects live only
here, inside hwlower, and the last pass resolves them into the self-contained `HwProgram`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the passes import this module; it needs their types only for annotations
    from mainspring.frontend.bounds import Box
    from mainspring.frontend.func import Definition, Function
    from mainspring.frontend.pipeline import Pipeline

    from .ir import Loop, LoopNest, Op
    from .lanes import Lanes
    from .program import HwProgram, Tile
    from .region import Region
    from .tables import Table


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
    # infer_bounds: id(Function) -> {dimension: d}, the extents rounded up to whole upsample steps (steps.py)
    multiples: dict[int, dict[int, int]] = field(default_factory=dict)
    # infer_bounds: id(Function) -> {dimension: period}, the steps tiles keep the phase of (steps.phase_periods)
    phases: dict[int, dict[int, int]] = field(default_factory=dict)
    tiles: tuple[Tile, ...] = ()  # tile_invocations: host invocations (GLB tiles with a GLB level)
    glb: GlbTiles | None = None  # tile_invocations
    tables: dict[int, Table] = field(default_factory=dict)  # evaluate_tables: id(Function) -> its table
    definitions: dict[int, list[Definition]] = field(default_factory=dict)  # inline_funcs: id(Function) -> inlined
    # scatter_writes: id(Function) -> initial value (one constant, or every word's, x fastest), RAM Funcs
    rams: dict[int, int | tuple[int, ...]] = field(default_factory=dict)
    # replicate_edges: stream -> {dimension: (first, sources)}: its word at coordinate first + i carries the value
    # at sources[i] (the extended image; the value at the coordinate itself outside)
    edge_maps: dict[str, dict[int, tuple[int, tuple[int, ...]]]] = field(default_factory=dict)
    # replicate_edges: a second stream of an accelerator input (for reads whose extensions differ) -> the input
    stream_sources: dict[str, str] = field(default_factory=dict)
    nest: LoopNest | None = None  # build_ops, then assign_lanes (stream lanes)
    op_lanes: dict[str, Lanes] = field(default_factory=dict)  # build_ops: each op's lanes as the schedule says
    # order_streams: accelerator input -> the Func dimension of each stream dimension, fastest first (where
    # it streams otherwise than in its storage order; the input buffer's dimensions are permuted to match)
    stream_orders: dict[str, tuple[int, ...]] = field(default_factory=dict)
    readback: tuple[tuple[Loop, ...], Op] | None = None  # build_ops: the GLB output's copy, loops outermost first
    program: HwProgram | None = None  # make_program
    notes: tuple[str, ...] = ()  # build_ops: schedule calls the hardware runs otherwise, for the design's report

    # The fields a pass fills, for the passes after it (each pass runs after those it reads: PASSES's order).

    @property
    def found_region(self) -> Region:
        """`region`, which the `region` pass fills."""
        assert self.region is not None, "Lowering.region is read before the `region` pass"
        return self.region

    @property
    def bounded_output(self) -> Box:
        """`output_box`, which the `bounds` pass fills."""
        assert self.output_box is not None, "Lowering.output_box is read before the `bounds` pass"
        return self.output_box

    @property
    def built_nest(self) -> LoopNest:
        """`nest`, which the `ops` pass builds (and `lanes` updates)."""
        assert self.nest is not None, "Lowering.nest is read before the `ops` pass"
        return self.nest

    @property
    def made_program(self) -> HwProgram:
        """`program`, which the last pass (`lower`) makes."""
        assert self.program is not None, "Lowering.program is read before the `lower` pass"
        return self.program

    @property
    def tile(self) -> Tile:
        """The invocation the array is built for: the first tile (the first memory tile of a GLB tile)."""
        return self.glb.mem_tiles[0] if self.glb is not None else self.tiles[0]

    def defs(self, f: Function) -> list[Definition]:
        return self.definitions[id(f)]
