"""Pass `stream_per_rate`: an accelerator input read at two rates in host tiles becomes one stream per rate.

Host tiles run the same hardware, so each Func's box may only shift from tile to tile. An input read both
through an upsample and directly (`f0(x, y) = hw_input(x, y / 2)`, `hw_output(x, y) = f0(x, y) + hw_input(x, y +
1)`) needs boxes that move at two rates: the tile 2 rows on reads 1 row on through y / 2 and 2 rows on through y +
1, so the union of both changes shape (fuzz 133450, 9158449); where it keeps its shape (the slow read inside the
fast one's reach, a tile shifted by 2), the hardware, which addresses each read from the box's corner, still reads
the wrong words through y / 2 (fuzz 153216). Real Halide accepts it: its input buffer is the
whole image. Here the reads of such an input are grouped by how their footprints move from tile to tile, and
every group past the first reads a copy of the input (`hw_input_rate1`, ...), as if the user had written two copy
Funcs of the same image: the host streams each its own box per tile, each of which only shifts. The copy is a
second stream of the same source (`stream_sources`), as the `edges` pass makes for reads extended otherwise; an
input the `edges` pass extended (read through a boundary condition) gives its copy its edge maps, which are in
absolute coordinates over every read's reach.

A Func computed inside read so is computed twice alike (`g`, `g_rate1`: two buffers), g keeping the fastest reads
(at full resolution, in the steps its loops take) and the copy the slower; its producers' boxes are inferred again
from both, so that an input it reads gets one stream per rate in turn.

Left as they are (and refused by the shape check after, naming the two rates): inputs and Funcs under a GLB level
(the array's memory tiles), a Func inside that itself reads through a division (its copy would need steps of its
own) or whose boxes this inference does not reproduce (updates writing elsewhere), and groups whose own box still
changes shape."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder, Box, definition_env, union
from mainspring.frontend.func import Definition, Function

from .fold import map_calls, map_definition_calls
from .shift_tails import realise, shifted_funcs
from .state import Lowering
from .tiling import no_scalars

_Shifts = tuple[tuple[int, ...], ...]  # per tile, per dimension: how far a read's footprint moved from the first


def stream_per_rate(s: Lowering) -> Lowering:
    """One stream (or buffer) per group of reads whose footprints shift together, for every input and every Func
    computed inside whose box changes shape, consumers first (a Func split in two may read its producers at two
    rates in turn)."""
    region = s.found_region
    if len(s.tiles) < 2 or region.glb is not None:
        return s
    inside = [f for f in reversed(region.buffered) if f is not region.output]
    for g in inside + list(region.inputs):
        groups = _groups(s, g)
        if len(groups) < 2:
            continue  # (reads that move apart need a stream each even where their union keeps one shape: the
            # hardware addresses every read from the box's corner, fuzz 153216)
        if g in inside:  # its producers' boxes are then inferred again from the reads of both copies
            if _divides(s, g) or _reinferred(s) != [(t.boxes, t.demands) for t in s.tiles]:
                continue  # (only where that inference gives bounds inference's boxes before the split)
            s = _split(s, g, groups)
            s = replace(s, tiles=tuple(replace(t, boxes=b, demands=d) for t, (b, d) in zip(s.tiles, _reinferred(s))))
        else:
            s = _split(s, g, groups)
    return s


def _divides(s: Lowering, g: Function) -> bool:
    """Whether g reads a Func through a division or modulo (its copy, without upsample steps of its own
    (`s.multiples`), could not strip-mine its loops)."""
    return any(isinstance(n, ir.BinOp) and n.op in ("div", "mod") for d in s.defs(g) for e in (*d.args, d.value)
               for c in ir.walk(e) if isinstance(c, ir.Call) for a in c.args for n in ir.walk(a))


def _reinferred(s: Lowering) -> list[tuple[dict[str, Box], dict[str, Box]]]:
    """Every tile's (boxes, demands), with the boxes of the Funcs computed inside (but the output) and of the
    inputs inferred again, consumers first, from what their readers' boxes reach."""
    region = s.found_region
    shifted = shifted_funcs(region)
    out = []
    for t in s.tiles:
        boxes, demands = dict(t.boxes), dict(t.demands)
        for p in [f for f in reversed(region.buffered) if f is not region.output] + list(region.inputs):
            need = _reach(s, p, boxes, demands)
            if need is None:
                continue
            realise(p, need, s.multiples.get(id(p), {}), id(p) in shifted, boxes, demands, s.pipe.name(p))
        out.append((boxes, demands))
    return out


