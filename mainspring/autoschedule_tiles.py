"""Tiles of an automatic schedule: how the frame is split between the host, the GLB and the memory tiles.

use_glb "true" builds seed 002's three levels at the GLB tile asked for (or a default of at most 256 pixels a
side). use_glb "auto" (the default) keeps one accelerator tile over the frame when its buffers fit the memory
tiles, and otherwise splits the frame:
- into GLB tiles when the algorithm has copy Funcs (seed 002's three levels: the host loads tile t + 1 and reads
  back tile t - 1 while the array computes tile t, when two copies of every GLB tile fit the GLB's banks);
- into host tiles when the accelerated Func is the output itself (an algorithm written for a CPU: the GLB level
  needs a copy of the output), each tile a run of the array streamed straight from the host. A coordinate read
  as a value (`select(x < 4, ...)`) works in either: the hardware counts the array's runs and adds each one's
  offset (hwlower/tile_coordinates.py). A resampling pipeline (coordinates scaled or divided) is split in
  tiles of whole steps of every resampling (autoschedule_steps.py: a 2x upsample's tiles are even), so each
  tile's footprint only shifts; a Func read at two rates along x cannot be tiled and is refused with the figures
  (along y, GLB tiles run the whole height).

The memory tiles a tile of width w needs come from a model of the buffers (autoschedule_memory.py, `mem_tiles`);
the tiled schedule is then compiled and narrowed while its real figure is over the budget, and a frame the model
counts over the budget is compiled as one tile first
(one_tile). Among the tile sizes that fit (the widest tile whose memory tiles fit, and GLB tiles whose two copies
fit the GLB), the cycle model picks the fewest cycles: every tile streams its input with its halo,
ceil((w + halo_x) / lanes) * (h + halo_y) transfers, or the firings of the busiest buffered Func over its box
where that is more (a boundary condition computed over the halo of an image clipped to the frame), plus a constant
per tile measured with `mainspring bench` (TILE_CYCLES). Where one tile over the frame compiles over the budget, the
widest host or GLB tiles whose compiled design fits are searched for by bisection (`_widest_compiled`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .autoschedule_budget import Figures, restore, snapshot
from .autoschedule_memory import ceil_div as _ceil
from .autoschedule_memory import extent_of as _extent
from .autoschedule_memory import mem_tiles, rom_tiles, xy
from .autoschedule_memory import tile_boxes as _boxes
from .autoschedule_names import image_source
from .autoschedule_steps import Steps, tile_steps, x_rates
from .autoschedule_sweeps import sweep_cycles, sweeps
from .frontend.errors import HalideError, user_location
from .frontend.func import Function
from .frontend.pipeline import Pipeline
from .target import CGRA

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from collections.abc import Callable

    from .autoschedule import _Options, _Plan

# Cycles each tile adds to its transfers (the array's fill and drain between tiles), measured on gaussian at
# 512x256 (BENCHMARKS.md): 6.1 to 8 per GLB tile over 2 to 32 tiles, 6.0 per host tile over 4 and 8; with them
# the model is within 0.01% of the compiler's cycles, which the simulations reproduce.
TILE_CYCLES = {"glb": 6, "host": 6}
WIDER = 3  # tile counts tried beyond the fewest along each dimension (the cycle model picks among them)
NARROWINGS = 4  # compiles of a tiled schedule whose memory tiles exceed the budget, each a tile narrower
SWEEP_ROWS = 8  # the shortest strips tried for a sweep (shorter, its halo along y costs more than a narrower tile)
MODEL_SLACK = 2  # memory tiles the model may count over the compiler (unsharp's one-tile designs: up to 2)


def where(call: str = "apply_autoscheduler") -> str:
    """The user's line that called the autoscheduler, and the call: the start of its messages."""
    return f"{user_location()}: {call}"


