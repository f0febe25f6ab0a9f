"""Coordinates read as values when the accelerator runs once per host tile.

Every tile runs the same hardware, built for the first tile, so a kernel's coordinate counters count from the
first tile's origin. A pure coordinate (`select(x < 2, ...)`, a ramp in y) must be the tile's own: the hardware
counts its invocations (a tile counter that steps when the schedule restarts) and adds, per tile, how far the
Func's box has moved from the first tile's (`CoordPort.tile_offsets`, a small table indexed by the counter:
tiles shifted inward at the edge of the output move by less than a tile). Reduction variables and dimensions that
start at the same place in every tile (the channels of a tiled colour image) need nothing, nor a coordinate
used only modulo m where every tile starts at the same residue.

With a GLB level the array runs once per memory tile of each GLB tile: the counter counts those invocations, GLB
tile after GLB tile, and a Func's box in memory tile m of GLB tile g is its box in memory tile m of the first GLB
tile moved as far as its box in GLB tile g moved from the first (`array_invocations`).
"""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import Split

from .fold import map_calls
from .ir import CoordPort, Loop, LoopNest, Op
from .program import Tile


def tile_coordinates(pipe: Pipeline, nest: LoopNest, tiles: list[Tile]) -> LoopNest:
    """The nest whose pure coordinates carry their per-tile offsets over the array's invocations `tiles` (in
    order)."""
    def visit(nodes: tuple[Loop | Op, ...]) -> tuple[Loop | Op, ...]:
        return tuple(replace(n, body=visit(n.body)) if isinstance(n, Loop) else _with_offsets(pipe, n, tiles)
                     for n in nodes)

    return replace(nest, body=visit(nest.body))


def array_invocations(glb_tiles: list[Tile], mem_tiles: list[Tile]) -> list[Tile]:
    """The array's invocations under a GLB level, in the order they run: every memory tile (the first GLB tile's)
    of each GLB tile, its boxes moved as the GLB tile moves each Func's box."""
    out = []
    for g in glb_tiles:
        for m in mem_tiles:
            boxes = {}
            for name, box in m.boxes.items():
                if name in g.boxes and name in glb_tiles[0].boxes:
                    moved = [a[0] - b[0] for a, b in zip(g.boxes[name], glb_tiles[0].boxes[name])]
                    boxes[name] = [(lo + d, hi + d) for (lo, hi), d in zip(box, moved)]
            out.append(Tile(m.output_box, boxes))
    return out


def _with_offsets(pipe: Pipeline, op: Op, tiles: list[Tile]) -> Op:
    ports: dict[int, CoordPort] = {}
    for c in op.coords:
        offsets = () if c.reduction else _offsets(pipe, op, c, tiles)
        if offsets:
            ports[id(c)] = replace(c, tile_offsets=offsets)
    if not ports:
        return op

    def swap(call: ir.Call) -> ir.Expr | None:
        new = ports.get(id(call.callee))
        return None if new is None else ir.Call(call.type, new, call.args)

    memo: dict = {}  # (a RAM's computed address reads the coordinate too: fuzz-like probe of session 30)
    return replace(op, value=map_calls(op.value, swap, memo), coords=tuple(ports.get(id(c), c) for c in op.coords),
                   scatter=tuple(map_calls(e, swap, memo) for e in op.scatter),
                   lookup=tuple(map_calls(e, swap, memo) for e in op.lookup))


def _offsets(pipe: Pipeline, op: Op, c: CoordPort, tiles: list[Tile]) -> tuple[int, ...]:
    """Per tile, how far the coordinate's dimension of op's Func starts from where it starts in the first tile;
    () when that never matters."""
    f = pipe.functions[op.func]
    dims = [i for i, a in enumerate(f.args) if a == c.var]
    if not dims and ".rest" in c.var:
        return _run_offsets(pipe, op, c, tiles)
    assert dims, (op.name, c.var)
    origins = [t.boxes[op.func][dims[0]][0] for t in tiles]
    step = _modulus((op.value, *op.scatter, *op.lookup), c)
    if len({o % step for o in origins} if step else set(origins)) == 1:
        return ()
    return tuple(o - origins[0] for o in origins)


def _modulus(values: tuple[ir.Expr, ...], port: CoordPort) -> int:
    """m when every use of the coordinate in `values` (an op's value and computed addresses) is `coordinate % m`
    for one constant m (the parity of x in an interleave): tiles whose origins agree modulo m see the same values.
    0 otherwise."""
    mods: set[int] = set()
    bare = False
    for n in (n for v in values for n in ir.walk(v)):
        kids = ir.children(n)
        for k, child in enumerate(kids):
            if isinstance(child, ir.Call) and child.callee is port:
                if (isinstance(n, ir.BinOp) and n.op == "mod" and k == 0 and isinstance(n.b, ir.Const)
                        and int(n.b.value) > 0):
                    mods.add(int(n.b.value))
                else:
                    bare = True
    return mods.pop() if len(mods) == 1 and not bare else 0


def _run_offsets(pipe: Pipeline, op: Op, c: CoordPort, tiles: list[Tile]) -> tuple[int, ...]:
    """() for a quotient's remainder within a run (lane_quotients.py: `x.rest0`, a sum of the run's loops, the
    same in every tile), where every tile starts a whole number of runs (g * x.strip_o: g pixels) from the first;
    else a user error (a remainder a tile's offset moves would select the wrong words)."""
    f = pipe.functions[op.func]
    stem = c.var.split(".rest")[0]
    for i, a in enumerate(f.args):
        if a != stem or i >= len(op.store.index):
            continue
        run = max((k for v, k in op.store.index[i].terms if v.endswith(".strip_o")), default=0)
        origins = [t.boxes[op.func][i][0] for t in tiles]
        if run and any((o - origins[0]) % run for o in origins):
            raise ScheduleError(
                f"{_tiles_loc(pipe, stem)}: Func '{op.func}' runs its loop over {stem} in runs of {run} pixels, in "
                f"which each read at a quotient selects its word by its place in the run, but its host tiles start at "
                f"{stem} = {', '.join(map(str, sorted(set(origins))))}, not all whole runs apart; make the tiles along "
                f"{stem} a multiple of {run} wide (and the output a multiple of them)")
    return ()


def _tiles_loc(pipe: Pipeline, dim: str) -> str:
    """Where the user cut the accelerated Func into tiles along `dim`: its split (or tile) of `dim`, else its
    hw_accelerate call."""
    f = next(f for f in pipe.order if f.placement.hw_accelerate is not None)
    for d in f.definitions[0].schedule.directives:
        if isinstance(d, Split) and d.old == dim:
            return str(d.loc)
    return str(f.placement.hw_accelerate[2]) if f.placement.hw_accelerate else "?"
