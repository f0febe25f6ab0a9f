"""Automatic hardware schedules (issue 11): `Pipeline(output).apply_autoscheduler(hl.CGRA(...),
hl.AutoschedulerParams("Mainspring", {...}))` on an algorithm written without a schedule.

The decisions, in the style of seed 002's hand schedules:
- The accelerator runs from copy Funcs of the images (`hw_input[x, y] = input[x, y]`, casts and constant offsets
  allowed: streamed, `compute_root().stream_to_accelerator()`; a leading channel dimension unrolled whole), or
  where the algorithm has none, from the images' `in_()` wrappers (a serial reduction's scan of an image that
  others read too, `hist(in(r.x, r.y)) += 1`, from one of its own, `in_(hist)`: the others' stream starts when the
  scan is done, memories/late_streams.py), and from an image's sole reader computed pixel
  by pixel from it in at most a word (`hw_input[x, y] = i16(input[x, y]) * 7`: the host streams it as it would
  the image, a word a pixel, and the array spends no PE on it), to the output, or to the Func the output
  copies (`output[x, y] = u8(hw_output[x, y])`, or `output[x, y, c] = hw_output[c, x, y]` with the channels
  unrolled: the output then stays on the host), as one accelerator tile over the output's estimates
  (`output.set_estimates([(0, W), (0, H)])`, or its bounds), or with use_glb as seed 002's three levels.
- A Func inside is buffered (computed at the accelerator's tile loop: line buffers, sized by memories) when it
  has reuse: it is read at more than one place (a stencil's taps, or a read that moves with a reduction's
  RVars) or by more than one Func, or has update definitions; also an upsample read at an offset, and a Func
  every channel of the output reads alike; otherwise (or where the models find a buffer of taps cheaper inlined,
  autoschedule_inline.py) it is inlined into its readers. Reductions over constant RDoms of at most MAX_UNROLLED
  points are unrolled whole (one firing per pixel); larger ones over channels x taps are unrolled over their
  channels with their taps serial (autoschedule_reduce.py), others stay serial; a Func firing more often than the
  streams transfer unrolls its small planes whose lanes read nothing new (autoschedule_planes.py). Funcs that
  read no input are constant tables and keep their default (folded or a ROM), unless the algorithm reads no
  image at all: then every Func the output reads is the accelerator's work, from coordinates alone.
- Lanes: autoschedule_lanes.py gives each Func the pixels per cycle its readers read it at; budgets:
  autoschedule_budget.py cuts lanes, then reductions' unrolls, to fit max_pes and max_mem_tiles (each step first
  as written, then with the Funcs computed pixel by pixel from one image streamed from the host).
- Tiles: autoschedule_tiles.py (one tile where autoschedule_memory.py's model fits, else GLB or host tiles).

The schedule is produced as Python source (`schedule_source`: `def schedule(funcs, vars)`), and applied by running
that very source, so pasting it into the user's file gives the same design byte for byte.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .autoschedule_budget import Figures, fewer_lanes, fit_budget, over_array, restore, snapshot
from .autoschedule_buffers import (
    divides_coordinate,
    down_read_up,
    has_reuse,
    read_across_channels,
    read_off_grid,
    scanned_apart,
)
from .autoschedule_divisors import refuse_two_divisors
from .autoschedule_images import image_shapes, output_extents
from .autoschedule_inline import inline_cheaper
from .autoschedule_lanes import REGISTER_TABLE, LanePlan, fewest_alike, plan_lanes
from .autoschedule_lanes_source import lanes_source
from .autoschedule_lanes_source import var_source as _var
from .autoschedule_memory import scalars
from .autoschedule_names import image_source, pipeline_vars, rvar_source
from .autoschedule_planes import CUTS, output_planes, plan_planes, planes_source, planes_to_cut, stream_channels
from .autoschedule_planes import plane_var as _plane_var
from .autoschedule_reduce import MAX_UNROLLED, points, projection_source, serial_channel_streams, serial_steps, unrolls
from .autoschedule_resampled import inline_resampled
from .autoschedule_serial_planes import planes_read_serially
from .autoschedule_steps import transposed, transposed_streams
from .autoschedule_tiles import Tiling, compiled_fastest, fewest_cycles, fit_tiles, glb_lanes, glb_source, one_tile
from .autoschedule_tiles import handle as _handle
from .autoschedule_tiles import where as _where
from .frontend import ir
from .frontend.bounds import infer_boxes
from .frontend.define import SCALAR_VAR
from .frontend.errors import HalideError
from .frontend.func import Function, handle_of
from .frontend.output_words import WORD
from .frontend.params import Parameter
from .frontend.pipeline import Pipeline
from .hwlower.region import funcs_between, reads_an_image
from .target import CGRA

MAX_CHANNELS = 4  # a leading dimension of at most this extent is a pixel's channels, unrolled whole
KEYS = {
    "lanes": "pixels per cycle, a positive integer (default 1, or with max_pes as many as fit it)",
    "max_pes": "the PE budget, a positive integer: lanes, then reductions' unrolls, are cut to fit it",
    "max_mem_tiles": "the memory-tile budget, a positive integer: the frame is tiled, then lanes are cut, to fit it",
    "use_glb": '"auto" (default: one accelerator tile, or where the frame does not fit the memory tiles GLB tiles, '
               'host tiles for an output that copies no Func), "false" (no GLB: host tiles where it does not fit) or '
               '"true" (seed 002\'s three levels: host, GLB tiles, memory tiles; an output that copies no Func first '
               "becomes a copy of its value: copy_output)",
    "glb_tile": '"WxH", the GLB tile (implies use_glb "true"; default: the output, or tiles of at most 256)',
}


class AutoschedulerParams:
    """Halide's `AutoschedulerParams(name, extra)`: the scheduler's name and its options as strings."""

    def __init__(self, name: str, extra: dict[str, str] | None = None):
        self.name = name
        self.extra = dict(extra or {})


@dataclass(frozen=True)
class AutoSchedulerResults:
    scheduler_name: str
    schedule_source: str  # Python: `def schedule(funcs, vars):` over the Funcs and Vars by name
    lanes: int = 1  # the output's pixels per cycle the schedule reaches
    note: str = ""  # why that is fewer than the `lanes` asked for


@dataclass
class _Options:
    lanes: int | None = None  # None: 1, or as many as fit max_pes
    max_pes: int | None = None
    max_mem_tiles: int | None = None
    use_glb: str = "auto"
    glb_tile: tuple[int, int] | None = None


@dataclass
class _Plan:
    output: Function
    accelerated: Function
    streams: list[Function]
    buffered: list[Function]
    extents: list[tuple[int, int]]
    # id(f) -> [(update, names)]: its RVars unrolled, and for a reduction over channels x taps its planes' Vars
    unrolled: dict[int, list[tuple[int, list[str]]]] = field(default_factory=dict)
    partial: set[tuple[int, int]] = field(default_factory=set)  # (id(f), update): unrolled over channels, taps serial
    serial_channels: set[int] = field(default_factory=set)  # streams of channels carrying one channel per transfer
    planes: dict[int, list[str]] = field(default_factory=dict)  # id(f) -> its planes unrolled (autoschedule_planes)
    planes_apart: bool = False  # a budget's cut: the output takes the planes its producers make together one by one
    together: set[int] = field(default_factory=set)  # planar streams read at their readers' own planes, unrolled
    sweeps: dict[int, list[tuple[int, list[str]]]] = field(default_factory=dict)  # id(f) -> [(update, RVars outermost)]
    lanes: LanePlan = field(default_factory=lambda: LanePlan(1))
    glb: tuple[int, int] | None = None  # the GLB tile (seed 002's three levels), or None for one accelerator tile
    host_tile: tuple[int, int] | None = None  # host tiles (each a run of the array), or None
    tiling: Tiling | None = None  # why the frame is split (use_glb "auto": it does not fit the memory tiles)
    region: list[Function] = field(default_factory=list)  # the Funcs computed inside, buffered or inlined
    channel: str | None = None  # the accelerated Func's first argument, when it is a pixel's channels (unrolled)
    size: dict[str, tuple[int, int]] = field(default_factory=dict)  # the accelerated Func's (min, extent) by Var
    shapes: list[tuple[str, int, int, int]] = field(default_factory=list)  # (image, dim, min, extent) to bind
    asked: int = 1  # the lanes the plan is made for (a window's taps unroll whole within MAX_TAPS_UNROLLED of all)


def apply_autoscheduler(pipe: Pipeline, target: CGRA, params: AutoschedulerParams) -> AutoSchedulerResults:
    opts = parsed_options(params, target)
    copies = {id(f) for f in pipe.order if f is not pipe.output and _image_copy(pipe, f)}
    if not copies or any(id(f) not in copies and _reads_image(pipe, f) for f in pipe.order):
        # No copy Funcs of the images, or Funcs besides them reading an image (demosaic's `g(x, y) = raw(2 * x +
        # 1, 2 * y) + ...` beside `r(x, y) = raw(2 * x, 2 * y)`; the output too: `f(x, y) = bl(x / 2, y / 2) +
        # im(x, y)` beside `d(x, y) = im(2 * x, 2 * y)`): each image streams in through its in_() wrapper
        # (Halide's ImageParam.in_()).
        for p in sorted(pipe.inputs.values(), key=lambda p: p.name):
            scans = scanned_apart(pipe, p)
            # a whole-frame scan (a histogram, a total) streams apart from the image's other readers: at k lanes
            # they read k pixels a cycle, and they wait for the scan's result, so their stream starts late
            if scans:
                p.owner.in_([handle_of(f) for f in scans])
            p.owner.in_()
        pipe = pipe.rebuilt()
        if _clone_entry_scans(pipe, target.word_bits):
            pipe = pipe.rebuilt()
    elif _clone_scans(pipe, copies):  # the same for the user's copy Funcs: the scan reads a clone of its own
        pipe = pipe.rebuilt()
    measure = Figures(pipe, target)

    def run(plan: _Plan) -> str:
        source = _source(pipe, plan, opts)
        namespace: dict = {}
        exec(compile(source, "<mainspring autoschedule>", "exec"), namespace)  # the very calls a user pastes
        namespace["schedule"](pipe.funcs(), pipeline_vars(pipe))
        return source

    def planned(lanes: int, depth: int | None, host: bool = False) -> _Plan:  # buffers inlined where cheaper
        first = _plan(pipe, lanes, depth, host, target.word_bits)
        kept = {id(f) for f in first.buffered}
        plan = inline_resampled(pipe, inline_cheaper(pipe, first, target, opts.max_pes, run), opts, run, measure)
        gone = frozenset(kept - {id(f) for f in plan.buffered})
        if gone and plan.lanes.lanes < lanes:  # the lanes planned with them buffered (a RAM read at a computed k)
            again = _plan(pipe, lanes, depth, host, target.word_bits, gone)
            if again.lanes.lanes > plan.lanes.lanes:
                return again
        return plan

    def apply(lanes: int, depth: int | None, host: bool = False) -> tuple[_Plan, str]:
        plan = fewest_alike(pipe, planned(lanes, depth, host), lambda k: planned(k, depth, host))
        if opts.use_glb == "true":
            plan = glb_lanes(pipe, plan, opts, lambda k: planned(k, depth, host))
            return plan, run(plan)
        if plan.lanes.lanes > 1:  # where the frame must be tiled, fewer lanes may run faster (wider tiles)
            kept = one_tile(pipe, plan, target, opts, run, measure)  # unless one tile, compiled, fits after all
            if kept is not None:
                return kept
            fewer = [planned(k, depth, host) for k in range(plan.lanes.lanes - 1, 0, -1)]
            chosen = fewest_cycles(pipe, [plan] + fewer, target, opts)
            if opts.max_mem_tiles is not None:  # (widened as compiled: the model counts narrow tiles' registers)
                return compiled_fastest(pipe, [chosen] + ([plan] if chosen is not plan else []), lambda p: fit_tiles(
                    pipe, p, target, opts, run, measure, widen=True), run, measure)
            plan = chosen
        return fit_tiles(pipe, plan, target, opts, run, measure)

    def budgeted(asked: int | None) -> tuple[_Plan, str]:
        whole = _plan(pipe, 1, 1 << 30, word_bits=target.word_bits)  # every reduction unrolled, no planes
        planes = planes_to_cut(pipe, _plan(pipe, 1, word_bits=target.word_bits))
        depths = max((len(r) for u in whole.unrolled.values() for _, r in u), default=0) + planes  # first cut: planes
        offload = any(_image_pointwise(pipe, f) and not _image_copy(pipe, f) for f in pipe.order
                      if f is not pipe.output)
        return fit_budget(pipe, target, asked, opts.max_pes, opts.max_mem_tiles, apply, depths, _where(), measure,
                          offload, planes)

    if opts.max_pes is None and opts.max_mem_tiles is None:
        saved = snapshot(pipe)
        plan, source = apply(opts.lanes or 1, None)
        why = over_array(plan.lanes.lanes, source, measure, target)
        if why:
            # Lanes asked with no budget: the target's array is the budget (the default compiles nothing, but
            # lanes multiply the PEs: RGB to YUV in 32 bits took 444 of 384 at 2 lanes, refused at compile).
            restore(saved)
            asked = plan.lanes.lanes
            plan, source = budgeted(asked)
            note = f"{asked} pixels per cycle {why}" + (f"; {plan.lanes.note}" if plan.lanes.note else "")
            return AutoSchedulerResults("Mainspring", source, plan.lanes.lanes, note)
        plan, source, note = fewer_lanes(plan, source, opts.lanes or 1, lambda k: apply(k, None), measure, saved)
        return AutoSchedulerResults("Mainspring", source, plan.lanes.lanes, note)
    plan, source = budgeted(opts.lanes)
    return AutoSchedulerResults("Mainspring", source, plan.lanes.lanes, plan.lanes.note)


PARAMS = 'AutoschedulerParams("Mainspring")'


def parsed_options(params: AutoschedulerParams, target: CGRA) -> _Options:
    if not isinstance(params, AutoschedulerParams) or params.name != "Mainspring":
        got = getattr(params, "name", type(params).__name__)
        raise HalideError(f"{_where()}: unknown autoscheduler '{got}'; mainspring's is "
                          'hl.AutoschedulerParams("Mainspring", {...})')
    valid = "; ".join(f"{k}: {v}" for k, v in KEYS.items())
    opts = _Options()
    for key, value in sorted(params.extra.items()):
        if key not in KEYS:
            raise HalideError(f'{_where(PARAMS)}: unknown key {key!r}; the keys are {valid}')
        text = str(value).strip()
        if key in ("lanes", "max_pes", "max_mem_tiles"):
            if not text.isdigit() or int(text) < 1:
                raise HalideError(f"{_where(PARAMS)}: {key}={value!r} is not valid; {key}: {KEYS[key]}")
            setattr(opts, key, int(text))
        elif key == "use_glb":
            if text not in ("true", "false", "auto"):
                raise HalideError(f'{_where(PARAMS)}: use_glb={value!r} is not valid; use_glb: '
                                  f"{KEYS[key]}")
            opts.use_glb = text
        elif key == "glb_tile":
            w, _, h = text.partition("x")
            if not (w.isdigit() and h.isdigit() and int(w) > 0 and int(h) > 0):
                raise HalideError(f'{_where(PARAMS)}: glb_tile={value!r} is not valid; glb_tile: '
                                  f"{KEYS[key]}")
            opts.glb_tile = (int(w), int(h))
    if opts.glb_tile is not None and opts.use_glb == "false":
        raise HalideError(f'{_where(PARAMS)}: glb_tile={params.extra["glb_tile"]!r} with '
                          'use_glb="false": a GLB tile needs the GLB; drop glb_tile, or set use_glb to "true"')
    if opts.glb_tile is not None:
        opts.use_glb = "true"
    return opts


def _plan(pipe: Pipeline, lanes: int, depth: int | None = None, host: bool = False, word_bits: int = 16,
          inlined: frozenset[int] = frozenset()) -> _Plan:
    """The plan at `lanes` pixels per cycle, each reduction unrolled over its `depth` innermost RVars (all of them
    for None). The streams are the copies of the images and the images' sole readers computed pixel by pixel from
    them (`_entry`); `host`: also every Func computed pixel by pixel from one image or copy (a PE budget's last
    resort: it takes the user's stages off the array); `inlined`: Funcs (ids) inline_cheaper took out, left out of
    the buffers and of the lanes' planning (their reads are their readers')."""
    out = pipe.output
    extents, inner = output_extents(pipe), _copied(pipe, out)
    # The output copies the Func to accelerate, unless that is an image (nothing to compute) or a table updated at
    # computed coordinates (a histogram: its values stream out only after its last update, from a copy).
    accelerated = inner if inner is not None and not _image_copy(pipe, inner) and not scatters(pipe, inner) else out
    streams = [f for f in pipe.order if f is not accelerated and (
        _image_pointwise(pipe, f) if host else _image_copy(pipe, f) or _entry(pipe, f, word_bits))]
    # an image's in_() wrapper read only by Funcs the host computes stays on the host with them
    ids = {id(f) for f in streams}
    streams = [f for f in streams if not all(id(g) in ids for g in pipe.consumers(f))]
    # an image read inside is streamed (a copy or its sole pointwise readers); with none, coordinates alone
    assert streams or not reads_an_image(pipe), f"'{out.name}' reads an image but nothing streams it"
    seen = funcs_between(pipe, accelerated, streams)
    region = [f for f in pipe.order if id(f) in seen]
    refuse_two_divisors(pipe, region)
    for f in region:
        for d in pipe.definitions(f):
            for n in ir.walk(d.value):
                if isinstance(n, ir.Call) and isinstance(n.callee, Parameter) and n.args:
                    raise HalideError(
                        f"{d.loc}: apply_autoscheduler: Func '{f.name}' is inside the accelerator but reads the "
                        f"image {n.callee.name} directly; read it through a copy Func the accelerator streams "
                        f"(hw_input[x, y] = {n.callee.name}[x, y])")
    # With no image at all, the accelerator computes from coordinates alone: every Func it reads is its work.
    reads_input = _reads_streams(pipe, streams) if streams else seen
    size = dict(zip(out.args, extents))
    first = accelerated.args[0]
    channel = first if len(accelerated.args) == 3 and size.get(first, (0, 1 << 30))[1] <= MAX_CHANNELS else None
    buffered: list[Function] = []
    divides: set[int] = set()  # Funcs whose values, inlined, divide a coordinate (an upsample)
    for f in pipe.order:
        if id(f) not in seen or f is accelerated or id(f) not in reads_input:
            continue
        if divides_coordinate(pipe, f, divides):
            divides.add(id(f))
        if id(f) in inlined:
            continue
        if (has_reuse(pipe, f, seen) or (id(f) in divides and read_off_grid(pipe, f, seen))
                or (channel and read_across_channels(pipe, f, accelerated, channel)) or down_read_up(pipe, f, seen)):
            buffered.append(f)
            divides.discard(id(f))
    plan = _Plan(out, accelerated, streams, buffered, extents)
    plan.size = size
    plan.shapes = image_shapes(pipe, extents)
    plan.asked = lanes
    plan.channel = channel  # hw_output(c, x, y): one pixel's channels per transfer, as seed 002 streams them
    for f in buffered + [accelerated]:
        for k, d in enumerate(pipe.definitions(f)[1:], start=1):
            names, partial = unrolls(pipe, plan, f, d, None if depth in CUTS else depth)
            if names:
                plan.unrolled.setdefault(id(f), []).append((k - 1, names))
            if partial:
                plan.partial.add((id(f), k - 1))

    def serial(f: Function, k: int) -> bool:
        return k > 0 and pipe.definitions(f)[k].rdom is not None and ((id(f), k - 1) in plan.partial or all(
            u != k - 1 for u, _ in plan.unrolled.get(id(f), [])))

    computed = [f for f in pipe.order if (id(f) in seen and id(f) in reads_input) or f in streams]  # not tables
    plan.region = [f for f in computed if f not in streams]
    registers = _register_tables(pipe, plan, computed)
    if depth is None or depth in CUTS:  # a budget's cuts start with these lanes
        one = plan_lanes(pipe, accelerated, computed, serial, 1, 1 if plan.channel else 0, registers)
        plan_planes(pipe, plan, one.x_dim, scalars(plan), depth)
    whole = {**plan.planes, id(accelerated): plan.planes.get(id(accelerated), []) + ([channel] if channel else [])}
    laned = [f for f in computed if id(f) not in inlined]  # an inlined Func's reads are its readers'
    plan.lanes = plan_lanes(pipe, accelerated, laned, serial, lanes, 1 if plan.channel else 0, registers, whole,
                            frozenset(id(f) for f in streams), scalars(plan))
    # a transposed stream (`im(y, x)`) carries a pixel a transfer, as a stream of channels taken one at a time does
    plan.serial_channels = serial_channel_streams(pipe, plan, scalars(plan)) | (
        transposed(pipe, plan, plan.lanes.x_dim) & {id(f) for f in streams})
    return plan


def _register_tables(pipe: Pipeline, plan: _Plan, computed: list[Function]) -> frozenset[int]:
    """The tables updated at computed coordinates whose box is at most REGISTER_TABLE elements (lanes of
    registers in hwlower), by bounds inference over the output's estimates."""
    tables = [f for f in computed if scatters(pipe, f)]
    if not tables:
        return frozenset()
    boxes, _ = infer_boxes(pipe, [(lo, lo + e - 1) for lo, e in plan.extents], scalars(plan), output_bounds=False)
    return frozenset(id(f) for f in tables if math.prod(hi - lo + 1 for lo, hi in boxes[pipe.name(f)])
                     <= REGISTER_TABLE)


