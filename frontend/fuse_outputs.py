"""Several outputs from one accelerator: Funcs each scheduled `hw_accelerate` alike (the same loops, the same
schedule calls), none reading another, are the outputs of one accelerated loop nest. `fuse_accelerated_outputs`
computes them as the elements of one Tuple Func, `hw_outputs`, which takes their schedule; each becomes a read of
its element, so the host reads the outputs from the one stream the accelerator has (and frontend/outputs.py packs
them for the design)."""

from __future__ import annotations

import dataclasses

import networkx as nx

from . import ir
from .expr import Expr
from .func import Definition, Func, Function, handle_of, new_stage_schedule
from .output_words import fuse_into_words, words_for, words_schedule
from .pipeline import Pipeline
from .schedule import LoopLevel, Placement
from .tuples import MAX_BITS
from .types import I32
from .vars import Var


def fuse_accelerated_outputs(pipe: Pipeline) -> bool:
    """Fuse the pipeline's accelerated Funcs into one Tuple Func where they can be (see the module); whether it did.
    The Funcs are changed in place (their values stay the same), so the caller builds its Pipeline anew."""
    accel = [f for f in pipe.order if f.placement.hw_accelerate is not None]
    ids = {id(f) for f in accel}
    # compute_with(hw_blur, xo) on a Func scheduled as hw_blur is: Halide's fused loop nest, in the accelerator
    accel += [f for f in pipe.order if f.placement.hw_accelerate is None and f.placement.compute_with is not None
              and id(f.placement.compute_with[0]) in ids]
    if len(accel) < 2 or not _fusable(pipe, accel):
        return False
    # hw_outputs takes the first Func's loops and schedule calls (the others' are the same)
    schedule, placement = accel[0].definitions[0].schedule, accel[0].placement
    # over 32 bits together: one word per group of outputs, streamed side by side (frontend/output_words.py)
    loc = accel[0].definitions[0].loc
    words = words_for("hw_outputs", [f.type for f in accel], loc)
    t = fuse_into_tuple(accel, "hw_outputs") if words is None else fuse_into_words(accel, "hw_outputs", words)
    bounds = {}
    if words is not None:
        word = t.args[0]
        schedule, bounds = words_schedule(schedule, word, loc), {word: t.placement.bounds[word]}
    t.definitions[0] = dataclasses.replace(t.definitions[0], schedule=schedule)
    t.placement = dataclasses.replace(placement, bounds=bounds, estimates=None, compute_with=None)
    ids = {id(f) for f in accel}
    for fn in pipe.order:
        for attr in ("compute", "store"):
            level = getattr(fn.placement, attr)
            if level is not None and level.kind == "at" and id(level.func) in ids:
                setattr(fn.placement, attr, LoopLevel("at", t, level.var, level.loc))
    return True


def fuse_into_tuple(funcs: list[Function], name: str) -> Function:
    """A new Tuple Func `name` whose elements are the values of `funcs` (pure, over as many variables), each of
    which becomes, in place, a read of its element, unscheduled (its bounds and estimates kept)."""
    first = funcs[0]
    vs = tuple(Var(n) for n in first.args)
    fused = Func(name)
    fused[vs] = tuple(Expr(_renamed(f, first.args)) for f in funcs)
    t = fused.function()
    for i, f in enumerate(funcs):
        args = tuple(ir.Var(I32, n) for n in f.args)
        read = handle_of(t)[tuple(Var(n) for n in f.args)][i]._ir()
        d = f.definitions[0]
        f.definitions[0] = Definition(args, read, None, d.loc, new_stage_schedule(args, None))
        f.placement = Placement(bounds=f.placement.bounds, estimates=f.placement.estimates)
    return t


