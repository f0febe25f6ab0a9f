"""Halide's rule for compute_with: the fused Funcs are computed together, a step of one beside the same step of the
other, so neither may read the other (Halide: 'Invalid compute_with: there is dependency between f and g')."""

from __future__ import annotations

from typing import TYPE_CHECKING

import networkx as nx

from .errors import ScheduleError

if TYPE_CHECKING:
    from .func import Function
    from .pipeline import Pipeline


def check_compute_with(pipe: Pipeline, fn: Function) -> None:
    fused = fn.placement.compute_with
    if fused is None or not any(g is fused[0] for g in pipe.order):
        return
    g, var, loc = fused
    b, a = pipe.name(fn), pipe.name(g)
    reads = [(r, p) for r, p in ((fn, g), (g, fn)) if nx.has_path(pipe.graph, pipe.name(p), pipe.name(r))]
    if not reads:
        return
    reader, producer = reads[0]
    raise ScheduleError(
        f"{loc}: Func '{fn.name}': {fn.name}.compute_with({g.name}, {var}): Invalid compute_with: there is "
        f"dependency between {a} and {b} ('{reader.name}' reads '{producer.name}'): fused loops compute both at "
        f"each step, so neither may read the other; drop the compute_with (a reader is computed after what it "
        f"reads), or define '{reader.name}' from what '{producer.name}' reads (a Func both read, computed at "
        f"{g.name}'s {var}, in place of the call to '{producer.name}')")