def _uncast_value(pipe: Pipeline, f: Function) -> ir.Expr | None:
    """The value of f's one (pure) definition under its casts, or None if f has updates."""
    defs = pipe.definitions(f)
    if len(defs) != 1:
        return None
    v = defs[0].value
    while isinstance(v, ir.Cast):
        v = v.value
    return v


def accelerates_output(pipe: Pipeline) -> bool:
    """Whether a plan accelerates the output itself, for want of a Func it copies (a table updated at computed
    coordinates, read out by it, aside)."""
    return _copied(pipe, pipe.output) is None and not scatters(pipe, pipe.output)


def _copied(pipe: Pipeline, f: Function) -> Function | None:
    """The Func f copies point for point, through casts (`output[x, y] = u8(hw_output[x, y])`), or None."""
    v = _uncast_value(pipe, f)
    names = [a.name if isinstance(a, ir.Var) else None for a in v.args] if isinstance(v, ir.Call) else [None]
    # also in another order (`output[x, y, c] = hw_output[c, x, y]`: the channels of a pixel in one transfer)
    if isinstance(v, ir.Call) and isinstance(v.callee, Function) and None not in names and sorted(
            names) == sorted(f.args):
        return v.callee
    return None


def _reads_image(pipe: Pipeline, f: Function) -> bool:
    return any(isinstance(n, ir.Call) and isinstance(n.callee, Parameter) and n.callee.kind == "image"
               for d in pipe.definitions(f) for n in ir.walk(d.value))