def handle(pipe: Pipeline, f: Function) -> str:
    """How the schedule names f: `funcs["name"]`, or an image's wrapper `funcs["input"].in_()` (which creates it
    when the schedule is run on a fresh copy of the algorithm)."""
    if f.cloned is not None:  # a copy Func's copy for some of its readers (a scan's own stream): f.clone_in(g)
        of, readers = f.cloned
        names = ", ".join(f'funcs["{pipe.name(g)}"]' for g in readers)
        return f'funcs["{pipe.name(of)}"].clone_in({"[" + names + "]" if len(readers) > 1 else names})'
    if f.wrapped_image is not None:
        readers = ", ".join(f'funcs["{pipe.name(g)}"]' for g in f.wrapper_for)  # a reader's own: image.in_(g)
        image = image_source(pipe, f.wrapped_image.name)
        return f'funcs["{image}"].in_({"[" + readers + "]" if len(f.wrapper_for) > 1 else readers})'
    return f'funcs["{pipe.name(f)}"]'


@dataclass(frozen=True)
class Tiling:
    kind: str  # "glb" (seed 002's three levels) or "host" (host tiles, each a run of the array)
    tile: tuple[int, int]  # the tile's width and height
    mem_tiles: int  # the model's memory tiles for one tile
    whole: int  # the model's memory tiles for the whole frame as one tile
    budget: int
    cycles: int = 0  # the cycle model's figure for the frame in these tiles


def fit_tiles(pipe: Pipeline, plan: _Plan, target: CGRA, opts: _Options,
              run: Callable[[_Plan], str], measure: Figures, widen: bool = False) -> tuple[_Plan, str]:
    """Schedule `plan` (`run` applies it and returns its source) as one tile, or in the tiles choose_tiles picks;
    a tiled schedule is compiled (without proofs) for its memory tiles, and narrowed while they exceed the budget,
    since the model is calibrated on the apps, not proved. Where the model puts one tile over the frame over the
    budget, one tile is compiled first (one_tile), and kept if its real figure fits. `widen`: tiles that fit as
    compiled are widened too while wider ones fit as compiled (_widest_compiled)."""
    saved = snapshot(pipe)
    try:
        tiling = choose_tiles(pipe, plan, target, opts)
    except HalideError:
        if (got := one_tile(pipe, plan, target, opts, run, measure)) is None:
            if tile_steps(pipe, plan).x is None and xy(plan) is not None:
                raise _untileable(pipe, plan, target, opts, run, measure) from None
            raise
        return got
    if tiling is not None and (got := one_tile(pipe, plan, target, opts, run, measure)) is not None:
        return got
    restore(saved)
    for _ in range(NARROWINGS):
        plan.tiling = tiling
        plan.glb = tiling.tile if tiling and tiling.kind == "glb" else None
        plan.host_tile = tiling.tile if tiling and tiling.kind == "host" else None
        source = run(plan)
        if tiling is None:
            under = _counted_under(pipe, plan, target, opts, measure, source)
            if under <= 0:
                return plan, source
            restore(saved)  # one tile, compiled, is over max_mem_tiles where the model counted it within
            at = xy(plan)
            assert at is not None
            tiling = choose_tiles(pipe, plan, target, opts, narrower=plan.extents[at[0]][1] + plan.lanes.lanes,
                                  under=under)
            if tiling is not None:  # the figures the schedule's comment gives, as compiled
                tiling = replace(tiling, mem_tiles=tiling.mem_tiles + under, whole=tiling.whole + under)
                tiling = _widest_compiled(pipe, plan, target, run, measure, tiling)
            continue
        _, got = measure(source)
        if got <= tiling.budget:
            if not widen:
                return plan, source
            restore(saved)  # each width is applied to the algorithm as it came
            wider = _widest_compiled(pipe, plan, target, run, measure, replace(tiling, mem_tiles=got))
            plan.tiling, plan.glb, plan.host_tile = wider, *_placed(wider)
            return plan, run(plan)
        restore(saved)
        tiling = choose_tiles(pipe, plan, target, opts, narrower=tiling.tile[0], compiled=got)
    raise HalideError(
        f"{where()}: '{plan.output.name}' does not fit max_mem_tiles={opts.max_mem_tiles or target.num_mem_tiles} "
        f"in tiles of up to {plan.glb or plan.host_tile} pixels ({NARROWINGS} widths compiled); raise "
        "max_mem_tiles or compile for a larger target")


