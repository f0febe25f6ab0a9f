"""Lanes for an unrolled scan: a copy of the pipeline, before lowering, where a scan along x whose update alone is
unrolled (`acc.update().unroll(r.x, 2)`) has its pure definition, its readers and its input streams unrolled by
as many lanes, so that its lanes chain (docs/lanes.md, a scan along x).

A scan's lanes chain only where its pure definition makes as many lanes and its readers take them one to one
(hwlower/ops.py); otherwise they run serially (update_lanes.serial_scan). Halide runs the unrolled update as
written whatever the pure definition's lanes, so the lanes the compiler adds change no value: they are what the
user would write for the chain (`acc.unroll(x, 2, RoundUp)`, `hw_output.unroll(xi, 2, RoundUp)`,
`hw_input.unroll(x, 2, RoundUp)`), each marked as made by the compiler. The rewrite takes only the plain shape:

- the scan `f`: a pure definition with no unroll (or n lanes along x already), and one update at (r.x, y, ...)
  whose only unroll is its RVar's by n, reading f at (r.x - c, y, ...) with 1 <= c < n (a lane reading an earlier
  lane's result), and at other constant offsets but 0;
- its readers, down to the accelerator's output: Funcs of one pure definition with no unroll, reading only Funcs
  that get the lanes, each at x plus a constant along their x;
- its other producers: accelerator inputs that only it reads, streamed along x, read at x (r.x) plus a constant.

Anything else keeps the user's schedule (the lanes then run serially, with the note naming the fix). The user's
Funcs are unchanged: the pipeline returned is built over copies (frontend/fuse_outputs.py)."""

from __future__ import annotations

import copy
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.errors import HalideError, SourceLoc
from mainspring.frontend.func import Function, handle_of, user_handle
from mainspring.frontend.fuse_outputs import copy_funcs
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import Dim, ForType, Fuse, Split, StageSchedule, TailStrategy

from .region import Region, find_region


def chain_scans(pipe: Pipeline) -> tuple[Pipeline, tuple[str, ...]] | None:
    """A copy of pipe where each unrolled scan of the plain shape (see the module) and the Funcs around it have the
    update's lanes, and a note per scan saying what the compiler added; None if there is no such scan."""
    if not any(_scan(pipe, f) is not None for f in pipe.order):  # (most pipelines: nothing to look at)
        return None
    try:
        region = find_region(pipe, constant_reads=True)  # (read through tables later, buffer_tables.py)
    except HalideError:  # (lowering refuses it with its own message)
        return None
    if region.glb is not None:
        return None
    plan: dict[int, tuple[Function, str, int, SourceLoc]] = {}  # id(f) -> (f, its loop over x, lanes, where)
    notes: list[str] = []
    for f in region.buffered:
        scan = _scan(pipe, f)
        if scan is None:
            continue
        n, call, loc, pure = scan
        funcs = _lanes_for(pipe, region, f, n, pure)
        if funcs is None or any(id(g) in plan for g, _ in funcs):
            continue
        added_to = [(g, loop) for g, (loop, already) in funcs if not already]
        if not added_to:  # (the user's schedule chains them already)
            continue
        plan.update({id(g): (g, loop, n, loc) for g, loop in added_to})
        added = [f"{user_handle(g)}.unroll({loop}, {n}, hl.TailStrategy.RoundUp)" for g, loop in added_to]
        notes.append(f"{call} at {loc} chains its lanes (each reading the one before it in the same cycle): the "
                     f"compiler added {_listed(added)}, for the chain to run at {n} pixels per cycle (the scan's pure "
                     "definition, its readers and its inputs making as many lanes)")
    if not plan:
        return None
    copies = copy_funcs(pipe)
    for fid, (_, loop, n, loc) in plan.items():
        c = copies[fid]
        c.definitions[0] = replace(c.definitions[0], schedule=_unrolled(c.definitions[0].schedule, loop, n, loc))
    return Pipeline([handle_of(copies[id(f)]) for f in pipe.given], pipe.tuples_whole), tuple(notes)


def _scan(pipe: Pipeline, f: Function) -> tuple[int, str, SourceLoc, tuple[str, bool]] | None:
    """(n, the update's unroll call, where, the pure definition's loop over x and whether it has n lanes already)
    for a scan of the plain shape unrolled by n, else None."""
    defs = pipe.definitions(f)
    if len(defs) != 2 or not f.args:
        return None
    up = defs[1]
    rx = up.args[0]
    if not isinstance(rx, ir.RVar) or any(not (isinstance(a, ir.Var) and a.name == v)
                                          for a, v in zip(up.args[1:], f.args[1:])):
        return None
    marks = [dv for dv in up.schedule.directives if isinstance(dv, ForType)]
    split = next((dv for dv in up.schedule.directives if isinstance(dv, Split) and len(marks) == 1
                  and dv.inner == marks[0].var and dv.old == rx.name and marks[0].kind == "unroll"), None)
    if split is None or marks[0].made or split.factor < 2 or _reads(defs[0].value, f):
        return None
    steps = [_offset(c.args[0], rx.name) for c in _calls(up.value) if c.callee is f]
    # (a lane may read an element a later lane overwrites, or another firing's, too: lanes.py)
    if any(s is None or s == 0 for s in steps) or not any(s is not None and 1 <= -s < split.factor for s in steps):
        return None
    if any(list(map(ir.structural_key, c.args[1:])) != list(map(ir.structural_key, up.args[1:]))
           for c in _calls(up.value) if c.callee is f):
        return None
    pure = _loop_over(defs[0].schedule, f.args[0], split.factor)
    if pure is None:
        return None
    call = f"{user_handle(f)}.update(0).unroll({rx.name.replace('$', '.')}, {split.factor})"
    return split.factor, call, marks[0].loc, pure


