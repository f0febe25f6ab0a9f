"""Planes of an automatic schedule: which small dimensions besides x and y a buffered Func computes together.

A buffered Func with a dimension of a few values besides x and y (mobile's `pw_conv(k, x, y, c)`: 3 output
channels k, 4 input channels c) fires once per value of it: 3 x 4 firings per pixel, where the input streams 4
words per pixel (its planes). Such a Func bounds the design's cycles when it fires more often than the busiest
stream transfers (the ideal at one pixel per cycle). Its plane v is then unrolled (lanes of one firing, each a
copy of its kernel), as the reference system's hand schedule does (`pw_conv.update().unroll(k)`), when the lanes
read nothing new: every read of a Func computed inside, or of a stream, either does not move with v (`dw_conv(x, y,
c)`, one read for every lane) or reads v of a producer that unrolls it too (`pw_conv(k, x, y, r)` in
`pw_conv_reduction(k, x, y)`); constant tables read at v become each lane's constants, and so does a stream not
read at the pixel (weights `w(r.x, r.y, c, k)` of a convolution to planes k, held whole in registers: each lane
reads its own; serial, the output ran plane after plane and held the input whole, 167 cycles and 1,067 words at
11x5 for 119 and 115); so does a planar image read at v itself (a depthwise convolution's `in(x + r.x, y + r.y,
c)`), streamed channels first, a plane for each lane (`_own_planes`: 335 cycles at 13x5 for 125). Planes are
unrolled, from the first, only while the Func still fires more often than the streams transfer (a planar image
read at 2 to 4 planes together is one transfer a pixel): each costs PEs; or where the output reads the Func at its
own planes (`_output_plane`), which would otherwise take them one after another and hold the Func's frame.

A reduction's RVar that reads a plane its producer computes one value per firing, after the producer's y (its
loop outside the rows: a sweep of the frame per value, `pw_conv_reduction += pw_conv(k, x, y, r)` over c, which
`pw_conv` cannot unroll: its lanes would each read another plane of the depthwise stage), is left serial: unrolled,
its lanes would all wait for the producer's last plane, and the producer would hold the others, each lane in
memory tiles of its own for the ports (mobile at 16x16: 7 memory tiles against the hand design's 6, for 1,790
cycles against 2,044). Serial, it steps over the planes as they come, and its own plane (k) is then unrolled by
the rule above. (A dimension before x is a pixel's channels, made within the pixel, its values cycles apart.)

Such an RVar, serial, also goes outside the update's pure Vars (`plan.sweeps`: `update(0).reorder(k, x, y, r)`), as
is a serial RVar reading a planar stream at more than MAX_PLANE planes (fewer are streamed together, channels
first): a sweep of the frame per plane, in the order the planes arrive. In Halide's default order (RVars innermost)
each pixel's sum waited for the last plane, and the producer, or the stream, held the planes before it: mobile at
8x6 took 461 cycles and 571 words against 414 and 184 (its generator's order); a 1x1 convolution of a stream of 6
planes of 8x6, 489 cycles and 410 words against 394 and 158 (tests/flow/test_flow_autoschedule_sweeps.py). The
sums then hold a frame of each output plane (memory tiles: the lanes of the plane, one each).

Only at the full unroll (no `depth` from a PE budget): a budget cuts these lanes first.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .autoschedule_names import rvar_source
from .frontend import ir
from .frontend.bounds import infer_boxes
from .frontend.func import Function
from .frontend.params import Parameter
from .frontend.pipeline import Pipeline

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Plan

MAX_PLANE = 4  # a plane of at most this many values is unrolled whole (as a pixel's channels are)
APART = -1  # a PE budget's depth: planes as at the full unroll, but the output takes them one by one (planes_apart)
# a PE budget's depth: planes as at the full unroll, but every planar stream plane after plane (none `together`:
# mobile's depthwise channels and pointwise inputs serial, 15 PEs and 1,786 cycles at 16x16 for 56 and 332)
STREAMS_APART = -2
CUTS = (APART, STREAMS_APART)  # the budget's cuts of the full unroll that keep its planes


def plan_planes(pipe: Pipeline, plan: _Plan, x_dim: dict[int, int], bounds, depth: int | None = None) -> None:
    """Set plan.planes (and put back to serial the RVars over a producer's serial planes, in plan.unrolled), in
    the pipeline's order (producers first). `x_dim`: id(f) -> f's argument along x (one lane's lane plan);
    `bounds`: scalars for bounds inference; `depth`: None, or a budget's cut (CUTS)."""
    from .autoschedule import _planes_read_together  # autoschedule.py builds on this module

    plan.planes_apart = depth == APART
    boxes, _ = infer_boxes(pipe, [(lo, lo + e - 1) for lo, e in plan.extents], bounds, output_bounds=False)
    together = {id(s) for s in plan.streams if depth != STREAMS_APART and _own_planes(pipe, plan, s, boxes, x_dim)}
    saved = [{i: list(v) for i, v in d.items()} for d in (plan.unrolled, plan.sweeps, plan.planes)]
    while True:
        _choose_planes(pipe, plan, boxes, x_dim, together)
        plan.together = set(together)
        # a stream whose reader at its own plane did not unroll it after all streams plane after plane (_own_planes)
        acc = plan.accelerated
        unrolled = len(acc.args) == 3 and planes_inner(pipe, plan, acc, list(acc.args[2:])) and planes_unrolled(
            pipe, plan, acc, list(acc.args[2:]))
        apart = {i for i in together if not _planes_read_together(pipe, plan, next(s for s in plan.streams
                                                                                  if id(s) == i))
                 or (not unrolled and _read_at_own_plane(pipe, acc, i))}
        if not apart:
            return
        together -= apart
        plan.unrolled, plan.sweeps, plan.planes = ({i: list(v) for i, v in d.items()} for d in saved)


def _read_at_own_plane(pipe: Pipeline, f: Function, i: int) -> bool:
    """Whether f reads the stream of id i at a Var plane."""
    return any(isinstance(n, ir.Call) and id(n.callee) == i and plane_var(n.args[2]) is not None
               for d in pipe.definitions(f) for n in ir.walk(d.value))


PLANE_OPS = ("add", "sub", "mod", "min", "max")  # a plane index's operations that plane_var follows


def plane_var(e: ir.Expr) -> str | None:
    """The Var a plane coordinate moves with where it is that Var plus or minus constants (`c`, `2 - c`, `c + 1`),
    clamped by constants (`max(c - 1, 0)`), or such a sum modulo a constant (`(c + 1) % 3`, which
    hwlower/periodic_reads.py reads as a choice among the constant planes), else None: with the Var unrolled each lane
    reads one constant plane, as at `c` itself (RGB to BGR's `rgb(x, y, 2 - c)` at 11x5: read plane after plane, the
    stream was held whole, 276 cycles and 168 words for 55 and 6; a 1-2-1 blur across planes at `max(c - 1, 0)` and
    `min(c + 1, 2)`, 329 cycles and 132 words at 13x5 for 69 and 8)."""
    names = set()
    for n in ir.walk(e):
        if isinstance(n, ir.Var):
            names.add(n.name)
        elif not isinstance(n, ir.Const) and not (isinstance(n, ir.BinOp) and n.op in PLANE_OPS):
            return None
    return names.pop() if len(names) == 1 else None


def _choose_planes(pipe: Pipeline, plan: _Plan, boxes: dict, x_dim: dict[int, int], together: set[int]) -> None:
    """plan_planes with the streams `together` carrying their planes in one transfer."""
    # id(f) -> the dimensions f computes in one firing, or a stream carries in one transfer
    made: dict[int, set[int]] = {i: {2} for i in together}
    transfers = max((_stream_transfers(pipe, plan, s, boxes[pipe.name(s)], x_dim.get(id(s), 0), made)
                     for s in plan.streams), default=0)
    buffered = {id(f) for f in plan.buffered}
    for f in pipe.order:
        if id(f) not in buffered and f is not plan.accelerated:
            continue
        _serial_over_serial_planes(pipe, plan, f, boxes, x_dim, made)
        if f is plan.accelerated or plan.channel:
            continue  # the output's channels are plan.channel's (unrolled in every Func that has them)
        box = boxes[pipe.name(f)]
        firings = _firings(pipe, plan, f, box)
        xd = x_dim.get(id(f), 0)
        for j, v in enumerate(f.args):
            extent = box[j][1] - box[j][0] + 1
            if firings is None or j in (xd, xd + 1) or not 1 < extent <= MAX_PLANE or (
                    firings <= transfers and not _output_plane(pipe, plan, f, j)):
                continue
            if v not in _unrolled(plan, f) and _lanes_read_nothing_new(pipe, plan, f, v, made, x_dim):
                plan.planes.setdefault(id(f), []).append(v)
                made.setdefault(id(f), set()).add(j)
                firings = -(-firings // extent)


def _output_plane(pipe: Pipeline, plan: _Plan, f: Function, j: int) -> bool:
    """Whether the accelerated Func reads f only at its own planes, f's argument j one of them: made one per
    firing, f's planes would reach the output plane after plane, which then holds them (a stride-2 convolution to 2
    planes at 7x5, firing less often than its input transfers: 244 cycles for 165 and 153 words for 118, its
    second plane held whole; unrolled, 183 cycles and 56 words, for twice its PEs)."""
    acc = plan.accelerated
    planes = {a for a in acc.args[2:] if a != plan.channel} if len(acc.args) >= 3 else set()
    reads = [n for d in pipe.definitions(acc) for n in ir.walk(d.value) if isinstance(n, ir.Call) and n.callee is f]
    return bool(reads) and all(isinstance(n.args[j], ir.Var) and n.args[j].name in planes for n in reads)


def _stream_transfers(pipe: Pipeline, plan: _Plan, s: Function, box: list, xd: int, made: dict[int, set[int]]) \
        -> int:
    """A stream's transfers: its pixels, a pixel's channels (the dimensions before x) in one transfer, as are the
    planes of a planar image that a firing reads together (streamed channels first: 91 transfers of 13x7x2)."""
    from .autoschedule import _planes_read_together  # autoschedule.py builds on this module

    if xd == 0 and (_planes_read_together(pipe, plan, s) or id(s) in made):
        return math.prod(hi - lo + 1 for lo, hi in box[:2])
    return math.prod(hi - lo + 1 for lo, hi in box[xd:])


def _firings(pipe: Pipeline, plan: _Plan, f: Function, box: list) -> int | None:
    """f's firings over the frame: its box, times the serial steps of its busiest update; None where an update's
    steps are not constant."""
    pixels = math.prod(hi - lo + 1 for lo, hi in box)
    unrolled = dict(plan.unrolled.get(id(f), []))
    most = 1
    for k, d in enumerate(pipe.definitions(f)[1:]):
        if d.rdom is None:
            continue
        if not all(isinstance(e, ir.Const) for _, _, e in d.rdom.dims):
            return None
        most = max(most, math.prod(int(e.value) for r, _, e in d.rdom.dims if r not in unrolled.get(k, [])))
    return pixels * most


def _unrolled(plan: _Plan, f: Function) -> set[str]:
    """The names f's reductions unroll already (resnet's output channels, autoschedule_reduce.planes)."""
    return {n for _, names in plan.unrolled.get(id(f), []) for n in names}


def _inside(plan: _Plan) -> set[int]:
    return {id(g) for g in plan.region} | {id(s) for s in plan.streams}


def _lanes_read_nothing_new(pipe: Pipeline, plan: _Plan, f: Function, v: str, made: dict[int, set[int]],
                            x_dim: dict[int, int]) -> bool:
    """Whether every read by f of a Func computed inside or of a stream read at f's pixel either does not move with
    v or reads v of a producer that computes that dimension in one firing; and every update writes at v itself."""
    inside = _inside(plan)
    streams = {id(s) for s in plan.streams}
    for d in pipe.definitions(f):
        if not any(isinstance(a, ir.Var) and a.name == v for a in d.args):
            return False
        for n in ir.walk(d.value):
            if not (isinstance(n, ir.Call) and isinstance(n.callee, Function) and id(n.callee) in inside) \
                    or n.callee is f:  # an update's own value: at its own point, in its lane
                continue
            if id(n.callee) in streams and not _at_pixel(f, n, x_dim):
                continue  # weights `w(r.x, r.y, c, k)`: held whole, each lane reads its own (see the module's notes)
            for i, a in enumerate(n.args):
                if not any(isinstance(m, ir.Var) and m.name == v for m in ir.walk(a)):
                    continue
                if not (isinstance(a, ir.Var) and i in made.get(id(n.callee), set())):
                    return False
    return True


def _at_pixel(f: Function, n: ir.Call, x_dim: dict[int, int]) -> bool:
    """Whether read n by f moves with f's x or y (a stream of weights `w(r.x, r.y, c, k)` does not)."""
    xd = x_dim.get(id(f), 0)
    pixel = set(f.args[xd:xd + 2])
    return any(isinstance(m, ir.Var) and m.name in pixel for a in n.args for m in ir.walk(a))


def _own_planes(pipe: Pipeline, plan: _Plan, s: Function, boxes: dict, x_dim: dict[int, int]) -> bool:
    """Whether planar stream s (x, y, c) of 2 to MAX_PLANE planes is read inside only at constant planes or at its
    reader's own Var (a depthwise convolution's `in(x + r.x, y + r.y, c)`): streamed channels first, its planes
    arrive together, one for each lane of that Var. So too where a Func computes a pixel's channels (a dimension
    before x: mobile's `pw_conv(k, x, y, c)`), which then unrolls them with its planes after y (k and c, from the
    depthwise stage's c lanes), its sums over c unrolled (mobile at 16x16: 332 cycles and 178 words at 56 PEs, for
    1,786 and 824 at 15 with the stream plane after plane, its sums a sweep of the frame per plane), but at one
    lane only: at k lanes such a Func's x lanes run serially (hwlower/lanes.py: lanes along part of x), and the
    stream was held far over its minimum (8x6 at 2 lanes: 696 words for 216, 40 memory tiles; the scheduler's
    weighing of lanes, autoschedule_budget.fewer_lanes, then keeps one lane either way, but with this rule compiles
    less: mobile at max_pes 200 in 3.6 s rather than 7.0, loaded). plan_planes keeps
    it only where every such reader unrolls that Var (the output too: a depthwise convolution added back to its
    input, 337 cycles at 13x5 for 127; plane after plane, the output held the stream whole, 1,172 words for 135)."""
    box = boxes[pipe.name(s)]
    if len(box) != 3 or x_dim.get(id(s), 0) or not 1 < box[2][1] - box[2][0] + 1 <= MAX_PLANE or (
            plan.asked > 1 and any(x_dim.get(id(g), 0) for g in plan.region)):
        return False
    reads = [(g, n) for g in plan.region for d in pipe.definitions(g) for n in ir.walk(d.value)
             if isinstance(n, ir.Call) and n.callee is s]
    # the output's own reads at its planes too, where it then takes them together (plan_planes checks)
    return bool(reads) and all(isinstance(n.args[2], ir.Const) or plane_var(n.args[2]) in g.args for g, n in reads)


def _serial_over_serial_planes(pipe: Pipeline, plan: _Plan, f: Function, boxes: dict, x_dim: dict[int, int],
                               made: dict[int, set[int]]) -> None:
    """Leave serial the RVars of f's whole unrolls that read a buffered producer at a plane after its y that it
    computes one value per firing, and put such RVars of every update outside its pure Vars, in plan.sweeps (see
    the module's notes)."""
    kept = []
    for k, names in plan.unrolled.get(id(f), []):
        serial = _over_serial_planes(pipe, plan, pipe.definitions(f)[k + 1], boxes, x_dim, made)
        if (id(f), k) in plan.partial or not serial:
            kept.append((k, names))
        elif rest := [r for r in names if r not in serial]:
            kept.append((k, rest))
    if plan.unrolled.get(id(f)) is not None:
        plan.unrolled[id(f)] = kept
    unrolled = dict(plan.unrolled.get(id(f), []))
    for k, d in enumerate(pipe.definitions(f)[1:]):
        if d.rdom is None or [a.name if isinstance(a, ir.Var) else None for a in d.args] != list(f.args):
            continue  # only an update at its own pure Vars may put RVars outside them (no two pixels share a sum)
        serial = _over_serial_planes(pipe, plan, d, boxes, x_dim, made) - set(unrolled.get(k, []))
        if serial:
            plan.sweeps.setdefault(id(f), []).append((k, [r for r, _, _ in d.rdom.dims if r in serial]))


def _over_serial_planes(pipe: Pipeline, plan: _Plan, d, boxes: dict, x_dim: dict[int, int],
                        made: dict[int, set[int]]) -> set[str]:
    """The RVars of update d that read, at d's pixel, a buffered producer or a stream at a plane after its y of
    more than one value that it does not compute in one firing (a sweep of its frame per value)."""
    buffered, streams = {id(g) for g in plan.buffered}, {id(s) for s in plan.streams}
    pure = {a.name for a in d.args if isinstance(a, ir.Var)}
    serial: set[str] = set()
    for n in ir.walk(d.value):
        if not (isinstance(n, ir.Call) and isinstance(n.callee, Function) and id(n.callee) in buffered | streams):
            continue
        g, xd = n.callee, x_dim.get(id(n.callee), 0)
        if not all(any(isinstance(m, ir.Var) and m.name in pure for m in ir.walk(a)) for a in n.args[xd:xd + 2]):
            continue  # not read at the pixel (a table of weights indexed by RVars alone): not swept with the frame
        box = boxes[pipe.name(g)]
        for i, a in enumerate(n.args):
            least = MAX_PLANE if id(g) in streams else 1  # a stream of a few planes streams them together instead
            if i <= xd + 1 or i in made.get(id(g), set()) or box[i][1] - box[i][0] < least:
                continue
            serial |= {m.name for m in ir.walk(a) if isinstance(m, ir.RVar)}
    return serial


def planes_source(pipe: Pipeline, plan: _Plan, f: Function) -> list[str]:
    """The unrolls of f's planes: in every update, and in its pure definition unless f is a sweep's sums whose
    initial value is a constant (that stays one op: unrolled, its lanes take memory tiles of their own, mobile's
    pw_conv_reduction one more); serial elsewhere, the updates' lanes waited for it plane after plane (the
    convolution to 2 planes at 11x5 held its input whole: 1,123 words for 115)."""
    defs = pipe.definitions(f)
    inside = _inside(plan)
    pure = len(defs) == 1 or id(f) not in plan.sweeps or any(
        isinstance(n, ir.Call) and isinstance(n.callee, Function) and id(n.callee) in inside
        for n in ir.walk(defs[0].value))
    lines = []
    for k, outer in plan.sweeps.get(id(f), []):
        rvars = [r for r, _, _ in defs[k + 1].rdom.dims]
        dims = [r for r in rvars if r not in outer] + list(f.args) + outer
        lines.append(f'    funcs["{pipe.name(f)}"].update({k}).reorder('
                     f'{", ".join(rvar_source(pipe, f, k, n) for n in dims)})  # a sweep of the frame per plane read')
    for v in plan.planes.get(id(f), []):
        if pure:
            lines.append(f'    funcs["{pipe.name(f)}"].unroll(vars["{v}"])  # its {v} lanes read nothing new')
        lines += [f'    funcs["{pipe.name(f)}"].update({k}).unroll(vars["{v}"])' for k in range(len(defs) - 1)]
    return lines


def planes_inner(pipe: Pipeline, plan: _Plan, acc: Function, planes: list[str]) -> bool:
    """Whether the accelerated Func's planes (c of `out(x, y, c)`) run innermost in its tile, a pixel's planes one
    after another, rather than plane after plane. Where it reads every buffered Func, and stream of channels, with
    its planes first (`hw_output(x, y, k) = f(conv(k, x, y))`): its producers make a pixel's channels together.
    Where no read moves with a plane (`ycbcr(x, y, c) = select(c == 0, ... in(x, y, 0) ... in(x, y, 2) ...)`,
    every plane of a pixel reading that pixel): plane after plane, the streams would be held whole until the last
    plane (a 64x48 frame of 3 channels: 6,153 words for 9); at k lanes the planes are then unrolled too
    (planes_unrolled), since the output's x lanes cannot lie outside its serial planes (hwlower/lanes.py)."""
    reads = [n for d in pipe.definitions(acc) for n in ir.walk(d.value) if isinstance(n, ir.Call)
             and (isinstance(n.callee, Function) or (isinstance(n.callee, Parameter) and n.callee.kind == "image"))]
    # a stream of a pixel's channels (`hw_output(c, x, y)` computed by the host) is made channels first too: read
    # plane after plane, each plane's serial loop would step across the transfer's lanes (hwlower/lanes.py)
    chans = _channel_streams(plan)
    # (a Func of planes alone, `tot(c)` of a sum per channel, is a value per plane: it sets no pixel's order)
    buffered = [n for n in reads if isinstance(n.callee, Function) and (n.callee in plan.buffered
                                                                           or id(n.callee) in chans)
                and len(n.args) > len(planes)]
    if buffered and all([a.name if isinstance(a, ir.Var) else None for a in n.args[:len(planes)]] == planes
                        for n in buffered):
        return True
    return bool(reads) and (not _moves_with_planes(reads, planes) or _reads_planes_made_together(plan, reads, planes))


def _reads_planes_made_together(plan: _Plan, reads: list[ir.Call], planes: list[str]) -> bool:
    """Whether every read that moves with the planes reads, at exactly those planes, a buffered Func that computes
    them in one firing (plan.planes: a convolution's output channels `acc(x, y, k)`, unrolled): plane after plane,
    the output would hold the producer's other planes, its whole frame (a 3-channel 3x3 convolution at 13x5: 163
    words for 33 of line buffers)."""
    if plan.planes_apart:  # a PE budget's cut: 2 PEs fewer for the 3-plane convolution at 13x5, 234 cycles for 111
        return False

    def at_made_planes(n: ir.Call) -> bool:
        if id(n.callee) in plan.together:  # a planar stream carrying a pixel's planes a transfer (_own_planes)
            return [plane_var(n.args[2])] == planes and not _moves_with_planes(
                [ir.Call(n.type, n.callee, n.args[:2])], planes)
        # not a sweep's sums (plan.sweeps), which hold their frame anyway: together they cut the output's cycles
        # (297 for 394 at 8x6, tests/flow/test_flow_autoschedule_sweeps.py) for PEs over the hand schedule's
        made = plan.planes.get(id(n.callee), []) if n.callee in plan.buffered and id(n.callee) not in plan.sweeps \
            else []
        # planes before x too (mobile's `pw_conv_reduction(k, x, y)`, its k unrolled): made in one firing, they
        # are a pixel's channels together (a sweep's sums, made cycles apart, are excluded above)
        args = [a for a in n.args if any(isinstance(m, ir.Var) and m.name in planes for m in ir.walk(a))]
        return [a.name if isinstance(a, ir.Var) else None for a in args] == [p for p in planes if p in made] == planes

    return all(at_made_planes(n) for n in reads if _moves_with_planes([n], planes))


def _moves_with_planes(reads: list[ir.Call], planes: list[str]) -> bool:
    return any(isinstance(m, ir.Var) and m.name in planes for n in reads for a in n.args for m in ir.walk(a))


def planes_unrolled(pipe: Pipeline, plan: _Plan, acc: Function, planes: list[str]) -> bool:
    """Whether the accelerated Func's planes, innermost (planes_inner), are unrolled whole: where it reads a stream
    of channels at its planes (planes_read_as_lanes), or where no read moves with a plane (`_apart_from_reads`)."""
    if planes_read_as_lanes(pipe, plan, acc, planes):
        return True
    reads = [n for d in pipe.definitions(acc) for n in ir.walk(d.value) if isinstance(n, ir.Call)]
    if _moves_with_planes(reads, planes):
        # its producer's planes made together: one of them a cycle, the producer would run ahead, its frame held
        # (the 3-channel convolution at 13x5, 1 lane: 163 words, 234 cycles for 195)
        return _reads_planes_made_together(plan, reads, planes)
    return plan.lanes.lanes > 1 or not plan.planes_apart


def _apart_from_reads(pipe: Pipeline, plan: _Plan, acc: Function, planes: list[str]) -> bool:
    """Whether the output's planes are unrolled although no read moves with them (`out(x, y, c) = select(c == 0,
    box(x, y), max3(x, y))`): each plane's firing reads the same pixel, so the output fires more often than its
    streams transfer, as a Func whose planes autoschedule_planes unrolls. Serial, the streams ran ahead of it and
    were held (a 2-plane concat at 13x5: 170 cycles, 691 words for 133 in 9 memory tiles; unrolled, 112 and 68 at
    the minimum, 38 PEs for 21), and the output took a word a cycle (a 3x3 colour matrix at 16x8: 391 cycles, now
    132, 18 PEs for 24: each lane its row's coefficients, hwlower/lane_constants.py); at k lanes (demosaic's `out(x,
    y, c) = select(c == 0, red(x, y), ...)` at 2 lanes) its producer was held whole, 919 words for 50, at 2.3x the
    cycles. A budget's APART cut takes them serially."""
    reads = [n for d in pipe.definitions(acc) for n in ir.walk(d.value) if isinstance(n, ir.Call)]
    return bool(planes) and planes_inner(pipe, plan, acc, planes) and not planes_read_as_lanes(
        pipe, plan, acc, planes) and not _moves_with_planes(reads, planes)


def output_planes(pipe: Pipeline, plan: _Plan, acc: Function, planes: list[str]) -> tuple[bool, bool]:
    """(planes_inner, planes_unrolled) of the accelerated Func's planes."""
    inner = planes_inner(pipe, plan, acc, planes)
    return inner, inner and planes_unrolled(pipe, plan, acc, planes)


def planes_to_cut(pipe: Pipeline, plan: _Plan) -> bool:
    """Whether a budget may cut the full unroll's planes (CUTS): a Func's (plan.planes), or the output's own
    unrolled with no read moving with them (`_apart_from_reads`)."""
    acc = plan.accelerated
    # or a planar image the output reads at its own plane, streamed channels first with the planes unrolled (a
    # depthwise 3x3 over 3 channels, 54 PEs): STREAMS_APART takes them plane after plane (28 PEs; max_pes 53 was
    # refused, "needs 54 PEs")
    return bool(plan.planes) or _apart_from_reads(pipe, plan, acc, [a for a in acc.args if a != plan.channel][2:]) \
        or (len(acc.args) == 3 and any(_read_at_own_plane(pipe, acc, i) for i in plan.together))


def _channel_streams(plan: _Plan) -> set[int]:
    """The streams that carry a pixel's channels in one transfer."""
    return {id(g) for g in plan.streams if plan.lanes.x_dim.get(id(g), 0) > 0 and id(g) not in plan.serial_channels}


def planes_read_as_lanes(pipe: Pipeline, plan: _Plan, acc: Function, planes: list[str]) -> bool:
    """Whether the accelerated Func reads a stream of channels at its own planes (`out(x, y, c) = f(hw(c, x,
    y))`): its planes, innermost (planes_inner), are then unrolled, a lane per channel of the transfer, since a
    serial plane loop would step across the transfer's lanes (hwlower/lanes.py refuses that)."""
    chans = _channel_streams(plan)
    return any(isinstance(n, ir.Call) and id(n.callee) in chans and n.args
               and isinstance(n.args[0], ir.Var) and n.args[0].name in planes
               for d in pipe.definitions(acc) for n in ir.walk(d.value))


def stream_channels(pipe: Pipeline, plan: _Plan, f: Function) -> bool:
    """Whether f's first argument, before x, indexes the channels of a stream it reads (`hw_input(z, x, y) =
    clamp_input(z, x, y)`, the stream's channels unrolled whole): not a transposed Func's y."""
    chans = _channel_streams(plan)
    return plan.lanes.x_dim.get(id(f), 0) > 0 and any(
        id(callee) in chans and var == f.args[0] for callee, var in _first_arg_reads(pipe, plan, f))


def _first_arg_reads(pipe: Pipeline, plan: _Plan, f: Function, depth: int = 0):
    """(callee, the Var its first argument is made of, or None) for each call of f's definitions, and through
    the Funcs inlined into f (a boundary condition's `repeat_edge(im)(c, x, y)` reads the stream at
    `clamp(c, 0, 2)`, made of c alone)."""
    kept = {id(g) for g in plan.buffered + plan.streams}
    for d in pipe.definitions(f):
        for n in ir.walk(d.value):
            if not isinstance(n, ir.Call) or not isinstance(n.callee, Function) or not n.args:
                continue
            names = {v.name for v in ir.walk(n.args[0]) if isinstance(v, ir.Var)}
            var = next(iter(names)) if len(names) == 1 else None
            yield n.callee, var
            inlined = n.callee in plan.region and id(n.callee) not in kept and n.callee is not plan.accelerated
            if inlined and depth < 4 and var is not None:
                yield from ((c, var if v == n.callee.args[0] else None)
                            for c, v in _first_arg_reads(pipe, plan, n.callee, depth + 1))