def _widest_compiled(pipe: Pipeline, plan: _Plan, target: CGRA, run: Callable[[_Plan], str], measure: Figures,
                     tiling: Tiling) -> Tiling:
    """`tiling`, or wider host tiles whose compiled design fits its budget and runs in fewer modelled cycles: the
    widest by bisection over the widths between, NARROWINGS compiles at most. The model's memory tiles for a
    row of delay lines do not fall with the tile's width, nor does the compiler's excess over them (Shi-Tomasi at
    16x8 in 8 memory tiles: 7 modelled at any width from 2, 10 compiled at widths 6 to 16 and 4 at width 4), so a
    count of the excess at the frame's width leaves only the 1-pixel tiles the model puts at 1 (1,424 cycles,
    against 500 at width 4)."""
    at = xy(plan)
    assert at is not None
    steps = tile_steps(pipe, plan)
    k = math.lcm(plan.lanes.lanes, steps.x or 1)
    (_, width), (_, height) = plan.extents[at[0]], plan.extents[at[1]]
    best = tiling
    lo, hi = tiling.tile[0] // k, (width - 1) // k  # in whole steps; one tile over the frame is over the budget
    for _ in range(NARROWINGS):
        if lo >= hi:
            break
        mid = (lo + hi + 1) // 2
        saved = snapshot(pipe)
        trial = replace(tiling, tile=(mid * k, tiling.tile[1]))
        plan.tiling = trial
        plan.glb, plan.host_tile = _placed(trial)
        got = measure(run(plan))[1]
        restore(saved)
        if got > tiling.budget:
            hi = mid - 1
            continue
        lo = mid
        transfers, _ = _per_tile(pipe, plan, at, trial.tile, target)
        cycles = -(-width // trial.tile[0]) * -(-height // trial.tile[1]) * (transfers + TILE_CYCLES[trial.kind])
        if cycles < best.cycles:
            best = replace(trial, mem_tiles=got, cycles=cycles)
    plan.tiling, plan.glb, plan.host_tile = None, None, None
    return best


def _placed(tiling: Tiling) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """(plan.glb, plan.host_tile) of `tiling`."""
    return (tiling.tile, None) if tiling.kind == "glb" else (None, tiling.tile)


def _untileable(pipe: Pipeline, plan: _Plan, target: CGRA, opts: _Options, run: Callable[[_Plan], str],
                measure: Figures) -> HalideError:
    """The refusal of a frame over the budget that cannot be tiled along x, with the memory tiles of its one-tile
    design as compiled (the model counts resampling pipelines low: the fix must name a target that fits)."""
    saved = snapshot(pipe)
    plan.tiling, plan.glb, plan.host_tile = None, None, None
    got = measure(run(plan))[1]
    restore(saved)
    at = xy(plan)
    assert at is not None
    (_, width), (_, height) = plan.extents[at[0]], plan.extents[at[1]]
    return HalideError(
        f"{where()}: '{plan.output.name}' as one accelerator tile of {width} x {height} needs {got} memory tiles, "
        f"over the budget of {opts.max_mem_tiles or target.num_mem_tiles}, and it cannot be split into tiles along "
        f"x: {tile_steps(pipe, plan).why_x}; raise max_mem_tiles or compile for a larger target "
        f"(hl.CGRA(num_mem_tiles={got}))")


def _counted_under(pipe: Pipeline, plan: _Plan, target: CGRA, opts: _Options, measure: Figures, source: str) -> int:
    """Memory tiles the model counted under the compiler for `plan` applied as one tile at one lane, where that
    puts it over an explicit max_mem_tiles and the frame can be tiled; else 0. Only with max_mem_tiles: a budget
    compiles its candidates anyway (fuzz --auto's cases against 3-word memory tiles, 121313: 5 compiled, 2 by the
    model, within the budget of 4), while the default schedule compiles nothing. Only at one lane: at more, the
    budget tries fewer lanes next, one tile that may be faster than tiles whose halos the model did not weigh."""
    at = xy(plan)
    if opts.max_mem_tiles is None or opts.use_glb == "true" or at is None or plan.lanes.lanes > 1 \
            or tile_steps(pipe, plan).x is None:
        return 0
    got = measure(source)[1]
    if got <= opts.max_mem_tiles:
        return 0
    return got - mem_tiles(pipe, plan, target, (plan.extents[at[0]][1], plan.extents[at[1]][1]))


def one_tile(pipe: Pipeline, plan: _Plan, target: CGRA, opts: _Options,
             run: Callable[[_Plan], str], measure: Figures) -> tuple[_Plan, str] | None:
    """`plan` as one tile over the frame, applied, where the model counts it over the budget (by at most MODEL_SLACK
    memory tiles unless max_mem_tiles is given: a budget compiles its candidates anyway) and the compiled design
    fits (fuzz --auto seed 14, a 2-lane design of a 4x3 frame: 2 by the model, 1 compiled); else None, with the
    schedule put back."""
    at = xy(plan)
    budget = opts.max_mem_tiles or target.num_mem_tiles
    if at is None or opts.use_glb == "true":
        return None
    whole = mem_tiles(pipe, plan, target, (plan.extents[at[0]][1], plan.extents[at[1]][1]))
    if whole <= budget or (whole > budget + MODEL_SLACK and opts.max_mem_tiles is None):
        return None
    saved = snapshot(pipe)
    plan.tiling, plan.glb, plan.host_tile = None, None, None
    source = run(plan)
    if measure(source)[1] <= budget:
        return plan, source
    restore(saved)
    return None


def fewest_cycles(pipe: Pipeline, plans: list[_Plan], target: CGRA, opts: _Options) -> _Plan:
    """Of plans at fewer and fewer lanes, the one the cycle model runs fastest: more lanes need more memory tiles
    (a delay line per lane), so where the frame must be tiled they may need tiles so narrow that the halo costs
    more than the lanes gain (harris at 2 lanes in 8 memory tiles: 2-pixel tiles, 3x the cycles)."""
    at = xy(plan := plans[0])
    if at is None or opts.use_glb == "true" or len(plans) == 1:
        return plan
    best: tuple[int, _Plan] | None = None
    for p in plans:
        try:
            tiling = choose_tiles(pipe, p, target, opts)
        except HalideError:
            continue  # no tile fits at these lanes
        if tiling is None:  # one tile: the frame's transfers
            cycles = _per_tile(pipe, p, at, (p.extents[at[0]][1], p.extents[at[1]][1]), target)[0]
        else:
            cycles = tiling.cycles
        if best is None or cycles < best[0]:
            best = (cycles, p)
        if tiling is None:
            break  # fewer lanes only add cycles
    if best is None or best[1] is plan:
        return plan
    got = best[1]
    budget = opts.max_mem_tiles or target.num_mem_tiles
    if (roms := rom_tiles(pipe, plan, target)) > budget:  # tiles of the frame do not shrink a table
        got.lanes.note = (f"{plan.lanes.lanes} pixels per cycle is not reachable: the copies of its tables read at "
                          f"computed coordinates (ROMs, one per {target.mem_tile_read_ports} reads a cycle) alone "
                          f"need {roms} memory tiles, over the budget of {budget}")
        return got
    got.lanes.note = (f"{plan.lanes.lanes} pixels per cycle is slower here: its memory tiles need narrower tiles "
                      f"of the frame, whose halos cost more than the lanes gain ({got.lanes.lanes} modelled fastest)")
    return got


def compiled_fastest(pipe: Pipeline, plans: list[_Plan], fit: Callable[[_Plan], tuple[_Plan, str]],
                     run: Callable[[_Plan], str], measure: Figures) -> tuple[_Plan, str]:
    """Of `plans` (the cycle model's pick of lanes, then the lanes asked), each fitted to max_mem_tiles by `fit`,
    the one whose compiled design has the fewest predicted cycles, applied. The model compares the lanes in tiles
    it sizes by its own memory tiles, which a row of delay lines keeps flat in the width: Shi-Tomasi at 16x8 in 8
    memory tiles, 14 modelled at 2 lanes from 3 pixels wide, took 1 lane, 500 cycles in 4-pixel tiles, where 2
    lanes in 4-pixel tiles compile to 2 memory tiles and 312 cycles."""
    saved = snapshot(pipe)
    best: tuple[int, _Plan, tuple] | None = None
    refusals: list[HalideError] = []
    for p in plans:
        restore(saved)
        try:
            got, source = fit(p)
        except HalideError as e:
            refusals.append(e)
            continue
        measure(source)
        if best is None or measure.cycles[source] < best[0]:
            best = (measure.cycles[source], got, (got.tiling, got.glb, got.host_tile))
    restore(saved)
    if best is None:
        raise refusals[0]
    _, got, (got.tiling, got.glb, got.host_tile) = best
    return got, run(got)


def _per_tile(pipe: Pipeline, plan: _Plan, at: tuple[int, int], tile: tuple[int, int],
              target: CGRA) -> tuple[int, int]:
    """(transfers, GLB banks per copy) of one tile: the busiest stream's transfers with its halo, and the banks
    of its GLB input and output tiles (memories/glb.py's bank_count: lanes wider than a bank port side by side)."""
    boxes = _boxes(pipe, plan, at, tile)
    bank_words = max(1, target.glb_words // target.glb_banks)

    def banks(words: int, lanes: int) -> int:
        side = _ceil(lanes, target.glb_lanes)
        return side * _ceil(_ceil(words, side), bank_words)

    transfers, used = 0, 0
    for s in plan.streams:
        box, j, lanes = boxes[pipe.name(s)], plan.lanes.x_dim.get(id(s), 0), plan.lanes.of(s)
        planes = math.prod(_extent(box, i) for i in range(len(box)) if i not in (j, j + 1))
        per_transfer = lanes * (planes if j > 0 else 1)  # a pixel's channels travel together when unrolled
        words = math.prod(_extent(box, i) for i in range(len(box)))
        transfers = max(transfers, -(-words // per_transfer))
        used += banks(words, per_transfer)
    transfers = max(transfers, sweep_cycles(pipe, sweeps(pipe, plan), boxes, plan.lanes.x_dim),
                    _firings(pipe, plan, boxes))
    out_box = boxes[pipe.name(plan.accelerated)]
    used += banks(math.prod(_extent(out_box, i) for i in range(len(out_box))), plan.lanes.lanes)
    return transfers, used


def _firings(pipe: Pipeline, plan: _Plan, boxes: dict[str, list]) -> int:
    """The most firings of a buffered Func's pure definition over a tile (its box by its lanes; its planes and
    channels unrolled in one firing): one computed over the halo fires more often than the stream transfers
    (Shi-Tomasi's `constant_exterior` over a 1-pixel tile: 60 firings for 24 transfers of the image clipped to the
    frame), so narrow tiles cost what the compiled design takes."""
    most = 0
    for f in plan.buffered:
        box, j = boxes[pipe.name(f)], plan.lanes.x_dim.get(id(f), 0)
        together = set(plan.planes.get(id(f), [])) | ({plan.channel} if plan.channel else set())
        pixels = math.prod(_extent(box, i) for i, v in enumerate(f.args) if v not in together)
        most = max(most, -(-pixels // (plan.lanes.of(f) if j < len(box) else 1)))
    return most


def choose_tiles(pipe: Pipeline, plan: _Plan, target: CGRA, opts: _Options,
                 narrower: int | None = None, under: int = 0, compiled: int = 0) -> Tiling | None:
    """use_glb "auto" (or "false": host tiles only): None when one accelerator tile over the frame fits the memory
    tiles (max_mem_tiles, else the target's), else the tiles with the fewest modelled cycles that fit; `narrower`:
    a tile width whose compiled design was over the budget; `under`: memory tiles the model counted under the
    compiler there (the tiles are chosen to fit the budget less them); `compiled`: the memory tiles of the `narrower`
    tiles as compiled."""
    at = xy(plan)
    budget = opts.max_mem_tiles or target.num_mem_tiles
    if at is None or opts.use_glb == "true":
        return None
    (_, width), (_, height), k = plan.extents[at[0]], plan.extents[at[1]], plan.lanes.lanes
    whole = mem_tiles(pipe, plan, target, (width, height))
    if whole <= budget and narrower is None:
        return None
    name = plan.output.name
    steps = tile_steps(pipe, plan)
    if steps.x is None:  # the memory tiles follow the tile's width: tiles along y alone would not fit them better
        raise HalideError(
            f"{where()}: '{name}' as one accelerator tile of {width} x {height} needs about {whole} memory tiles, "
            f"over the budget of {budget}, and it cannot be split into tiles along x: {steps.why_x}; raise "
            f"max_mem_tiles or compile for a larger target (hl.CGRA(num_mem_tiles={whole}))")
    k = math.lcm(k, steps.x)  # widths in whole lanes and whole steps of every resampling
    widest = narrower - k if narrower is not None else width
    # a sweep holds its tile's area: its tiles are bounded along y too (strips), the others run the whole height
    rows = _sweep_rows(height, steps) if sweeps(pipe, plan).held else [height]
    kind = "glb" if opts.use_glb == "auto" and plan.accelerated is not plan.output and not any(
        plan.lanes.x_dim.get(id(s), 0) for s in plan.streams) else "host"
    best: tuple[int, tuple[int, int], str] | None = None
    stale = 0  # strips tried since the fewest cycles last fell (the cycles of a height fall, then rise)
    for r in rows:
        fits = k * _widest(widest // k, lambda n, r=r: mem_tiles(pipe, plan, target, (n * k, r)) + under <= budget)
        if not fits:
            continue
        stale += 1
        nx0 = -(-width // fits)
        for nx in range(nx0, nx0 + WIDER + 1):
            w = min(fits, _ceil(_ceil(width, nx), k) * k)
            for kind_here, tall in _heights(pipe, plan, at, target, kind, w, height, steps):
                h = min(tall, r)
                transfers, _ = _per_tile(pipe, plan, at, (w, h), target)
                cost = -(-width // w) * -(-height // h) * (transfers + TILE_CYCLES[kind_here])
                if best is None or cost < best[0]:
                    best, stale = (cost, (w, h), kind_here), 0
        if fits >= widest or stale >= 2:
            break  # shorter strips of the whole width only add halo rows
    if best is None:
        # the narrowest tiles compiled over the budget (fuzz --auto 139892: the model counted 0 for them)
        least = max(mem_tiles(pipe, plan, target, (k, rows[-1])) + under, compiled if narrower == k else 0)
        raise HalideError(
            f"{where()}: '{name}' does not fit max_mem_tiles={budget} even in tiles {k} pixel(s) wide (about {least} "
            f"memory tiles{_whole_steps(steps, plan.lanes.lanes)}); raise max_mem_tiles or compile for a larger "
            f"target (hl.CGRA(num_mem_tiles={least}))")
    cycles, tile, kind = best
    return Tiling(kind, tile, mem_tiles(pipe, plan, target, tile), whole, budget, cycles)


def _widest(most: int, fits: Callable[[int], bool]) -> int:
    """The largest n in 0..most with fits(n) (fits is monotone: fewer pixels, fewer memory tiles); 0 for none."""
    lo, hi = 0, most
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    return lo


def _sweep_rows(height: int, steps: Steps) -> list[int]:
    """Heights of tiles for a sweep (whole steps of the resampling along y): the frame's, and shorter strips of
    it down to SWEEP_ROWS rows, about a quarter fewer rows each (the memory tiles follow the tile's area)."""
    sy = steps.y or height
    got, ny = [], 1
    while True:
        h = min(height, _ceil(_ceil(height, ny), sy) * sy)
        if got and h >= got[-1]:
            ny += 1
            continue
        got.append(h)
        if h <= max(SWEEP_ROWS, sy):
            return got
        ny = max(ny + 1, ny * 4 // 3)


def _whole_steps(steps: Steps, lanes: int) -> str:
    """Why a tile is at least so wide, where the resampling sets it."""
    if steps.x == 1:
        return ""
    return f", in whole steps of {steps.x} along x" + (f" and of {lanes} lanes" if lanes > 1 else "")


def _heights(pipe: Pipeline, plan: _Plan, at: tuple[int, int], target: CGRA, kind: str, w: int,
             height: int, steps: Steps) -> list[tuple[str, int]]:
    """Tile heights to weigh for tiles w wide: host tiles run the whole height; GLB tiles as tall as two copies of
    every GLB tile fit the GLB's banks (so the host's transfers overlap the array's compute), and a few shorter,
    in whole steps of the resampling along y (the whole height where a Func is read at two rates along it)."""
    if kind == "host":
        return [("host", height)]
    sy = steps.y or height  # a Func read at two rates along y: one tile along it
    lo, hi = 0, height
    while lo < hi:
        mid = (lo + hi + 1) // 2
        _, banks = _per_tile(pipe, plan, at, (w, mid), target)
        lo, hi = (mid, hi) if 2 * banks <= target.glb_banks else (lo, mid - 1)
    if lo < min(sy, height):  # not even a row (a whole step) double-buffers: host tiles
        return [("host", height)]
    ny0 = -(-height // lo)
    # equal tiles rounded up to whole steps, kept within what double-buffers (the last tile shifts inward)
    got = [min(height, _ceil(_ceil(height, ny), sy) * sy) for ny in range(ny0, ny0 + WIDER + 1) if ny <= height]
    got = [h for h in got if h <= lo] or [lo // sy * sy]
    return [("glb", h) for h in sorted(set(got), reverse=True)]


def _refuse_uncopied(pipe: Pipeline, plan: _Plan, asked: str, fix: str) -> None:
    """The GLB level holds copies of the accelerated Func's tiles; the output is accelerated itself where it is a
    table updated at computed coordinates or reads one out (its values stream out after its last update, whole),
    else where the autoscheduler did not make it a copy (mainspring/autoschedule_copy.py: a Tuple over 32 bits,
    specializations, a copy of an image)."""
    from .autoschedule import scatters

    out = plan.output
    table = next((f for f in [out, *pipe.producers(out)] if scatters(pipe, f)), None)
    if table is not None:
        raise HalideError(
            f"{where()}: {asked}: the GLB level holds copies of the accelerator's output tiles, and '{table.name}' is "
            "a table updated at computed coordinates, whose values stream out whole after its last update, so "
            f"'{out.name}' is the accelerated Func itself, with no tiles to copy; {fix}")
    if out.tuple_layout is not None:  # a Tuple of one word is made a copy (autoschedule_copy.py); wider ones not
        raise HalideError(
            f"{where()}: {asked}: the GLB level holds copies of the accelerator's output tile, and '{out.name}' is "
            "a Tuple over 32 bits, held in several words, each a Func of its own, so it is the accelerated Func "
            "itself, with no tile to copy; narrow its elements to 32 bits in all (a Tuple of one word is made a copy "
            f"of its value, as a single value is), or {fix}")
    raise HalideError(
        f"{where()}: {asked}: the GLB level holds copies of the accelerator's output tile, and "
        f"'{out.name}' is the accelerated Func itself (it copies no Func); write the output as a copy "
        f"of the last stage, as seed 002 does (hw_output[x, y] = ...; {out.name}[x, y] = hw_output[x, y]), or {fix}")


def glb_tile(pipe: Pipeline, plan: _Plan, opts: _Options) -> tuple[int, int]:
    """The GLB tile asked for or chosen: per dimension the extent up to 256, else its largest divisor in 128..256,
    else the extent split in equal tiles of at most 256 (the last shifts inward)."""
    asked = f'glb_tile="{opts.glb_tile[0]}x{opts.glb_tile[1]}" (which asks for use_glb "true")' \
        if opts.glb_tile else 'use_glb="true"'
    if plan.accelerated is plan.output:
        _refuse_uncopied(pipe, plan, asked, "drop glb_tile" if opts.glb_tile else "leave use_glb at \"auto\"")
    packed = [f.name for f in plan.streams if plan.lanes.x_dim.get(id(f), 0)]
    if len(plan.extents) != 2 or packed:
        why = f"'{plan.output.name}' has {len(plan.extents)} dimensions" if len(plan.extents) != 2 else \
            f"the stream '{packed[0]}' carries a pixel's channels in one transfer"
        raise HalideError(
            f"{where()}: {asked}: the GLB level is built for 2-D outputs and images streamed one pixel per "
            f"word, and {why}; drop {'glb_tile' if opts.glb_tile else 'use_glb'} (use_glb \"auto\" keeps one "
            "accelerator tile, or host tiles)")
    steps = tile_steps(pipe, plan)
    asked = opts.glb_tile or (None, None)
    for axis, step, why, want, extent in zip("xy", (steps.x, steps.y), (steps.why_x, steps.why_y), asked,
                                             (e for _, e in plan.extents)):
        if step is None and want is not None and want < extent:
            w, h = opts.glb_tile or (0, 0)
            raise HalideError(
                f"{where()}: glb_tile=\"{w}x{h}\": {why}, and every GLB tile runs the same hardware on a "
                f"footprint that only shifts from tile to tile; use the whole {axis} extent of {extent} in glb_tile, "
                "or drop glb_tile")

    def pick(extent: int, want: int | None, step: int | None) -> int:
        if want is not None:  # in whole steps of the resampling (fuzz --auto 140277: 7 columns over x / 2 and 8
            return min(extent, _ceil(want, step or 1) * (step or 1))  # were refused: the last tile's footprint grew)
        if extent <= 256 or step is None:
            return extent
        fits = [t for t in range(128, 257) if extent % t == 0 and t % step == 0]
        equal = _ceil(_ceil(extent, _ceil(extent, 256)), step) * step  # equal tiles of at most 256, whole steps
        return fits[-1] if fits else min(extent, equal)

    sx = steps.x
    if sx is not None and any(r != 1 for r in x_rates(pipe, plan).values()):  # and whole lanes (fuzz --auto
        sx = math.lcm(sx, plan.lanes.lanes)  # 140258: 2 columns at 3 lanes over 2 * x: lanes streaming nothing)
    return pick(plan.extents[0][1], asked[0], sx), pick(plan.extents[1][1], asked[1], steps.y)


def glb_lanes(pipe: Pipeline, plan: _Plan, opts: _Options, planned: Callable[[int], _Plan]) -> _Plan:
    """`plan` with its GLB tile (`glb_tile`), at lanes that divide the tile's columns: the GLB moves whole lanes a
    transfer (memories/glb.py `lane_words`), so 2 pixels per cycle over a GLB tile of 7 columns (a frame 7 wide,
    an upsample: fuzz --auto 149118) run at 1. `planned(k)`: the plan at k lanes."""
    plan.glb = glb_tile(pipe, plan, opts)
    while plan.glb[0] % plan.lanes.lanes:
        k, width = plan.lanes.lanes, plan.glb[0]
        plan = planned(max(j for j in range(1, k) if width % j == 0))
        plan.lanes.note = f"{k} pixels per cycle do not divide the GLB tile's {width} columns"
        plan.glb = glb_tile(pipe, plan, opts)
    return plan


def glb_source(pipe: Pipeline, plan: _Plan) -> list[str]:
    """Seed 002's three levels: the host steps over GLB tiles, the array computes one memory tile per GLB tile."""
    acc = f'funcs["{pipe.name(plan.accelerated)}"]'
    x, y = (f'vars["{a}"]' for a in plan.accelerated.args[:2])
    tw, th = plan.glb or (0, 0)
    lines = ['    xio, yio, xii, yii = hl.Var("xio"), hl.Var("yio"), hl.Var("xii"), hl.Var("yii")',
             f"    glb = {acc}.in_()  # the GLB output tile",
             f"    glb.compute_root().tile({x}, {y}, xo, yo, xi, yi, {tw}, {th}).hw_accelerate(xi, xo)",
             "    glb.store_in(hl.MemoryType.GLB)",
             f"    {acc}.tile({x}, {y}, xio, yio, xii, yii, {tw}, {th}).compute_at(glb, xo)  # the memory tile"]
    for f in plan.buffered:
        lines.append(f'    funcs["{pipe.name(f)}"].compute_at({acc}, xio)')
    for f in plan.streams:
        h = handle(pipe, f)
        lines += [f"    {h}.in_().in_().compute_at({acc}, xio)  # the memory-tile copy",
                  f"    {h}.in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)  # the GLB input tile",
                  f"    {h}.compute_root().accelerator_input()"]
    return lines
