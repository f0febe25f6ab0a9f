"""Reductions of an automatic schedule: which loops of each update to unroll.

A reduction over a constant RDom of at most MAX_UNROLLED points is unrolled whole (one firing per pixel). A larger
one over channels x taps (`conv(x, y, w) += k(r.z, w, r.x, r.y) * in(r.z, x + r.x, y + r.y)`) is unrolled over
its channels, with its taps serial, the shape of h2h_resnet_layer_gen's hand schedule ("weight stationary"):
- A channel RVar indexes, in some read, a dimension before the reader's pixel (`in(r.z, x + r.x, ...)`: a pixel's
  channels, the dimension the streams carry together) and never moves with a pure Var. The channels of one pixel
  sit at one address of the line buffers, one bank each, so unrolling them costs multipliers and an adder tree but
  no more memory; a tap moves with the pixel, so unrolling taps reads the buffers at as many offsets (more ports,
  more memory tiles: 46 for resnet's taps unrolled against its hand design's 19).
- The taps stay serial inside the pixel's loops (the reduction in place), so the design takes the taps' steps per
  pixel, at one lane.
- The Func's planes (pure Vars the accelerated Func reads at its planes, resnet's output channels `w`) are
  unrolled too while the points unrolled stay within MAX_UNROLLED: each step then serves every plane from one read
  of the inputs, instead of a sweep of the frame per plane.
- A stream of a pixel's channels read by such a reduction (or by one serial at every point) carries one channel
  per transfer when the serial steps per pixel are at least its channels: the transfers then keep pace with the
  steps, and a stream of whole pixels would arrive faster than the reduction takes it, so its buffer would hold
  the frame (resnet: 23 memory tiles for 19); read directly by a loop serial over its channels, a stream of whole
  pixels is refused (each step would read another lane).

A budget (autoschedule_budget.py) cuts the names unrolled from the end: the planes, then the channels, then the
taps' RVars of a whole unroll.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .autoschedule_names import rvar_source
from .frontend import ir
from .frontend.bounds import infer_boxes
from .frontend.func import Function
from .frontend.pipeline import Pipeline

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Plan

MAX_UNROLLED = 64  # reduction points per pixel unrolled whole (a 7x7 window unrolls)
# A window whose every RVar moves with the pixel (taps alone, `sum(in(x + r.x, y + r.y))`) unrolls whole up to
# this: a 9x9 box serial took 81 cycles a pixel and its streams ran ahead into a frame-sized buffer (41,724 cycles
# and 1,462 words at 32x16); unrolled, 969 cycles, 331 words, 82 PEs. An 11x11 weighted window is about 250 PEs of
# the default array's 384; a budget (max_pes) cuts it as any other unroll. The bound is over all lanes asked (an
# 11x11 box at 4 lanes unrolled took 488 PEs, over the array: serial, as before, it compiles).
MAX_TAPS_UNROLLED = 121


def points(d) -> int | None:
    """The points of d's RDom, where its extents are constants."""
    if d.rdom is None:
        return None
    exts = [e for _, _, e in d.rdom.dims]
    if not all(isinstance(e, ir.Const) for e in exts):
        return None
    return math.prod(int(e.value) for e in exts)


def unrolls(pipe: Pipeline, plan: _Plan, f: Function, d, depth: int | None) -> tuple[list[str], bool]:
    """The names of update d of f to unroll (its RVars, and pure Vars of f's planes), the first `depth` of them
    (all for None), and whether the reduction stays partly serial (its taps)."""
    n = points(d)
    if n is None or not all(isinstance(a, ir.Var) for a in d.args) or projection(f, d):
        return [], False
    if n <= MAX_UNROLLED or (n * plan.asked <= MAX_TAPS_UNROLLED and not d.rdom.predicates and _taps_alone(f, d)):
        return [r for r, _, _ in d.rdom.dims][:depth], False
    if d.rdom.predicates or sweeps(plan, d):  # a window with holes: its points are not channels x taps
        return [], False
    names, count = [], 1
    for r, e in channel_rvars(f, d):
        if e > 1 and count * e <= MAX_UNROLLED:
            names.append(r)
            count *= e
    if not names:
        return [], False
    for v, e in planes(pipe, plan, f):
        if e > 1 and count * e <= MAX_UNROLLED:
            names.append(v)
            count *= e
    names = names[:depth]
    return names, bool(names)


