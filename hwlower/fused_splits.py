"""A fused loop split at the accelerator's boundary (issue 8):

    hw_output.fuse(x, y, xy).split(xy, xo, xi, 4).hw_accelerate(xi, xo)

The host loop xo steps over runs of 4 consecutive pixels of the fused loop, in row-major order. Where the factor
divides the extent W of x, each run lies inside one row and the runs are the tiles of

    hw_output.split(x, xt, xi, 4).fuse(xt, y, xo)              (4 columns by 1 row, y outer)

and where it is a whole number k of rows, they are those of

    hw_output.split(y, xo, yt, k).fuse(x, yt, xi)              (W columns by k rows)

with the split's tail: the fused loop's last run, past W * H, is whole rows past H, as the split of y's is (and
guarded, shifted inward or rounded up alike).

Both leave the stage's loops as written (xi inside xo, the same names), so hw_accelerate, compute_at and the
other calls at xo and xi mean what they meant; the host's tiles are boxes, which tiling.py steps over. The
rewrite works on copies of the user's Funcs (frontend/fuse_outputs.copy_funcs), so the program stays as written;
the values are the same, as a schedule does not change them. Any other factor makes runs crossing rows, which
no box of the accelerator's streams holds: refused, naming the factors that work."""

from __future__ import annotations

import dataclasses

from mainspring.frontend.bounds import Box, infer_boxes
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Function, handle_of
from mainspring.frontend.fuse_outputs import copy_funcs
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import Directive, Fuse, Split

from .bounds import output_box
from .tiling import host_loops


def split_fused_loops(pipe: Pipeline) -> Pipeline | None:
    """The pipeline with each accelerated Func's split of a fused loop at its hw_accelerate store loop rewritten
    as splits of its dimensions (see the module), on copies of the Funcs; None if there is none."""
    found = [(f, i) for f in pipe.order if f.placement.hw_accelerate is not None
             for i in [_fused_split(f)] if i is not None]
    if not found:
        return None
    boxes, _ = infer_boxes(pipe, output_box(pipe), lambda p: None)
    made = copy_funcs(pipe)
    for f, i in found:
        g = made[id(f)]
        sched = g.definitions[0].schedule
        directives = _rewritten(f, sched.directives, i, boxes[pipe.name(f)])
        new = dataclasses.replace(sched, dims=list(sched.dims), directives=directives)
        g.definitions = [dataclasses.replace(g.definitions[0], schedule=new), *g.definitions[1:]]
    return Pipeline([handle_of(made[id(f)]) for f in pipe.given], pipe.tuples_whole)


def _fused_split(f: Function) -> int | None:
    """The index of f's Fuse of two of its dimensions whose fused loop is next split into a host loop and a loop
    inside the accelerator, else None."""
    sched = f.definitions[0].schedule
    ds = sched.directives
    store = f.placement.hw_accelerate[1] if f.placement.hw_accelerate else None
    if not any(isinstance(d, Fuse) for d in ds) or store not in sched.dim_names():
        return None  # (a store loop the stage lacks is refused where the region is found)
    host = host_loops(f, store)
    for i, d in enumerate(ds):
        if not (isinstance(d, Fuse) and d.inner in f.args and d.outer in f.args):
            continue
        if any(isinstance(e, Split) and e.old in (d.inner, d.outer) for e in ds[:i]):
            continue  # a dimension split before it is fused: not a fuse of whole rows
        s = next((e for e in ds[i + 1:] if _names(e, d.fused)), None)
        if isinstance(s, Split) and s.old == d.fused and s.outer in host and s.inner not in host:
            return i
    return None


def _names(d: Directive, loop: str) -> bool:
    if isinstance(d, Split):
        return loop in (d.old, d.outer, d.inner)
    if isinstance(d, Fuse):
        return loop in (d.inner, d.outer, d.fused)
    return loop in getattr(d, "order", ()) or getattr(d, "var", None) == loop


def _rewritten(f: Function, ds: list[Directive], i: int, box: Box) -> list[Directive]:
    fuse = ds[i]
    assert isinstance(fuse, Fuse)
    j, s = next((j, e) for j, e in enumerate(ds) if j > i and isinstance(e, Split) and e.old == fuse.fused)
    w, h = (box[f.args.index(v)][1] - box[f.args.index(v)][0] + 1 for v in (fuse.inner, fuse.outer))
    taken = {n for d in ds for n in (getattr(d, "outer", None), getattr(d, "inner", None), getattr(d, "fused", None))}
    if w % s.factor == 0:  # runs inside one row: tiles of `factor` columns by one row
        t = _fresh(f"{fuse.inner}_{s.outer}", taken)
        new: list[Directive] = [Split(fuse.inner, t, s.inner, s.factor, s.tail, s.loc),
                                Fuse(t, fuse.outer, s.outer, fuse.loc)]
    elif s.factor % w == 0:  # whole rows: tiles of every column by factor / W rows, the split's tail that of y
        # (the fused loop's last run past W * H covers whole rows past H, as the split of y's does)
        t = _fresh(f"{fuse.outer}_{s.inner}", taken)
        new = [Split(fuse.outer, s.outer, t, s.factor // w, s.tail, s.loc), Fuse(fuse.inner, t, s.inner, fuse.loc)]
    else:
        raise ScheduleError(_refusal(f, fuse, s, w, h))
    return [*ds[:i], *ds[i + 1:j], *new, *ds[j + 1:]]


def _fresh(stem: str, taken: set) -> str:
    name, k = stem, 1
    while name in taken:
        name, k = f"{stem}{k}", k + 1
    return name


def _refusal(f: Function, fuse: Fuse, s: Split, w: int, h: int) -> str:
    divisor = max(d for d in range(1, w + 1) if w % d == 0 and d <= s.factor)
    rows = max(s.factor // w, 2)
    return (f"{s.loc}: Func '{f.name}': split({s.old}, {s.outer}, {s.inner}, {s.factor}) of the fused loop {s.old} "
            f"(fuse({fuse.inner}, {fuse.outer}, {s.old}) over {w} x {h}) steps the host loop {s.outer} over runs of "
            f"{s.factor} pixels that are not boxes: they cross the rows of {fuse.inner}, whose extent is {w}, and "
            f"the accelerator's streams are boxes. Use a factor dividing {w} (e.g. {divisor}) or a multiple of it "
            f"(e.g. {w * rows}: whole rows).")
