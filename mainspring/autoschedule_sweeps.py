"""What a sweep of the frame per plane holds and costs, for the memory and cycle models of an automatic schedule.

A reduction whose RVar runs outside its pure Vars (`plan.sweeps`, autoschedule_planes.py: `update(0).reorder(x,
y, r)`) sweeps its tile once per value of the RVar. Its sums wait a whole sweep for the next plane, so the swept Func
holds its whole tile box; and every buffered Func or stream that a sweep reads again, at coordinates that do not
follow the plane (block matching's `diff(x, y, d) = absd(left(x, y), right(x - d, y))` reads `left` and `right` at
every disparity d), holds its whole box too: its values arrive once, at the first sweep. Those that follow the plane
(`diff`, read at d) are made again each sweep, in line buffers. Such a design takes, per tile, one sweep per plane
over the largest box made again each sweep (the compiler's ideal cycles: SAD at 1920x1080 in tiles of 1920 x 30,
4 x 1922 x 32 per tile). Its memory then grows with the tile's area, not its width alone, so autoschedule_tiles.py
bounds its host tiles along y as well (strips, not columns of the frame's height).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .frontend import ir
from .frontend.func import Function

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Plan
    from .frontend.pipeline import Pipeline


@dataclass(frozen=True)
class Sweeps:
    held: frozenset[int]  # the Funcs and streams (by id) holding their whole tile box
    remade: tuple[tuple[Function, int, frozenset[int]], ...]  # (Func made again each sweep, the sweeps over it,
    # its arguments that follow the plane: one value of them at a time, so its line buffers hold one plane)

    def one_plane(self, f: Function) -> frozenset[int]:
        """f's arguments that follow a sweep's plane (none where no sweep makes f again)."""
        return next((dims for g, _, dims in self.remade if g is f), frozenset())


def sweeps(pipe: Pipeline, plan: _Plan) -> Sweeps:
    """The plan's sweeps: what they hold whole and what they make again per plane (see the module's notes)."""
    held: set[int] = set()
    remade: dict[int, tuple[Function, int, frozenset[int]]] = {}
    owners = {id(f): f for f in plan.buffered + [plan.accelerated]}
    inside = {id(g) for g in plan.region}
    kept = {id(g) for g in plan.buffered} | {id(s) for s in plan.streams}
    for fid, updates in plan.sweeps.items():
        f = owners.get(fid)
        if f is None:
            continue
        held.add(fid)
        for k, outer in updates:
            d = pipe.definitions(f)[k + 1]
            planes = math.prod(int(e.value) if isinstance(e, ir.Const) else 1 for r, _, e in d.rdom.dims
                               if r in outer)
            todo = [(n, set(outer)) for n in ir.walk(d.value) if _read(n, f)]
            seen: set[tuple[int, frozenset[str]]] = set()
            while todo:
                call, names = todo.pop()
                g = call.callee
                dims = frozenset(i for i, a in enumerate(call.args)
                                 if i not in _xy_args(plan, g) and any(_named(m, names) for m in ir.walk(a)))
                moving = {g.args[i] for i in dims}
                key = (id(g), frozenset(moving))
                if key in seen:
                    continue
                seen.add(key)
                if not moving and id(g) in kept:
                    held.add(id(g))  # read again by each sweep, its values arrived once
                    continue
                if moving and id(g) in inside | kept and id(g) not in remade:
                    remade[id(g)] = (g, planes, dims)
                if id(g) in inside and id(g) not in {id(s) for s in plan.streams}:
                    todo += [(n, moving) for gd in pipe.definitions(g) for n in ir.walk(gd.value) if _read(n, g)]
    return Sweeps(frozenset(held), tuple(remade.values()))


def sweep_cycles(pipe: Pipeline, got: Sweeps, boxes: dict[str, list], x_dim: dict[int, int]) -> int:
    """A tile's cycles over its sweeps: per plane, the largest x-y box made again each sweep."""
    most = 0
    for g, planes, _ in got.remade:
        box, j = boxes[pipe.name(g)], x_dim.get(id(g), 0)
        if j + 1 < len(box):
            most = max(most, planes * (box[j][1] - box[j][0] + 1) * (box[j + 1][1] - box[j + 1][0] + 1))
    return most


def _read(n: ir.Expr, f: Function) -> bool:
    return isinstance(n, ir.Call) and isinstance(n.callee, Function) and n.callee is not f


def _named(m: ir.Expr, names: set[str]) -> bool:
    return isinstance(m, (ir.Var, ir.RVar)) and m.name in names


def _xy_args(plan: _Plan, g: Function) -> tuple[int, int]:
    j = plan.lanes.x_dim.get(id(g), 0)
    return j, j + 1
