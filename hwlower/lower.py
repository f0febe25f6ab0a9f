"""Lower the accelerated region of a pipeline to the loop-nest IR (`hwlower.ir`).

Each buffered Func becomes loop nests of ops over its box. Updates whose reduction loops are all unrolled
are folded into the Func's one op (compute duplication: the unrolled iterations become one expression, each
reading the previous one's value), so a fully unrolled 3x3 convolution is one op reading nine taps. Other
updates stay separate ops with sequential reduction loops.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import numpy as np

from mainspring.frontend import ir
from mainspring.frontend.bounds import Box, infer_boxes
from mainspring.frontend.errors import HalideError, ScheduleError
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.pipeline import Pipeline

from .affine import affine_of
from .ir import Access, Affine, Buffer, CoordPort, LoadPort, Loop, LoopNest, Op, Rom
from .lanes import (
    Lanes, check_folded_update, check_independent_lanes, check_rates, input_lanes, output_lanes, stage_lanes,
)
from .loops import StageLoop, StageLoops, replay
from .simplify import simplify
from .hierarchy import GlbLevel, user_handle
from .region import Region, find_region
from .tiling import Tile, host_tiles, tile_grid


@dataclass(frozen=True, slots=True)
class Lowered:
    nest: LoopNest
    region: Region
    pipe: Pipeline
    boxes: dict[str, Box]  # every Func's box over the whole output (what the host computes), by unique name
    output_box: Box  # the final (host) output's box
    tiles: tuple[Tile, ...]  # host invocations (GLB tiles with a GLB level); the hardware is built for tiles[0]
    glb: GlbLowered | None = None


@dataclass(frozen=True, slots=True)
class GlbLowered:
    """The GLB level: the array runs once per memory tile of each GLB tile (`Lowered.tiles`)."""

    level: GlbLevel
    mem_tiles: tuple[Tile, ...]  # the array's invocations in the first GLB tile, in loop order
    readback: Op  # the GLB output's copy op over one GLB tile: the order the host reads it back
    readback_loops: tuple[Loop, ...]
    host_loops: tuple[tuple[str, int], ...]  # the host's loops over GLB tiles, outermost first, with trip counts
    mem_loops: tuple[tuple[str, int], ...]  # the array output's loops over memory tiles in one GLB tile

    @property
    def mem_grid(self) -> tuple[int, ...]:
        """Memory tiles per memory-tile loop, innermost first."""
        return tuple(n for _, n in reversed(self.mem_loops))


def output_box(pipe: Pipeline) -> Box:
    out = pipe.output
    box = []
    for name in out.args:
        b = out.placement.bounds.get(name)
        if b is None or b[0] is None:
            raise ScheduleError(
                f"Func '{out.name}' is the pipeline's output but its dimension {name} has no bound: hardware sizes "
                f"are fixed at compile time. Add {out.name}.bound({name}, 0, <extent>) for each dimension "
                f"({', '.join(out.args)})."
            )
        box.append((b[0], b[0] + b[1] - 1))
    return box


def lower(pipe: Pipeline, name: str) -> Lowered:
    """Build the loop nest of the accelerated region of `pipe`."""
    region = find_region(pipe)
    obox = output_box(pipe)
    required: dict[str, Box] = {}
    boxes, _ = infer_boxes(pipe, obox, lambda p: None, required=required)
    acc = region.accelerated
    # Tiles step over what the host reads of the accelerator output, not over its RoundUp padding.
    tiles = host_tiles(pipe, acc, acc.placement.hw_accelerate[1], required[pipe.name(acc)])
    glb = None
    if region.glb is not None:
        glb = _lower_glb(pipe, region, tiles[0], boxes)
        tile_boxes = glb.mem_tiles[0].boxes
    else:
        tile_boxes = tiles[0].boxes
    out_tile = (glb.mem_tiles[0] if glb is not None else tiles[0]).output_box
    tables = _table_values(pipe, region, boxes)
    inlined = {id(f) for f in region.inlined}
    buffers = [Buffer(pipe.name(f), f.type, _box_tuple(tile_boxes[pipe.name(f)])) for f in region.inputs]
    in_lanes = {pipe.name(f): _input_lanes(pipe, f, tile_boxes[pipe.name(f)]) for f in region.inputs}
    op_lanes: dict[str, Lanes] = {}
    body: list[Loop | Op] = []
    defs_of = {id(f): [_inline_definition(pipe, d, inlined) for d in pipe.definitions(f)] for f in region.buffered}
    steps = _upsample_steps(region, defs_of)
    for f in region.buffered:
        fname = pipe.name(f)
        buffers.append(Buffer(fname, f.type, _box_tuple(tile_boxes[fname])))
        body.extend(_lower_func(pipe, region, f, defs_of[id(f)], tile_boxes[fname], tables, op_lanes,
                                out_tile if f is region.output else None, steps))
    nest = LoopNest(name, tuple(buffers), tuple(pipe.name(f) for f in region.inputs), pipe.name(region.output),
                    tuple(body))
    if len(tiles) > 1 or (glb is not None and len(glb.mem_tiles) > 1):
        _check_tile_free_coordinates(pipe, nest)
    check_rates(nest, op_lanes, in_lanes)
    lanes = tuple((b, ln.k) for b, ln in in_lanes.items())
    lanes += ((nest.output, output_lanes(nest, f"Func '{region.output.name}'")),)
    nest = LoopNest(nest.name, nest.buffers, nest.inputs, nest.output, nest.body, lanes)
    return Lowered(nest, region, pipe, boxes, obox, tiles, glb)


def _lower_glb(pipe: Pipeline, region: Region, glb_tile: Tile, boxes) -> GlbLowered:
    level, f = region.glb, region.output
    mem = host_tiles(pipe, f, region.store_var, glb_tile.output_box)
    _check_regular(f, region.store_var, glb_tile, mem, pipe)
    w = level.output
    own = Region(w, level.store_var, level.store_var, (), (), (), (), ())
    (readback,) = _lower_func(pipe, own, w, pipe.definitions(w), glb_tile.boxes[pipe.name(w)], {}, {})
    loops: list[Loop] = []
    node = readback
    while isinstance(node, Loop):
        loops.append(node)
        (node,) = node.body
    mem_loops = tile_grid(f, region.store_var, glb_tile.output_box)
    host_loops = tile_grid(w, level.store_var, boxes[pipe.name(w)])
    return GlbLowered(level, mem, node, tuple(loops), host_loops, mem_loops)


def _check_regular(f: Function, var: str | None, glb_tile: Tile, mem: tuple[Tile, ...], pipe) -> None:
    """Memory tiles must cut a GLB tile into equal tiles, so the GLB's address controllers are affine."""
    whole = glb_tile.output_box
    size = [hi - lo + 1 for lo, hi in mem[0].output_box]
    for (lo, hi), t in zip(whole, size):
        if (hi - lo + 1) % t:
            raise ScheduleError(
                f"{f.placement.compute.loc}: Func '{f.name}': its memory tiles (loop {var}) are {size} but the GLB "
                f"tile is {[h - l + 1 for l, h in whole]}: a memory tile must divide the GLB tile; choose a tile "
                "size that divides it"
            )