def _clone_scans(pipe: Pipeline, copies: set[int]) -> bool:
    """Give each whole-frame scan of a copy Func of an image (`total() += hw_input(r.x, r.y)`, beside the map's
    `hw_input(x, y)`) a clone of the copy, streamed apart (`hw_input.clone_in(total)`, as a user would write it):
    the map's stream then starts when the scan is done instead of being held whole. Whether any was cloned."""
    cloned = False
    for f in sorted((f for f in pipe.order if id(f) in copies), key=lambda f: f.name):
        scans = scanned_apart(pipe, f)
        if scans:
            handle_of(f).clone_in([handle_of(g) for g in scans])
            cloned = True
    return cloned


def _clone_entry_scans(pipe: Pipeline, word_bits: int) -> bool:
    """The same for a stream the host computes from an image (`g(x, y) = u16(in(x, y)) * 3 + 1`, `_entry`) scanned
    whole by a reduction and read by a map: the scan reads a clone of g (`g.clone_in(total)`), the host streams
    both, and g's stream, read by the map, starts when the scan is done (a 1080p frame: refused, the frame held in
    1,013 memory tiles; now none). Whether any was cloned."""
    cloned = False
    for f in sorted((f for f in pipe.order if f is not pipe.output and _entry(pipe, f, word_bits)),
                    key=lambda f: f.name):
        if scans := scanned_apart(pipe, f):
            handle_of(f).clone_in([handle_of(g) for g in scans])
            cloned = True
    return cloned


