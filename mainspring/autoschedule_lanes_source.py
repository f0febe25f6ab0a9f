"""The schedule source's unrolls of x that give each Func of an automatic schedule its lanes
(autoschedule_lanes.py decides them; autoschedule.py writes the rest of the source)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .autoschedule_lanes import row_scan
from .autoschedule_names import rvar_source
from .autoschedule_tiles import handle
from .frontend import ir
from .frontend.define import SCALAR_VAR
from .frontend.func import Function
from .frontend.pipeline import Pipeline

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Plan


def lanes_source(pipe: Pipeline, plan: _Plan) -> list[str]:
    """The unrolls of x that give each Func its lanes (RoundUp tails)."""
    lp, acc = plan.lanes, plan.accelerated
    if lp.lanes == 1:
        return [f"    # 1 pixel per cycle: {lp.note}"] if lp.note else []
    lines = [f"    # {lp.lanes} pixels per cycle: x of every stage, the streams and the output, RoundUp tails"]
    if lp.note:
        lines.append(f"    # ({lp.note})")
    lines.append("    up = hl.TailStrategy.RoundUp")
    for f in plan.buffered:
        k = lp.of(f)
        if k == 1:
            continue
        xa = f.args[lp.x_dim.get(id(f), 0)]
        lines.append(f'    funcs["{pipe.name(f)}"].unroll(vars["{xa}"], {k}, up)')
        lines += _update_unrolls(pipe, f, xa, k, "up")
    lines += _frame_scan_unrolls(pipe, plan)
    if tuple(acc.args) == (SCALAR_VAR,):  # no x: its frame scans take the lanes
        return lines + _stream_unrolls(pipe, plan)
    # The output's own loop keeps the output's shape: its bound (the estimate) refuses a RoundUp past it, so lanes
    # that do not divide the width guard the last transfer's extra pixels (2 lanes over 37 columns: 37, not 38);
    # so does a copy the user bounded itself (seed 002's `hw_output.bound(x, 0, 13)` alone).
    bounded = acc is plan.output or acc.args[lp.x_dim.get(id(acc), 0)] in acc.placement.bounds
    tail = "hl.TailStrategy.GuardWithIf" if bounded and _uneven(plan, acc, lp.lanes) else "up"
    lines.append(f'    funcs["{pipe.name(acc)}"].unroll({"xii" if plan.glb else "xi"}, {lp.lanes}, {tail})')
    # its updates keep their own loops (a scan down the columns over x): each computes as many pixels a cycle
    lines += _update_unrolls(pipe, acc, acc.args[lp.x_dim.get(id(acc), 0)], lp.lanes, tail)
    return lines + _stream_unrolls(pipe, plan)


def _stream_unrolls(pipe: Pipeline, plan: _Plan) -> list[str]:
    """The unrolls of x that give each stream its words per transfer."""
    lp, lines = plan.lanes, []
    for f in plan.streams:
        if lp.of(f) > 1:
            copies = (".in_().in_()", ".in_()") if plan.glb else ("",)  # with a GLB: its tile and memory copies
            for c in copies:
                # after the channels' whole unroll, if any: a transfer of k pixels of all their channels
                i = lp.x_dim.get(id(f), 0)
                tail = "hl.TailStrategy.GuardWithIf" if not c and _pinned_uneven(plan, f, i, lp.of(f)) else "up"
                lines.append(f"    {handle(pipe, f)}{c}.unroll({var_source(f, f.args[i])}, {lp.of(f)}, {tail})")
    return lines


def _update_unrolls(pipe: Pipeline, f: Function, xa: str, k: int, tail: str) -> list[str]:
    """The unrolls giving f's updates its k lanes: of x where they store at it, of the RVar of a scan along x,
    whose lanes chain (Halide guards an RVar's tail)."""
    lines = []
    for j, d in enumerate(pipe.definitions(f)[1:]):
        if any(isinstance(a, ir.Var) and a.name == xa for a in d.args):
            lines.append(f'    funcs["{pipe.name(f)}"].update({j}).unroll(vars["{xa}"], {k}, {tail})')
        elif (r := row_scan(f, d, xa)) is not None:
            lines.append(f'    funcs["{pipe.name(f)}"].update({j}).unroll({rvar_source(pipe, f, j, r)}, {k}, '
                         'hl.TailStrategy.GuardWithIf)')
    return lines


def _frame_scan_unrolls(pipe: Pipeline, plan: _Plan) -> list[str]:
    """The unrolls of each whole-frame scan's innermost RVar (autoschedule_lanes.frame_scan): k pixels of its
    stream a cycle, Halide guarding the RVar's tail."""
    lines = []
    for f in pipe.order:
        for (fid, j), k in sorted(plan.lanes.scans.items()):
            if fid == id(f):
                r = pipe.definitions(f)[j + 1].rdom.dims[0][0]
                lines.append(f'    funcs["{pipe.name(f)}"].update({j}).unroll({rvar_source(pipe, f, j, r)}, {k}, '
                             'hl.TailStrategy.GuardWithIf)')
    return lines


def _uneven(plan: _Plan, acc: Function, lanes: int) -> bool:
    """Whether `lanes` fail to divide the accelerated Func's x extent or its tile's."""
    dims = [a for a in acc.args if a != plan.channel]
    ext = [plan.size.get(a, e)[1] for a, e in zip(dims, plan.extents)]
    width = (plan.host_tile or ext)[0]
    return width % lanes != 0 or ext[0] % lanes != 0


def _pinned_uneven(plan: _Plan, f: Function, i: int, lanes: int) -> bool:
    """Whether f wraps an image whose size along dimension i the schedule binds (a boundary condition's clamp)
    to an extent that `lanes` do not divide: a RoundUp tail would read the image past the size it is bound to
    (2 lanes over a 33-wide repeat_edge(image) read column 33), so the wrapper guards its last transfer."""
    image = f.wrapped_image
    return image is not None and any(
        name == image.name and d == i and e % lanes != 0 for name, d, _, e in plan.shapes)


def var_source(f: Function, name: str) -> str:
    """How the schedule names a Var of f (an image wrapper's Vars are its own, made by in_())."""
    return f'hl.Var("{name}")' if f.wrapped_image is not None else f'vars["{name}"]'
