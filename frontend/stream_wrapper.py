"""The stream's lanes given through its in_() wrapper, as Halide-to-Hardware's generators give them:

    hw_input.stream_to_accelerator()
    hw_input.in_().unroll(x, 2)        # pointwise_generator.cpp: hw_input.in().unroll(x, unroll)

There `stream_to_accelerator()` is sugar for `in()` marked as the accelerator input, so `hw_input.in()` is the
stream's copy, with loops of its own. Here the streamed Func is itself the stream (Halide 21, which has no
stream_to_accelerator, refuses an unroll of an inline wrapper, and so does a program without one:
pipeline.py's _check_inline_loops). An inline wrapper of a streamed Func, read by every consumer, whose only
schedule is its loops, is that stream: `stream_wrapper_lanes` gives its loops to the streamed Func (whose own loops
are left unscheduled), in a copy of the user's Funcs; the values are the same (the wrapper is the identity)."""

from __future__ import annotations

import copy
import dataclasses

from .func import Function, handle_of, new_stage_schedule
from .fuse_outputs import copy_funcs
from .pipeline import Pipeline


def is_stream_wrapper(fn: Function) -> bool:
    """Whether fn is an inline in_() wrapper (for every consumer) of a Func streamed to the accelerator, fn
    scheduled with loops and the streamed Func's own loops left as they are, so fn's loops are the stream's."""
    s = fn.wrapped
    if s is None or s.placement.accelerator_input is None or fn.wrapper_for or len(fn.definitions) != 1 \
            or len(s.definitions) != 1 or fn.placement.compute.kind != "inline" or fn.placement.store is not None:
        return False
    mine, theirs = fn.definitions[0].schedule, s.definitions[0].schedule
    return bool(mine.directives) and not theirs.directives and not theirs.aliases \
        and mine.dims and [d.name for d in theirs.dims] == list(s.args)


def stream_wrapper_lanes(pipe: Pipeline) -> Pipeline | None:
    """The pipeline whose streamed Funcs take the loops of their stream wrappers (see the module), or None."""
    wrappers = [fn for fn in pipe.order if is_stream_wrapper(fn)]
    if not wrappers:
        return None
    made = copy_funcs(pipe)
    for fn in wrappers:
        w, s = made[id(fn)], made[id(fn.wrapped)]
        s.definitions[0] = dataclasses.replace(s.definitions[0],
                                               schedule=copy.deepcopy(w.definitions[0].schedule))
        d = w.definitions[0]
        w.definitions[0] = dataclasses.replace(d, schedule=new_stage_schedule(d.args, None))
    return Pipeline([handle_of(made[id(f)]) for f in pipe.given], pipe.tuples_whole)
