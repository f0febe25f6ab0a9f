"""The loop-nest IR of the accelerated region: what `hwlower` hands to `memories` and `compute_json`.

Semantics:
- A `LoopNest` is a tree of `Loop`s (outermost first) whose leaves are `Op`s, executed in program order
  (sequential semantics: children in order, loop iterations in increasing order of the loop variable).
- Loop bounds are constants: `var` runs over `min .. min + extent - 1`. An `unrolled` loop is duplicated
  compute in hardware (all its iterations in one cycle); it still has the same sequential meaning.
- Each `Op` stores one value into one element of a `Buffer` and loads elements of buffers; every index is an
  affine function of the enclosing loop variables (`Affine`). Coordinates are in Halide's order (x first).
- `Op.value` is an expression of the frontend IR (`mainspring.frontend.ir`) whose leaves are constants, scalar
  Params (`ir.Call` with no args and a `Parameter` callee), the op's loads (`ir.Call` whose callee is a
  `LoadPort` of this op, with no args) and its coordinates (`ir.Call` of a `CoordPort`: an affine function of
  its loops). Its type is the stored buffer's type.
- A RAM buffer (`Buffer.init` set) is updated at computed coordinates by one op (`Op.scatter`), one element
  per firing, read-modify-write in the order of its loops; its other readers load it at affine indices after
  its last update. It holds the whole box, every element `init` until updated.
- Buffers named in `LoopNest.inputs` are written by the host (streamed in, in the order of their box:
  x fastest); `LoopNest.output` is streamed out in the order its Op stores it.
- Streams carry `lanes` words per transfer (per cycle at full rate), lane 0 first: `LoopNest.lanes` gives each
  stream's lanes as `(buffer, k)` pairs, for every input and the output (`stream_lanes(buffer)`, 1 when absent).
  An input of k lanes streams k consecutive words of its box per transfer in the same word order (x fastest),
  so its box's x extent is a multiple of k (with a RoundUp tail, bounds inference rounds the box up: the host
  computes and streams the extra words, which feed only the discarded tail lanes). An input whose lanes run along
  a later dimension d (`LoopNest.lane_dims`, `hw_input.unroll(y, 2)`) streams k consecutive values of d per
  transfer, the box otherwise in the same order: transfer t holds d = k * t_d + lane; with x unrolled too
  (`LoopNest.block_words`, `hw_input.unroll(x, 2).unroll(y, 2)`) each of those carries m consecutive words of x, a
  k x m block per transfer (x = m * t_x + x lane), x fastest in it. The output's lanes are its
  op's lanes (the iterations of its unrolled loops, which must be its
  innermost loops): one firing streams one transfer, lanes in the order of the unrolled loops (the last
  fastest), so the word order is the order of its loops as before (`output_order`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mainspring.frontend.identifiers import verilog_identifier
from mainspring.frontend.ir import Expr
from mainspring.frontend.types import Type

if TYPE_CHECKING:  # numpy is imported where the orders are computed
    import numpy as np


@dataclass(frozen=True, slots=True)
class Affine:
    """sum(coeff * loop_var) + const."""

    terms: tuple[tuple[str, int], ...]  # (loop var name, coefficient), sorted by name, no zero coefficients
    const: int

    @staticmethod
    def make(terms: dict[str, int], const: int) -> Affine:
        return Affine(tuple(sorted((v, c) for v, c in terms.items() if c != 0)), int(const))

    def evaluate(self, env: dict[str, int]) -> int:
        return self.const + sum(c * env[v] for v, c in self.terms)

    def __str__(self) -> str:
        parts = [(f"{v}" if c == 1 else f"{c}*{v}") for v, c in self.terms]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts).replace("+ -", "- ")


@dataclass(frozen=True, slots=True)
class Buffer:
    name: str
    type: Type
    box: tuple[tuple[int, int], ...]  # (min, extent) per dimension, x first
    # A RAM (a Func updated at computed coordinates, held whole in memory tiles; see `Op.scatter`): the value
    # of every element before its first update (one constant, or each element's, x fastest). None for every
    # other buffer.
    init: RamInit | None = None
    copy_of: str | None = None  # a RAM copy hwlower/ram_copies.py made: the user's Func it holds (for messages)


RamInit = int | tuple[int, ...]  # a RAM's initial value: one constant, or each element's (x fastest)


def init_interval(init: RamInit) -> tuple[int, int]:
    """The interval of a RAM's initial values."""
    return (init, init) if isinstance(init, int) else (min(init), max(init))


