"""An output computed as a copy of its value (`hl.Pipeline(blur).copy_output()`, mainspring's call): the output's
value moves into a Func of its own, `<output>_value`, and the output becomes a plain read of it, as seed 002 writes
`hw_output` and `output`. An automatic schedule's GLB level holds copies of the accelerated Func's tiles, so an
algorithm written for a CPU, whose output is its last stage, needs that copy for `use_glb="true"`: the autoscheduler
makes it (mainspring/autoschedule_copy.py), and its schedule_source begins with this call, so that it pastes onto a
fresh copy of the algorithm. The output's values are the same (a copy of the same definitions)."""

from __future__ import annotations

from . import ir
from .errors import HalideError, user_location
from .func import Definition, handle_of, new_stage_schedule
from .output_reads import read_from, value_func
from .pipeline import Pipeline
from .tuples import TupleLayout
from .types import I32
from .vars import Var


def copy_output(pipe: Pipeline) -> Pipeline:
    """`pipe` after its output's value moved into `<output>_value` (the Funcs change in place, as the
    autoscheduler changes them), built anew."""
    f = pipe.given[0]
    if len(pipe.given) != 1 or not copies_whole(f) or f.specializations:
        what = "several outputs" if len(pipe.given) != 1 else \
            "a Tuple over 32 bits" if not copies_whole(f) else "specializations"
        raise HalideError(f"{user_location()}: copy_output: the pipeline's output '{f.name}' has {what}; it copies "
                          "the value of one output Func of one value or a Tuple of one word, without "
                          "specializations")
    value = value_func(f)
    value.tuple_layout = f.tuple_layout  # a Tuple's copy reads its packed word whole
    moved = {id(f): value}
    for fn in [*(fn for fn in pipe.order if fn is not f), value]:
        read_from(fn, moved)  # the value Func too: an update reads the Func it updates
    args = tuple(ir.Var(I32, n) for n in f.args)
    read_value = handle_of(value)[tuple(Var(n) for n in f.args)]._call()
    f.definitions[:] = [Definition(args, read_value, None, f.definitions[0].loc, new_stage_schedule(args, None))]
    return pipe.rebuilt()


def copies_whole(f) -> bool:
    """Whether f's value moves into a Func as one word: one value, or a Tuple packed in one word (a Tuple over 32
    bits is held in several Funcs, frontend/wide_tuples.py)."""
    return f.tuple_layout is None or isinstance(f.tuple_layout, TupleLayout)
