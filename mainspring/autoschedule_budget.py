"""Budgets of an automatic schedule: the most lanes, then the most unrolled reductions, that fit `max_pes` PEs and
`max_mem_tiles` memory tiles.

PEs and memory tiles come from compiling each candidate (without the kernel proofs), so the figures are the report's,
not a model's: lanes from the lanes asked for (or, with no `lanes`, from as many as the 1-lane design fits in the PE
budget) down to one; where the full unroll has planes (autoschedule_planes.py), at each lane count the output taking its
producer's planes one by one (APART), then the planar streams plane after plane (STREAMS_APART: mobile at max_pes 15,
the hand design's 15 PEs for the full unroll's 56), then no planes, a cut that fits at k lanes weighed against the first
fit at one lane fewer (`_better`: storage near its minimum, then cycles, then words), and at one lane a cut whose
storage is far over its minimum against the next fit (a larger budget then gives no worse a design than a smaller one:
mobile at max_pes 55 and 50); at one lane, reductions unrolled over fewer of their RVars (the innermost stay unrolled,
as `conv.update().unroll(r.x)` with r.y serial: one balanced tree per step), down to serial ones. Each of these is tried
first as written, then (`offload`: the algorithm has such Funcs) with every Func computed pixel by pixel from one image
or copy streamed from the host (`brighter[x, y] = min(hw_input[x, y] * 2, 255)`): that costs no cycles of the array, so
it comes before fewer lanes or unrolls, but it takes the user's stages after the copy Funcs off the array, so only a
budget asks for it. (An image's sole reader computed pixel by pixel from it, `hw_input[x, y] = i16(input[x, y]) * 7` as
the reference system's rom streams it, is a host stream by default.) Between candidates each Func's schedule is put back
as the algorithm had it. A candidate's figures are kept by its schedule source (`Figures`), which gives the design byte
for byte: the tiles' check compile of a candidate and the budget's are one compile (each of 1920x1080's GLB tilings
takes 1.5 s).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

from .autoschedule_planes import CUTS
from .frontend.errors import HalideError
from .frontend.func import handle_of
from .frontend.params import ImageParam
from .frontend.pipeline import Pipeline
from .target import CGRA

NEAR = 1.1  # storage within NEAR times its minimum (and 4 words) is near it (`_better`)
# a design at k lanes whose storage is over FAR times its minimum is weighed against fewer lanes (`_doubtful`), and
# storage within it counts as near there (shi_tomasi at 2 lanes in host tiles: 316 cycles and 87 words for 74,
# against 504 and 68 for 60 at one lane)
FAR = 1.5
SLOW = 1.1  # test_autoprobes.py's near-ideal check: cycles within a tenth of the ideal, past the fill
MAX_LANES = 16  # the most lanes tried when the PE budget alone sets them
HOST = ", the host computing what it can"


def fit_budget(pipe: Pipeline, target: CGRA, asked: int | None, max_pes: int | None, max_mem_tiles: int | None,
               apply: Callable[[int, int | None, bool], tuple[object, str]], depths: int, where: str,
               measure: Figures, offload: bool = False, planes: bool = False) -> tuple[object, str]:
    """Apply the best candidate that fits (`apply(lanes, unrolled_rvars, host)` schedules the algorithm and
    returns (plan, source)): the first that fits, or the first that fits at one lane fewer where that is better
    (`_better`), or a fit at k > 1 lanes that looks no better than fewer (`_doubtful`: weighed the same way, down to
    one lane, and against the 1-lane design compiled to set the lanes where `asked` is None); raise HalideError,
    with the smallest design's figures, when none does. `planes`: the full unroll
    has planes (autoschedule_planes.py), whose cuts come first at every lane count: the output taking them apart
    (APART), the streams plane after plane (STREAMS_APART), then none (all RVars unrolled: depth `depths - 1`)."""
    pes_cap, tiles_cap = max_pes or target.num_pes, max_mem_tiles or target.num_mem_tiles
    saved = snapshot(pipe)
    seen: dict[str, tuple[int, int]] = {}  # the candidates applied, in order

    refusals: list[HalideError] = []  # candidates whose tiles cannot fit (use_glb "auto" tiles the frame first)

    cuts = [*CUTS, depths - 1] if planes else []

    def trial(lanes: int, depth: int | None, host: bool = False) -> tuple[object, str, bool]:
        restore(saved)
        try:
            plan, source = apply(lanes, depth, host)
            # a candidate hwlower refuses does not fit: a cut of the planes at k lanes (`scaled(k, x, y)`, k
            # serial, reads its image's lanes along x), a scan reading the row above ahead of x at k lanes
            got = measure(source)
        except HalideError as e:
            refusals.append(e)
            return None, "", False
        seen[source] = got
        pes, tiles = seen[source]
        return plan, source, pes <= pes_cap and tiles <= tiles_cap

    one: tuple[object, str, bool] | None = None  # the 1-lane design, where compiled to set the lanes
    if asked is None:  # as many lanes as the 1-lane design fits in the budget
        one = trial(1, None)
        pes, tiles = next(iter(seen.values())) if seen else (1, 1)
        asked = max(1, min(MAX_LANES, pes_cap // max(pes, 1), tiles_cap // max(tiles, 1)))

    chosen = _choose(trial, measure, _candidates(asked, depths, cuts, offload), cuts)
    k = chosen[0].lanes.lanes if chosen is not None else 1  # type: ignore[attr-defined]
    if chosen is not None and one is not None and one[2] and k > 1 and _doubtful(measure, chosen[1], k, one[1]) \
            and _better(measure, one[1], chosen[1], FAR):
        # (the 1-lane design is compiled already: mobile at max_pes 200 took 3 lanes, 253 cycles for 88 at one)
        plan = trial(1, None)[0]
        plan.lanes.note = no_better(measure, k, chosen[1], 1, one[1])  # type: ignore[attr-defined]
        return plan, one[1]
    if chosen is not None:
        return chosen
    restore(saved)
    if not seen:
        raise refusals[-1]  # the smallest candidate's reason
    pes, tiles = min(seen.values())
    raise HalideError(
        f"{where}: no schedule of '{pipe.output.name}' fits max_pes={pes_cap} and max_mem_tiles={tiles_cap}: the "
        f"smallest tried (one lane, reductions serial{HOST if offload else ''}) needs {pes} PEs and {tiles} memory tile"
        f"{'' if tiles == 1 else 's'}; raise the budget "
        f"(max_pes=\"{max(pes, pes_cap)}\", max_mem_tiles=\"{max(tiles, tiles_cap)}\") or compile for a larger "
        "target")


def _choose(trial: Callable, measure: Figures, candidates, cuts: list[int]) -> tuple[object, str] | None:
    """fit_budget's pick among the candidates (lanes, depth, host), tried in order by `trial`; None where none fits."""
    # a cut of the planes that fits (or a doubtful design), to weigh (fit_budget), and the margin of its storage
    first: tuple[int, int | None, bool, str, float] | None = None
    for lanes, depth, host in candidates:
        if first is not None and first[0] > 1 and lanes >= first[0]:
            continue
        plan, source, fits = trial(lanes, depth, host)
        if not fits:
            continue
        doubtful = lanes > 1 and _doubtful(measure, source, lanes)  # weighed against fewer lanes, down to one
        if lanes > 1 and ((first is None and depth in cuts) or (doubtful and (
                first is None or _better(measure, source, first[3], FAR)))):
            first = lanes, depth, host, source, FAR if doubtful else NEAR
            continue
        if lanes == 1 and depth in CUTS and _far(measure, source) and (
                first is None or _better(measure, source, first[3], first[4])):
            # a cut of the planes at one lane whose storage is far over its minimum is weighed against the next
            # that fits, as a doubtful design at k lanes (mobile at max_pes 55, the output's planes one by one:
            # 815 cycles but 3,662 words for 896 in 20 memory tiles, against 1,786 cycles and 824 words for 812)
            first = lanes, depth, host, source, FAR
            continue
        if first is not None and not _better(measure, source, first[3], first[4]):
            return trial(*first[:3])[:2]
        if first is not None and first[4] == FAR:  # a doubtful design gave way to this one
            plan.lanes.note = no_better(measure, first[0], first[3], lanes, source)  # type: ignore[attr-defined]
        return plan, source
    return None if first is None else trial(*first[:3])[:2]


