"""The fix for a reorder naming a loop its stage does not have (Halide's "could not find var ... to reorder"): what
became of the name (a split's loops, a fuse's loop, nothing: a misspelling or another Func's Var), the stage's
loops at that point, and the same reorder with names it has, which Halide accepts too."""

from __future__ import annotations

import difflib

from .schedule import Fuse, Split, StageSchedule


def reorder_refusal(owner: str, st: StageSchedule, names: list[str]) -> str:
    """Halide's refusal of reorder(*names) of stage `st` of `owner`, then why, and a reorder that works (each
    missing name replaced by a loop it became, or the closest loop not named yet)."""
    loops = st.dim_names()
    missing = [n for n in names if n not in loops]
    halide = (f"In schedule for {owner}, could not find var {missing[0]} to reorder in the argument list.\n"
              f"Vars: {' '.join(loops + ['__outermost'])}\n(in reorder({', '.join(names)}))")
    why = "; ".join(_became(st, n, owner) for n in missing)
    used = {n for n in names if n in loops}
    fixed = []
    for n in names:
        if n in loops:
            fixed.append(n)
            continue
        free = [c for c in _now(st, n, 0) if c not in used] or _closest(n, [c for c in loops if c not in used])
        if free:
            fixed.append(free[0])
            used.add(free[0])
    return (f"{halide}: {why}; at this reorder {owner} has the loops {', '.join(loops)} (innermost first). Fix: "
            f"name those, e.g. {owner}.reorder({', '.join(fixed)})")


def lost_loop(st: StageSchedule, name: str) -> str:
    """What a schedule call naming loop `name`, which a split or fuse of `st` replaced, should name instead (a
    "did you mean" would pick the closest spelling, xo for a tiled x, where lanes want xi); "" if none did."""
    for dv in st.directives:
        if isinstance(dv, Split) and dv.old == name:
            return f"; '{name}' was split into {dv.outer} and {dv.inner} at {dv.loc}: name one of those"
        if isinstance(dv, Fuse) and name in (dv.inner, dv.outer):
            return f"; '{name}' was fused into {dv.fused} at {dv.loc}: name {dv.fused}"
    return ""


def _became(st: StageSchedule, name: str, owner: str) -> str:
    for dv in st.directives:
        if isinstance(dv, Split) and dv.old == name:
            return f"'{name}' was split into {dv.outer} and {dv.inner} at {dv.loc}"
        if isinstance(dv, Fuse) and name in (dv.inner, dv.outer):
            return f"'{name}' was fused with {dv.outer if name == dv.inner else dv.inner} into {dv.fused} at {dv.loc}"
    return f"'{name}' is no loop of {owner} (a misspelling, or a Var of another Func?)"


def _now(st: StageSchedule, name: str, start: int) -> list[str]:
    """The loops, outermost first, that loop `name` became through the directives from `start` on."""
    for i, dv in enumerate(st.directives[start:], start):
        if isinstance(dv, Split) and dv.old == name:
            return _now(st, dv.outer, i + 1) + _now(st, dv.inner, i + 1)
        if isinstance(dv, Fuse) and name in (dv.inner, dv.outer):
            return _now(st, dv.fused, i + 1)
    return [name] if name in st.dim_names() else []


def _closest(name: str, options: list[str]) -> list[str]:
    """`options` with the closest to `name` first (a misspelling's loop), else in their order."""
    close = difflib.get_close_matches(name, options, n=1)
    return close + [o for o in options if o not in close]
