"""Pass `assign_lanes`: the words per transfer of every stream, once every producer and consumer in the
accelerator is checked to keep pace (`lanes.check_rates`)."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend.bounds import Box
from mainspring.frontend.func import Function, user_handle
from mainspring.frontend.pipeline import Pipeline

from .lane_steps import step_lanes
from .lanes import Lanes, check_rates, input_lanes, output_lanes, x_unrolls
from .loops import replay
from .narrow import narrow_lanes
from .state import Lowering
from .stream_order import stream_dims


def assign_lanes(s: Lowering) -> Lowering:
    pipe, region, nest = s.pipe, s.found_region, s.built_nest
    glb = s.glb is not None
    in_lanes = {pipe.name(f): _input_lanes(pipe, f, s.tile.boxes[pipe.name(f)], stream_dims(f, glb), not glb)
                for f in region.inputs}
    nest, op_lanes = narrow_lanes(nest, s.op_lanes, in_lanes)
    nest, steps = step_lanes(nest, in_lanes)
    unrolls = {pipe.name(f): x_unrolls(user_handle(f), f.args[0], [d.schedule for d in f.definitions])
               for f in pipe.order if f.args}
    check_rates(nest, op_lanes, in_lanes, s.op_lanes, unrolls, steps)
    lanes = tuple((b, ln.k) for b, ln in in_lanes.items())
    lanes += ((nest.output, output_lanes(nest)),)
    return replace(s, nest=replace(nest, lanes=lanes), op_lanes=op_lanes)


def _input_lanes(pipe: Pipeline, f: Function, box: Box, dims: tuple[str, ...], reorderable: bool) -> Lanes:
    """The lanes of an accelerator input's stream: its unrolls of its first dimensions in stream order `dims`."""
    extents = {a: (lo, hi - lo + 1) for a, (lo, hi) in zip(f.args, box)}
    sched = f.definitions[0].schedule
    return input_lanes(pipe.name(f), list(dims), replay(sched, extents, set(), f"Func '{f.name}'"), sched,
                       user_handle(f), reorderable)
