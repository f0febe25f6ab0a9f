"""Pass `assign_lanes`: the words per transfer of every stream, once every producer and consumer in the
accelerator is checked to keep pace (`lanes.check_rates`)."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend.bounds import Box
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Function, user_handle
from mainspring.frontend.pipeline import Pipeline

from .ir import LoopNest
from .lane_steps import Steps, step_lanes
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
    # a stream whose lanes run along y is one word of x per transfer to the checks of lanes along x
    along = {b: stream_dims(f, glb).index(in_lanes[b].dim) for f in region.inputs
             if in_lanes[(b := pipe.name(f))].dim != stream_dims(f, glb)[0]}
    # (or, a block per transfer, the words of x each row carries: hw_input.unroll(x, 2).unroll(y, 2))
    x_lanes = {b: (ln.across or replace(ln, k=1)) if b in along else ln for b, ln in in_lanes.items()}
    nest, op_lanes = narrow_lanes(nest, s.op_lanes, x_lanes)
    nest, steps = step_lanes(nest, x_lanes)
    nest, rows = step_lanes(nest, {b: in_lanes[b] for b in along}, along)
    _check_rows(s, nest, in_lanes, along, rows)
    unrolls = {pipe.name(f): x_unrolls(user_handle(f), f.args[0], [d.schedule for d in f.definitions])
               for f in pipe.order if f.args}
    check_rates(nest, op_lanes, x_lanes, s.op_lanes, unrolls, steps)
    lanes = tuple((b, ln.words) for b, ln in in_lanes.items())
    lanes += ((nest.output, output_lanes(nest)),)
    blocks = tuple(sorted((b, ln.across.k) for b, ln in in_lanes.items() if ln.across))
    return replace(s, nest=replace(nest, lanes=lanes, lane_dims=tuple(sorted(along.items())), block_words=blocks),
                   op_lanes=op_lanes)


def _check_rows(s: Lowering, nest: LoopNest, lanes: dict[str, Lanes], along: dict[str, int], rows: Steps) -> None:
    """Refuse a reader of a stream of lanes along y (`hw_input.unroll(y, 2)`) whose serial loops move along y by
    other than whole transfers and that lane_steps.py could not step through the rows in turn (an odd count of
    rows, or a loop holding other ops): it would read another word of the transfer at each step."""
    for loops, op in nest.ops():
        for port in op.loads:
            b = port.access.buffer
            if b not in along or not port.access.index or ((op.name, b) in rows and rows[op.name, b] is None):
                continue
            src, terms = lanes[b], dict(port.access.index[along[b]].terms)
            # the innermost such loop, which lane_steps.py would have stepped
            moving = [lp for lp in loops if not lp.unrolled and lp.extent > 1 and terms.get(lp.var, 0) % src.k]
            if not moving:
                continue
            lp = moving[-1]
            f = s.pipe.functions[op.func]
            loc = s.defs(f)[op.stage].loc
            handle = user_handle(f) if op.stage == 0 else f"{user_handle(f)}.update({op.stage - 1})"
            who = f"Func '{f.name}'" + ("" if op.stage == 0 else f".update({op.stage - 1})")
            dim = lp.var.rsplit(".", 1)[-1].replace("$", ".")  # (an RVar's loop is r$x)
            served = rows.get((op.name, b), "")
            odd = served is not None and "iterations of its loop" in served
            why = (f"its loop over {dim} has {lp.extent} iterations, not whole steps of {src.k}" if odd else
                   "that loop holds other ops, or steps through another stream's words, which would take its rows at "
                   "other paces")
            unroll = (f"unroll {handle} along {src.dim} by {src.k} with a rounding tail ({handle}.unroll({dim}, "
                      f"{src.k}, hl.TailStrategy.RoundUp)), or " if odd else "")
            if "$" in lp.var and len(moving) > 1:
                # a serial RVar loop runs on to whole steps (rvar_turns.py) only where it alone steps across the
                # rows: here the reader's own rows do too, so each step of it would start at another word
                why = (f"its serial loop {dim} has {lp.extent} steps, not whole steps of {src.k}, and its loop over "
                       f"{moving[0].var.rsplit('.', 1)[-1]} moves across the rows too")
                unroll = f"unroll that loop ({handle}.unroll({dim})), or "
            raise ScheduleError(
                f"{loc}: {who} reads '{b}' one value of {src.dim} per firing, but {src.who} streams "
                f"{src.k} values of {src.dim} per transfer ({src.described()}), so it must take the words of "
                f"each transfer in turn, over whole steps of {src.k} of its loop over {dim}; {why}. Fix: {unroll}"
                f"remove {src.call} to stream '{b}' a word per transfer")


def _input_lanes(pipe: Pipeline, f: Function, box: Box, dims: tuple[str, ...], reorderable: bool) -> Lanes:
    """The lanes of an accelerator input's stream: its unrolls of its first dimensions in stream order `dims`."""
    extents = {a: (lo, hi - lo + 1) for a, (lo, hi) in zip(f.args, box)}
    sched = f.definitions[0].schedule
    return input_lanes(pipe.name(f), list(dims), replay(sched, extents, set(), f"Func '{f.name}'"), sched,
                       user_handle(f), reorderable)
