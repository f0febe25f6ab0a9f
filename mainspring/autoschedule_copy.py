"""A GLB level for an output that copies no Func (issue 8, gaps20): the GLB level of an automatic schedule
(`use_glb="true"`, or a `glb_tile`) holds copies of the accelerated Func's tiles, as seed 002's `hw_output.in_()`
does, so an algorithm written for a CPU, whose output is its last stage, first has the output's value moved into a
Func of its own, `<output>_value`, of which the output becomes a copy (frontend/output_copy.py; the values stay
the same). Halide's schedules cannot add that Func, so the schedule's source begins with mainspring's call that
does, `hl.Pipeline(funcs["blur"]).copy_output()`, takes the Func it makes from there, and then schedules it as
the accelerated Func: pasted into the user's file and called on a fresh copy, it gives the same design."""

from __future__ import annotations

import dataclasses

from .autoschedule import (
    AutoschedulerParams,
    AutoSchedulerResults,
    accelerates_output,
    apply_autoscheduler,
    parsed_options,
)
from .autoschedule_outputs import IMPORT, apply_to_outputs
from .frontend.func import handle_of
from .frontend.output_copy import copies_whole, copy_output
from .frontend.pipeline import Pipeline
from .target import CGRA


def apply_to_output(pipe: Pipeline, target: CGRA, params: AutoschedulerParams) -> AutoSchedulerResults:
    """Schedule pipe's one output Func; with a GLB level asked for where the output copies no Func, after the copy
    (a Tuple of one word too: the copy reads its packed word; else a Tuple's elements are scheduled as outputs)."""
    out = pipe.given[0]
    if parsed_options(params, target).use_glb != "true" or not accelerates_output(pipe) or \
            not copies_whole(out) or out.specializations:
        # (a Tuple over 32 bits, or specializations, with a GLB level: refused there)
        return apply_autoscheduler(pipe, target, params) if out.tuple_layout is None else \
            apply_to_outputs(pipe, target, params)
    name = pipe.name(out)
    copied = copy_output(pipe)
    if out.tuple_layout is not None:  # planned as the Tuple's packed word, as compile takes it
        copied = Pipeline(handle_of(out), tuples_whole=True)
    result = apply_autoscheduler(copied, target, params)
    lines = result.schedule_source.rstrip("\n").split("\n")
    at = lines.index(IMPORT) + 1
    rewrite = [
        "",
        f"    # '{name}' a copy of its value, {name}_value, whose tiles the GLB level copies (seed 002's hw_output)",
        f'    copied = hl.Pipeline(funcs["{name}"]).copy_output()',
        "    funcs, vars = funcs | copied.funcs(), vars | copied.vars()",
    ]
    return dataclasses.replace(result, schedule_source="\n".join(lines[:at] + rewrite + lines[at:]) + "\n")