def _image_copy(pipe: Pipeline, f: Function) -> bool:
    """f(x, y) = cast(image(x + a, y + b)): a stream the host computes."""
    v = _uncast_value(pipe, f)
    return isinstance(v, ir.Call) and isinstance(v.callee, Parameter) and v.callee.kind == "image" and all(
        not any(isinstance(n, ir.Call) for n in ir.walk(a)) for a in v.args)


def _image_pointwise(pipe: Pipeline, f: Function) -> bool:
    """f(x, y) = an expression of one image read at one point (constants aside): a stream the host can compute."""
    defs = pipe.definitions(f)
    calls = [n for n in ir.walk(defs[0].value) if isinstance(n, ir.Call)] if len(defs) == 1 else []
    return bool(calls) and (_image_copy(pipe, calls[0].callee) if isinstance(calls[0].callee, Function) else isinstance(
        calls[0].callee, Parameter) and calls[0].callee.kind == "image") and all(
        n.callee is calls[0].callee and n.args == calls[0].args for n in calls) and all(
        not any(isinstance(m, ir.Call) for m in ir.walk(a)) for a in calls[0].args)


def _entry(pipe: Pipeline, f: Function, word_bits: int) -> bool:
    """Whether f, in integers of at most a word, is computed pixel by pixel from one image read at one point and is
    that image's only reader (`hw_input[x, y] = i16(input[x, y]) * 7`, the reference system's rom): the host, which
    reads the image to stream it anyway, streams f instead, a word a pixel either way, and the array spends no PE
    on it. (Only the images' readers: a stage after a copy Func is the user's computation, the array's. Only at
    shifted coordinates, `input[x + 1, y, 0]`: an upsample's `input[x / 2, y]` would stream 2 words per pixel.)"""
    if not _image_pointwise(pipe, f) or f.type.is_float() or f.type.bits() > word_bits:
        return False
    call = next(n for n in ir.walk(pipe.definitions(f)[0].value) if isinstance(n, ir.Call))
    if not all(_shifted(a) for a in call.args):
        return False
    image = call.callee
    # f and its clones (`_clone_entry_scans`: a whole-frame scan's copy of f) may read the image
    root = f.cloned[0] if f.cloned else f
    mates = {id(g) for g in pipe.order if g is root or (g.cloned is not None and g.cloned[0] is root)}
    if isinstance(image, Function):  # an image's in_() wrapper (an algorithm without copy Funcs)
        return image.wrapped_image is not None and {id(g) for g in pipe.consumers(image)} <= mates
    return {id(g) for g in pipe.order for d in pipe.definitions(g) for n in ir.walk(d.value)
            if isinstance(n, ir.Call) and n.callee is image} <= mates


