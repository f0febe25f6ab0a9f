"""An accelerator tile tiled again (`tile(x, y, xo, yo, xi, yi, 8, 6).tile(xi, yi, xio, yio, xii, yii, 4, 3)`
accelerated at xii): the host steps over the inner tiles with two loops per dimension, as Halide's loops place
them inside each outer tile."""

from __future__ import annotations

import math
from collections.abc import Sequence

from mainspring.frontend.func import Function
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import Fuse, Split, StageSchedule, TailStrategy


def inner_tile_splits(s: Split, sched: StageSchedule, host: list[str]) -> list[Split]:
    """The splits of the loop inside the tile loop of `s` (and of their inner parts) whose outer part is a host
    loop: `tile(x, y, xo, yo, xi, yi, 8, 6).tile(xi, yi, xio, yio, xii, yii, 4, 3)` accelerated at xii runs
    tiles of 4 columns, xio stepping over them inside each tile of 8 that xo steps over."""
    out: list[Split] = []
    inner = s.inner
    for d in sched.directives:
        if isinstance(d, Split) and d.old == inner and d.outer in host and d.inner not in host:
            out.append(d)
            inner = d.inner
    return out


def nested_origins(lo: int, e: int, splits: Sequence[Split]) -> list[int]:
    """The origins of the innermost tiles of nested splits over [lo, lo + e): each split's tiles inside each of
    the tiles around it, the last one shifted inward (RoundUp: reaching past), as Halide's loops place them; a
    tile two loops reach is run once (the tiles are independent)."""
    origins = [(lo, e)]  # (origin, extent of the region the next split covers)
    for d in splits:
        up = d.tail is TailStrategy.RoundUp  # (else a region smaller than the factor is one tile of it)
        origins = [(o + (k * d.factor if up else min(k * d.factor, max(r - d.factor, 0))),
                    d.factor if up else min(d.factor, r)) for o, r in origins for k in range(-(-r // d.factor))]
    return sorted({o for o, _ in origins})


def nests(f: Function, host: list[str]) -> dict[str, list[Split]]:
    """f's dimensions whose tile the host steps over with two or more loops of nested splits (a tile tiled
    again, `inner_tile_splits`; `host`: f's host loops): their splits, outermost first."""
    sched = f.definitions[0].schedule
    out = {}
    for d in sched.directives:
        if isinstance(d, Split) and d.old in f.args and d.outer in host:
            inner = inner_tile_splits(d, sched, host)
            if inner:
                out[d.old] = [d, *inner]
    return out


def split_fused_hint(loop: str, sched: StageSchedule, host: list[str], compute_var: str) -> str | None:
    """How a message ends where the host loop `loop` is a part of a fused loop split again whose other part runs
    inside the accelerator (`fuse(xo, yo, t).split(t, to, ti, 4)` accelerated at to), else None."""
    fused = {d.fused: d for d in sched.directives if isinstance(d, Fuse)}
    for d in sched.directives:
        if isinstance(d, Split) and d.old in fused and loop in (d.outer, d.inner) and d.inner not in host:
            f = fused[d.old]
            return (f"tiles of one dimension: {loop} is the outer part of split({d.old}, {d.outer}, {d.inner}, "
                    f"{d.factor}) of the fused loop {d.old} (fuse({f.inner}, {f.outer}, {d.old})), whose inner part "
                    f"{d.inner} would run inside the accelerator, over several tiles; accelerate at the inner part "
                    f"(hw_accelerate({compute_var}, {d.inner})), or at {d.old} without splitting it")
    return None


def step_along(pipe: Pipeline, dim: str, multiples: dict[int, dict[int, int]]) -> int:
    """The steps the Funcs inside take along the dimension named `dim` (an upsample's full-resolution x: 2)."""
    funcs = {id(g): g for g in pipe.functions.values()}
    return math.lcm(1, *(d for fid, dims in multiples.items() if fid in funcs for k, d in dims.items()
                         if funcs[fid].args[k] == dim))
