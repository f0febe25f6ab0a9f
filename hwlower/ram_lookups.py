"""Pass `split_lookups`: a Func that reads RAMs at two or more computed coordinates reads all but one of them
through Funcs of their own.

A RAM (a buffered Func read at coordinates computed from loaded values, scatter.py) answers one computed address
per op and cycle (ops.py). Halide has no such limit, and users write the reads together, often through an inline
Func read twice:

    h(x, y) = hist(input(x, y))                    (inline)
    out(x, y) = h(x, y) + h(x + 1, y)              -> hist(input(x, y)) + hist(input(x + 1, y))

The pass gives each further read the Func a user would write, computed where the reader is, with the reader's
stage schedule (its splits and lanes), and the reader reads it at its own coordinates:

    out_lookup(x, y) = hist(input(x + 1, y))
    out(x, y) = hist(input(x, y)) + out_lookup(x, y)

A read that uses an update's RDom variables stays (a Func of the reader's pure variables cannot carry them), and
so do the reads of an update at other coordinates than the pure ones; where two such remain, ops.py refuses
with the fix to write. The frontend's pipeline and its
reference are unchanged: the pass returns a copy of the pipeline for the passes after it."""

from __future__ import annotations

import copy
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import LoopLevel, Placement

from .inline import inline_definition
from .region import Region, find_region
from .state import Lowering


def split_lookups(s: Lowering) -> Lowering:
    """Give each buffered Func's second and later RAM reads at computed coordinates a Func of their own."""
    pipe, region = s.pipe, s.found_region
    if not any(_lookups(d.value, region) for f in (*region.buffered, *region.inlined) for d in pipe.definitions(f)):
        return s  # (most designs: no RAM read at computed coordinates, nothing to inline here)
    inlined = {id(f) for f in region.inlined}
    bodies: dict = {}  # each inline Func's value, inlined once for all readers
    for h in region.buffered:
        defs = [inline_definition(pipe, d, inlined, bodies) for d in pipe.definitions(h)]
        news: list[Function] = []
        out = [_split(pipe, h, d, region, news) for d in defs]
        if news:
            pipe = pipe.with_producers(news, h, out)
    if pipe is s.pipe:
        return s
    pipe = pipe.computing(pipe.output)  # without the inline Funcs only the readers' old definitions read
    return replace(s, pipe=pipe, region=find_region(pipe))


def _split(pipe: Pipeline, h: Function, d: Definition, region: Region, news: list[Function]) -> Definition:
    """d with its movable lookups but one read from new Funcs (appended to `news`): those at coordinates of h's
    pure variables alone, in a definition (pure, or an update at the pure coordinates) that can read a Func of
    them there. The one kept is a lookup that cannot move, if any."""
    reads = _lookups(d.value, region)
    pure = pipe.definitions(h)[0].args
    at_pure = [ir.structural_key(a, {}) for a in d.args] == [ir.structural_key(a, {}) for a in pure]
    names = set(h.args)
    movable = [c for c in reads if at_pure and _free_vars(c) <= names]
    if len(reads) < 2 or not movable:
        return d
    keep = next((c for c in reads if c not in movable), movable[0])
    by_key = {}
    for c in movable:
        if c is not keep:
            news.append(_lookup_func(pipe, h, pure, d, c, len(news), region))
            by_key[ir.structural_key(c, {})] = news[-1]

    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        g = by_key.get(ir.structural_key(n, {})) if isinstance(n, ir.Call) else None
        return ir.Call(n.type, g, pure) if g is not None else n

    return replace(d, value=ir.transform(d.value, go))


def _free_vars(e: ir.Expr) -> set[str]:
    return {n.name for n in ir.walk(e) if isinstance(n, (ir.Var, ir.RVar))}  # (RVar names hold a "$")


def _lookups(e: ir.Expr, region: Region) -> list[ir.Call]:
    """The distinct reads in e of buffered Funcs at coordinates computed from loaded values, in reading order."""
    buffered = {id(f) for f in region.buffered}
    out: dict[object, ir.Call] = {}
    for n in ir.walk(e):
        if isinstance(n, ir.Call) and id(n.callee) in buffered and any(
                isinstance(m, ir.Call) for a in n.args for m in ir.walk(a)):
            out.setdefault(ir.structural_key(n, {}), n)
    return list(out.values())


def _lookup_func(pipe: Pipeline, h: Function, pure: tuple[ir.Expr, ...], d: Definition, read: ir.Call, k: int,
                 region: Region) -> Function:
    """h_lookup(args) = read, computed and stored where h is (at the accelerator's loop for its output), split and
    unrolled as h is, located at h's definition (where its errors point)."""
    taken, stem = set(pipe.functions), f"{pipe.name(h)}_lookup"
    name, n = (stem if k == 0 else f"{stem}{k + 1}"), 1
    while name in taken:
        name, n = f"{stem}_{n}", n + 1
    g = Function(name, d.loc)
    g.definitions = [Definition(pure, read, None, d.loc, copy.deepcopy(pipe.definitions(h)[0].schedule))]
    at = h.placement.compute
    if at.kind != "at":
        at = LoopLevel("at", region.output, region.store_var or region.compute_var or "", d.loc)
    g.placement = Placement(compute=at, store=h.placement.store if h.placement.compute.kind == "at" else None)
    return g
