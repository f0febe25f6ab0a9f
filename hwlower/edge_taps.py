"""Boundary conditions on Funcs computed inside the accelerator: a read at a clamped or reflected index becomes a
choice among affine taps, by coordinate.

`repeat_edge(blur)(x - 1, y)` reads `blur(clamp(x - 1, 0, W - 1), y)`. Over the coordinates the consumer
visits, the clamped index is x - 1 + k with an offset k that is constant on runs of x (k = 1 at x = 0, 0
elsewhere). Each run reads one affine tap, `blur(x - 1 + k, y)`, and the consumer selects the run's tap by its
coordinate (`select(x - 1 <= -1, blur(x, y), blur(x - 1, y))`), as a line buffer with edge multiplexers does.
A tap is needed only on its run: elsewhere it may fall outside the Func's box (`blur(-1, y)` at x = 0), where no
value is ever written, so its load carries the run as a guard (`Guarded`): the memory analysis constrains the
read to it (the value read elsewhere is never used), and every guarded value is proved like any other.

With host tiles every tile runs the hardware built for the first one, whose loops count the first tile's
coordinates. The selection compares absolute coordinates: the hardware adds each tile's offset to the coordinates
it reads as values (tile_coordinates.py). A guard, on the other hand, is a part of the static schedule, the same
in every tile: it is the union of the tap's runs over all tiles, each moved into the first tile's coordinates
(the left edge's tap is read at x = 0 of the first tile only, the main tap everywhere). So a tap is read, in every
tile, wherever some tile needs it, and the Func it reads must hold values there in every tile: the boxes are
inferred again from the taps (`tap_over_tiles`), consumers first, and every Func they reach is realised over what
its readers reach. Halide's boxes, clamped at the image's edges, differ in shape between an edge tile and an
interior one; these move with the tiles. What a tile computes past the image is never selected (the host streams
zeros past what it computed), so a reader's runs are taken over Halide's box of it in each tile only: a position
realised only because the boxes move with the tiles chooses no tap of its own (a chain of boundary conditions
keeps the taps it has in one tile).

With a GLB level the array runs once per memory tile of each GLB tile, all on the hardware built for the first
memory tile of the first: those runs are the tiles above (`tiling.halide_invocations`, each with Halide's boxes
for its memory tile), their boxes realised over the taps' reach as the host tiles' are. The first GLB tile's
runs are its memory tiles, and each GLB tile's box of a Func realised so is the hull of its runs', so that
`tile_coordinates.array_invocations` moves them as they move here and the hardware adds each run's offset to the
coordinates that choose the taps.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from mainspring.frontend import ir
from mainspring.frontend.bounds import Box, SharedBounds, definition_env, union
from mainspring.frontend.evaluate import Evaluator
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.types import BOOL, Type

from .fold import map_definition_calls
from .program import Tile
from .shift_tails import realise, shifted_funcs
from .simplify import simplify
from .state import Lowering
from .tiling import check_same_shape, halide_invocations, no_scalars, phase_multiples, step_along

# (first, last, offset, guard first, guard last): over a in [first, last] (absolute) the index is a + offset; the
# tap is read where a, counted in the first tile's coordinates, lies in [guard first, guard last]
Run = tuple[int, int, int, int, int]
SplitIndex = Callable[[ir.Expr], tuple[ir.Expr, ir.Expr | None] | None]
# id(Guarded) -> per guard, (dimension, offset): the guard's expression plus the offset is the tap's index there
TapDims = dict[int, tuple[tuple[int, int], ...]]


@dataclass(frozen=True, eq=False)
class Guarded:
    """The callee of a tap: Func `func`, whose value the reader uses only where lo <= e <= hi for each of
    `bounds`, e the call's argument past the Func's own (an affine expression of the reader's variables, in the
    arguments so that passes substituting variables, such as unrolled reductions, substitute it too)."""

    func: Function
    bounds: tuple[tuple[int, int], ...]


def tap_inner_reads(f: Function, k: int, d: Definition, boxes: list[Box], inside: frozenset[int],
                    split_index: SplitIndex, evaluator: Evaluator, dims: TapDims | None = None,
                    used: list[Box] | None = None) -> Definition:
    """d (stage k of f, over `boxes`: its box in each tile) with each read of a Func computed `inside` at index
    functions f(a) made a selection of guarded affine taps. `split_index(e)` gives (a, f of edge.v) or None, as
    `edges` splits an index; `dims` receives each tap's guards' dimensions; `used`: the part of each tile's box
    whose values f's readers use (its values elsewhere are never selected, so no tap is chosen or read for them;
    all of `boxes` by default)."""
    envs = [definition_env(box, d, no_scalars) for box in boxes]
    used_envs = envs if used is None else [definition_env(box, d, no_scalars) for box in used]
    bound = SharedBounds(no_scalars)  # (the runs of a row or column of tiles bound an index alike)

    def visit(c: ir.Call) -> ir.Expr | None:
        split = _index_functions(f, c, inside, split_index)
        if split is None:
            return None
        g = c.callee
        assert isinstance(g, Function)
        runs = [None if m is None else _runs([bound(a, env) for env in used_envs],
                                             [bound(a, env)[0] - bound(a, envs[0])[0] for env in envs], m, evaluator)
                for a, m in split]
        return _select(c.type, g, [a for a, _ in split], runs, (), dims if dims is not None else {})

    return map_definition_calls(d, visit)


def _index_functions(f: Function, c: ir.Call, inside: frozenset[int],
                     split_index: SplitIndex) -> list[tuple[ir.Expr, ir.Expr | None]] | None:
    """The split indices of c when it is a read by f of another Func computed `inside` at index functions (one at
    least, the others affine); None for any other call."""
    g = c.callee
    if not isinstance(g, Function) or id(g) not in inside or g is f:
        return None
    found = [split_index(simplify(a)) for a in c.args]
    split = [p for p in found if p is not None]
    if len(split) < len(found) or all(m is None for _, m in split):
        return None
    return split


def _any_tap(s: Lowering, inside: frozenset[int], split_index: SplitIndex) -> bool:
    """Whether some buffered Func reads a Func computed `inside` at index functions (through a boundary
    condition)."""
    return any(_index_functions(f, c, inside, split_index) is not None
               for f in s.found_region.buffered for d in s.defs(f) for e in d.args + (d.value,)
               for c in ir.walk(e) if isinstance(c, ir.Call))


def _runs(reaches: list[tuple[int, int]], shifts: list[int], m: ir.Expr, evaluator: Evaluator) -> list[Run]:
    """The runs of constant offset m(v) - v over v in the tiles' `reaches` of an index (absolute), each with the
    hull of the parts the tiles reach, counted in the first tile's coordinates (the index in tile t is `shifts[t]`
    past where it is in the first)."""
    lo, hi = min(r[0] for r in reaches), max(r[1] for r in reaches)
    vs = np.arange(lo, hi + 1, dtype=np.int64)
    src = np.broadcast_to(np.asarray(evaluator.eval(m, {"edge.v": vs}, {}), dtype=np.int64), vs.shape)
    offsets = (src - vs).tolist()
    runs: list[tuple[int, int, int]] = []
    for v, k in zip(vs.tolist(), offsets):
        if runs and runs[-1][2] == k:
            runs[-1] = (runs[-1][0], v, k)
        else:
            runs.append((v, v, k))
    out: list[Run] = []
    for first, last, k in runs:
        parts = [(max(first, rlo) - shift, min(last, rhi) - shift) for (rlo, rhi), shift in zip(reaches, shifts)
                 if max(first, rlo) <= min(last, rhi)]
        if parts:  # (a run between tiles that no tile reaches is never selected)
            out.append((first, last, k, min(p[0] for p in parts), max(p[1] for p in parts)))
    return out


def _select(t: Type, g: Function, index: list[ir.Expr], runs: list[list[Run] | None],
            guards: tuple[tuple[ir.Expr, int, int, int, int], ...], dims: TapDims) -> ir.Expr:
    """The taps of dimensions from the first with runs on, each chosen by its coordinate."""
    j = next((j for j, r in enumerate(runs) if r), None)
    mine = runs[j] if j is not None else None
    if j is None or mine is None:
        callee = Guarded(g, tuple((lo, hi) for _, lo, hi, _, _ in guards))
        dims[id(callee)] = tuple((dim, k) for _, _, _, dim, k in guards)
        return ir.Call(t, callee, tuple(index) + tuple(e for e, _, _, _, _ in guards))
    rest = runs[:j] + [None] + runs[j + 1:]
    a = index[j]
    out: ir.Expr | None = None
    for _, last, k, glo, ghi in reversed(mine):
        moved = index[:j] + [simplify(ir.BinOp(a.type, "add", a, ir.Const(a.type, k))) if k else a] + index[j + 1:]
        guard = guards + (((a, glo, ghi, j, k),) if len(mine) > 1 else ())
        tap = _select(t, g, moved, rest, guard, dims)
        out = tap if out is None else ir.Select(t, ir.BinOp(BOOL, "le", a, ir.Const(a.type, last)), tap, out)
    assert out is not None
    return out


# ---- the boxes the taps read, over the array's invocations ------------------------------------------------

def tap_over_tiles(s: Lowering, inside: frozenset[int], split_index: SplitIndex,
                   evaluator: Evaluator) -> tuple[dict[int, list[Definition]], Lowering]:
    """Every buffered Func's definitions with their reads of Funcs `inside` at index functions tapped over the
    array's invocations (the host tiles; under a GLB level every memory tile of each GLB tile), and `s` with the
    boxes of the Funcs those taps reach, and of their producers, realised over what their readers reach in each
    invocation (consumers first)."""
    # (without taps nothing is realised again: the GLB tiles stand for their runs)
    glb = s.glb is not None and _any_tap(s, inside, split_index)
    tiles = halide_invocations(s) if glb else list(s.tiles)
    boxes = [dict(t.boxes) for t in tiles]
    demands = [dict(t.demands) for t in tiles]
    defs, moved = _tap(s, tiles, boxes, demands, inside, split_index, evaluator)
    if not glb:
        return defs, replace(s, tiles=tuple(replace(t, boxes=b, demands=dm) for t, b, dm in zip(tiles, boxes, demands)))
    return defs, _glb_level(s, boxes, demands, [s.pipe.name(f) for f in moved])


def _tap(s: Lowering, tiles: list[Tile], boxes: list[dict[str, Box]], demands: list[dict[str, Box]],
         inside: frozenset[int], split_index: SplitIndex,
         evaluator: Evaluator) -> tuple[dict[int, list[Definition]], list[Function]]:
    """The tapped definitions, with `boxes` and `demands` (per invocation, Halide's `tiles` at first) realised
    over what the taps reach; and the Funcs realised so."""
    region, pipe = s.found_region, s.pipe
    reach: dict[int, list[Box | None]] = {}  # id(Function) -> per invocation, what its readers reach
    moved: set[int] = set()  # the Funcs realised over what the taps reach (their boxes inferred again)
    fixed = {id(f) for f in region.buffered if id(f) in s.rams or id(f) in s.tables}
    shifted = shifted_funcs(region)
    defs: dict[int, list[Definition]] = {}
    for f in reversed(region.buffered):  # consumers first
        name = pipe.name(f)
        if id(f) in moved:
            _realise(s, f, reach[id(f)], tiles, boxes, demands, id(f) in shifted, id(f) in inside)
        dims: TapDims = {}
        # (Halide's box of f in an invocation holds every value its readers select there)
        used = [_meet(t.boxes[name], b[name]) for t, b in zip(tiles, boxes)]
        defs[id(f)] = [tap_inner_reads(f, k, d, [b[name] for b in boxes], inside, split_index, evaluator, dims,
                                       used) for k, d in enumerate(s.defs(f))]
        for d in defs[id(f)]:
            for g, tap, needs in _reads(f, d, [b[name] for b in boxes], dims):
                if id(g) in fixed:
                    continue
                if tap or id(f) in moved:
                    moved.add(id(g))
                have = reach.setdefault(id(g), [None] * len(boxes))
                reach[id(g)] = [union(h, n) for h, n in zip(have, needs)]
    for g in region.inputs:
        if id(g) in moved:
            _realise(s, g, reach[id(g)], tiles, boxes, demands, id(g) in shifted, False)
    return defs, [f for f in (*region.inputs, *region.buffered) if id(f) in moved]


def _glb_level(s: Lowering, boxes: list[dict[str, Box]], demands: list[dict[str, Box]],
               moved: list[str]) -> Lowering:
    """`s` with the invocations' boxes (every memory tile of each GLB tile, in order) as its memory tiles (the
    first GLB tile's) and, for the Funcs realised over the taps, each GLB tile's box the hull of its memory
    tiles' (so that each GLB tile's moves them as `array_invocations` expects)."""
    assert s.glb is not None
    mem = s.glb.mem_tiles
    n = len(mem)
    mem_tiles = tuple(Tile(t.output_box, b, dm) for t, b, dm in zip(mem, boxes, demands))
    tiles = []
    for g, t in enumerate(s.tiles):
        mine = boxes[g * n:(g + 1) * n]
        hulls = {name: functools.reduce(union, [b[name] for b in mine[1:]], mine[0][name]) for name in moved}
        tiles.append(replace(t, boxes={**t.boxes, **hulls},
                             demands={k: v for k, v in t.demands.items() if k not in hulls}))
    return replace(s, tiles=tuple(tiles), glb=replace(s.glb, mem_tiles=mem_tiles))


def _reads(f: Function, d: Definition, boxes: list[Box],
           dims: TapDims) -> Iterator[tuple[Function, bool, list[Box]]]:
    """(callee, whether the read is a tap, what it reads in each tile) for each read of another Func in d (a
    tap: where its guards hold, moved into each tile's coordinates)."""
    envs = [definition_env(box, d, no_scalars) for box in boxes]
    bound = SharedBounds(no_scalars)  # (an index reads one or two of the tiles' ranges: few distinct ones)
    for c in bound.calls(d):
        g = c.callee.func if isinstance(c.callee, Guarded) else c.callee
        if not isinstance(g, Function) or g is f:
            continue
        n = len(g.args)
        needs = [[bound(a, env) for a in c.args[:n]] for env in envs]
        if isinstance(c.callee, Guarded):
            for (dim, k), (glo, ghi), e_ in zip(dims[id(c.callee)], c.callee.bounds, c.args[n:]):
                first = bound(e_, envs[0])[0]
                for t, env in enumerate(envs):
                    shift = bound(e_, env)[0] - first + k
                    lo, hi = needs[t][dim]
                    needs[t][dim] = (max(lo, glo + shift), min(hi, ghi + shift))
        yield g, isinstance(c.callee, Guarded), needs


def _realise(s: Lowering, f: Function, reach: list[Box | None], tiles: list[Tile], boxes: list[dict[str, Box]],
             demands: list[dict[str, Box]], shifted: bool, tapped: bool) -> None:
    """f's box in each tile: what its readers reach, grown as bounds inference grows a box (align_bounds,
    RoundUp tails, upsample steps; with `shifted`, its other tails round up, and its readers' box is the
    demand its loads are guarded to, shift_tails.py). `tapped`: f's clamped reads are taps, so its boxes must
    have one shape now (an input's or a copy's are extended first, `edges` checks them after)."""
    name = s.pipe.name(f)
    for t, need in enumerate(reach):
        assert need is not None, (name, t)
        realise(f, need, s.multiples.get(id(f), {}), shifted, boxes[t], demands[t], name)
    if tapped:
        acc = s.found_region.accelerated
        check_same_shape(acc, [Tile(tile.output_box, b, loop_box=tile.loop_box) for tile, b in zip(tiles, boxes)],
                         [name], [step_along(s.pipe, a, phase_multiples(s)) for a in acc.args])


def _meet(a: Box, b: Box) -> Box:
    """The intersection of two boxes (not empty: both hold the values a Func's readers select)."""
    box = [(max(x[0], y[0]), min(x[1], y[1])) for x, y in zip(a, b)]
    assert all(lo <= hi for lo, hi in box), (a, b)
    return box