def _shifted(a: ir.Expr) -> bool:
    """Whether coordinate a is a constant, a Var, or a Var plus or minus a constant."""
    if isinstance(a, ir.BinOp) and a.op in ("add", "sub"):
        return (isinstance(a.a, ir.Var) and isinstance(a.b, ir.Const)) or (
            a.op == "add" and isinstance(a.b, ir.Var) and isinstance(a.a, ir.Const))
    return isinstance(a, (ir.Var, ir.Const))


def scatters(pipe: Pipeline, f: Function) -> bool:
    """Whether an update of f writes at a computed coordinate (`hist(bin(r)) += 1`)."""
    return any(isinstance(n, ir.Call) for d in pipe.definitions(f)[1:] for a in d.args for n in ir.walk(a))


def _reads_streams(pipe: Pipeline, streams: list[Function]) -> set[int]:
    out = {id(f) for f in streams}
    for f in pipe.order:
        if any(id(p) in out for p in pipe.producers(f)):
            out.add(id(f))
    return out


def _pixels(out: Function, extents: list[tuple[int, int]]) -> tuple[str, str]:
    """The output's size in pixels ("64 x 48") and, for outputs of several words a pixel (frontend/output_words.py:
    their innermost dimension, which is no extent of the image), how many (", 2 words per pixel")."""
    size = " x ".join(str(e) for a, (_, e) in zip(out.args, extents) if a != WORD)
    words = dict(zip(out.args, extents)).get(WORD)
    return size, f", {words[1]} words per pixel" if words else ""