def _input_lanes(pipe: Pipeline, f: Function, box: Box) -> Lanes:
    """The lanes of an accelerator input's stream: its unroll of x (the host streams the box x fastest)."""
    extents = {a: (lo, hi - lo + 1) for a, (lo, hi) in zip(f.args, box)}
    sched = f.definitions[0].schedule
    return input_lanes(pipe.name(f), f.args[0], replay(sched, extents, set(), f"Func '{f.name}'"), sched,
                       user_handle(f))


def _box_tuple(box: Box) -> tuple[tuple[int, int], ...]:
    return tuple((lo, hi - lo + 1) for lo, hi in box)


# ---- inlining ----------------------------------------------------------------------------------------

def _inline_definition(pipe: Pipeline, d: Definition, inlined: set[int]) -> Definition:
    memo: dict = {}
    args = tuple(_inline(pipe, a, inlined, memo) for a in d.args)
    return Definition(args, _inline(pipe, d.value, inlined, memo), d.rdom, d.loc, d.schedule)


def _inline(pipe: Pipeline, e: ir.Expr, inlined: set[int], memo: dict) -> ir.Expr:
    def replace(node: ir.Call) -> ir.Expr | None:
        g = node.callee
        if not isinstance(g, Function) or id(g) not in inlined:
            return None
        gdefs = pipe.definitions(g)
        value = gdefs[0].value
        for d in gdefs[1:]:  # an inline reduction (sum(), maximum(), ...): its whole RDom in one expression
            value = _fold(g, d, value, force=True)
            if value is None:
                raise ScheduleError(
                    f"Func '{g.name}' has update definitions, so it cannot be inlined into the accelerator; give it "
                    f"a buffer: {g.name}.compute_at(<accelerator output>, <store var>)"
                )
        args = [_inline(pipe, a, inlined, memo) for a in node.args]
        body = ir.substitute(value, dict(zip(g.args, args)))
        return _inline(pipe, body, inlined, {})

    return map_calls(e, replace, memo)