def sweeps(plan: _Plan, d) -> bool:
    """Whether d, of more than MAX_UNROLLED points, sweeps a stream's frame (`tot(c) += in(r.x, r.y, c)`, a sum
    per channel): it reads a stream at two or more RVars, each coordinate RVars alone or pure Vars alone. Its points
    are the frame's, not a pixel's channels (whose unroll of r.x, 32 points at 32x8, held the frame and took 37
    PEs): serial, it takes the stream as it comes, a pixel a step."""
    if d.rdom is None or len(d.rdom.dims) < 2:
        return False
    streams = {id(f) for f in plan.streams}
    reads = [(n, [{type(m) for m in ir.walk(a) if isinstance(m, (ir.Var, ir.RVar))} for a in n.args])
             for n in ir.walk(d.value) if isinstance(n, ir.Call) and n.args]
    # (a window's taps, `in(r.z, x + r.x, y + r.y)` beside its weights `k(r.z, w, r.x, r.y)`, are no sweep)
    return all(len(k) < 2 for _, kinds in reads for k in kinds) and any(
        id(n.callee) in streams and sum(k == {ir.RVar} for k in kinds) >= 2 for n, kinds in reads)


def projection(f: Function, d) -> bool:
    """Whether d sums what it reads along its rows (`s(x) += im(x, r)`, a column sum): each RVar indexes, each
    time alone, the dimension after the first one that moves with a pure Var (a planar
    image's planes, `maximum(im(x, y, r))`, stream channels first instead: `_planes_read_together`).
    Such an update stays serial with its RVars outermost (`projection_source`), where it reads its input as it
    streams and keeps a row of sums; unrolled or in place, it would wait for the whole frame."""
    pure, rvars, seen = set(f.args), {r for r, _, _ in d.rdom.dims}, set()
    for n in ir.walk(d.value):
        if not (isinstance(n, ir.Call) and isinstance(n.callee, Function)):
            continue
        names = [{m.name for m in ir.walk(a) if isinstance(m, (ir.Var, ir.RVar))} for a in n.args]
        moves = [bool(ns & pure) for ns in names]
        pixel = moves.index(True) if True in moves else len(n.args)
        for j, ns in enumerate(names):
            if ns & rvars and (j != pixel + 1 or moves[j] or len(ns & rvars) > 1):
                return False
            seen |= ns & rvars
    return seen == rvars


def scan_against_storage(d) -> bool:
    """Whether update d stores at its RVars (a scan down the columns, `col(x, r) = col(x, r - 1) + im(x, r)`)
    with a pure Var in a dimension inside an RVar's: Halide's default order, the RVars innermost, walks each
    column against the stream, where the rows in storage order scan as they arrive."""
    if d.rdom is None or not all(isinstance(a, (ir.Var, ir.RVar)) for a in d.args):
        return False
    at = [k for k, a in enumerate(d.args) if isinstance(a, ir.RVar)]
    if [d.args[k].name for k in at] != [r for r, _, _ in d.rdom.dims]:
        return False  # an RVar not stored at, or stored out of its domain's order (Halide keeps RVars' order)
    return any(isinstance(a, ir.Var) for a in d.args[:at[-1]])


def projection_source(pipe: Pipeline, f: Function) -> list[str]:
    """The reorders that put a projection's RVars outside its pure Vars (see `projection`), and a scan's loops
    in storage order (see `scan_against_storage`)."""
    lines = []
    for k, d in enumerate(pipe.definitions(f)[1:]):
        if d.rdom is not None and all(isinstance(a, ir.Var) for a in d.args) and projection(f, d):
            dims = [f'vars["{a}"]' for a in f.args] + [rvar_source(pipe, f, k, r) for r, _, _ in d.rdom.dims]
            lines.append(f'    funcs["{pipe.name(f)}"].update({k}).reorder({", ".join(dims)})  # its sums as the rows '
                         'stream')
        elif scan_against_storage(d):
            dims = [rvar_source(pipe, f, k, a.name) for a in d.args]
            lines.append(f'    funcs["{pipe.name(f)}"].update({k}).reorder({", ".join(dims)})  # the scan as the '
                         'rows stream')
    return lines


def _taps_alone(f: Function, d) -> bool:
    """Whether every RVar of d moves with the pixel in every read it indexes (a window's taps)."""
    pure = set(f.args)
    rvars = {r for r, _, _ in d.rdom.dims}
    for n in ir.walk(d.value):
        if isinstance(n, ir.Call):
            for a in n.args:
                names = {m.name for m in ir.walk(a) if isinstance(m, (ir.Var, ir.RVar))}
                if names & rvars and not names & pure:
                    return False
    return True


