"""Host tiling: the loops of the accelerator output at and outside `hw_accelerate`'s store loop run on the
host, which invokes the accelerator once per tile (the last tile of a dimension shifts inward, Halide's
default tail for a pure loop; GuardWithIf and the predicated tails too: every tile runs the same hardware, and
the shifted tile recomputes values the tile before it wrote, the same values). The hardware is built for the
first tile; every tile must have the same shape, which holds because accesses are affine and values do not depend
on coordinates, except where indices are divided by a constant: there a last tile shifted to an origin of another
residue moves back outward (`_moved_outward`), and tiles still at another phase than the first grow back to it
(`_at_first_phase`), GLB tiles as well. Under a GLB level the array output's memory tiles round up to whole
upsample steps instead (their loops are strip-mined from the tile's origin), and the GLB tile to whole memory
tiles."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.bounds import Box, SharedBounds, func_value_bounds, infer_boxes
from mainspring.frontend.errors import ScheduleError, SourceLoc
from mainspring.frontend.func import Function
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import Fuse, Split, StageSchedule, TailStrategy

from .affine import affine_of
from .ir import Affine
from .placement import accelerate_call
from .program import Tile
from .shift_tails import shifted_funcs, turned_tile
from .state import GlbTiles, Lowering
from .tile_nests import inner_tile_splits, nested_origins, split_fused_hint, step_along
from .tile_nests import nests as tile_nests

Phases = dict[int, dict[int, int]]  # id(Function) -> {dimension: the steps tiles keep the phase of}


def no_scalars(p: object) -> None:
    """No scalar parameter has a known value (an accelerator's loops do not depend on them)."""


def host_tiles(pipe: Pipeline, f: Function, store_var: str | None, full_box: Box,
               multiples: dict[int, dict[int, int]] | None = None,
               shifted: frozenset[int] = frozenset(), phase: bool = False,
               steps: dict[str, int] | None = None,
               phases: dict[int, dict[int, int]] | None = None) -> tuple[Tile, ...]:
    """The invocations covering `full_box` of `f` (the loops of f at and outside `store_var` step over
    them), in loop order: the host's accelerator invocations, or the array's memory tiles in a GLB tile. With
    `phase`, tiles over an upsample that start at another phase than the first grow to it (`_at_first_phase`).
    `steps` ({dimension: d}, memory tiles): tiles round up to whole upsample steps, and the last reaches past.
    `phases`: the steps tiles keep the first tile's phase in (`phase_multiples`), if not `multiples`."""
    extents, order = _tile_extents(f, store_var, full_box, f is pipe.output, steps)
    axes = []
    nests = tile_nests(f, host_loops(f, store_var))
    for dim in order:
        i = f.args.index(dim)
        lo, hi = full_box[i]
        e, t = hi - lo + 1, extents[dim]
        if dim in nests and steps is None and t == nests[dim][-1].factor:
            axes.append(nested_origins(lo, e, nests[dim]))
        elif _rounds_up(f, dim) or steps is not None:  # the last tile reaches past the box; what it computes there
            # is dropped (memory tiles: the GLB tile then grows to whole memory tiles, `_whole_memory_tiles`)
            axes.append([lo + k * t for k in range(-(-e // t))])
        else:
            axes.append([lo + min(k * t, e - t) for k in range(-(-e // t))])
    sub = pipe.computing(f)
    shared = SharedBounds(no_scalars, func_value_bounds(sub, no_scalars))
    tiles = tuple(_tiles(pipe, sub, f, order, extents, full_box, axes, multiples, shifted, shared))
    phases = phases if phases is not None else multiples or {}
    stepped = any(m > 1 for dims in phases.values() for m in dims.values())
    if stepped and not _one_shape(tiles):  # indices divided by a constant: a shifted tile may read more
        # else of one shape once the `edges` pass has extended the streams boundary conditions read
        tiles = _moved_outward(pipe, sub, f, order, extents, full_box, axes, (multiples, phases), shifted,
                               shared) or tiles
    if phase and stepped and not _in_phase(pipe, f, tiles, phases):
        tiles = _at_first_phase(pipe, sub, f, tiles, (multiples, phases), shifted, shared)
    return tiles


def _tiles(pipe: Pipeline, sub: Pipeline, f: Function, order: list[str], extents: dict[str, int], full_box: Box,
           axes: list[list[int]], multiples: dict[int, dict[int, int]] | None,
           shifted: frozenset[int], shared: SharedBounds, clip: bool = False) -> Iterator[Tile]:
    """A tile at every origin of the product of `axes` (one axis per loop of `order`). A RoundUp tile keeps its
    whole box (the output is realised over it, as in Halide); with `clip`, a tile moved back outward keeps only its
    part of `full_box` and the host drops what it computes past it."""
    # a bound on a Func inside fixes its range in every tile, which the hardware of several tiles cannot follow
    one = all(len(a) == 1 for a in axes)
    for origin in itertools.product(*axes):
        at = dict(zip(order, origin))
        box = [(at.get(a, lo), at.get(a, lo) + extents[a] - 1) for a, (lo, _) in zip(f.args, full_box)]
        kept = [(lo, min(hi, full[1])) for (lo, hi), full in zip(box, full_box)] if clip else box
        yield _tile(pipe, sub, box, kept, multiples, shifted, shared, inner_bounds=one)


# how far back outward a last tile may move (past the divisors of upsamples' indices, which are small)
_MOST_MOVED = 7


def _moved_outward(pipe: Pipeline, sub: Pipeline, f: Function, order: list[str], extents: dict[str, int],
                   full_box: Box, axes: list[list[int]], stepping: tuple[dict[int, dict[int, int]] | None, Phases],
                   shifted: frozenset[int], shared: SharedBounds) -> tuple[Tile, ...] | None:
    """Tiles of one shape with the last tile of each dimension moved back outward from where ShiftInwards put it,
    part of the way to where RoundUp would, or None. A tile shifted inward to an odd origin over an upsample (6
    columns from x = 9 read x / 2 over 6 input columns where the tile at x = 0 reads 5) changes the shapes; from x
    = 10 it computes a column past the output, which the host drops (the tile before it wrote 9). The tiles
    recompute no more than they did. `stepping`: bounds inference's multiples and the phases' steps."""
    multiples, phases = stepping
    options = []
    for dim, axis in zip(order, axes):
        last, whole = axis[-1], axis[0] + (len(axis) - 1) * extents[dim]  # ShiftInwards' and RoundUp's last tile
        step = step_along(pipe, dim, phases)  # only to origins of the first tile's phase
        moves = [d for d in range(min(whole - last, _MOST_MOVED) + 1) if (last + d - axis[0]) % step == 0 or d == 0]
        options.append([axis[:-1] + [last + d] for d in (moves if len(axis) > 1 else [0])])
    for moved in sorted(itertools.product(*options), key=lambda a: sum(x[-1] for x in a))[1:]:
        tiles: list[Tile] = []
        for t in _tiles(pipe, sub, f, order, extents, full_box, list(moved), multiples, shifted, shared, clip=True):
            tiles.append(t)
            if not _one_shape(tiles):
                break
        else:
            return tuple(tiles)
    return None


def _in_phase(pipe: Pipeline, f: Function, tiles: Sequence[Tile], multiples: dict[int, dict[int, int]]) -> bool:
    """Whether the first tile's hardware computes every tile: each tile's box of f has the first tile's shape,
    starts a whole number of steps (`step_along`) from it, and the loops (the first tile's, over its output box) reach
    the tile's output box from there (1-row tiles over y / 2: the tile at y = 1 realises f over rows 0..1, and one
    row from 0 misses it). The other Funcs' boxes may differ where a boundary condition clamps them, which the
    `edges` pass extends."""
    first = tiles[0].boxes[pipe.name(f)]
    steps = [step_along(pipe, a, multiples) for a in f.args]
    loops = [hi - lo + 1 for lo, hi in tiles[0].output_box]
    return all((lo - lo0) % st == 0 and hi - lo == hi0 - lo0 and out_hi < lo + n for t in tiles[1:]
               for (lo, hi), (lo0, hi0), st, n, (_, out_hi) in zip(t.boxes[pipe.name(f)], first, steps, loops,
                                                                 t.output_box))


def _at_first_phase(pipe: Pipeline, sub: Pipeline, f: Function, tiles: Sequence[Tile],
                    stepping: tuple[dict[int, dict[int, int]] | None, Phases], shifted: frozenset[int],
                    shared: SharedBounds) -> tuple[Tile, ...]:
    """The tiles, each computing a box of f (its `loop_box`) that starts at the first tile's phase (a whole number
    of steps from it, `step_along`) at or before its own box, all of one shape (the other Funcs' boxes may still differ
    where a boundary condition clamps them: the `edges` pass extends them, or refuses). The first tile's hardware
    then runs every tile at the phase it was built for. 3-row tiles over an upsample of y read through a clamp:
    the tile keeping rows 3..5 computes 2..5, the first 0..3; 5-column tiles over x / 3 (15 columns): 7 columns,
    3 whole steps, from x = 0, 3 and 9. The host keeps what it kept before; the rest is recomputed or dropped."""
    multiples, phases = stepping
    name = pipe.name(f)
    first = tiles[0].boxes[name]
    steps = [step_along(pipe, a, phases) for a in f.args]
    starts = [[lo - (lo - lo0) % st for (lo, _), (lo0, _), st in zip(t.boxes[name], first, steps)] for t in tiles]
    # (up to what the host keeps: f's box may hold a RoundUp tail's padding, which the loops add again)
    shape = [max(t.output_box[i][1] - s[i] for t, s in zip(tiles, starts)) for i in range(len(f.args))]
    out = []
    for t, s in zip(tiles, starts):
        box = [(lo, lo + e) for lo, e in zip(s, shape)]
        out.append(replace(_tile(pipe, sub, box, t.output_box, multiples, shifted, shared), loop_box=box))
    return tuple(out)


def _one_shape(tiles: Sequence[Tile]) -> bool:
    return len({tuple((n, tuple(hi - lo for lo, hi in b)) for n, b in sorted(t.boxes.items())) for t in tiles}) == 1


def _tile(pipe: Pipeline, sub: Pipeline, box: Box, output_box: Box, multiples: dict[int, dict[int, int]] | None,
          shifted: frozenset[int], shared: SharedBounds | None = None, inner_bounds: bool = True) -> Tile:
    """The invocation computing `box` of sub's output (the host keeps `output_box` of it): every Func's box.
    `shared`: the intervals of sub's expressions, shared with its other invocations. `inner_bounds=False`: one of
    several host tiles, in which a pure Func's `bound` is not applied (frontend/bounds.py's infer_boxes)."""
    demanded: dict[str, Box] = {}
    boxes, _ = infer_boxes(sub, box, no_scalars, output_bounds=False, multiples=multiples, shifted=shifted,
                           demanded=demanded, shared=shared, inner_bounds=inner_bounds)
    return Tile(output_box, {pipe.name(sub.functions[n]): b for n, b in boxes.items()},
                {pipe.name(sub.functions[n]): b for n, b in demanded.items()})


def _rounds_up(f: Function, dim: str) -> bool:
    return any(isinstance(d, Split) and d.old == dim and d.tail is TailStrategy.RoundUp
               for d in f.definitions[0].schedule.directives)


def tile_grid(f: Function, store_var: str | None, full_box: Box,
              steps: dict[str, int] | None = None) -> tuple[tuple[str, int], ...]:
    """The loops of f that step over tiles of `full_box` (outermost first), with their trip counts (`steps`: as
    `host_tiles`)."""
    extents, order = _tile_extents(f, store_var, full_box, steps=steps)
    host = _stepping_loops(f, host_loops(f, store_var))
    nests = tile_nests(f, host_loops(f, store_var))
    out = []
    for name, dim in zip(host, order):
        lo, hi = full_box[f.args.index(dim)]
        e = hi - lo + 1
        n = len(nested_origins(lo, e, nests[dim])) if dim in nests and steps is None else -(-e // extents[dim])
        out.append((f"{f.name}.s0.{name}", n))
    return tuple(out)




def _tile_extents(f: Function, store_var: str | None, full_box: Box, is_output: bool = False,
                  steps: dict[str, int] | None = None) -> tuple[dict[str, int], list[str]]:
    """Tile extent per dimension of f, and f's dimensions that host loops step over (outermost first). `steps`
    ({dimension: d}): memory tiles of the array output, each rounded up to whole upsample steps of d (the array
    strip-mines its loops into steps of d from the tile's origin; a 3-row memory tile over y / 2 computes 4)."""
    sched = f.definitions[0].schedule
    host = host_loops(f, store_var)
    # the split of f's dimension that made each tile loop (a later split may reuse its name: unroll(yo, 2))
    splits = {d.outer: d for d in sched.directives if isinstance(d, Split) and d.old in f.args}
    extents = {a: hi - lo + 1 for a, (lo, hi) in zip(f.args, full_box)}
    order = []
    loc = _schedule_loc(f)
    for h in _stepping_loops(f, host):
        s = splits.get(h)
        if _all_host(h, sched, host):  # every loop of its dimension is a host loop: tiles one wide in it
            dim = _dimension(h, sched)
            if dim not in order:
                extents[dim] = 1
                order.append(dim)
        elif s is not None and s.old in f.args:
            e = extents[s.old]
            # (frontend.bounds refuses a RoundUp split past the output's bound, as Halide does)
            assert not (e % s.factor and s.tail is TailStrategy.RoundUp and is_output), (f.name, s)
            tile = ([s] + inner_tile_splits(s, sched, host))[-1]  # the split the accelerator's tile loop makes
            # A tile larger than the region shrinks to it: one tile, not one shifted before the image (Halide
            # would shift it inward and read before the image's start; frontend.bounds covers e values too).
            extents[s.old] = tile.factor if tile.tail is TailStrategy.RoundUp else min(tile.factor, e)
            d = (steps or {}).get(s.old, 1)
            if d > 1:  # lanes too: the array strip-mines runs of lcm(d, lanes) rows (strip_mine.py; fuzz 179675)
                d = math.lcm(d, sched.rounded_lanes(tile.inner))
            extents[s.old] = -(-extents[s.old] // d) * d
            order.append(s.old)
        elif h in f.args:
            extents[h] = 1
            order.append(h)
        else:
            fix = split_fused_hint(h, sched, host, f.placement.hw_accelerate[0] if f.placement.hw_accelerate else "xi")
            raise ScheduleError(
                f"{loc}: Func '{f.name}': the host loop {h} outside hw_accelerate's store loop does not step over "
                + (fix or "tiles of one dimension; split each dimension once (e.g. tile(x, y, xo, yo, xi, yi, 64, 64))")
            )
    return extents, order


def _stepping_loops(f: Function, host: list[str]) -> list[str]:
    """The host loops `host` with the parts of a host loop split again (xo into xoo, xoi) as that loop, once at
    the outermost part's place: they step over the same tiles."""
    sched = f.definitions[0].schedule
    out: list[str] = []
    for part in host:
        whole = _split_host_loop(part, sched, host, f.args)
        for h in [part] if whole is None else [whole]:
            for loop in _fused_parts(h, sched, host):
                if loop not in out:
                    out.append(loop)
    return out


def _fused_parts(loop: str, sched: StageSchedule, host: list[str]) -> list[str]:
    """The loops a fused host loop split again (`fuse(xo, yo, t).split(t, to, ti, 4)`, to and ti both host loops)
    fuses, outermost first: its parts step over the same tiles in the same order as the fused loop, which
    `host_loops` already gives as the loops it fuses; [loop] for any other loop."""
    fused = {d.fused: d for d in sched.directives if isinstance(d, Fuse)}
    parent = {p: d.old for d in sched.directives if isinstance(d, Split) and d.outer in host and d.inner in host
              for p in (d.outer, d.inner)}
    root, seen = loop, {loop}
    while root in parent and parent[root] not in seen:  # a split may keep its loop's name (unroll(yo, 2): yo)
        root = parent[root]
        seen.add(root)
    if root not in fused or (root == loop and loop not in parent):
        return [loop]

    def expand(name: str) -> list[str]:
        d = fused.get(name)
        return [name] if d is None else expand(d.outer) + expand(d.inner)

    return expand(root)


def _split_host_loop(loop: str, sched: StageSchedule, host: list[str], args: Sequence[str]) -> str | None:
    """The host loop `loop` was split from (xo for xoo and xoi of `split(xo, xoo, xoi, 2)`, yo for both parts of
    `unroll(yo, 2)`, which keeps the name yo for its outer part), if the splits' parts are all host loops and the
    first is the outer loop of a split of one of f's dimensions (that loop itself for the loop): the host then steps
    over the same tiles as that loop (in another order where the parts are apart, which the tiles, independent of
    each other, do not see); None otherwise. The directives are replayed in order: a split may reuse a name."""
    whole: dict[str, str | None] = {}  # loop -> the tile loop it was split from (itself for that loop)
    inside: dict[str, str] = {}  # the loop inside a tile loop -> that tile loop (xi -> xo)
    for d in sched.directives:
        if not isinstance(d, Split):
            continue
        if d.old in args:
            whole[d.outer], whole[d.inner] = d.outer, None
            inside[d.inner] = d.outer
        elif d.old in inside and d.outer in host and d.inner not in host:  # a tile tiled again: its outer part
            # steps over smaller tiles with the tile loop (`tile_nests.inner_tile_splits`)
            whole[d.outer], whole[d.inner] = inside[d.old], None
            inside[d.inner] = inside[d.old]
        else:
            w = whole.get(d.old) if d.outer in host and d.inner in host else None
            whole[d.outer], whole[d.inner] = w, w
    return whole.get(loop)


def _dimension(loop: str, sched: StageSchedule) -> str:
    """The dimension of f whose splits made `loop` (latest split first: a split may keep its old name)."""
    for d in reversed(sched.directives):
        if isinstance(d, Split) and loop in (d.outer, d.inner):
            loop = d.old
    return loop


def _all_host(loop: str, sched: StageSchedule, host: list[str]) -> bool:
    """Whether every loop split from `loop`'s dimension is a host loop: the host then steps over it one
    coordinate at a time, in increasing order whatever the order of those loops (gaussian's schedule 6 names
    tile(x, y, xi, xo, yi, yo, ...), so that y's inner loop runs outside its outer one): the values are the same."""
    dim = _dimension(loop, sched)
    if dim == loop:
        return False
    fused = {d.fused: (d.inner, d.outer) for d in sched.directives if isinstance(d, Fuse)}

    def loops(name: str) -> list[str]:  # a fused loop as the loops it fuses (yi inside `fuse(xi, yi, t)`)
        return [n for part in fused[name] for n in loops(part)] if name in fused else [name]

    mine = [n for m in sched.dim_names() for n in loops(m) if _dimension(n, sched) == dim]
    return all(n in host for n in mine)


def host_loops(f: Function, store_var: str | None) -> list[str]:
    """f's loops at and outside `store_var`, outermost first, a fused loop (`fuse(xo, yo, t)`) as the loops it
    fuses: the host visits the same tiles in the same order."""
    sched = f.definitions[0].schedule
    loops = list(reversed(sched.dim_names()))
    fused = {d.fused: d for d in sched.directives if isinstance(d, Fuse)}

    def expand(name: str) -> list[str]:
        d = fused.get(name)
        return [name] if d is None else expand(d.outer) + expand(d.inner)

    # None or Var.outermost(): the accelerator runs once over the whole Func (no host loop)
    outer = loops[: loops.index(store_var) + 1] if store_var not in (None, "__outermost") else []
    return [n for h in outer for n in expand(h)]


def _schedule_loc(f: Function) -> SourceLoc | None:
    """Where the user placed f: its hw_accelerate call, else its compute_at."""
    return f.placement.hw_accelerate[2] if f.placement.hw_accelerate else f.placement.compute.loc


def check_same_shape(f: Function, tiles: Sequence[Tile], names: Sequence[str],
                     steps: Sequence[int] | None = None, what: str = "host") -> None:
    """The boxes of the buffers `names` have one shape in every tile of `f` (the `edges` pass checks, once it has
    extended the streams that boundary conditions read). `steps`: f's steps per dimension (`step_along`), which name
    the divisor where host tiles were grown to the first tile's phase; `what`: "host" or "memory" tiles."""
    first = tiles[0]
    for t in tiles[1:]:
        for name in names:
            box = t.boxes[name]
            shape = [hi - lo for lo, hi in box]
            if shape != [hi - lo for lo, hi in first.boxes[name]]:
                differ = (f"{_schedule_loc(f)}: Func '{f.name}': accelerator tiles differ in shape ({name} needs {box} "
                          f"for the tile at {t.output_box} but {first.boxes[name]} for the first): every tile runs "
                          "the same hardware, so the footprint of each Func may only shift from tile to tile")
                why = _grown_still_differ(f, tiles, name, steps, what) if steps is not None and _phased(tiles, steps) \
                    else None
                if why is not None:
                    raise ScheduleError(differ + why)
                if not any(d > 1 for d in steps or ()):
                    raise ScheduleError(differ + _unstepped_hint(f, tiles, name, what))
                raise ScheduleError(differ + _divided_hint(f, steps))


def _unstepped_hint(f: Function, tiles: Sequence[Tile], name: str, what: str) -> str:
    """The end of the message where no index is divided by a constant: the reads of `name` whose index is not
    affine (x * x: a box that grows from tile to tile), which memories cannot address anyway; else the fix of one
    tile along the dimensions the tiles move."""
    reads = _irregular_reads(f, name)
    if reads:
        return (f"; {'; '.join(reads)}: an index that is not affine in the coordinates, so its footprint changes "
                "size from tile to tile, and memories need affine addresses (a coordinate times a constant plus a "
                "constant). Read at such an index on the host side, in the Func streamed to the accelerator (which "
                "may read its image anywhere)")
    moved = sorted({i for t in tiles[1:] for i, ((lo, _), (lo0, _)) in enumerate(zip(t.output_box,
                                                                                     tiles[0].output_box))
                    if lo != lo0})
    dims = ", ".join(f.args[i] for i in moved)
    whole = ", ".join(f"{max(u.output_box[i][1] for u in tiles) - min(u.output_box[i][0] for u in tiles) + 1} "
                      f"along {f.args[i]}" for i in moved)
    return (f"; {name}'s footprint changes size from tile to tile along {dims}. Use one {what} tile along {dims} (a "
            f"tile size of {whole}, the whole {'output' if what == 'host' else 'GLB tile'})")


def _irregular_reads(f: Function, name: str) -> list[str]:
    """The reads of the Func or image `name` in f and the Funcs it reads whose index is not affine, as
    "reader reads name(index, ...)", in the order a walk from f meets them."""
    out: list[str] = []
    seen: set[int] = set()
    todo = [f]
    while todo:
        g = todo.pop(0)
        if id(g) in seen:
            continue
        seen.add(id(g))
        for d in g.definitions:
            for node in (n for e in (*d.args, d.value) for n in ir.walk(e)):
                if not isinstance(node, ir.Call):
                    continue
                if isinstance(node.callee, Function):
                    todo.append(node.callee)
                if getattr(node.callee, "name", None) == name and any(_irregular(a) for a in node.args):
                    text = f"{g.name} reads {name}({', '.join(_index(a) for a in node.args)})"
                    out += [] if text in out else [text]
    return out


def _index(e: ir.Expr) -> str:
    """An index as the user writes it: without the parentheses around a whole binary operation."""
    text, depth = ir.to_string(e), 0
    for i, c in enumerate(text):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0:
            return text[1:-1] if i == len(text) - 1 and text.startswith("(") else text
    return text


def _irregular(e: ir.Expr) -> bool:
    """Whether an index is neither affine in its variables nor holds a division or modulo by a constant
    (which the step messages explain)."""
    nodes = list(ir.walk(e))
    if any(isinstance(n, ir.BinOp) and n.op in ("div", "mod") for n in nodes):
        return False
    env = {n.name: Affine.make({n.name: 1}, 0) for n in nodes if isinstance(n, (ir.Var, ir.RVar))}
    return affine_of(e, env) is None


def _divided_hint(f: Function, steps: Sequence[int] | None) -> str:
    """The generic end of the message, naming f's own divisors where an upsample steps its dimensions (`steps`),
    so that the tile sizes it suggests are the ones that work (x / 2: 2, 4, 6, ...)."""
    named = [(a, d) for a, d in zip(f.args, steps or ()) if d > 1]
    divided = ", ".join(f"{a} / {d}" for a, d in named) or "x / d"
    sizes = "; ".join(f"along {a}: {d}, {2 * d}, {3 * d}, ..." for a, d in named) or "along x: d, 2d, 3d, ..."
    return (f"; with indices divided by a constant ({divided}), tiles whose origins differ modulo it read different "
            "footprints (tiles the host steps over grow to the first tile's phase, and memory tiles round up to "
            "whole steps, but these did not). Choose a tile size that is a multiple of each constant the indices "
            f"are divided by ({sizes})")


def _phased(tiles: Sequence[Tile], steps: Sequence[int]) -> bool:
    """Whether every tile computes from the first tile's phase: grown to it (`_at_first_phase`), or starting a
    whole number of steps from it (2x2 tiles over x / 2 and y / 2), so that a stepped Func's box only shifts."""
    if any(u.loop_box is not None for u in tiles):
        return True
    first = tiles[0].output_box
    return all((lo - lo0) % st == 0 for t in tiles for (lo, _), (lo0, _), st in zip(t.output_box, first, steps))


def _grown_still_differ(f: Function, tiles: Sequence[Tile], name: str, steps: Sequence[int],
                        what: str) -> str | None:
    """Why host tiles at the first tile's phase still differ: `name` is read at two rates along a stepped
    dimension (at y / 2 and at y + 2: the tile 2 rows on reads 1 row on through one, 2 through the other, so
    no shifted box holds both), and the fix: one tile along every stepped dimension a tile whose box of `name`
    changes shape moved along (x and y where both are read at two rates); None if there is none."""
    first = tiles[0]
    shape0 = [hi - lo for lo, hi in first.boxes[name]]
    moved = sorted({i for t in tiles[1:] if [hi - lo for lo, hi in t.boxes[name]] != shape0
                    for i, ((lo, _), (lo0, _)) in enumerate(zip(t.output_box, first.output_box))
                    if lo != lo0 and steps[i] > 1})
    if not moved:
        return None
    dims = ", ".join(f.args[i] for i in moved)
    divided = " and ".join(f"{f.args[i]} / {steps[i]}" for i in moved)
    whole = ", ".join(f"{max(u.output_box[i][1] for u in tiles) - min(u.output_box[i][0] for u in tiles) + 1} "
                      f"along {f.args[i]}" for i in moved)
    how = "grow to" if any(u.loop_box is not None for u in tiles) else "start at"
    return (f"; {what} tiles {how} the first tile's phase along {dims} (indices divided by a constant: "
            f"{divided}), yet {name}'s footprint still changes, as when a Func is read both through {divided} and "
            "through an undivided index: its reads move at different rates from tile to tile, and no box that only "
            f"shifts holds both. Use one {what} tile along {dims} (a tile size of {whole}, the whole "
            f"{'output' if what == 'host' else 'GLB tile'})")


# ---- the pass ------------------------------------------------------------------------------------------

def phase_multiples(s: Lowering) -> dict[int, dict[int, int]]:
    """The steps host tiles keep the phase of (`step_along`): bounds inference's (`s.multiples`) as periods
    (6 for x / 2 over x / 3: each resolution at its phase) and, under a GLB level, the array output's (its
    memory tiles' loops, strip-mined from each GLB tile's origin), so that a last GLB tile shifted inward to
    another phase moves back outward or grows to the first tile's phase, as a host tile over a stepped Func does
    (fuzz 141463); found with bounds (`infer_bounds`)."""
    return s.phases


def tile_invocations(s: Lowering) -> Lowering:
    """The host's invocations of the accelerator, and with a GLB level the array's memory tiles in each."""
    pipe, region = s.pipe, s.found_region
    acc = region.accelerated
    # Tiles step over what the host reads of the accelerator output, not over its RoundUp padding.
    multiples = s.multiples
    shifted = shifted_funcs(region)
    if region.glb is None:  # inside one tile, the output's own splits round up too (its host loops divide it)
        shifted |= {id(region.output)}
    tiles = host_tiles(pipe, acc, accelerate_call(acc)[1], s.required[pipe.name(acc)], multiples, shifted,
                       phase=True, phases=phase_multiples(s))
    if region.glb is None:
        tiles = tuple(turned_tile(t, region.output, pipe.name(region.output)) for t in tiles)
    glb = None
    if region.glb is not None:
        from .steps import array_output_steps

        level, f = region.glb, region.output
        steps = array_output_steps(pipe, region)
        # the memory tiles cover what the first GLB tile computes (grown to the first tile's phase, it is the
        # box every GLB tile computes, from its own start)
        computed = _whole_lanes(level.output, tiles[0].loop_box or tiles[0].output_box)
        mem = host_tiles(pipe, f, region.store_var, computed, multiples, shifted, steps=steps)
        padded = _whole_memory_tiles(computed, mem[0].output_box)
        if padded != (tiles[0].loop_box or tiles[0].output_box):
            tiles = _padded_tiles(pipe, acc, tiles, padded, multiples, shifted)
            mem = host_tiles(pipe, f, region.store_var, padded, multiples, shifted, steps=steps)
        glb = GlbTiles(mem, tile_grid(level.output, level.store_var, s.boxes[pipe.name(level.output)]),
                       tile_grid(f, region.store_var, padded, steps))
    return replace(s, tiles=tiles, glb=glb)


def halide_invocations(s: Lowering) -> list[Tile]:
    """The array's invocations under a GLB level, in the order they run (every memory tile of each GLB tile),
    each with Halide's own boxes for its memory tile: clamped where a boundary condition clamps them at the
    image's edges (`tile_coordinates.array_invocations` moves the first GLB tile's instead)."""
    assert s.glb is not None, "invocations of the array under a GLB level"
    region = s.found_region
    f, acc = region.output, region.accelerated
    assert f.args == acc.args, (f.name, acc.name)  # the GLB output is a copy of the array's output
    sub = s.pipe.computing(f)
    shifted = shifted_funcs(region)
    # (thousands of runs at 1080p in small memory tiles: each expression bounded once per distinct range of
    # what it reads, and the Func value intervals found once)
    shared = SharedBounds(no_scalars, func_value_bounds(sub, no_scalars))
    out = []
    for g in s.tiles:
        moved = [a[0] - b[0] for a, b in zip(g.loop_box or g.output_box, s.tiles[0].loop_box or s.tiles[0].output_box)]
        for m in s.glb.mem_tiles:
            box = [(lo + d, hi + d) for (lo, hi), d in zip(m.output_box, moved)]
            out.append(_tile(s.pipe, sub, box, box, s.multiples, shifted, shared))
    # (the first GLB tile's runs are its memory tiles, inferred alike)
    assert [t.boxes for t in out[:len(s.glb.mem_tiles)]] == [m.boxes for m in s.glb.mem_tiles]
    return out


def format_tiles(s: Lowering) -> str:
    lines = []
    for k, t in enumerate(s.tiles):
        lines.append(f"tile {k}: output {t.output_box}")
        lines += [f"  {name}: {box}" for name, box in sorted(t.boxes.items())]
    if s.glb is not None:
        lines.append(f"memory tiles per GLB tile: {len(s.glb.mem_tiles)} (loops {list(s.glb.mem_loops)})")
        for k, t in enumerate(s.glb.mem_tiles):
            lines.append(f"memory tile {k}: output {t.output_box}")
    return "\n".join(lines) + "\n"


def _whole_lanes(g: Function, box: Box) -> Box:
    """The GLB tile's box grown to whole lanes of the GLB output g: `tile(x, y, xo, yo, xi, yi, 2, 1)` with
    `unroll(xi, 3, RoundUp)` computes 3 columns a tile, so its memory tiles (whole lanes too) are not shrunk to 2
    (their third lane would stream no value)."""
    sched = g.definitions[0].schedule
    inner = [next((d.inner for d in sched.directives if isinstance(d, Split) and d.old == arg), None) for arg in g.args]
    return [_in_whole(lo, hi, sched.rounded_lanes(i) if i is not None else 1) for (lo, hi), i in zip(box, inner)]


def _in_whole(lo: int, hi: int, t: int) -> tuple[int, int]:
    """[lo, hi] grown at the high end to a whole number of t-long pieces."""
    return lo, lo + -(-(hi - lo + 1) // t) * t - 1


def _whole_memory_tiles(glb_box: Box, mem_box: Box) -> Box:
    """The GLB tile's box grown to whole memory tiles: memory tiles that do not divide a GLB tile round up, as a
    RoundUp tail does (Halide's default tail would shift the last one inward, which the GLB's affine address
    controllers cannot follow); the array computes the extra values, the host reads back the tile only."""
    return [_in_whole(lo, hi, mhi - mlo + 1) for (lo, hi), (mlo, mhi) in zip(glb_box, mem_box)]


def _padded_tiles(pipe: Pipeline, acc: Function, tiles: tuple[Tile, ...], padded: Box,
                  multiples: dict[int, dict[int, int]], shifted: frozenset[int]) -> tuple[Tile, ...]:
    """The GLB tiles, each computing the first one's `padded` box moved to its own start (its output box, what
    the host reads back, unchanged; a tile grown to the first tile's phase grows on from its `loop_box`, and a
    last tile moved back outward and clipped computes the whole box past the output); their buffers' boxes are
    what the grown box needs (the input past the image is zeros from the host, read only for values no one
    keeps)."""
    sub = pipe.computing(acc)
    out = []
    for t in tiles:
        box = [(lo, lo + p_hi - p_lo) for (lo, _), (p_lo, p_hi) in zip(t.loop_box or t.output_box, padded)]
        out.append(replace(_tile(pipe, sub, box, t.output_box, multiples, shifted),
                           loop_box=box if t.loop_box is not None else None))
    return tuple(out)
