"""Pass `copy_tables_to_rams`: a Func read at coordinates computed from loaded values that cannot be a RAM itself
(a scan, whose update reads an element it does not write) is read through a copy that can.

Histogram equalisation reads the running sum of the histogram at each pixel's level:

    cdf(b) = hist(b);  cdf(c.x) = cdf(c.x - 1) + hist(c.x)
    hw_output(x, y) = cdf(level(x, y))

A memory read at an address the kernel computes is a RAM (scatter.py), updated one element per step by a
read-modify-write of that element alone, which the scan's update is not. The pass adds the copy a user would
write, and reads it at the computed coordinates instead:

    cdf_ram(b) = cdf(b)                                (computed where cdf is; a RAM: scatter.py)
    hw_output(x, y) = cdf_ram(level(x, y))

The copy's pure definition becomes the RAM's first update (every word written at its own address, from cdf as
cdf streams out), so it holds the same words as `cdf_ram(b) = 0; cdf_ram(q.x) = cdf(q.x)` over cdf's box. Reads
of cdf at affine coordinates stay as written. The frontend's pipeline and its reference are unchanged: the pass
returns a copy of the pipeline for the passes after it."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function, new_stage_schedule
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import LoopLevel, Placement
from mainspring.frontend.types import I32

from .region import Region, find_region
from .scatter import ram_shaped
from .state import Lowering


def copy_tables_to_rams(s: Lowering) -> Lowering:
    """Read each buffered Func that cannot be a RAM, where it is read at computed coordinates, through a copy."""
    pipe, region = s.pipe, s.found_region
    for g in (*region.inputs, *region.buffered):
        if g is region.output or (g in region.buffered and ram_shaped(g, pipe.definitions(g))):
            continue
        readers = [h for h in pipe.order if h is not g and any(_looks_up(d, g) for d in pipe.definitions(h))
                   and (h in region.buffered or h in region.inlined)]
        if not readers:
            continue
        copy = _copy_of(pipe, g, region)
        for k, h in enumerate(readers):  # (producers first: the copy goes before the first reader)
            defs = [_read_through(d, g, copy) for d in pipe.definitions(h)]
            pipe = pipe.with_producers([copy] if k == 0 else [], h, defs)
    if pipe is s.pipe:
        return s
    return replace(s, pipe=pipe, region=find_region(pipe))


def ram_source(pipe: Pipeline, f: Function) -> Function | None:
    """The user's Func whose copy f is (`cdf` for `cdf_ram`), which messages name; None for any other Func."""
    defs = getattr(f, "definitions", None) or [None]
    copied = getattr(defs[0], "value", None)
    if len(defs) == 1 and isinstance(copied, ir.Call) and isinstance(copied.callee, Function) and \
            all(isinstance(a, ir.Var) for a in copied.args) and copied.args and \
            f.name.startswith(f"{pipe.name(copied.callee)}_ram"):
        return copied.callee
    return None


def _computed(args: tuple[ir.Expr, ...]) -> bool:
    return any(isinstance(n, ir.Call) for a in args for n in ir.walk(a))


def _looks_up(d: Definition, g: Function) -> bool:
    """Whether d reads g at coordinates computed from loaded values."""
    return any(isinstance(n, ir.Call) and n.callee is g and _computed(n.args)
               for e in (*d.args, d.value) for n in ir.walk(e))


def _read_through(d: Definition, g: Function, copy: Function) -> Definition:
    """d with its reads of g at computed coordinates reading the copy."""
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if isinstance(n, ir.Call) and n.callee is g and _computed(n.args):
            return ir.Call(n.type, copy, n.args)
        return n

    return replace(d, args=tuple(ir.transform(a, go) for a in d.args), value=ir.transform(d.value, go))


def _copy_of(pipe: Pipeline, g: Function, region: Region) -> Function:
    """g_ram(args) = g(args), computed where g is (at the accelerator's loop where g is buffered inline, as a Func
    with updates is), located at g's definition (where its errors point)."""
    taken, stem = set(pipe.functions), f"{pipe.name(g)}_ram"
    name, k = stem, 1
    while name in taken:
        name, k = f"{stem}_{k}", k + 1
    loc = pipe.definitions(g)[0].loc
    copy = Function(name, loc)
    args = tuple(ir.Var(I32, a) for a in g.args)
    copy.definitions = [Definition(args, ir.Call(g.type, g, args), None, loc, new_stage_schedule(args, None))]
    at = g.placement.compute
    if at.kind != "at":
        at = LoopLevel("at", region.output, region.store_var or region.compute_var or "", loc)
    copy.placement = Placement(compute=at, store=g.placement.store if g.placement.compute.kind == "at" else None)
    return copy
