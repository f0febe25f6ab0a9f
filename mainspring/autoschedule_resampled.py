"""Inline a buffered resampling Func where its readers, reading its producer instead, store fewer words within the
budgets (issue 11: storage at the minimum, PEs and memory tiles budgets), for an automatic schedule's plan.

autoschedule.py buffers a Func its readers read at several places: h2h_up_sample's `upx(x, y)`, an upsample along
x of the stream `hw_input(x / 2 ...)`, read by `nearest_neighbor` at rows `y / 2` and `y / 2 - 1 + 2 * (y % 2)`.
Buffered, it holds two of its rows at the output's width (251 words at 124x124, one memory tile, 8 PEs); inlined,
as the generator's hand schedule has it, its reader reads the stream at half that width (133 words, as the hand
design, in two tiles for the read ports, 12 PEs: each output row computes upx again). autoschedule_inline.py weighs
a Func by the memory-tile model, which keeps the first; this weighs such a resampling Func by words, the tiles a
budget: it is inlined where the replay of the schedule (autoschedule_addressed.py) counts fewer words without it,
its tiles then within max_mem_tiles (else the target's), and the design's PEs within max_pes (else the target's),
counted as autoschedule_inline counts them.

Scheduling time (session 40): each candidate costs the compile of its inlined design, which decides the budgets
first; the buffered design is compiled only where the answer needs it: the replay counts its words within a word
or two (not the inlined design's: 2,892 for 3,852 on the 1080p down_up, hence that compile), and the inlined design
within 1% of its own ideal is within 1% of the buffered design's cycles, which cannot beat that ideal. h2h_up_sample
at 124x124 and the 1080p down_up compile their inlined design only (the latter's buffered design, whose minimum
storage the compiler counts over the frame, took 3 to 4 s of its 9.7); a 16x16 up_sample, 18 cycles of fill over
its 256 ideal, compiles both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .autoschedule_addressed import ROWS, addressed_costs
from .autoschedule_budget import Figures, restore, snapshot
from .autoschedule_buffers import divides_coordinate
from .autoschedule_memory import _computed_readers, tile_boxes, xy
from .frontend import ir
from .frontend.errors import HalideError
from .frontend.func import Function
from .frontend.pipeline import Pipeline
from .target import CGRA

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Options, _Plan


def inline_resampled(pipe: Pipeline, plan: _Plan, opts: _Options, run: Callable[[_Plan], str],
                     measure: Figures) -> _Plan:
    """Take out of `plan.buffered` each resampling Func that stores fewer words inlined within the budgets of
    `opts` (module notes). The Funcs' schedules are put back as they were on return."""
    at = xy(plan)
    candidates = [f for f in plan.buffered if _candidate(pipe, plan, f)] if at is not None else []
    if not candidates:
        return plan
    assert at is not None
    target = measure.target
    rows = (plan.extents[at[0]][1], min(plan.extents[at[1]][1], ROWS))
    pes, tiles = opts.max_pes or target.num_pes, opts.max_mem_tiles or target.num_mem_tiles
    saved = snapshot(pipe)
    try:
        words = _words(pipe, plan, target, at, rows)
        for f in candidates:
            kept = plan.buffered
            plan.buffered = [g for g in kept if g is not f]
            got = _words(pipe, plan, target, at, rows)
            # the replay counts words closely but may count fewer tiles than the compiler maps for the readers'
            # ports (5 for 8 on a 2x upsample read at two offsets, inlined): the compiled designs decide
            if words is None or got is None or sum(w for w, _ in got.values()) >= sum(w for w, _ in words.values()) \
                    or not _better(pipe, plan, kept, run, measure, (pes, tiles), sum(w for w, _ in words.values())):
                plan.buffered = kept
            else:
                words = got
    finally:
        restore(saved)
    return plan


def _better(pipe: Pipeline, plan: _Plan, kept: list[Function], run: Callable[[_Plan], str], measure: Figures,
            budgets: tuple[int, int], replayed: int) -> bool:
    """Whether the design of `plan` stores fewer words than the design with `kept` buffered, within the (PEs,
    memory tiles) `budgets`, in at most 1% more cycles (a design compile refuses is no better). The inlined design
    is compiled (the replay undercounts its words and tiles: 2,892 words for 3,852 on the 1080p down_up); the
    buffered one only where the replay's count of its words (`replayed`, within a word of the compiled count: the
    model counts buffered designs) or the inlined design's own ideal leave the answer open (module notes)."""
    inlined, saved = plan.buffered, snapshot(pipe)
    try:
        source = run(plan)
        figures = measure(source)
        words, cycles = measure.storage[source][0], measure.cycles[source]
        if figures[0] > budgets[0] or figures[1] > budgets[1]:
            return False
        # the buffered design reads the same streams and writes the same output, and computes the resampling Func
        # besides: its ideal is at least the inlined design's, and its cycles at least its ideal
        if words < replayed - _margin(replayed) and cycles <= measure.ideal[source] * 1.01:
            return True
        restore(saved)
        plan.buffered = kept
        buffered = run(plan)
        measure(buffered)
    except HalideError:
        return False
    finally:
        plan.buffered = inlined
        restore(saved)
    return words < measure.storage[buffered][0] and cycles <= measure.cycles[buffered] * 1.01


def _margin(words: int) -> int:
    """Words the replay's count of a buffered design may be off by (it leaves out the output's register; one in
    64 besides, where the compiler's mapping differs), beyond which the compiled count is not needed."""
    return 2 + words // 64


def _words(pipe: Pipeline, plan: _Plan, target: CGRA, at: tuple[int, int],
           rows: tuple[int, int]) -> dict[int, tuple[int, int]] | None:
    """The replay's (words, tiles) of every buffer and stream, or None where it does not count them all."""
    boxes = tile_boxes(pipe, plan, at, rows)
    got = addressed_costs(pipe, plan, target, boxes, lambda f: _computed_readers(pipe, plan, f))
    return got if got and len(got) == len(plan.buffered) + len(plan.streams) else None


def _candidate(pipe: Pipeline, plan: _Plan, f: Function) -> bool:
    """Whether f is a resampling of Funcs held anyway (streams or buffered), one definition read pointwise by its
    readers at several places of no reduction: inlined, it adds no producer, only its readers' reads of those."""
    defs = pipe.definitions(f)
    if f is plan.accelerated or len(defs) != 1 or defs[0].rdom is not None or id(f) in plan.unrolled or (
            id(f) in plan.planes) or len(f.args) != 2 or not divides_coordinate(pipe, f, set()):
        return False
    held = {id(g) for g in plan.buffered + plan.streams if g is not f}
    calls = [n for n in ir.walk(defs[0].value) if isinstance(n, ir.Call) and isinstance(n.callee, Function)]
    if not calls or not all(id(n.callee) in held for n in calls):
        return False
    region = {id(g) for g in plan.region}
    return not any(isinstance(n, ir.Call) and n.callee is f and any(
        isinstance(m, ir.RVar) for a in n.args for m in ir.walk(a))
        for c in pipe.consumers(f) if id(c) in region for d in pipe.definitions(c) for n in ir.walk(d.value))