def _candidates(asked: int, depths: int, cuts: list[int], offload: bool):
    """(lanes, depth, host) in the order tried: at each lane count the full unroll, then the planes' cuts; at one
    lane then fewer RVars unrolled; each as written, then with the host computing what it can (`offload`)."""
    for lanes in range(asked, 0, -1):
        for depth in [None] + cuts if lanes > 1 else [None] + cuts[:-1] + list(range(depths - 1, -1, -1)):
            for host in (False, True) if offload else (False,):
                yield lanes, depth, host


def _better(measure: Figures, source: str, than: str, margin: float = NEAR) -> bool:
    """Whether the design of `source` is better than that of `than`: storage within `margin` of its minimum first (a
    2-plane convolution at 2 lanes with its planes cut took 773 words for 236, at 100 cycles against 119 for 115
    at one lane), then fewer cycles, then fewer words."""
    def key(src: str) -> tuple[bool, int, int]:
        words, least = measure.storage[src]
        return words > margin * least + 4, measure.cycles[src], words

    return key(source) < key(than)


class Figures:
    """The (PEs, memory tiles) of the design of the schedule applied to `pipe`, compiled once per schedule source
    within one apply_autoscheduler (`known`)."""

    def __init__(self, pipe: Pipeline, target: CGRA):
        self.pipe, self.target = pipe, target
        self.known: dict[str, tuple[int, int]] = {}
        self.cycles: dict[str, int] = {}  # the predicted cycles of each design compiled
        self.storage: dict[str, tuple[int, int]] = {}  # its buffers' words and their minimum
        self.ideal: dict[str, int] = {}  # its ideal cycles (the busiest stream's transfers or op's firings)
        self.outputs: dict[str, int] = {}  # its output's words in one tile (one lane's transfers, at most), or 0
        self.fill: dict[str, int] = {}  # its first output's cycle

    def __call__(self, source: str) -> tuple[int, int]:
        if source not in self.known:
            design = figures(self.pipe, self.target)
            rep, nest = design.report, design.program.nest
            # (one tile only: tiles' fill repeats at any lanes, shi_tomasi's 2 lanes in 4-wide host tiles take 316
            # cycles for 128 pixels, one lane 504)
            self.outputs[source] = math.prod(e for _, e in nest.buffer(nest.output).box) if rep["tiles"] == 1 else 0
            self.known[source] = rep["pes"], rep["mem_tiles"]
            self.cycles[source] = rep["predicted_cycles"]
            self.ideal[source] = rep["ideal_cycles"]
            self.fill[source] = rep["first_output_cycle"]
            buffers = rep["buffers"]
            self.storage[source] = sum(b["words"] for b in buffers), sum(b["min_words"] for b in buffers)
        return self.known[source]


