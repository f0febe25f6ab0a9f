"""Halide's rules for compute_with: the fused Funcs are computed together, a step of one beside the same step of the
other, so neither may read the other (Halide: 'Invalid compute_with: there is dependency between f and g'), and
both are computed at one loop, neither inline ('Invalid compute_with: the compute levels of f.s0 (...) and g.s0
(...) do not match', '... g.s0 is scheduled inline'), down to a loop both have, with as many loops outside it ('cannot
find xo in g.s0', '# of fused dims of f.s0 and g.s0 do not match': fused loops pair outermost first). Without the
level rule, a host Func fused with an array Func
under a GLB copy (computed at the copy's tile loop) would be computed on the host, the fusion silently dropped."""

from __future__ import annotations

from typing import TYPE_CHECKING

import networkx as nx

from .errors import ScheduleError

if TYPE_CHECKING:
    from .func import Function
    from .pipeline import Pipeline


def check_compute_with(pipe: Pipeline, fn: Function, levels: bool = True) -> None:
    """Halide's checks of fn's compute_with; `levels`: its compute level's too (compile checks those before it
    packs several outputs into one host Func, which reads them inline)."""
    fused = fn.placement.compute_with
    if fused is None or not any(g is fused[0] for g in pipe.order):
        return
    g, var, loc = fused
    b, a = pipe.name(fn), pipe.name(g)
    _check_fused_dims(fn, g, var, loc)
    reads = [(r, p) for r, p in ((fn, g), (g, fn)) if nx.has_path(pipe.graph, pipe.name(p), pipe.name(r))]
    if not reads:
        if levels:
            _check_levels(pipe, fn, g, var, loc)
        return
    reader, producer = reads[0]
    raise ScheduleError(
        f"{loc}: Func '{fn.name}': {fn.name}.compute_with({g.name}, {var}): Invalid compute_with: there is "
        f"dependency between {a} and {b} ('{reader.name}' reads '{producer.name}'): fused loops compute both at "
        f"each step, so neither may read the other; drop the compute_with (a reader is computed after what it "
        f"reads), or define '{reader.name}' from what '{producer.name}' reads (a Func both read, computed at "
        f"{g.name}'s {var}, in place of the call to '{producer.name}')")


def _check_fused_dims(fn: Function, g: Function, var: str, loc) -> None:
    """Halide's: `var` is a loop of both Funcs' pure stages, with as many loops outside it in each."""
    if var == "__outermost":
        return
    head = f"{loc}: Func '{fn.name}': {handle(fn)}.compute_with({handle(g)}, {var}): Invalid compute_with: "
    outside = {}
    for f, other in ((fn, g), (g, fn)):
        schedule = f.definitions[0].schedule
        dims, name = schedule.dim_names(), schedule.aliases.get(var, var)
        if name not in dims:
            raise ScheduleError(
                f"{head}cannot find {var} in {f.name}.s0: fused loops are both Funcs' loops from the outermost down "
                f"to {var}, and '{f.name}' has no loop {var} (its loops, outermost first: "
                f"{', '.join(reversed(dims))}); fuse at a loop both have, or split '{f.name}' as '{other.name}' is "
                f"split so that it has {var} too")
        outside[f.name] = list(reversed(dims[dims.index(name):]))
    (a, mine), (b, theirs) = outside.items()
    if len(mine) != len(theirs):
        raise ScheduleError(
            f"{head}# of fused dims of {b}.s0 and {a}.s0 do not match: fused loops pair outermost first, and down "
            f"to {var} '{b}' runs {', '.join(theirs)} where '{a}' runs {', '.join(mine)}; reorder one as the other "
            f"(the same loops outside {var}), or fuse at a loop with as many loops outside it in both")


def check_compute_levels(pipe: Pipeline) -> None:
    """The compute level rule for every compute_with of pipe."""
    for fn in pipe.order:
        fused = fn.placement.compute_with
        if fused is not None and any(g is fused[0] for g in pipe.order):
            _check_levels(pipe, fn, *fused)


def _level(pipe: Pipeline, f: Function) -> str | None:
    """Where f is computed, as Halide prints it (None: inline)."""
    level = f.placement.compute
    if pipe.is_output(f) or level.kind == "root":
        return "compute_root"
    if level.kind == "at":
        return f"{handle(level.func)}'s {level.var}"
    return None


def handle(f: Function) -> str:
    from .func import user_handle

    return user_handle(f)


def _check_levels(pipe: Pipeline, fn: Function, g: Function, var: str, loc) -> None:
    call = f"{handle(fn)}.compute_with({handle(g)}, {var})"
    head = f"{loc}: Func '{fn.name}': {call}: Invalid compute_with: "
    for f in (g, fn):
        if _level(pipe, f) is None:
            raise ScheduleError(
                f"{head}{f.name}.s0 is scheduled inline: fused loops are loops of both Funcs, and an inline Func has "
                f"none; compute '{f.name}' where the other is computed ({_fix(pipe, f, fn if f is g else g)}), or "
                "drop the compute_with")
    mine, theirs = _level(pipe, fn), _level(pipe, g)
    if mine == theirs:
        return
    raise ScheduleError(
        f"{head}the compute levels of {g.name}.s0 (computed at {theirs}) and {fn.name}.s0 ({mine}) do not match: "
        f"fused loops run inside one enclosing loop, so '{fn.name}' would be computed apart from '{g.name}' and "
        f"the compute_with dropped; compute it where '{g.name}' is ({_fix(pipe, fn, g)}), or drop the compute_with "
        f"('{fn.name}' is then computed at its own level, {mine}){_accelerated_hint(fn, g)}")


def _accelerated_hint(fn: Function, g: Function) -> str:
    """Where g is an array Func under an accelerated GLB copy: how fn is computed on the accelerator too."""
    level = g.placement.compute
    if level.kind != "at" or level.func.placement.hw_accelerate is None or level.func.wrapped is not g:
        return ""
    return (f"; to compute '{fn.name}' on the accelerator too, schedule it as '{g.name}': under a GLB copy of its "
            f"own ({handle(fn)}.in_(), tiled, hw_accelerate'd and store_in(MemoryType.GLB) as {handle(level.func)}), "
            f"{handle(fn)} computed at its copy's {level.var} and tiled as {handle(g)}")


def _fix(pipe: Pipeline, f: Function, other: Function) -> str:
    """How f is computed where `other` is, if a loop there encloses every use of f."""
    level = other.placement.compute
    if _level(pipe, other) is None:
        return f"{handle(f)}.compute_root() and {handle(other)}.compute_root()"
    if pipe.is_output(other) or level.kind == "root":
        return f"{handle(f)}.compute_root()"
    if level.kind == "at" and id(level.func) in pipe._users(f):
        return f"{handle(f)}.compute_at({handle(level.func)}, {level.var})"
    return (f"not possible here: {handle(level.func)}'s {level.var} does not enclose every read of '{f.name}'; "
            f"fuse it with a Func computed where '{f.name}' can be")