def channel_rvars(f: Function, d) -> list[tuple[str, int]]:
    """The RVars of d (with their extents) that index a pixel's channels (see the module's notes)."""
    pure = set(f.args)
    before, taps = set(), set()
    for n in ir.walk(d.value):
        if not (isinstance(n, ir.Call) and isinstance(n.callee, Function)):
            continue
        moves = [any(isinstance(m, ir.Var) and m.name in pure for m in ir.walk(a)) for a in n.args]
        pixel = moves.index(True) if True in moves else len(n.args)
        for j, a in enumerate(n.args):
            rs = {m.name for m in ir.walk(a) if isinstance(m, ir.RVar)}
            if moves[j]:
                taps |= rs
            elif pixel < len(n.args) and j < pixel:
                before |= rs
    return [(r, int(e.value)) for r, _, e in d.rdom.dims if r in before and r not in taps]


def planes(pipe: Pipeline, plan: _Plan, f: Function) -> list[tuple[str, int]]:
    """f's pure Vars (with their extents) that the accelerated Func, its only reader, reads at its planes (the
    dimensions past x and y it loops over outside them): `hw_output(x, y, w) = conv(x, y, w)` gives conv's w."""
    acc = plan.accelerated
    if f is acc or plan.channel is not None or any(c is not acc for c in pipe.consumers(f)):
        return []
    dims = [a for a in acc.args if a != plan.channel]
    outer = {p: plan.size[p][1] for p in dims[2:] if p in plan.size}
    found: dict[int, str] = {}
    reads = [n for d in pipe.definitions(acc) for n in ir.walk(d.value) if isinstance(n, ir.Call) and n.callee is f]
    for j in range(len(f.args)):
        at = {a.args[j].name if isinstance(a.args[j], ir.Var) else None for a in reads}
        if len(at) == 1 and (p := next(iter(at))) in outer:
            found[j] = p
    return [(f.args[j], outer[p]) for j, p in sorted(found.items())]


def serial_steps(pipe: Pipeline, f: Function, k: int, unrolled: list[str]) -> int:
    """The steps per pixel of update k of f with `unrolled` unrolled (its serial RVars' points)."""
    d = pipe.definitions(f)[k + 1]
    return math.prod(int(e.value) for r, _, e in d.rdom.dims if r not in unrolled)


def serial_channel_streams(pipe: Pipeline, plan: _Plan, bounds: dict) -> set[int]:
    """The streams of a pixel's channels that carry one channel per transfer (see the module's notes): read by
    reductions with serial loops (their taps, or every point) that take at least as many steps per pixel as the
    stream has channels. `bounds`: scalars for bounds inference."""
    partial = []
    for f in plan.buffered + [plan.accelerated]:
        unrolled = dict(plan.unrolled.get(id(f), []))
        for k, d in enumerate(pipe.definitions(f)[1:]):
            # An update at no pure Var (a histogram's hist(bin(r)), a total) steps over the pixels, not taps per
            # pixel: once per pixel at most, so its stream carries a pixel's channels whole (fuzz --auto 130319).
            over_pixels = not any(isinstance(a, ir.Var) and a.name in f.args for a in d.args)
            if points(d) is not None and not over_pixels and (k not in unrolled or (id(f), k) in plan.partial):
                partial.append((f, k, unrolled.get(k, [])))
    if plan.lanes.lanes != 1 or not partial:
        return set()
    boxes, _ = infer_boxes(pipe, [(lo, lo + e - 1) for lo, e in plan.extents], bounds, output_bounds=False)
    out = set()
    for s in plan.streams:
        j = plan.lanes.x_dim.get(id(s), 0)
        steps = [serial_steps(pipe, f, k, names) for f, k, names in partial if _feeds(pipe, s, f)]
        box = boxes.get(pipe.name(s))
        if j > 0 and steps and box and math.prod(hi - lo + 1 for lo, hi in box[:j]) <= min(steps):
            out.add(id(s))
    return out


def _feeds(pipe: Pipeline, s: Function, f: Function) -> bool:
    """Whether f reads s, directly or through other Funcs."""
    todo, seen = [f], set()
    while todo:
        g = todo.pop()
        for p in pipe.producers(g):
            if p is s:
                return True
            if id(p) not in seen:
                seen.add(id(p))
                todo.append(p)
    return False
