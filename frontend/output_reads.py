"""Outputs that other Funcs read, for the autoscheduler: it plans several outputs as the elements of one Tuple Func
(frontend/fuse_outputs.py), which cannot hold an output that another output reads (`edge` reading `blur` would read
its own Tuple). Halide accepts such a pipeline, so the value of each output another Func reads moves into a Func of
its own, `<output>_value`, which every reader reads instead; the output becomes a plain read of it, and the
autoscheduler then buffers or inlines the value like any other Func. An output defined by a reduction (updates, an
RDom) moves the same way, since a Tuple's elements are pure values."""

from __future__ import annotations

import dataclasses

from . import ir
from .func import Definition, Func, Function, handle_of, new_stage_schedule
from .pipeline import Pipeline
from .types import I32
from .vars import Var


def separate_read_outputs(pipe: Pipeline) -> Pipeline:
    """`pipe` itself when no Func reads one of its outputs and none is a reduction; else the pipeline of the same
    outputs after the value of each such output moved into a Func of its own (the Funcs are changed in place, as the
    autoscheduler changes them; their values stay the same)."""
    read = read_outputs(pipe)
    # nothing moves where the outputs cannot be one Tuple Func anyway (the refusal then sees the program as written)
    if len(pipe.given) < 2 or not read or any(f.tuple_layout is not None or f.specializations or f.type.is_float()
                                              for f in pipe.given):
        return pipe
    moved = {id(f): value_func(f) for f in read}
    for fn in [*(fn for fn in pipe.order if id(fn) not in moved), *moved.values()]:
        read_from(fn, moved)  # the value Funcs too: an update reads the Func it updates
    for f in read:
        vs = tuple(Var(n) for n in f.args)
        args = tuple(ir.Var(I32, n) for n in f.args)
        read_value = handle_of(moved[id(f)])[vs]._ir()
        f.definitions[:] = [Definition(args, read_value, None, f.definitions[0].loc, new_stage_schedule(args, None))]
    return pipe.rebuilt()


def read_outputs(pipe: Pipeline) -> list[Function]:
    """The outputs whose values move: those another Func reads, and the reductions (a value of their own too)."""
    return [f for f in pipe.given if pipe.graph.out_degree(pipe.name(f)) > 0 or len(f.definitions) > 1
            or f.definitions[0].rdom is not None]


def value_func(f: Function) -> Function:
    """A new Func with f's definitions (updates and RDoms included), each stage unscheduled."""
    value = Func(f"{f.name}_value").function()
    value.definitions = [dataclasses.replace(d, schedule=new_stage_schedule(d.args, d.rdom)) for d in f.definitions]
    return value


def read_from(fn: Function, moved: dict[int, Function]) -> None:
    """fn's definitions with their calls to a moved output made calls to its value Func."""
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        if isinstance(n, ir.Call) and id(n.callee) in moved:
            return ir.Call(n.type, moved[id(n.callee)], kids)
        return ir.rebuild(n, kids)

    memo: dict = {}
    fn.definitions[:] = [dataclasses.replace(d, args=tuple(ir.transform(a, go, memo) for a in d.args),
                                             value=ir.transform(d.value, go, memo)) for d in fn.definitions]