def _source(pipe: Pipeline, plan: _Plan, opts: _Options) -> str:
    name = pipe.name
    acc, out = plan.accelerated, plan.output
    dims = [a for a in acc.args if a != plan.channel]
    x, y = (f'vars["{a}"]' for a in dims[:2]) if len(dims) >= 2 else (f'vars["{dims[0]}"]', None)
    ext = [plan.size.get(a, e)[1] for a, e in zip(dims, plan.extents)]
    size, words = _pixels(out, plan.extents)
    tiles = (f"GLB tiles of {plan.glb[0]} x {plan.glb[1]} over {size} (seed 002's three levels)" if plan.glb
             else f"host tiles of {plan.host_tile[0]} x {plan.host_tile[1]} over {size}" if plan.host_tile
             else f"one accelerator tile of {size}") + words
    lines = [
        "def schedule(funcs, vars):",
        (f'    """mainspring\'s automatic hardware schedule for \'{name(out)}\': {plan.lanes.lanes} pixel(s) per '
         f'cycle, {tiles}."""'),
        "    import mainspring as hl",
        "",
        '    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")',
    ]
    if dims != [SCALAR_VAR]:
        lines.append(f'    funcs["{name(out)}"]' + "".join(f'.bound(vars["{v}"], {lo}, {e})' for v, (lo, e) in
                                                        zip(out.args, plan.extents)))
    if plan.tiling:
        t = plan.tiling
        lines.append(f"    # as one tile the frame needs about {t.whole} memory tiles, over the budget of {t.budget}: "
                     f"{t.kind} tiles, each about {t.mem_tiles}")
    for image, i, lo, e in plan.shapes:  # a boundary condition's clamp of the image: constant bounds
        key = image_source(pipe, image)
        lines.append(f'    funcs["{key}"].dim({i}).set_bounds({lo}, {e})  # the size of the image the design reads')
    if plan.glb:
        lines += glb_source(pipe, plan)
    elif dims == [SCALAR_VAR]:  # a Func of no dimensions: accelerated whole, at its only loop level (Halide's root)
        lines.append(f'    funcs["{name(acc)}"].compute_root().hw_accelerate(hl.Var.outermost(), hl.Var.outermost())')
        lines += [f'    funcs["{name(f)}"].compute_at(funcs["{name(acc)}"], hl.Var.outermost())' for f in plan.buffered]
    else:
        ext = list(plan.host_tile or ext)
        tile = (f".tile({x}, {y}, xo, yo, xi, yi, {ext[0]}, {ext[1]})" if y is not None
                else f".split({x}, xo, xi, {ext[0]})")
        if y is not None and len(dims) > 2:  # planes (x, y, c) inside the tile: c is the tile's, not the host's
            planes = ", ".join(f'vars["{d}"]' for d in dims[2:])
            inner, unrolled = output_planes(pipe, plan, acc, dims[2:])
            tile += f".reorder({planes}, xi, yi, xo, yo)" if inner else f".reorder(xi, yi, {planes}, xo, yo)"
            if unrolled:
                tile += "".join(f'.unroll(vars["{d}"])' for d in dims[2:])
        lines.append(f'    funcs["{name(acc)}"].compute_root(){tile}.hw_accelerate(xi, xo)')
        if plan.channel:
            lines.append(f'    funcs["{name(acc)}"].unroll(vars["{plan.channel}"])  # a pixel\'s channels per transfer')
        for f in plan.buffered:
            lines.append(f'    funcs["{name(f)}"].compute_at(funcs["{name(acc)}"], xo)')
    for f in plan.buffered if plan.channel else []:
        if plan.channel in f.args:  # its channels computed together, at the pace the output streams them
            lines.append(f'    funcs["{name(f)}"].unroll(vars["{plan.channel}"])')
    for f in plan.buffered if not plan.channel else []:
        if stream_channels(pipe, plan, f):  # a pixel's channels before x: at the pace its stream carries them
            lines.append(f'    funcs["{name(f)}"].unroll(vars["{f.args[0]}"])')
    for f in plan.buffered + [acc]:
        lines += _unroll_source(pipe, plan, f) + planes_source(pipe, plan, f) + projection_source(pipe, f)
    for f in plan.streams if not plan.glb else []:
        # a transposed image (`im(y, x)`) streamed down its columns, in the order the output reads it; not a 1-D
        # output's weights `w(r, j)`, whose dimension before x is a pixel's channels, unrolled whole below
        down = id(f) in transposed_streams(plan) and id(f) in plan.serial_channels
        order = f".reorder({_var(f, f.args[1])}, {_var(f, f.args[0])})" if down else ""
        lines.append(f"    {_handle(pipe, f)}.compute_root(){order}.stream_to_accelerator()"
                     + ("" if _image_copy(pipe, f) else "  # computed by the host from the image"))
        if plan.lanes.x_dim.get(id(f), 0) > 0 and id(f) not in plan.serial_channels:
            # its first dimension is a pixel's channels: a pixel's channels per transfer
            lines.append(f"    {_handle(pipe, f)}.unroll({_var(f, f.args[0])})")
        elif _planes_read_together(pipe, plan, f):  # a planar image whose planes a firing reads together
            c, rest = _var(f, f.args[-1]), ", ".join(_var(f, a) for a in f.args[:-1])
            lines.append(f"    {_handle(pipe, f)}.reorder({c}, {rest}).unroll({c})  # a pixel's channels per "
                         "transfer, streamed channels first")
        elif planes_read_serially(pipe, plan, f):
            c, rest = _var(f, f.args[-1]), ", ".join(_var(f, a) for a in f.args[:-1])
            lines.append(f"    {_handle(pipe, f)}.reorder({c}, {rest})  # streamed channels first, one a step")
    lines += lanes_source(pipe, plan)
    return "\n".join(lines) + "\n"