@dataclass(frozen=True, slots=True)
class Access:
    buffer: str
    index: tuple[Affine, ...]
    # A load whose value is used only where lo <= e <= hi for every (e, lo, hi) (a boundary condition's tap,
    # hwlower/edge_taps.py); elsewhere it may read outside the buffer's box.
    guard: tuple[tuple[Affine, int, int], ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class LoadPort:
    """A load of an Op, used as the callee of an argument-less `ir.Call` inside `Op.value`."""

    name: str  # unique within the op, e.g. "hw_input_0"
    access: Access


@dataclass(frozen=True, slots=True, eq=False)
class Rom:
    """A constant table read at computed coordinates (a ROM): the callee of an `ir.Call` inside `Op.value`
    whose args are the coordinates (expressions of the op's loads and coordinates)."""

    name: str  # the table's Func
    values: tuple[int, ...]  # x fastest over `box`
    box: tuple[tuple[int, int], ...]  # (min, extent) per dimension, x first


@dataclass(frozen=True, slots=True, eq=False)
class CoordPort:
    """A coordinate used as a value (`select(x < 2, ...)`, a weight `r.x + 1`), as the callee of an argument-less
    `ir.Call` of type Int(32) inside `Op.value`: the affine function `value` of the op's loops (unrolled ones
    included), which the hardware counts alongside the op's firings."""

    name: str  # unique within the op, e.g. "coord_x"
    value: Affine
    reduction: bool = False  # an RVar's (the same in every tile), not a pure variable's
    var: str = ""  # the Var or RVar it counts, as the definition names it
    # With host tiles: per accelerator invocation, in order, what the coordinate adds to the first tile's value
    # (the hardware counts tiles; tile_coordinates.py). Empty: the same in every tile.
    tile_offsets: tuple[int, ...] = ()
    # A coordinate constant in each lane (it moves only with unrolled loops) may be read through a function of
    # it, written over `ir.Var(Int(32), var)`: the kernel reads fn's value, which the hardware holds as the lane's
    # constant (`lane_constants.py`; `value` is still the coordinate's). None: the coordinate itself.
    fn: Expr | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Op:
    name: str  # unique in the nest, e.g. "blur_unnormalized_s1"
    func: str  # the Func this op belongs to
    stage: int  # 0 for the pure definition, k for update k
    store: Access
    loads: tuple[LoadPort, ...]
    value: Expr  # of the frontend IR (see the module's notes)
    coords: tuple[CoordPort, ...] = ()  # the coordinates `value` reads
    # An update of a RAM buffer at computed coordinates (a histogram's `hist(bin(r)) += 1`): the coordinates,
    # x first, as expressions of the op's loads, coordinates and constants. `store.index` is then empty, and the
    # value reads the element it updates through a load whose index is empty too (read-modify-write).
    scatter: tuple[Expr, ...] = ()
    # A read of a RAM buffer at computed coordinates (a lookup in a table the accelerator filled: histogram
    # equalisation's `cdf(in(x, y))`): the coordinates, x first, as expressions of the op's loads, coordinates
    # and constants; the load reading it has an empty index. The RAM answers a cycle after the address, so the
    # op's value is computed a cycle after it fires.
    lookup: tuple[Expr, ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class Loop:
    var: str  # unique in the nest, e.g. "blur.s0.y"
    min: int
    extent: int
    body: tuple[Loop | Op, ...]
    unrolled: bool = False
    # "outer" / "inner": the halves of a loop an upsample strip-mined (L = d * outer + inner, inner of extent d),
    # which the scheduler steps as the digits of one dimension; "" for any other loop.
    strip: str = ""
    # Where the compiler ran the loop on past the iterations the program asks for (to whole runs of a stream's
    # words: lane_steps.py, rvar_turns.py, frontend/stream_turns.py), how many it asks for, counted over this loop
    # and the `<var>.lane` loop lane_steps.py split from it inside; 0 where it runs just those. The extra
    # iterations compute values nobody reads, so the report's ideal (mainspring/ideal.py) leaves them out. A
    # user's RoundUp is the program's own work: not recorded.
    asked: int = 0


@dataclass(frozen=True, slots=True, eq=False)
class LoopNest:
    name: str
    buffers: tuple[Buffer, ...]
    inputs: tuple[str, ...]
    output: str
    body: tuple[Loop | Op, ...]
    lanes: tuple[tuple[str, int], ...] = ()  # (stream buffer, words per transfer); absent streams have 1
    # (input stream, the box dimension its lanes run along) where it is not the first: `hw_input.unroll(y, 2)`
    # streams rows 2 * t and 2 * t + 1 side by side, a transfer per x (absent: dimension 0, x)
    lane_dims: tuple[tuple[str, int], ...] = ()
    # (such a stream, the words of x each of its lanes carries) where more than one: with x unrolled by m too, a
    # transfer is a block of k values of d by m of x (`lanes` counts k * m words)
    block_words: tuple[tuple[str, int], ...] = ()

    def stream_lanes(self, buffer: str) -> int:
        """Words per transfer of the input or output stream `buffer` (1 unless `lanes` says otherwise)."""
        return dict(self.lanes).get(buffer, 1)

    def lane_dim(self, buffer: str) -> int:
        """The box dimension the lanes of input stream `buffer` run along (0 unless `lane_dims` says otherwise)."""
        return dict(self.lane_dims).get(buffer, 0)

    def x_words(self, buffer: str) -> int:
        """Words of x per transfer of input stream `buffer` whose lanes run along a later dimension (1 unless
        `block_words` says otherwise: a block of rows by words of x)."""
        return dict(self.block_words).get(buffer, 1)

    def op_lanes(self, op_name: str) -> int:
        """How many lanes (duplicated kernels) op `op_name` has: the product of its unrolled loops' extents."""
        for loops, op in self.ops():
            if op.name == op_name:
                n = 1
                for lp in loops:
                    n *= lp.extent if lp.unrolled else 1
                return n
        raise KeyError(op_name)

    @property
    def input_lanes(self) -> int:
        """Words per transfer of the accelerator's input streams (the fewest, if they differ)."""
        return min((self.stream_lanes(b) for b in self.inputs), default=1)

    def buffer(self, name: str) -> Buffer:
        for b in self.buffers:
            if b.name == name:
                return b
        raise KeyError(name)

    def ops(self) -> list[tuple[tuple[Loop, ...], Op]]:
        """Every Op with its enclosing loops (outermost first), in program order."""
        out: list[tuple[tuple[Loop, ...], Op]] = []

        def go(nodes: Sequence[Loop | Op], loops: tuple[Loop, ...]) -> None:
            for n in nodes:
                if isinstance(n, Op):
                    out.append((loops, n))
                else:
                    go(n.body, loops + (n,))

        go(self.body, ())
        return out


def output_order(nest: LoopNest) -> np.ndarray:
    """The coordinates of the output buffer's elements in the order its op streams them (one row per word).

    The output is streamed in the firing order of the op that stores it, which follows its loops (outermost
    first); that is x fastest unless the schedule reorders the output's loops."""
    (loops, op), = [(lp, op) for lp, op in nest.ops() if op.store.buffer == nest.output]
    return store_order(loops, op)


def store_order(loops: Sequence[Loop], op: Op) -> np.ndarray:
    """The coordinates `op` stores, in the order it fires (one row per word) inside `loops`."""
    import numpy as np

    names = [lp.var for lp in loops]
    grids = np.meshgrid(*[np.arange(lp.min, lp.min + lp.extent, dtype=np.int64) for lp in loops], indexing="ij")
    points = [g.ravel() for g in grids] if loops else []
    n = points[0].size if points else 1
    cols = []
    for a in op.store.index:
        col = np.full(n, a.const, dtype=np.int64)
        for var, c in a.terms:
            col += c * points[names.index(var)]
        cols.append(col)
    return np.stack(cols, axis=1).reshape(-1, len(op.store.index))


def lookup_load_name(buffer: str) -> str:
    """The name of an op's load of RAM `buffer` at computed coordinates (`Op.lookup`): the top wires that
    load straight from the RAM's read port, the op's other loads a cycle late."""
    return verilog_identifier(buffer) + "_at"
