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
no box of the accelerator's streams holds: refused, naming the factors that work.

A fused loop fused again with further dimensions (`fuse(x, y, xy).fuse(xy, c, t).split(t, xo, xi, F)`) is
rewritten alike, the host loop fusing the outer parts again (`split(x, xt, xi, 4).fuse(xt, y, a).fuse(a, c, xo)`),
where F divides the row or is whole rows dividing the plane's height; runs crossing planes are no boxes, and runs
of several whole planes would need a fused loop fused again inside the accelerator: refused."""

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
    found = [(f, c) for f in pipe.order if f.placement.hw_accelerate is not None
             for c in [_fused_split(f)] if c is not None]
    if not found:
        return None
    boxes, _ = infer_boxes(pipe, output_box(pipe), lambda p: None)
    made = copy_funcs(pipe)
    for f, chain in found:
        g = made[id(f)]
        sched = g.definitions[0].schedule
        directives = _rewritten(f, sched.directives, chain, boxes[pipe.name(f)])
        new = dataclasses.replace(sched, dims=list(sched.dims), directives=directives)
        g.definitions = [dataclasses.replace(g.definitions[0], schedule=new), *g.definitions[1:]]
    return Pipeline([handle_of(made[id(f)]) for f in pipe.given], pipe.tuples_whole)


def _fused_split(f: Function) -> list[int] | None:
    """The indices of f's Fuses of its dimensions, a fused loop fused again with a further dimension
    (`fuse(x, y, xy).fuse(xy, c, t)`), the last of which is next split into a host loop and a loop inside the
    accelerator, then the split's; else None."""
    sched = f.definitions[0].schedule
    ds = sched.directives
    store = f.placement.hw_accelerate[1] if f.placement.hw_accelerate else None
    if not any(isinstance(d, Fuse) for d in ds) or store not in sched.dim_names():
        return None  # (a store loop the stage lacks is refused where the region is found)
    host = host_loops(f, store)
    split_dims = {e.old for e in ds if isinstance(e, Split)}
    for i, d in enumerate(ds):
        if not (isinstance(d, Fuse) and d.inner in f.args and d.outer in f.args):
            continue
        chain, loop = [i], d.fused
        while True:
            k, e = next(((k, e) for k, e in enumerate(ds) if k > chain[-1] and _names(e, loop)), (None, None))
            if isinstance(e, Fuse) and e.inner == loop and e.outer in f.args and k is not None:
                chain, loop = [*chain, k], e.fused
                continue
            break
        dims = [d.inner, d.outer, *(ds[k].outer for k in chain[1:])]  # type: ignore[union-attr]
        if any(v in split_dims for v in dims):
            continue  # a dimension split before (or after) it is fused: not a fuse of whole rows
        if isinstance(e, Split) and e.old == loop and e.outer in host and e.inner not in host and k is not None:
            return [*chain, k]
    return None


def _names(d: Directive, loop: str) -> bool:
    if isinstance(d, Split):
        return loop in (d.old, d.outer, d.inner)
    if isinstance(d, Fuse):
        return loop in (d.inner, d.outer, d.fused)
    return loop in getattr(d, "order", ()) or getattr(d, "var", None) == loop


