"""A planar image (x, y, c) whose planes a reduction takes one step at a time (`conv(x, y) += wt(r.x, r.y, r.z) *
inp(x + r.x, y + r.y, r.z)` with r.z serial, as a PE budget cuts conv_cin3_const's unroll): streamed plane after
plane, the reduction's first pixel waits for the last plane, so the stream's buffer held its planes whole (1,362
words for 305 at 13x7, 581 cycles for 405); streamed channels first (hwlower/stream_order.py), one channel per
transfer, the transfers keep pace with the steps (97 words, 412 cycles)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .frontend import ir
from .frontend.func import Function
from .frontend.pipeline import Pipeline

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Plan


def planes_read_serially(pipe: Pipeline, plan: _Plan, f: Function) -> bool:
    """Whether stream f is a planar image (x, y, c) that the accelerated region reads only at a serial RVar of a
    reduction over its planes, an RVar no other coordinate of the read moves with."""
    if len(f.args) != 3 or plan.lanes.lanes != 1 or plan.lanes.x_dim.get(id(f), 0) != 0 or plan.glb:
        return False
    image = f.wrapped_image
    found = False
    for g in plan.region:
        unrolled = {n for _, names in plan.unrolled.get(id(g), []) for n in names}
        # (an RVar outside the pixel's loops sweeps the frame per plane, in the order a planar stream brings them:
        # a sum over 6 planes, plan.sweeps)
        swept = {n for _, names in plan.sweeps.get(id(g), []) for n in names}
        for d in pipe.definitions(g):
            serial = {r for r, _, _ in d.rdom.dims if r not in unrolled} if d.rdom is not None else set()
            for n in ir.walk(d.value):
                if not (isinstance(n, ir.Call) and (n.callee is f or (image is not None and n.callee is image))):
                    continue
                c = n.args[2]
                if not (isinstance(c, ir.RVar) and c.name in serial) or c.name in swept or any(
                        isinstance(m, ir.RVar) and m.name == c.name for a in n.args[:2] for m in ir.walk(a)):
                    return False
                found = True
    return found