def _planes_read_together(pipe: Pipeline, plan: _Plan, f: Function) -> bool:
    """Whether stream f is a planar image (x, y, c) that the accelerated region reads only at constant planes, 2 to
    4 of them (`input(x, y, 0) - input(x + 2, y + 1, 1)`, or over an RDom unrolled whole: `maximum(input(x, y,
    r))`): streamed plane after plane, its readers would wait for the last plane; channels first
    (hwlower/stream_order.py), one transfer a pixel (at k lanes, k pixels' planes: `unroll(c)` then `unroll(x,
    k)`, as a stream of channels)."""
    if len(f.args) != 3 or plan.lanes.x_dim.get(id(f), 0) != 0 or plan.glb:
        return False
    image = f.wrapped_image
    planes: set[int] = set()
    for g in plan.region:
        unrolled = {n for _, names in plan.unrolled.get(id(g), []) for n in names}
        for d in pipe.definitions(g):
            ranges = {r: range(int(lo.value), int(lo.value) + int(e.value))
                      for r, lo, e in (d.rdom.dims if d.rdom is not None else ())
                      if r in unrolled and isinstance(lo, ir.Const) and isinstance(e, ir.Const)}
            for n in ir.walk(d.value):
                if not (isinstance(n, ir.Call) and (n.callee is f or (image is not None and n.callee is image))):
                    continue
                c = n.args[2]
                if isinstance(c, ir.Const):
                    planes.add(int(c.value))
                elif isinstance(c, ir.RVar) and c.name in ranges:
                    planes |= set(ranges[c.name])
                elif _plane_var(c) is not None and (_plane_var(c) in plan.planes.get(id(g), []) or (
                        g is plan.accelerated and id(f) in plan.together)):
                    planes |= set(range(2))  # at its reader's own planes, unrolled (autoschedule_planes.py)
                else:
                    return False
    return 1 < len(planes) <= 4


def _unroll_source(pipe: Pipeline, plan: _Plan, f: Function) -> list[str]:
    """The unrolls of f's reductions: RVars by name, and the Vars of its planes in every definition."""
    lines, pure = [], []
    for k, names in plan.unrolled.get(id(f), []):
        if (id(f), k) in plan.partial:
            d = pipe.definitions(f)[k + 1]
            lines.append(f"    # {pipe.name(f)}: {points(d)} points a pixel, over {MAX_UNROLLED}: its channels "
                         f"unrolled, {serial_steps(pipe, f, k, names)} steps of its taps")
        pure += [n for n in names if n in f.args and n not in pure]
        lines.append(f'    funcs["{pipe.name(f)}"].update({k})' + "".join(
            f".unroll({rvar_source(pipe, f, k, n)})" for n in names))
    return [f'    funcs["{pipe.name(f)}"].unroll(vars["{n}"])' for n in pure] + lines