def map_calls(e: ir.Expr, fn, memo: dict) -> ir.Expr:
    """Rebuild e bottom-up, replacing each Call (its args already rebuilt) for which fn returns a replacement."""
    def visit(node: ir.Expr, kids: tuple) -> ir.Expr:
        node = ir.rebuild(node, kids)
        if isinstance(node, ir.Call):
            out = fn(node)
            return node if out is None else out
        return node

    return ir.transform(e, visit, memo)


# ---- one Func -----------------------------------------------------------------------------------------

def _lower_func(pipe, region: Region, f: Function, defs: list[Definition], box: Box, tables,
                op_lanes: dict[str, Lanes], loop_box: Box | None = None, steps=None) -> list[Loop | Op]:
    """The ops of one Func over its box; the pure loops run over `loop_box` when given (the accelerator
    output's tile, whose host loops have one iteration; RoundUp tails cover the rest of `box`)."""
    fname = pipe.name(f)
    pure_extents = {a: (loop_box or box)[i] for i, a in enumerate(f.args)}
    pure_extents = {a: (lo, hi - lo + 1) for a, (lo, hi) in pure_extents.items()}
    s0 = replay(defs[0].schedule, pure_extents, set(), f"Func '{f.name}'")
    if f is region.output:
        s0 = _drop_host_loops(f, s0, region)
    lanes0 = stage_lanes(f"Func '{f.name}'", user_handle(f), f.args[0], s0, defs[0].schedule)
    value = defs[0].value
    out: list[Loop | Op] = []
    pending: list[tuple[int, Definition]] = []
    for k, d in enumerate(defs[1:], start=1):
        folded = None if pending else _fold(f, d, value)
        if folded is None:
            pending.append((k, d))
        else:
            check_folded_update(f"Func '{f.name}'", _update_lanes(f, d, box, k), lanes0)
            value = folded
    out.append(_make_op(pipe, fname, f, 0, defs[0], value, s0, tables, steps))
    op_lanes[f"{fname}_s0"] = lanes0
    for k, d in pending:
        sk = _update_loops(f, d, box, k)
        out.append(_make_op(pipe, fname, f, k, d, d.value, sk, tables, steps))
        _check_lanes_independent(f, k, d, out[-1])
        op_lanes[f"{fname}_s{k}"] = _update_lanes(f, d, box, k, sk)
    return out


def _check_lanes_independent(f: Function, k: int, d: Definition, node: Loop | Op) -> None:
    loops: list[Loop] = []
    while isinstance(node, Loop):
        loops.append(node)
        (node,) = node.body
    check_independent_lanes(f"{d.loc}: Func '{f.name}'.update({k - 1})", f"{f.name}.update({k - 1})", tuple(loops),
                            node, d.schedule)


def _update_lanes(f: Function, d: Definition, box: Box, k: int, s: StageLoops | None = None) -> Lanes:
    s = s if s is not None else _update_loops(f, d, box, k)
    x = d.args[0].name if isinstance(d.args[0], ir.Var) else ""
    return stage_lanes(f"Func '{f.name}'.update({k - 1})", f"{user_handle(f)}.update({k - 1})", x, s, d.schedule)


def _drop_host_loops(f: Function, s: StageLoops, region: Region) -> StageLoops:
    """The loops inside the accelerator (the box is one tile, so the host loops have one iteration)."""
    names = [lp.dim for lp in s.loops]
    cut = names.index(region.store_var) + 1 if region.store_var is not None else 0
    host = s.loops[:cut]
    assert all(lp.extent == 1 for lp in host), [(lp.dim, lp.extent) for lp in host]
    zero = {lp.dim for lp in host}
    exprs = {v: Affine.make({d: c for d, c in a.terms if d not in zero}, a.const) for v, a in s.var_exprs.items()}
    return StageLoops(s.loops[cut:], exprs)


