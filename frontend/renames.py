"""Loop levels (compute_at, store_at) and accelerated loops (hw_accelerate) named by a renamed loop's names: a
loop keeps its first name inside (schedule.py's StageSchedule.aliases), so `resolve_renames` writes such a level
with the loop's first name before lowering. Halide resolves a level when it lowers, by the loops' names then: a
consumer's loop may be renamed after a Func is placed at it, and a name a rename took from its loop names no loop
any more (the loop is `old.new`): Halide refuses a compute_at or store_at by it, and so do we (and an
hw_accelerate store loop by it, a LoopLevel too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import ScheduleError, SourceLoc
from .schedule import LoopLevel

if TYPE_CHECKING:
    from .func import Function


def resolve_renames(fn: Function) -> None:
    """Name fn's compute/store levels and accelerated loops as the loops are named inside. A level written here is
    kept in `Placement.resolved`: a pipeline built again finds it named already (by a first name, which a rename
    may have taken from the user, but not from this level)."""
    p = fn.placement
    for attr, call in (("compute", "compute_at"), ("store", "store_at")):
        level = getattr(p, attr)
        if level is None or level.kind != "at" or any(level is r for r in p.resolved):
            continue
        _refuse_renamed(fn, level.func, (level.var,), 0, (level.loc, f"{call}({level.func.name}, {{}})"))
        name = _loop(level.func, level.var)
        if name != level.var:
            setattr(p, attr, LoopLevel(level.kind, level.func, name, level.loc))
            p.resolved.append(getattr(p, attr))
    if p.hw_accelerate is not None and not any(p.hw_accelerate is r for r in p.resolved):
        # The store loop is a LoopLevel Halide-to-Hardware resolves as compute_at's, so a name a rename took is
        # refused; the compute loop is never matched against a loop, so tests/flow/test_flow_rename.py may name
        # the accelerator's inner loop before renaming it.
        names, loc = p.hw_accelerate[:2], p.hw_accelerate[2]
        _refuse_renamed(fn, fn, names, 1, (loc, "hw_accelerate({})"))
        got = (_loop(fn, names[0]), _loop(fn, names[1]), loc)
        if got != p.hw_accelerate:
            p.hw_accelerate = got
            p.resolved.append(got)


def _loop(f: Function, name: str) -> str:
    for d in f.definitions:
        name = d.schedule.aliases.get(name, name)
    return name


def _refuse_renamed(fn: Function, f: Function, names: tuple[str, ...], i: int,
                    at: tuple[SourceLoc | None, str]) -> None:
    """Refuse names[i], a loop of f's last stage (the one a level names, as Halide's), if a rename took it."""
    if not f.definitions or names[i] not in f.definitions[-1].schedule.renamed:
        return
    renamed = f.definitions[-1].schedule.renamed
    new, rloc = renamed[names[i]]
    now = new
    while now in renamed:  # renamed again since
        now = renamed[now][0]
    loc, call = at
    stage = f.name if len(f.definitions) == 1 else f"{f.name}.update({len(f.definitions) - 2})"
    later = "" if now == new else f", then {now}"
    fixed = tuple(now if k == i else n for k, n in enumerate(names))
    raise ScheduleError(
        f"{loc}: Func '{fn.name}': {call.format(', '.join(names))} names the loop {names[i]} of '{f.name}', but "
        f"{stage}.rename({names[i]}, {new}) at {rloc} renamed that loop {new}{later}, and a renamed loop answers to "
        f"its new name only, as in Halide. Name it {now}: {fn.name}.{call.format(', '.join(fixed))}"
    )