def _reach(s: Lowering, p: Function, boxes: dict[str, Box], demands: dict[str, Box]) -> Box | None:
    """The union of what the reads of p inside reach, each reader over its demand, else its box."""
    need: Box | None = None
    for f in s.found_region.buffered:
        for d in s.defs(f):
            calls = _calls(d, p)
            if calls:
                name = s.pipe.name(f)
                bound = Bounder(definition_env(demands.get(name, boxes[name]), d, no_scalars), no_scalars)
                for c in calls:
                    box = [bound(a) for a in c.args]
                    need = box if need is None else union(need, box)
    return need


def _groups(s: Lowering, g: Function) -> dict[_Shifts, list[tuple[int, list[Box]]]]:
    """g's reads inside, by how their footprints shift over the tiles: {shifts: [(id(call), reach per tile)]}."""
    out: dict[_Shifts, list[tuple[int, list[Box]]]] = {}
    for f in s.found_region.buffered:
        fname = s.pipe.name(f)
        for d in s.defs(f):
            # (a reader asks its producers for its demand, where shift_tails grew its own box past it)
            envs = [definition_env(t.demands.get(fname, t.boxes[fname]), d, no_scalars) for t in s.tiles]
            for c in _calls(d, g):
                reach = [[Bounder(env, no_scalars)(a) for a in c.args] for env in envs]
                shifts = tuple(tuple(lo - lo0 for (lo, _), (lo0, _) in zip(box, reach[0])) for box in reach)
                out.setdefault(shifts, []).append((id(c), reach))
    return out


def _calls(d: Definition, g: Function) -> list[ir.Call]:
    found: list[ir.Call] = []

    def visit(c: ir.Call) -> ir.Expr | None:
        if c.callee is g:
            found.append(c)
        return None

    memo: dict = {}
    for e in (*d.args, d.value):
        map_calls(e, visit, memo)
    return found


def _split(s: Lowering, g: Function, groups: dict[_Shifts, list[tuple[int, list[Box]]]]) -> Lowering:
    """g kept for the first group (in reading order), a copy of it for each other; every tile's boxes redone."""
    pipe, base = s.pipe, s.pipe.name(g)
    shifted = id(g) in shifted_funcs(s.found_region)
    boxes = [dict(t.boxes) for t in s.tiles]
    demands = [dict(t.demands) for t in s.tiles]
    redirect: dict[int, Function] = {}
    inputs, buffered = list(s.found_region.inputs), list(s.found_region.buffered)
    defs = dict(s.definitions)
    sources = dict(s.stream_sources)
    all_boxes = dict(s.boxes)
    edge_maps = dict(s.edge_maps)
    # g keeps the fastest group (the widest shifts: reads at full resolution, in the upsample's steps the loops
    # take, `s.multiples`); a copy, with no steps of its own, serves each slower one (reads through y / 2)
    fastest = sorted(groups, key=lambda sh: -sum(abs(v) for tile in sh for v in tile))
    for k, reads in enumerate(groups[sh] for sh in fastest):
        f = g
        if k > 0:
            n = k
            while f"{base}_rate{n}" in pipe.functions:
                n += 1
            f = pipe.add_copy(g, f"{base}_rate{n}")
            if g in buffered:  # a buffer of its own, computed alike (its calls new objects, redirected apart)
                buffered.insert(buffered.index(g) + k, f)
                defs[id(f)] = [_fresh_calls(d) for d in defs[id(g)]]
            else:
                inputs.insert(inputs.index(g) + k, f)
                sources[pipe.name(f)] = s.stream_sources.get(base, base)
            if base in s.edge_maps:  # absolute coordinates over every read's reach: the copy's too
                edge_maps[pipe.name(f)] = s.edge_maps[base]
            all_boxes[pipe.name(f)] = s.boxes[base]
            redirect.update((cid, f) for cid, _ in reads)
        fname = pipe.name(f)
        for t in range(len(s.tiles)):
            need = reads[0][1][t]
            for _, reach in reads[1:]:
                need = union(need, reach[t])
            realise(g, need, s.multiples.get(id(g), {}), shifted, boxes[t], demands[t], fname)

    def redirected(c: ir.Call) -> ir.Expr | None:
        f = redirect.get(id(c))
        return None if f is None else ir.Call(c.type, f, c.args)

    defs = {fid: [map_definition_calls(d, redirected) for d in ds] for fid, ds in defs.items()}
    tiles = tuple(replace(t, boxes=b, demands=dm) for t, b, dm in zip(s.tiles, boxes, demands))
    region = replace(s.found_region, inputs=tuple(inputs), buffered=tuple(buffered))
    return replace(s, region=region, definitions=defs, tiles=tiles, boxes=all_boxes, stream_sources=sources,
                   edge_maps=edge_maps)


def _fresh_calls(d: Definition) -> Definition:
    """d with every call a new object (a copy's reads, which `_split` may redirect apart from the original's)."""
    return map_definition_calls(d, lambda c: ir.Call(c.type, c.callee, c.args))