def over_array(lanes: int, source: str, measure: Figures, target: CGRA) -> str:
    """Why the design of schedule `source` at `lanes` > 1 does not fit the target ("" where it does): its PEs, or
    compile's refusal of the schedule (a 2-D scan reading the row above ahead of x is refused at k lanes)."""
    if lanes == 1:
        return ""
    try:
        pes = measure(source)[0]
    except HalideError as e:
        return f"are refused by compile ({str(e).splitlines()[0].split(': ', 1)[-1][:160]})"
    return f"need {pes} PEs, over the target's {target.num_pes}" if pes > target.num_pes else ""


def fewer_lanes(plan, source: str, asked: int, apply: Callable[[int], tuple[object, str]], measure: Figures,
                saved: list) -> tuple[object, str, str]:
    """(plan, source, note): the design of `source` (applied, at `plan.lanes.lanes` = k lanes, from `asked`), or
    the best of it and the designs at k - 1 .. 1 lanes by `_better` where it looks no better than fewer lanes
    (`_doubtful`, from its own figures: the common case compiles nothing more), with a note saying why. (A 2-D
    scan whose update cannot take lanes made 53 cycles and 25 words at 2 lanes against 48 and 15 at one; mobile at
    8x6 and 2 lanes, its planes taken serially, 260 cycles for 48 pixels, against 88 at one.)
    `apply(lanes)` schedules the algorithm at that many lanes and returns (plan, source); `saved`: the schedules
    to restore before each."""
    k = plan.lanes.lanes  # type: ignore[attr-defined]
    if k == 1 or not _doubtful(measure, source, k):
        return plan, source, plan.lanes.note  # type: ignore[attr-defined]
    best: tuple[int, str, object] = asked, source, plan
    on = asked  # the lanes whose schedule the Funcs have (None: a refused one's, part applied)
    for m in range(k - 1, 0, -1):
        restore(saved)
        on = None
        try:
            got, fewer = apply(m)
            measure(fewer)
        except HalideError:  # a design compile refuses is no better
            continue
        on = m
        if got.lanes.lanes == m and _better(measure, fewer, best[1], FAR):  # type: ignore[attr-defined]
            best = m, fewer, got
    if on != best[0]:
        restore(saved)
        best = best[0], best[1], apply(best[0])[0]
    if best[0] == asked:
        return plan, source, plan.lanes.note  # type: ignore[attr-defined]
    note = no_better(measure, k, source, best[0], best[1])
    return best[2], best[1], note


