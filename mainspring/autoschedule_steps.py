"""Whole steps of a resampling pipeline's tiles: where the autoscheduler may split the frame of a pipeline whose
coordinates are divided or scaled (an upsample `f(x / 2, y)`, a downsample `f(2 * x, y)`).

Each Func's dimension is read at a rate relative to the output's x or y (the output's 1; `f(x / 2)` halves it,
`f(2 * x)` doubles it, through every Func of the region, inlined ones too). A tile whose origin and extent are
whole multiples of the denominators of every rate (`step`) reads a footprint of each Func that only shifts from
tile to tile, so the model's figures hold for every tile (hwlower/tiling.py also grows tiles at another phase, but
then a tile computes more than its own part). A Func read at two rates along one axis (`f(2 * x)` through one
reader, `f(x + 1)` through another) has no footprint that only shifts: no tiles along that axis (hwlower/tiling.py
refuses them too, catalogue read_at_two_rates_in_host_tiles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from .frontend import ir
from .frontend.func import Function

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Plan
    from .frontend.pipeline import Pipeline


@dataclass(frozen=True)
class Steps:
    x: int | None  # tile widths and origins are multiples of it; None: no tiles along x (`why`)
    y: int | None
    why_x: str = ""
    why_y: str = ""

    @property
    def resampled(self) -> bool:
        return self.x != 1 or self.y != 1


def _rate(e: ir.Expr, v: str) -> Fraction | None:
    """How fast e moves with Var v (d e / d v), for sums, constant multiples and divisions by constants; None where
    it is not such an expression of v (a clamp: edge taps, whose tiles hwlower's edge taps handle)."""
    if isinstance(e, ir.Var):
        return Fraction(int(e.name == v))
    if isinstance(e, (ir.Const, ir.RVar)):
        return Fraction(0)
    if isinstance(e, ir.Cast):
        return _rate(e.value, v)
    if isinstance(e, ir.BinOp) and e.op in ("add", "sub", "mul", "div"):
        a, b = _rate(e.a, v), _rate(e.b, v)
        if a is None or b is None:
            return None
        if e.op in ("add", "sub"):
            return a + b if e.op == "add" else a - b
        if e.op == "mul":
            if isinstance(e.b, ir.Const):
                return a * int(e.b.value)
            return b * int(e.a.value) if isinstance(e.a, ir.Const) else (Fraction(0) if a == b == 0 else None)
        if isinstance(e.b, ir.Const) and int(e.b.value) > 0:
            return a / int(e.b.value)
        return Fraction(0) if a == b == 0 else None
    return Fraction(0) if not any(isinstance(n, ir.Var) and n.name == v for n in ir.walk(e)) else None


_Rates = dict[tuple[int, int], dict[str, set[Fraction]]]
# The rates of the last few plans, by what they depend on (the pipeline, the region, its streams, the accelerated
# Func, its channel), each with those objects so that their ids stay theirs while the entry lives: tile_steps,
# reread_rows and x_rates ask for one plan's rates several times per tile size tried.
_MEMO: dict[tuple, tuple[tuple, _Rates]] = {}
MEMO_SIZE = 8


def _rates(pipe: Pipeline, plan: _Plan, signed: bool = False) -> _Rates:
    """(id(f), dimension) -> axis ("x", "y") -> the rates at which the region reads that dimension of f (read-only:
    shared by the calls for one plan); `signed`: negative where f is read backwards (a flip), else magnitudes."""
    held = (pipe, plan.accelerated, tuple(plan.region), tuple(plan.streams))
    key = (id(pipe), id(plan.accelerated), plan.channel, tuple(map(id, plan.region)), tuple(map(id, plan.streams)),
           signed)
    if (hit := _MEMO.get(key)) is None:
        hit = _MEMO[key] = (held, _read_rates(pipe, plan, signed))
        while len(_MEMO) > MEMO_SIZE:
            del _MEMO[next(iter(_MEMO))]  # the oldest
    return hit[1]


def _read_rates(pipe: Pipeline, plan: _Plan, signed: bool) -> _Rates:
    region = {id(f) for f in plan.region} | {id(f) for f in plan.streams}
    acc = plan.accelerated
    dims = [a for a in acc.args if a != plan.channel]
    rates: _Rates = {
        (id(acc), acc.args.index(a)): {axis: {Fraction(1)}} for axis, a in zip("xy", dims[:2])}
    for g in reversed(pipe.order):  # consumers first
        if id(g) not in region:
            continue
        mine = [(g.args[i], axis, r) for (fid, i), by in rates.items() if fid == id(g) for axis, rs in by.items()
                for r in rs]
        for d in pipe.definitions(g):
            for n in ir.walk(d.value):
                if not (isinstance(n, ir.Call) and isinstance(n.callee, Function) and id(n.callee) in region
                        and n.callee is not g):
                    continue
                for j, arg in enumerate(n.args):
                    for var, axis, r in mine:
                        got = _rate(arg, var)
                        if got:  # 0: not along this axis; None: a clamp's edge taps; < 0: read backwards (a flip,
                            # `f(W - 1 - x)`), at the pace of its magnitude
                            rates.setdefault((id(n.callee), j), {}).setdefault(axis, set()).add(
                                r * got if signed else abs(r * got))
    return rates


def tile_steps(pipe: Pipeline, plan: _Plan) -> Steps:
    """The steps of tiles along x and y (see the module's notes)."""
    names = {id(f): f.name for f in plan.region + plan.streams}
    order = {id(f): k for k, f in enumerate(pipe.order)}
    steps: dict[str, int] = {"x": 1, "y": 1}
    why: dict[str, str] = {"x": "", "y": ""}
    # the Func nearest the output named first: the one whose readers the user wrote at two rates
    for (fid, _), by in sorted(_rates(pipe, plan).items(), key=lambda kv: (-order[kv[0][0]], kv[0][1])):
        for axis, rs in sorted(by.items()):
            if len(rs) > 1 and not why[axis]:
                got = " and ".join(str(r) for r in sorted(rs))
                why[axis] = (f"Func '{names[fid]}' is read at {got} times the output's {axis} (through a resampling "
                             "and another reader), so its footprint would not only shift from tile to tile")
            for r in rs:
                steps[axis] = math.lcm(steps[axis], r.denominator)
    return Steps(None if why["x"] else steps["x"], None if why["y"] else steps["y"], why["x"], why["y"])


def reread_rows(pipe: Pipeline, plan: _Plan) -> set[int]:
    """The Funcs (by id) read at a rate under 1 along the output's y (an upsample's `f(x, y / 2)`): each of their
    rows is read again by the next output row, so their line buffer holds one more row than a row's taps span."""
    return {fid for (fid, _), by in _rates(pipe, plan).items() if any(0 < r < 1 for r in by.get("y", ()))}


def x_rates(pipe: Pipeline, plan: _Plan) -> dict[int, Fraction]:
    """Each Func's rate along the output's x (the highest, where it is read at several), by id; absent: 1."""
    got: dict[int, Fraction] = {}
    for (fid, _), by in _rates(pipe, plan).items():
        if by.get("x"):
            got[fid] = max(got.get(fid, Fraction(0)), *by["x"])
    return got


def axis_rates(pipe: Pipeline, plan: _Plan) -> dict[int, dict[str, Fraction]]:
    """Each Func's rate along the output's x and y (the highest, where it is read at several), by id; absent: 1."""
    got: dict[int, dict[str, Fraction]] = {}
    for (fid, _), by in _rates(pipe, plan).items():
        for axis, rs in by.items():
            mine = got.setdefault(fid, {})
            mine[axis] = max(mine.get(axis, Fraction(0)), *rs)
    return got


def out_of_order(pipe: Pipeline, plan: _Plan, x_dim: dict[int, int]) -> set[int]:
    """The Funcs (by id) whose rows the output's first rows read last: transposed (`im(y, x)`) or read backwards
    along the output's y (`im(x, H - 1 - y)`). A line buffer cannot hold them; they hold the tile's whole box."""
    backwards = {fid for (fid, _), by in _rates(pipe, plan, signed=True).items() if any(r < 0 for r in by.get("y", ()))}
    return (transposed(pipe, plan, x_dim) - transposed_streams(plan)) | backwards


def transposed_streams(plan: _Plan) -> set[int]:
    """The 2-D streams (by id) read transposed, which the host streams down their columns (autoschedule.py emits
    `reorder(y, x)`): no buffer. Not under a GLB level, whose tiles the host loads row by row."""
    return {id(f) for f in plan.streams if len(f.args) == 2 and plan.lanes.x_dim.get(id(f), 0) == 1
            and not plan.glb}


def transposed(pipe: Pipeline, plan: _Plan, x_dim: dict[int, int]) -> set[int]:
    """The Funcs (by id) with a dimension before their x (by `x_dim`) read along the output's y: `im(y, x)`, a
    transpose, not a pixel's channels (which a dimension before x is otherwise taken to be)."""
    return {fid for (fid, j), by in _rates(pipe, plan).items() if j < x_dim.get(fid, 0) and "y" in by}
