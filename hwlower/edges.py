"""Pass `replicate_edges`: boundary conditions on an accelerator input, by edge replication in its stream.

A read of an accelerator input at a clamped index, `hw_input(clamp(x - 1, 0, W - 1), y)` (what
`BoundaryConditions.repeat_edge` and `constant_exterior` make), is not affine. The host streams instead a box
widened to the unclamped index's range, each word the input's value at the clamped coordinate (the edge words
repeated), and the accelerator reads it at the unclamped, affine index: `hw_input(x - 1, y)`. Every read of that
dimension of the input must clamp to the same bounds, or stay inside them (an unclamped read outside would see a
repeated edge word instead of the input's own value).
"""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder, Box, definition_env, union
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Definition, Function

from .fold import map_calls
from .program import Tile
from .simplify import simplify
from .state import Lowering

Clamp = tuple[int, int]  # inclusive bounds of one dimension


def replicate_edges(s: Lowering) -> Lowering:
    region = s.found_region
    inputs = {id(f): f for f in region.inputs}
    clamps: dict[tuple[int, int], Clamp] = {}
    raw: set[int] = set()  # the index expressions read without a clamp
    defs = {fid: [_unclamp(d, inputs, clamps, raw) for d in ds] for fid, ds in s.definitions.items()}
    if not clamps:
        return s
    if region.glb is not None:
        f = inputs[next(iter(clamps))[0]]
        raise ScheduleError(
            f"Func '{f.name}' is read at a clamped index inside the accelerator, whose inputs come from the GLB; "
            "edge replication streams from the host only: apply the boundary condition on the host side, before "
            f"the accelerator input ({f.name}[x, y] = input[clamp(x, ...), y] computed at the root)"
        )
    by_input: dict[int, dict[int, Clamp]] = {}
    for (fid, dim), c in clamps.items():
        by_input.setdefault(fid, {})[dim] = c
    tiles = tuple(_widened(s, t, defs, by_input, raw) for t in s.tiles)
    return replace(s, definitions=defs, tiles=tiles, edge_clamps={s.pipe.name(inputs[fid]): dims
                                                                    for fid, dims in by_input.items()})


def _unclamp(d: Definition, inputs: dict[int, Function], clamps: dict[tuple[int, int], Clamp],
             raw: set[int]) -> Definition:
    def visit(c: ir.Call) -> ir.Expr | None:
        f = c.callee
        if not isinstance(f, Function) or id(f) not in inputs:
            return None
        args = []
        for dim, a in enumerate(c.args):
            inner, bounds = _clamped(simplify(a))
            if bounds is not None:
                old = clamps.setdefault((id(f), dim), bounds)
                if old != bounds:
                    raise ScheduleError(
                        f"{d.loc}: Func '{f.name}' is read inside the accelerator clamped to {list(old)} and to "
                        f"{list(bounds)} in its dimension {f.args[dim]}: its stream repeats the edges of one range; "
                        "clamp every read of it to the same bounds"
                    )
            else:
                raw.add(id(inner))
            args.append(inner)
        return ir.Call(c.type, f, tuple(args))

    value = map_calls(d.value, visit, {})
    return Definition(d.args, value, d.rdom, d.loc, d.schedule)


def _clamped(e: ir.Expr) -> tuple[ir.Expr, Clamp | None]:
    """(x, (lo, hi)) for max(min(x, hi), lo) with constant bounds, else (e, None)."""
    if isinstance(e, ir.BinOp) and e.op == "max" and isinstance(e.b, ir.Const):
        inner = e.a
        if isinstance(inner, ir.BinOp) and inner.op == "min" and isinstance(inner.b, ir.Const):
            lo, hi = int(e.b.value), int(inner.b.value)
            if lo <= hi:
                return inner.a, (lo, hi)
    return e, None


def _widened(s: Lowering, tile: Tile, defs: dict[int, list[Definition]], clamps: dict[int, dict[int, Clamp]],
             raw: set[int]) -> Tile:
    """The tile with each clamped input's box grown to its reads' range (the repeated edge words)."""
    region = s.found_region
    boxes = dict(tile.boxes)
    for f in region.buffered:
        box = tile.boxes[s.pipe.name(f)]
        for d in defs[id(f)]:
            bnd = Bounder(definition_env(box, d, lambda p: None), lambda p: None)
            for n in ir.walk(d.value):
                if isinstance(n, ir.Call) and isinstance(n.callee, Function) and id(n.callee) in clamps:
                    reach = [bnd(a) for a in n.args]
                    name = s.pipe.name(n.callee)
                    boxes[name] = union(boxes[name], reach)
                    _check_inside(d, n, reach, clamps[id(n.callee)], raw)
    return Tile(tile.output_box, boxes)


def _check_inside(d: Definition, call: ir.Call, reach: Box, clamps: dict[int, Clamp], raw: set[int]) -> None:
    """An unclamped read of a clamped dimension must stay inside the clamp: outside, the stream repeats edges."""
    f = call.callee
    assert isinstance(f, Function)
    for dim, (lo, hi) in clamps.items():
        a, b = reach[dim]
        if id(call.args[dim]) in raw and (a < lo or b > hi):
            shown = ir.to_string(call.args[dim])
            raise ScheduleError(
                f"{d.loc}: Func '{f.name}' is read at {shown} in its dimension {f.args[dim]}, which reaches "
                f"[{a}, {b}], while other reads clamp it to [{lo}, {hi}]: inside the accelerator its stream repeats "
                f"the edges outside that range; clamp this read too (clamp({shown}, {lo}, {hi}))"
            )


def format_edges(s: Lowering) -> str:
    if not s.edge_clamps:
        return "(no clamped reads of accelerator inputs)\n"
    return "".join(f"{name}: dimension {dim} repeats its edges outside [{lo}, {hi}]\n"
                   for name, dims in s.edge_clamps.items() for dim, (lo, hi) in sorted(dims.items()))