def _update_loops(f: Function, d: Definition, box: Box, k: int) -> StageLoops:
    extents: dict[str, tuple[int, int]] = {}
    for i, a in enumerate(d.args):
        if isinstance(a, ir.Var):
            extents[a.name] = (box[i][0], box[i][1] - box[i][0] + 1)
    rvars = set()
    for name, lo, ext in d.rdom.dims if d.rdom is not None else ():
        if not isinstance(lo, ir.Const) or not isinstance(ext, ir.Const):
            raise ScheduleError(
                f"{d.loc}: Func '{f.name}': update {k - 1} ranges over RDom {d.rdom.name}, whose bounds are not "
                "constants; hardware loops need constant bounds"
            )
        extents[name] = (lo.value, ext.value)
        rvars.add(name)
    return replay(d.schedule, extents, rvars, f"Func '{f.name}'.update({k - 1})", update=True)


def _fold(f: Function, d: Definition, acc: ir.Expr, force: bool = False) -> ir.Expr | None:
    """The update applied to acc with all its (unrolled) reduction points, or None if it cannot be folded.
    `force`: fold whether or not the schedule unrolls the reduction (an inlined Func has no loops of its own)."""
    if any(not (isinstance(a, ir.Var) and a.name == n) for a, n in zip(d.args, f.args)):
        return None
    if d.rdom is None:
        return _replace_self(f, d.value, acc)
    names = [name for name, _, _ in d.rdom.dims]
    if not all(isinstance(e, ir.Const) for _, lo, ext in d.rdom.dims for e in (lo, ext)) or \
            not (force or _rvars_unrolled(d)):
        return None
    ranges = [range(lo.value, lo.value + ext.value) for _, lo, ext in reversed(d.rdom.dims)]  # outermost first
    for point in itertools.product(*ranges):
        env = {n: ir.i32(v) for n, v in zip(reversed(names), point)}
        acc = _replace_self(f, ir.substitute(d.value, env), acc)
    return acc


def _rvars_unrolled(d: Definition) -> bool:
    """Whether every loop of the update's reduction domain is unrolled (or has one iteration), after its splits
    (`unroll(r, factor)` splits r first)."""
    from mainspring.frontend.schedule import ForType, Fuse, Split

    ext = {name: e.value for name, _, e in d.rdom.dims}
    unrolled: set[str] = set()
    for dv in d.schedule.directives:
        if isinstance(dv, Split) and dv.old in ext:
            e = ext.pop(dv.old)
            if e % dv.factor:
                return False  # a tail: the general path reports it
            ext[dv.inner], ext[dv.outer] = dv.factor, e // dv.factor
        elif isinstance(dv, Fuse) and (dv.inner in ext or dv.outer in ext):
            return False
        elif isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize") and dv.var in ext:
            unrolled.add(dv.var)
    return all(n in unrolled or e == 1 for n, e in ext.items())


def _replace_self(f: Function, e: ir.Expr, acc: ir.Expr) -> ir.Expr:
    return map_calls(e, lambda c: acc if c.callee is f else None, {})


def _make_op(pipe, fname: str, f: Function, k: int, d: Definition, value: ir.Expr, s: StageLoops, tables,
             steps: dict[int, int] | None = None) -> Loop | Op:
    """The op of stage k of f (definition d, whose value is `value` after folding unrolled updates)."""
    args = d.args
    s = _strip_mine(s, args, steps or {}, f)
    full = {lp.dim: f"{fname}.s{k}.{lp.dim}" for lp in s.loops}
    env = {v: Affine.make({full[d]: c for d, c in a.terms}, a.const) for v, a in s.var_exprs.items()}
    ranges = {full[lp.dim]: lp.extent for lp in s.loops}
    who = f"{d.loc}: Func '{f.name}'" + ("" if k == 0 else f".update({k - 1})")
    store = Access(fname, tuple(_affine(a, env, who, fname, ranges) for a in args))
    ports: dict[tuple, LoadPort] = {}

    def to_port(c: ir.Call):
        if not isinstance(c.callee, Function):
            return None
        src = pipe.name(c.callee)
        idx = tuple(_affine(a, env, who, src, ranges) for a in c.args)
        key = (src, idx)
        if key not in ports:
            stem = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", src)).strip("_")
            ports[key] = LoadPort(f"{stem}_{len([p for p in ports if p[0] == src])}", Access(src, idx))
        return ir.Call(c.type, ports[key], ())

    value = simplify(map_calls(simplify(value), lambda c: _table_constant(c, tables, who, pipe), {}))
    body = simplify(map_calls(value, to_port, {}))
    _check_integer(body, who)
    body, coords = _coordinates(body, env, who)
    node: Loop | Op = Op(f"{fname}_s{k}", fname, k, store, tuple(ports.values()), body, coords)
    for lp in reversed(s.loops):
        node = Loop(full[lp.dim], 0, lp.extent, (node,), lp.unrolled)
    return node


