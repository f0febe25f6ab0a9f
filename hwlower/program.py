"""The hardware program: what hwlower hands to the later stages, self-contained and typed.

It holds the accelerated region's loop nest (`ir.LoopNest`), the host's invocations (tiles), what the host
streams in and reads back, the GLB level, and where each op came from in the user's program (for errors of
later stages). Every Func is named once, by its unique pipeline name; no frontend object (Pipeline, Function,
schedule) crosses this boundary. Types (`frontend.types.Type`) and op values (`frontend.ir.Expr`) are the
language's vocabulary and do cross it, as Halide's own IR carries its types and expressions through lowering.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mainspring.frontend.types import Type

from .ir import Loop, LoopNest, Op

Box = list[tuple[int, int]]  # inclusive (min, max) per dimension, x first (as bounds inference gives them)


@dataclass(frozen=True, slots=True)
class Tile:
    """One invocation: the accelerator output's box in it, and the box of every buffer it holds or streams."""

    output_box: Box
    boxes: dict[str, Box]  # by unique Func name
    # A Func whose ShiftInwards tails round up inside the accelerator (shift_tails.py): the box its consumers
    # read, which its loads are guarded to (`boxes` holds the rounded box it is realised over)
    demands: dict[str, Box] = field(default_factory=dict)
    # The box the accelerator output's loops run over where it is larger than the tile, which a tile grown to the
    # first tile's phase computes (tiling.py, `_at_first_phase`); None: `output_box`
    loop_box: Box | None = None
    # Where `loop_box` rounds the output's loops up to whole transfers of a stream it reads in turn
    # (shift_tails.turned_tile), the box they ran over before: the program asks for those iterations (`Loop.asked`)
    asked_box: Box | None = None


@dataclass(frozen=True, slots=True)
class HostStream:
    """What the host writes into the accelerator per invocation: the stream (or the GLB input tile) `buffer`,
    carrying the values of Func `source` (the same Func without a GLB; the accelerator input a GLB input
    copies with one)."""

    buffer: str
    source: str
    type: Type
    lanes: int  # words per transfer
    image_box: Box  # `buffer`'s box over the whole output: what streaming each word once would take
    # Dimensions the stream extends (boundary conditions inside the accelerator), by dimension index: (first,
    # sources), the word at coordinate first + i is the source's value at sources[i] (a repeated or mirrored edge
    # word); at other coordinates, the value at the coordinate itself.
    edges: dict[int, tuple[int, tuple[int, ...]]] = field(default_factory=dict)
    # The top's stream port the host writes: `buffer` (with a GLB, `source`, whose tiles the GLB holds). Two
    # streams of one input (reads whose boundary conditions differ) have two ports.
    port: str = ""
    # The Func dimension of each stream dimension, fastest first (stream_order.py); () for storage order.
    order: tuple[int, ...] = ()
    # The stream dimension its lanes run along (LoopNest.lane_dims): 0, x, unless `hw_input.unroll(y, 2)`.
    lane_dim: int = 0
    # With lanes along a later dimension, the words of x each lane carries (LoopNest.block_words): a block per
    # transfer, x fastest in it (`hw_input.unroll(x, 2).unroll(y, 2)`).
    x_words: int = 1


@dataclass(frozen=True, slots=True)
class GlbProgram:
    """The GLB level: the array runs once per memory tile of each GLB tile (`HwProgram.tiles`)."""

    output: str  # the GLB output buffer (the hw_accelerate Func, a copy of the array's output)
    output_type: Type
    who: str  # "Func 'name'": the GLB output as the user names it, for errors
    inputs: tuple[str, ...]  # the GLB input buffers
    sources: tuple[str, ...]  # the accelerator input each GLB input copies (what the host computes)
    mem_tiles: tuple[Tile, ...]  # the array's invocations in the first GLB tile, in loop order
    readback: Op  # the GLB output's copy op over one GLB tile: the order the host reads it back
    readback_loops: tuple[Loop, ...]
    host_loops: tuple[tuple[str, int], ...]  # the host's loops over GLB tiles, outermost first, with trip counts
    mem_loops: tuple[tuple[str, int], ...]  # the array output's loops over memory tiles in one GLB tile

    @property
    def mem_grid(self) -> tuple[int, ...]:
        """Memory tiles per memory-tile loop, innermost first."""
        return tuple(n for _, n in reversed(self.mem_loops))


@dataclass(frozen=True, slots=True)
class HwProgram:
    nest: LoopNest  # the array, built for the first tile (`tiles[0]`, or the first GLB tile's first memory tile)
    tiles: tuple[Tile, ...]  # host invocations (GLB tiles with a GLB level), in order
    output_box: Box  # the pipeline output's box
    inputs: tuple[HostStream, ...]  # what the host writes per invocation, in the nest's input order
    output: str  # the Func the host reads back (the hw_accelerate Func)
    output_type: Type
    array_output: str  # the Func the array streams out (`nest.output`; the GLB output copies it)
    host_after: tuple[str, ...]  # host Funcs computed from the accelerator's output, producers first
    host_boxes: dict[str, Box]  # the boxes of `host_after`'s Funcs over the whole output
    where: dict[str, str]  # op name, and the accelerator as "", -> "file:line: Func 'name'" of its definition
    scalars: tuple[str, ...] = ()  # the scalar Params the accelerator reads (its configuration inputs), sorted
    glb: GlbProgram | None = None
    notes: tuple[str, ...] = ()  # schedule calls the hardware runs otherwise (the design's report says so)

    @property
    def output_lanes(self) -> int:
        """Words per transfer of the stream the host reads back."""
        return self.nest.stream_lanes(self.nest.output)

    def located(self, op_or_buffer: str | None) -> str:
        """Where the user defined an op (or the Func of a buffer); the hw_accelerate call otherwise."""
        if op_or_buffer in self.where:
            return self.where[op_or_buffer]
        ops = [op.name for _, op in self.nest.ops() if op.func == op_or_buffer]
        return self.where[ops[0]] if ops else self.where[""]