def fusable_values(pipe: Pipeline, funcs: list[Function], words: bool = False) -> bool:
    """Whether `funcs` can be the elements of one Tuple Func: pure, of one value of at most 32 bits between them
    (`words`: each, in words of their own), over as many variables, none reading another."""
    names = [pipe.name(f) for f in funcs]
    first = funcs[0]
    bits = [1 if f.type.is_bool() else f.type.bits() for f in funcs]
    return (max(bits) if words else sum(bits)) <= MAX_BITS \
        and not any(nx.has_path(pipe.graph, a, b) for a in names for b in names if a != b) \
        and all(len(f.definitions) == 1 and f.definitions[0].rdom is None and f.tuple_layout is None
                and not f.type.is_float() and len(f.args) == len(first.args) and not f.specializations
                for f in funcs)


def _fusable(pipe: Pipeline, accel: list[Function]) -> bool:
    accelerated = {f.placement.hw_accelerate[:2] for f in accel if f.placement.hw_accelerate is not None}
    return len(accelerated) == 1 and fusable_values(pipe, accel, words=True) \
        and all(_schedule_key(f) == _schedule_key(accel[0]) for f in accel)


def _schedule_key(f: Function) -> tuple:
    """f's schedule without source locations, its variables by position (to compare two Funcs' schedules)."""
    names = {n: f"#{i}" for i, n in enumerate(f.args)}

    def plain(v):
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return (type(v).__name__,) + tuple(plain(getattr(v, fl.name)) for fl in dataclasses.fields(v)
                                               if fl.name != "loc")
        if isinstance(v, (list, tuple)):
            return tuple(plain(x) for x in v)
        if isinstance(v, dict):
            return tuple(sorted((plain(k), plain(x)) for k, x in v.items()))
        if isinstance(v, str):
            return names.get(v, v)
        return v if isinstance(v, (int, bool, type(None))) or hasattr(v, "value") else type(v).__name__

    p = f.placement
    return (plain(f.definitions[0].schedule), p.compute.kind, p.store and p.store.kind, plain(p.aligns),
            p.storage_order, p.memory_type and p.memory_type[0])


def _renamed(f: Function, args: tuple[str, ...]) -> ir.Expr:
    """f's value over `args` instead of its own variables."""
    return ir.substitute(f.definitions[0].value, {old: ir.Var(I32, new) for old, new in zip(f.args, args)})


def autoscheduled_outputs(pipe: Pipeline) -> tuple[Pipeline, list[Function]] | None:
    """For the autoscheduler, the pipeline of one output that computes the outputs of `pipe`: a Tuple output
    whole, or several outputs fused into one Tuple Func `hw_outputs` (in place, as `fuse_into_tuple`), sized by
    the first output's estimates; and the outputs to bound as it is bounded then. None where they cannot be
    fused (see `fusable_values`)."""
    given = pipe.given
    if len(given) == 1:
        return Pipeline(handle_of(given[0]), tuples_whole=True), []
    if not fusable_values(pipe, given, words=True):
        return None
    first = given[0]
    size = first.placement.estimates or {v: (b[0], b[1]) for v, b in first.placement.bounds.items()
                                         if b[0] is not None}
    words = words_for("hw_outputs", [f.type for f in given], first.definitions[0].loc)
    t = fuse_into_tuple(given, "hw_outputs") if words is None else fuse_into_words(given, "hw_outputs", words)
    if words is not None and size:  # the autoscheduler unrolls the words' dimension (autoschedule_words.py)
        size = {t.args[0]: (0, len(words.groups))} | dict(size)
    t.placement.estimates = dict(size) or None
    return Pipeline(handle_of(t), tuples_whole=True), given


def bound_like(outputs: list[Function], fused: Function) -> None:
    """Bound each output as the autoscheduler bounded the Tuple Func computing them (by position)."""
    for f in outputs:
        for v, w in zip(f.args, fused.args[len(fused.args) - len(f.args):]):
            if w in fused.placement.bounds and v not in f.placement.bounds:
                f.placement.bounds[v] = fused.placement.bounds[w]