def _upsample_steps(region: Region, defs_of: dict) -> dict[int, int]:
    """Dimension -> d for every index divided by a constant d (x / 2 of an upsample) in the accelerator."""
    steps: dict[int, int] = {}
    for f in region.buffered:
        own = {a: Affine.make({a: 1}, 0) for a in f.args}
        for d in defs_of[id(f)]:
            exprs = list(d.args) + [c for n in ir.walk(d.value) if isinstance(n, ir.Call) for c in n.args]
            for e in exprs:
                for n in ir.walk(e):
                    if isinstance(n, ir.BinOp) and n.op in ("div", "mod") and isinstance(n.b, ir.Const) \
                            and n.b.value > 1:
                        a = affine_of(n.a, own)
                        if a is not None and len(a.terms) == 1 and a.terms[0][1] == 1:
                            steps.setdefault(f.args.index(a.terms[0][0]), n.b.value)
    return steps


def _strip_mine(s: StageLoops, args, steps: dict[int, int], f: Function) -> StageLoops:
    """Split the loop over each dimension that an upsample divides by d into L.strip_o and L.strip_i of extent
    d (L = d * L.strip_o + L.strip_i), in every op of the accelerator, so that x / d is affine (L.strip_o) and
    all loop nests keep the same shape for the scheduler (memories/schedule.py knows these names)."""
    split: dict[str, int] = {}
    for i, a in enumerate(args):
        if i in steps and isinstance(a, ir.Var) and a.name in s.var_exprs:
            terms = s.var_exprs[a.name].terms
            if len(terms) == 1 and terms[0][1] == 1:
                split[terms[0][0]] = steps[i]
    loops, exprs = [], dict(s.var_exprs)
    for lp in s.loops:
        d = split.get(lp.dim)
        if d is None or lp.unrolled or lp.extent == 1:
            loops.append(lp)
            continue
        if lp.extent % d:
            raise ScheduleError(
                f"Func '{f.name}': an upsample divides the index of dimension {lp.dim} by {d}, so every Func in "
                f"the accelerator runs that loop in steps of {d}, but '{f.name}' runs it {lp.extent} times; make "
                f"its extent a multiple of {d} (bound the output to a multiple of {d})"
            )
        outer, inner = f"{lp.dim}.strip_o", f"{lp.dim}.strip_i"
        loops += [StageLoop(outer, lp.extent // d, False, lp.is_rvar), StageLoop(inner, d, False, lp.is_rvar)]
        for v, a in exprs.items():
            c = dict(a.terms).get(lp.dim, 0)
            if c:
                terms = {t: k for t, k in a.terms if t != lp.dim}
                terms[outer], terms[inner] = c * d, c
                exprs[v] = Affine.make(terms, a.const)
    return StageLoops(tuple(loops), exprs)


def _table_values(pipe, region: Region, boxes) -> dict:
    """Each constant table (a Func reading no input or Param), evaluated by the reference over its box."""
    from mainspring.frontend.evaluate import realize_arrays
    from mainspring.frontend.func import Func

    out = {}
    for t in region.tables:
        sub = Pipeline(t.handle if t.handle is not None else Func(t))
        out[id(t)] = _Table(pipe.name(t), realize_arrays(sub, boxes[pipe.name(t)])[id(t)])
    return out


_MAX_ROM_WORDS = 1 << 16  # a table read at computed coordinates is a ROM of at most this many words


class _Table:
    """A constant table as the reference computed it; its ROM is built once, at its first varying read."""

    def __init__(self, name: str, store):
        self.name, self.store, self._rom = name, store, None

    def rom(self) -> Rom:
        if self._rom is None:
            box = tuple((m, n) for m, n in zip(self.store.mins, self.store.arr.shape))
            values = tuple(int(v) for v in np.asarray(self.store.arr).transpose().ravel())
            self._rom = Rom(self.name, values, box)
        return self._rom


def _table_constant(c: ir.Call, tables: dict, who: str, pipe) -> ir.Expr | None:
    """A read of a constant table at constant coordinates, as the constant it reads."""
    table = tables.get(id(c.callee))
    if table is None:
        return None
    store = table.store
    args = [simplify(a) for a in c.args]
    if not all(isinstance(a, ir.Const) for a in args):
        if not c.type.is_float() and store.arr.size <= _MAX_ROM_WORDS:
            # Read at loop or computed coordinates: a ROM holding the table as the reference computed it.
            return ir.Call(c.type, table.rom(), tuple(args))
        shown = ", ".join(ir.to_string(a) for a in args)
        raise HalideError(
            f"{who} reads '{pipe.name(c.callee)}' (a constant Func, known at compile time) at ({shown}), which is "
            f"not a fixed coordinate, and its table of {store.arr.size} {c.type} values cannot be a ROM (at most "
            f"{_MAX_ROM_WORDS} integer words); bound the coordinates it is read at (clamp them), or read it at "
            "constant coordinates (unroll the loops that index it)"
        )
    idx = tuple(a.value - m for a, m in zip(args, store.mins))
    return ir.Const(c.type, int(store.arr[idx]))


def _check_integer(value: ir.Expr, who: str) -> None:
    floats = [n for n in ir.walk(value) if n.type.is_float()]  # children first: the last is the widest
    if floats:
        n = floats[-1]
        raise HalideError(
            f"{who} computes in floating point inside the accelerator ({ir.to_string(n)} is {n.type}); the "
            "PEs are integer units. Compute the floating-point part in a Func of its own that reads no input "
            "(a table known at compile time, folded where it is read at constant coordinates), or on the "
            "host before the accelerator input, or use fixed point (multiply, then shift)."
        )


def _check_tile_free_coordinates(pipe: Pipeline, nest: LoopNest) -> None:
    """With several tiles the hardware is built for the first: a pure coordinate would be the first tile's."""
    for _, op in nest.ops():
        for c in op.coords:
            if not c.reduction:
                f = pipe.functions[op.func]
                raise ScheduleError(
                    f"{pipe.definitions(f)[op.stage].loc}: Func '{f.name}' uses a coordinate as a value "
                    f"({c.name[len('coord_'):]}), but the accelerator runs once per tile and every tile runs the "
                    "same hardware, which counts coordinates from its own tile; accelerate the whole output as one "
                    "tile, or compute the coordinate-dependent part on the host and stream it in"
                )


def _coordinates(value: ir.Expr, env: dict[str, Affine], who: str) -> tuple[ir.Expr, tuple[CoordPort, ...]]:
    """Each coordinate (Var or RVar) the value reads, as a CoordPort: an affine function of the op's loops."""
    ports: dict[str, CoordPort] = {}

    def visit(node: ir.Expr, kids: tuple) -> ir.Expr:
        node = ir.rebuild(node, kids)
        if not isinstance(node, (ir.Var, ir.RVar)):
            return node
        if node.name not in env:
            raise HalideError(
                f"{who} uses the coordinate {node.name} as a value ({ir.to_string(value)}), which is not one of its "
                "loops; compute the coordinate-dependent part on the host and stream it in as an accelerator input"
            )
        if node.name not in ports:
            stem = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", node.name)).strip("_")
            ports[node.name] = CoordPort(f"coord_{stem}", env[node.name], isinstance(node, ir.RVar))
        return ir.Call(node.type, ports[node.name], ())

    return ir.transform(value, visit, {}), tuple(ports.values())


def _affine(e: ir.Expr, env: dict[str, Affine], who: str, buf: str, ranges=None) -> Affine:
    a = affine_of(e, env, ranges)
    if a is None:
        scaled = any(isinstance(n, ir.BinOp) and n.op in ("div", "mod") for n in ir.walk(e))
        hint = ("an index divided (or taken modulo) by a constant d is affine only where its loop runs over whole "
                "multiples of d (an upsample by d splits the loop into d-long steps); make the Func's extent along "
                "that loop a multiple of d, starting at a multiple of d"
                if scaled else
                "apply boundary conditions and data-dependent indexing on the host side, before the accelerator "
                "input")
        raise HalideError(
            f"{who} accesses '{buf}' at {ir.to_string(e)}, which is not an affine function of its loops; memories "
            f"need affine addresses: {hint}."
        )
    return a