def no_better(measure: Figures, k: int, source: str, m: int, fewer: str) -> str:
    """The note where the design of `source` at k lanes gives way to that of `fewer` at m."""
    (words, least), (fewer_words, _) = measure.storage[source], measure.storage[fewer]
    what = f"{k} pixels per cycle make a design no better than {m}" if k > m else \
        "the planes cut at one lane make a design no better than fewer PEs"
    return (f"{what}: {measure.cycles[source]} cycles and {words} words (for {least}) against "
            f"{measure.cycles[fewer]} and {fewer_words}")


def _far(measure: Figures, source: str) -> bool:
    """Whether the design of `source` holds storage far (FAR) over its minimum."""
    words, least = measure.storage[source]
    return words > FAR * least + 4


def _doubtful(measure: Figures, source: str, k: int, one: str | None = None) -> bool:
    """Whether the design of `source` at k lanes may be no better than fewer lanes': its storage far over its
    minimum (FAR: at 2 lanes mobile's pointwise stage held 696 words for 216; shi_tomasi's 4-wide host tiles, 87 for
    74 at 316 cycles, are not: one lane, 68 for 60, takes 504), or its cycles not below its ideal at one lane (k
    times its own, or in one tile its output's words, which one lane transfers at most: mobile's at 2 lanes, planes
    serial took 260 cycles for 8x6, one lane 88), or those of the 1-lane design of `one`, where that is compiled;
    or its cycles past its own ideal and fill by a tenth (SLOW: a u32 column scan at 3 lanes over rows of 3
    transfers waits for its carried add, 34 cycles for an ideal of 15 and a fill of 5; 2 lanes take 30)."""
    cycles = measure.cycles[source]
    slow = cycles > SLOW * measure.ideal[source] + measure.fill[source]
    return _far(measure, source) or slow or cycles >= k * measure.ideal[source] or (
        0 < measure.outputs[source] <= cycles) or (one is not None and cycles >= measure.cycles[one])


def figures(pipe: Pipeline, target: CGRA):
    """The design of the schedule applied to `pipe` (its report: the figures)."""
    from .compiler import compile as compile_design

    roomy = dataclasses.replace(target, num_pes=1 << 30, num_mem_tiles=1 << 30)  # the figures, not the refusal
    # (unchecked: a plan the checker refuses is an internal error, not a refusal the search weighs)
    return compile_design(handle_of(pipe.output), name="autoschedule_budget", target=roomy, prove=False, check=False)


def snapshot(pipe: Pipeline) -> list:
    """Each Func's schedule as it is (placement, each stage's loops and directives, its wrappers)."""
    out: list = []
    for f in pipe.order:
        placement = (f.placement, {k.name: _copied(getattr(f.placement, k.name))
                                   for k in dataclasses.fields(f.placement)})
        stages = [(d.schedule, list(d.schedule.dims), list(d.schedule.directives)) for d in f.definitions]
        out.append((f, placement, stages, dict(f.wrappers)))
    # the images' set_bounds too: a candidate's schedule binds a boundary condition's image size, and the next
    # candidate, planned from a clean slate, must bind it again in its own source
    images = {id(p.owner): p.owner for p in pipe.inputs.values() if isinstance(p.owner, ImageParam)}
    return out + [(image, image.given_bounds()) for image in images.values()]


def _copied(value):
    """A Placement field's value, its dict or list copied (bound() fills the bounds in place)."""
    return type(value)(value) if isinstance(value, (dict, list)) else value


def restore(saved: list) -> None:
    for entry in saved:
        if len(entry) == 2:
            image, bounds = entry
            image.reset_bounds(bounds)
            continue
        f, (placement, fields), stages, wrappers = entry
        # the Placement object itself, as it was: Functions outside the pipeline's order may share it (a Tuple
        # over 32 bits holds words 1 and up in Functions sharing the Func's, frontend/wide_tuples.py; given a copy,
        # its words stayed inline, the accelerator computed word 0 alone, and the pasted source gave another design)
        for name, value in fields.items():
            setattr(placement, name, _copied(value))
        f.placement = placement
        for schedule, dims, directives in stages:
            schedule.dims[:] = dims
            schedule.directives[:] = directives
        f.wrappers = dict(wrappers)

