"""Replay a stage's loop transformations: the loops it runs (outermost first, constant extents) and each
original variable as an affine function of those loops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from mainspring.frontend.errors import ScheduleError, SourceLoc
from mainspring.frontend.schedule import ForType, Fuse, Reorder, Split, StageSchedule, TailStrategy

from .ir import Affine


@dataclass(frozen=True, slots=True)
class StageLoop:
    dim: str  # the schedule's dimension name (e.g. "xi")
    extent: int
    unrolled: bool
    is_rvar: bool
    strip: str = ""  # "outer" / "inner": a half of a loop strip-mined for an upsample (ir.Loop.strip)
    asked: int = 0  # the steps the program asks for where the compiler ran on past them (ir.Loop.asked)


@dataclass(frozen=True, slots=True)
class StageLoops:
    loops: tuple[StageLoop, ...]  # outermost first
    var_exprs: dict[str, Affine]  # original var / RVar name -> affine in dim names
    # RVars whose loops run past their steps (Halide's guarded tail, rvar_tails.py): (name, first, last step)
    guards: tuple[tuple[str, int, int], ...] = ()


def replay(schedule: StageSchedule, extents: dict[str, tuple[int, int]], rvars: set[str], who: str,
           update: bool = False, shifts: bool = False) -> StageLoops:
    """extents: original dimension -> (min, extent). A split that does not divide its loop is a tail: RoundUp
    (also Halide's Auto tail for a pure variable of an update) runs ceil(e / f) iterations of the outer loop,
    covering up to f - 1 values past the extent (bounds inference grew the Func's box to cover them); other
    tails are refused, or with `shifts` round up too (shift_tails.py)."""
    ext: dict[str, int] = {d: e for d, (_, e) in extents.items()}
    exprs: dict[str, dict[str, int]] = {d: {d: 1} for d in extents}
    consts: dict[str, int] = {d: lo for d, (lo, _) in extents.items()}
    unrolled: set[str] = set()
    nested: dict[str, str] = {}  # a fused loop of two iterating loops -> the outer one, run around it
    guards: set[str] = set()
    lanes = schedule.lane_dims()
    for dv in schedule.directives:
        _check_nested(dv, nested, ext, who)
        if isinstance(dv, Split):
            pure = dv.old not in rvars and not _is_r(dv.old, schedule)
            if not pure and ext[dv.old] % dv.factor and ext[dv.old] > dv.factor:
                guards |= {v for v in rvars if dv.old in exprs[v]}
            _split(dv, ext, exprs, who, pure and update, shifts and pure, not pure, dv.inner in lanes)
        elif isinstance(dv, Fuse):
            _fuse(dv, ext, exprs, nested)
        elif isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize"):
            unrolled.add(dv.var)
        elif isinstance(dv, (Reorder, ForType)):
            pass
    loops: list[StageLoop] = []
    for d in reversed(schedule.dim_names()):  # outermost first
        if d in nested:  # unrolled whole, a fused loop is both of its loops unrolled
            loops.append(StageLoop(nested[d], ext[nested[d]], d in unrolled, _is_r(d, schedule)))
        loops.append(StageLoop(d, ext[d], d in unrolled, _is_r(d, schedule)))
    var_exprs = {v: Affine.make(terms, consts[v]) for v, terms in exprs.items()}
    bounds = tuple((v, lo, lo + e - 1) for v, (lo, e) in sorted(extents.items()) if v in guards)
    return StageLoops(tuple(loops), var_exprs, bounds)


def lanes_innermost(s: StageLoops) -> StageLoops | None:
    """A pure stage's loops with its unrolled ones moved inside its serial ones, in their order (None where they are
    already innermost): a pure definition's points are independent, so the same values, each firing one transfer of
    the unrolled loops' points (`hw_output.unroll(yi, 2)` with xi inside: two rows side by side, fuzz 155121)."""
    serial = [lp for lp in s.loops if not lp.unrolled]
    unrolled = [lp for lp in s.loops if lp.unrolled]
    if not unrolled or list(s.loops) == serial + unrolled:
        return None
    return StageLoops(tuple(serial + unrolled), s.var_exprs, s.guards)


def _is_r(name: str, schedule: StageSchedule) -> bool:
    return any(d.name == name and d.is_rvar for d in schedule.dims)


def _split(dv: Split, ext: dict[str, int], exprs: dict[str, dict[str, int]], who: str, auto_rounds: bool,
           shifts: bool = False, rvar: bool = False, lanes: bool = False) -> None:
    e = ext.pop(dv.old)
    if rvar and e % dv.factor and e > dv.factor and dv.tail in ROUNDING_TAILS:
        _rvar_tail_error(dv, e, who)
    # (inside the accelerator lanes wider than their loop round up too: they stay the factor, which producers and
    # consumers pace themselves by)
    rounds = dv.tail is TailStrategy.RoundUp or (auto_rounds and dv.tail is TailStrategy.Auto) or \
        (shifts and (e > dv.factor or lanes) and e % dv.factor != 0) or (rvar and e > dv.factor)
    shrinks = not rounds and e < dv.factor  # (a GuardWithIf tail skips the rest; ShiftInwards shrinks)
    if e % dv.factor and not rounds and not shrinks:
        _tail_error(dv, e, who)
    # A tile larger than the loop shrinks to it (one iteration of the outer loop), as bounds inference covers.
    ext[dv.inner] = e if shrinks else dv.factor
    ext[dv.outer] = -(-e // dv.factor)
    for terms in exprs.values():
        c = terms.pop(dv.old, 0)
        if c:
            terms[dv.outer] = terms.get(dv.outer, 0) + c * dv.factor
            terms[dv.inner] = terms.get(dv.inner, 0) + c


def _fuse(dv: Fuse, ext: dict[str, int], exprs: dict[str, dict[str, int]], nested: dict[str, str]) -> None:
    """A fused loop runs its iterations in the order of the two loops it fuses, inner fastest, so hardware runs
    it as those two loops (its controllers stay affine; fused / e and fused % e would not be): the inner one
    takes the fused loop's name, so what is computed at it runs inside both. When one of them has one
    iteration (the host's loops over tiles, inside one tile), the other is the fused loop itself."""
    inner, outer = ext.pop(dv.inner), ext.pop(dv.outer)
    if inner != 1 and outer != 1:
        ext[dv.fused], ext[dv.outer] = inner, outer
        nested[dv.fused] = dv.outer
        for terms in exprs.values():
            c = terms.pop(dv.inner, 0)
            if c:
                terms[dv.fused] = terms.get(dv.fused, 0) + c
        return
    ext[dv.fused] = inner * outer
    for terms in exprs.values():
        c = terms.pop(dv.inner, 0) * (inner > 1) + terms.pop(dv.outer, 0) * (outer > 1)  # a 1-trip loop is 0
        if c:
            terms[dv.fused] = terms.get(dv.fused, 0) + c


def _check_nested(dv: Split | Fuse | ForType | Reorder, nested: dict[str, str], ext: dict[str, int],
                  who: str) -> None:
    """Refuse what would split or fuse again a fused loop that hardware runs as two loops (an unroll by a factor
    splits it first; unrolled whole, it is both loops unrolled)."""
    if isinstance(dv, Split):
        call, names = "split", [dv.old]
    elif isinstance(dv, Fuse):
        call, names = "fuse", [dv.inner, dv.outer]
    else:
        return
    hit = next((n for n in names if n in nested), None)
    if hit is None:
        return
    raise ScheduleError(
        f"{dv.loc}: {who}: {call}({hit}, ...) of the loop {hit}, which fuses two loops of {ext[nested[hit]]} and "
        f"{ext[hit]} iterations ({nested[hit]} outside): hardware runs a fused loop as the two loops it fuses, "
        "and cannot split or unroll it as one loop (its controllers would index memories with / and %); split "
        "or unroll the loops before fusing them, or leave them unfused"
    )


# Tails that would run a reduction's steps past its domain or twice: Halide refuses them on an RVar.
ROUNDING_TAILS = (TailStrategy.RoundUp, TailStrategy.ShiftInwards, TailStrategy.RoundUpAndBlend,
                  TailStrategy.ShiftInwardsAndBlend)


def _rvar_tail_error(dv: Split, e: int, who: str) -> NoReturn:
    """Halide guards a reduction's tail; the tails that round up would add steps or repeat them."""
    loc: SourceLoc = dv.loc
    divisors = [d for d in range(2, e) if e % d == 0]
    old = dv.old.replace("$", ".")  # the RVar as the user writes it: r.x (its loop is r$x)
    raise ScheduleError(
        f"{loc}: {who}: split({old}, {dv.outer}, {dv.inner}, {dv.factor}, hl.TailStrategy.{dv.tail.name}): "
        f"the reduction variable {old} has {e} steps, which {dv.factor} does not divide, and a "
        f"{dv.tail.name} tail would add steps or repeat them (Halide refuses it on a reduction variable too). "
        f"Leave the tail strategy out (a reduction's tail is then guarded, as hl.TailStrategy.GuardWithIf), or "
        f"split {old} by a factor that divides {e}" + (f" ({', '.join(map(str, divisors))})" if divisors else "")
    )


def _tail_error(dv: Split, e: int, who: str) -> NoReturn:
    loc: SourceLoc = dv.loc
    # unroll(x, k) and vectorize(x, k) are splits into x and x.ui (x.vi): name the call the user wrote
    kind = {f"{dv.old}.ui": "unroll", f"{dv.old}.vi": "vectorize"}.get(dv.inner) if dv.outer == dv.old else None
    call = f"{kind}({dv.old}, {dv.factor}" if kind else f"split({dv.old}, {dv.outer}, {dv.inner}, {dv.factor}"
    raise ScheduleError(
        f"{loc}: {who}: {call}): the extent of {dv.old} is {e}, which {dv.factor} does not divide; in hardware a "
        f"tail must round the loop up (tail strategy {dv.tail.name} is not supported). Use {call}, "
        f"hl.TailStrategy.RoundUp) (the extra iterations compute values that are discarded), choose a factor "
        f"that divides {e}, or bound the Func to a multiple of {dv.factor}."
    )