def _rewritten(f: Function, ds: list[Directive], chain: list[int], box: Box) -> list[Directive]:
    """ds with the fuses `chain` and the split after them made splits of the fused dimensions, fused again."""
    fuses = [ds[k] for k in chain[:-1]]
    s = ds[chain[-1]]
    assert all(isinstance(d, Fuse) for d in fuses) and isinstance(s, Split)
    dims = [fuses[0].inner, *(d.outer for d in fuses)]  # type: ignore[union-attr]
    ext = [box[f.args.index(v)][1] - box[f.args.index(v)][0] + 1 for v in dims]
    taken = {n for d in ds for n in (getattr(d, "outer", None), getattr(d, "inner", None), getattr(d, "fused", None))}
    loc = fuses[0].loc
    if ext[0] % s.factor == 0:  # runs inside one row: tiles of `factor` columns by one row
        # y split by 1 too, its inner part fused into the accelerator's loop: a row a tile grows to the first
        # tile's phase over an upsample (tiling.py `_at_first_phase`: 2 rows under y / 2, fuzz 176150) runs its
        # rows inside the accelerator, as tile(x, y, ..., factor, 1) does; of one row, the fused loop is x's
        t, i = _fresh(f"{dims[0]}_{s.outer}", taken), _fresh(f"{dims[0]}_{s.inner}", taken)
        ty, iy = _fresh(f"{dims[1]}_{s.outer}", taken), _fresh(f"{dims[1]}_{s.inner}", taken)
        new: list[Directive] = [Split(dims[0], t, i, s.factor, s.tail, s.loc), Split(dims[1], ty, iy, 1, s.tail, s.loc),
                                Fuse(i, iy, s.inner, loc)]
        rest = [t, ty, *dims[2:]]
    elif s.factor % ext[0] == 0 and (len(dims) == 2 or ext[1] % (s.factor // ext[0]) == 0):
        # whole rows: tiles of every column by factor / W rows, the split's tail that of y (the fused loop's last
        # run past W * H covers whole rows past H, as the split of y's does); with a further dimension outside,
        # rows dividing H (else a run would cross into the next plane)
        t, o = _fresh(f"{dims[1]}_{s.inner}", taken), _fresh(f"{dims[1]}_{s.outer}", taken)
        o = s.outer if len(dims) == 2 else o
        new = [Split(dims[1], o, t, s.factor // ext[0], s.tail, s.loc), Fuse(dims[0], t, s.inner, loc)]
        rest = [o, *dims[2:]]
    else:
        raise ScheduleError(_refusal(f, fuses, s, dims, ext))
    for n, v in enumerate(rest[1:], start=1):  # the outer parts fused into the host loop, innermost first
        fused = s.outer if n == len(rest) - 1 else _fresh(f"{rest[0]}_{n}", taken)
        new.append(Fuse(rest[0], v, fused, loc))
        rest[0] = fused
    drop = set(chain)
    return [d for k, d in enumerate(ds) if k not in drop and k < chain[-1]] + new + ds[chain[-1] + 1:]


def _fresh(stem: str, taken: set) -> str:
    name, k = stem, 1
    while name in taken:
        name, k = f"{stem}{k}", k + 1
    return name


def _refusal(f: Function, fuses: list, s: Split, dims: list[str], ext: list[int]) -> str:
    w, h = ext[0], ext[1]
    divisor = max(d for d in range(1, w + 1) if w % d == 0 and d <= s.factor)
    if len(dims) == 2:
        what = f"a multiple of it (e.g. {w * max(s.factor // w, 2)}: whole rows)"
    else:
        rows = w * max(d for d in range(1, h + 1) if h % d == 0 and d <= max(s.factor // w, 2))
        what = f"{w} times a divisor of {h} (e.g. {rows}: whole rows of a plane)"
    if s.factor % w != 0:
        why = (f"that are not boxes: they cross the rows of {dims[0]}, whose extent is {w}, and the accelerator's "
               "streams are boxes")
    elif s.factor % (w * h) != 0:
        why = (f"that are not boxes: they cross the planes of {dims[1]}, whose extent is {h}, and the "
               "accelerator's streams are boxes")
    else:
        why = (f"of whole planes, which the accelerator would run as a fused loop fused again with {dims[2]}: "
               "hardware runs a fused loop as the loops it fuses, and cannot fuse it again")
    fused = " ".join(f"fuse({d.inner}, {d.outer}, {d.fused})" for d in fuses)
    return (f"{s.loc}: Func '{f.name}': split({s.old}, {s.outer}, {s.inner}, {s.factor}) of the fused loop {s.old} "
            f"({fused} over {' x '.join(map(str, ext))}) steps the host loop {s.outer} over runs of {s.factor} "
            f"pixels {why}. Use a factor dividing {w} (e.g. {divisor}) or {what}.")