def _lanes_for(pipe: Pipeline, region: Region, f: Function, n: int,
               pure: tuple[str, bool]) -> list[tuple[Function, tuple[str, bool]]] | None:
    """The Funcs that get n lanes with the scan f (each with its loop over x, and whether it has them already): f,
    its readers down to the accelerator's output, and the input streams it reads; None where one of them is not of
    the plain shape."""
    inside = {id(g) for g in region.buffered}
    streams = {id(g) for g in region.inputs}
    got: list[tuple[Function, tuple[str, bool]]] = [(f, pure)]
    for d in pipe.definitions(f):
        x = d.args[0]
        for c in _calls(d.value):
            g = c.callee
            if g is f:
                continue
            if id(g) not in streams or not _along(c, x) or any(h is not f for h in pipe.consumers(g)):
                return None
            loop = _plain(pipe, g, n)
            if loop is None or (loop[0] != g.args[0] and not loop[1]):  # (streamed along x)
                return None
            if all(h is not g for h, _ in got):
                got.append((g, loop))
    todo = [f]
    while todo:
        h = todo.pop()
        if h is region.output:
            continue
        for g in pipe.consumers(h):
            if id(g) not in inside or any(k is g for k, _ in got):
                if id(g) not in inside:
                    return None
                continue
            loop = _plain(pipe, g, n)
            if loop is None:
                return None
            got.append((g, loop))
            todo.append(g)
    names = {id(g) for g, _ in got}
    for g, _ in got[1:]:
        if id(g) in streams:
            continue
        (d,) = pipe.definitions(g)
        if any(id(c.callee) not in names or not _along(c, d.args[0]) for c in _calls(d.value)):
            return None
    return got


def _plain(pipe: Pipeline, g: Function, n: int) -> tuple[str, bool] | None:
    """g's loop over its first argument, where g has one pure definition with no unroll and no fuse, or n lanes
    already (`_loop_over`); else None."""
    defs = pipe.definitions(g)
    if len(defs) != 1 or not g.args:
        return None
    return _loop_over(defs[0].schedule, g.args[0], n)


def _loop_over(sched: StageSchedule, x: str, n: int = 1) -> tuple[str, bool] | None:
    """The innermost loop of x (following its splits) and whether it has n lanes already, where it is the stage's
    innermost loop and the stage has no fuse and no unroll but, with n > 1, that unroll of x by n; else None."""
    loop = x
    split = None
    for dv in sched.directives:
        if isinstance(dv, Split) and dv.old == loop:
            loop, split = dv.inner, dv
    marks = [dv for dv in sched.directives if isinstance(dv, (ForType, Fuse))]
    if marks and not (n > 1 and len(marks) == 1 and isinstance(marks[0], ForType) and marks[0].kind == "unroll"
                      and split is not None and marks[0].var == loop == split.inner and split.factor == n):
        return None
    if not sched.dims or sched.dims[0].name != loop:
        return None
    return loop, bool(marks)


def _unrolled(sched: StageSchedule, loop: str, n: int, loc: SourceLoc) -> StageSchedule:
    """sched with `loop` split by n into an unrolled inner loop (loop.ui), RoundUp, as unroll(loop, n) would."""
    new = copy.deepcopy(sched)
    inner = f"{loop}.ui"
    i = [d.name for d in new.dims].index(loop)
    new.dims[i:i + 1] = [Dim(inner, new.dims[i].is_rvar), Dim(loop, new.dims[i].is_rvar)]
    new.directives += [Split(loop, loop, inner, n, TailStrategy.RoundUp, loc), ForType("unroll", inner, loc, made=True)]
    return new


def _calls(e: ir.Expr) -> list[ir.Call]:
    return [n for n in ir.walk(e) if isinstance(n, ir.Call) and isinstance(n.callee, Function)]


def _reads(e: ir.Expr, f: Function) -> bool:
    return any(c.callee is f for c in _calls(e))


def _offset(e: ir.Expr, var: str) -> int | None:
    """c where e is var + c (or var - c, or var) with c a constant integer; else None."""
    if isinstance(e, (ir.Var, ir.RVar)) and e.name == var:
        return 0
    if isinstance(e, ir.BinOp) and e.op in ("add", "sub") and isinstance(e.b, ir.Const) and \
            isinstance(e.b.value, int) and isinstance(e.a, (ir.Var, ir.RVar)) and e.a.name == var:
        return e.b.value if e.op == "add" else -e.b.value
    return None


def _along(c: ir.Call, x: ir.Expr) -> bool:
    """Whether the read c is at x plus a constant along its first argument, and its others do not move with x."""
    name = getattr(x, "name", None)
    if name is None or not c.args or _offset(c.args[0], name) is None:
        return False
    return not any(isinstance(v, (ir.Var, ir.RVar)) and v.name == name for a in c.args[1:] for v in ir.walk(a))


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"

