"""Several outputs from one accelerator: Funcs each scheduled `hw_accelerate` alike (the same loops, the same
schedule calls), none reading another, are the outputs of one accelerated loop nest. `fuse_accelerated_outputs`
computes them as the elements of one Tuple Func, `hw_outputs`, which takes their schedule; each becomes a read of
its element, so the host reads the outputs from the one stream the accelerator has (and frontend/outputs.py packs
them for the design)."""

from __future__ import annotations

import copy
import dataclasses

import networkx as nx

from . import ir
from .errors import HalideError, user_location
from .expr import Expr
from .func import Definition, Func, Function, handle_of, new_stage_schedule, user_handle
from .output_reads import separate_read_outputs
from .output_words import fuse_into_words, words_for, words_schedule
from .pipeline import Pipeline
from .schedule import LoopLevel, MemoryType, Placement
from .tuples import MAX_BITS
from .types import I32
from .vars import Var
from .wrappers import make_wrapper


def fuse_accelerated_outputs(pipe: Pipeline) -> Pipeline | None:
    """The pipeline computing pipe's accelerated Funcs as the elements of one Tuple Func where they can be (see the
    module), or None. It is built over copies of pipe's Funcs, so the user's program stays as written (a Func
    realized or compiled alone later is the Func the user defined)."""
    accel = [f for f in pipe.order if f.placement.hw_accelerate is not None]
    ids = {id(f) for f in accel}
    # compute_with(hw_blur, xo) on a Func scheduled as hw_blur is: Halide's fused loop nest, in the accelerator
    accel += [f for f in pipe.order if f.placement.hw_accelerate is None and f.placement.compute_with is not None
              and id(f.placement.compute_with[0]) in ids]
    if len(accel) < 2 or not _fusable(pipe, accel):
        return None
    tiles = _glb_tiles(pipe, accel)
    copies = copy_funcs(pipe)
    accel = [copies[id(f)] for f in accel]
    if tiles is not None:
        return _fuse_glb_copies(pipe, copies, accel, [copies[id(f)] for f in tiles])
    # hw_outputs takes the first Func's loops and schedule calls (the others' are the same)
    schedule, placement = accel[0].definitions[0].schedule, accel[0].placement
    # over 32 bits together: one word per group of outputs, streamed side by side (frontend/output_words.py)
    loc = accel[0].definitions[0].loc
    words = words_for("hw_outputs", [f.type for f in accel], loc)
    t = fuse_into_tuple(accel, "hw_outputs") if words is None else fuse_into_words(accel, "hw_outputs", words)
    _unwrap(accel)
    bounds = {}
    if words is not None:
        word = t.args[0]
        schedule, bounds = words_schedule(schedule, word, loc), {word: t.placement.bounds[word]}
    t.definitions[0] = dataclasses.replace(t.definitions[0], schedule=schedule)
    t.placement = dataclasses.replace(placement, bounds=bounds, estimates=None, compute_with=None)
    t.user_name = user_handle(accel[0])
    _place_at(copies.values(), accel, t)
    return Pipeline([handle_of(copies[id(f)]) for f in pipe.given], pipe.tuples_whole)


def _place_at(funcs, fused: list[Function], t: Function) -> None:
    """Each of `funcs` computed or stored at a loop of one of `fused` is placed at that loop of t."""
    ids = {id(f) for f in fused}
    for fn in funcs:
        for attr in ("compute", "store"):
            level = getattr(fn.placement, attr)
            if level is not None and level.kind == "at" and id(level.func) in ids:
                setattr(fn.placement, attr, LoopLevel("at", t, level.var, level.loc))


def _unwrap(fused: list[Function]) -> None:
    """Drop the in_() entries of the Funcs that `fused` (now reads of a Tuple Func) wrapped: the copies' calls are
    already resolved, and the entry would turn the Tuple Func's read of the wrapped Func back into a read of its
    wrapper, which reads the Tuple Func (a cycle)."""
    for f in fused:
        if f.wrapped is not None:
            f.wrapped.wrappers = {k: w for k, w in f.wrapped.wrappers.items() if w is not f}


def _glb_tiles(pipe: Pipeline, accel: list[Function]) -> list[Function] | None:
    """The Funcs that `accel` copy into the GLB, when each of accel is a GLB copy (`hw.in_()` stored in the GLB) of
    a Func computed at it and those Funcs can be one Tuple Func scheduled alike (each output's array output, a
    tile at a time), else None."""
    tiles = [f.wrapped for f in accel]
    if any(f.placement.memory_type is None or f.placement.memory_type[0] != MemoryType.GLB for f in accel) \
            or any(w is None for w in tiles):
        return None
    if not all(w.placement.compute.kind == "at" and w.placement.compute.func is f for w, f in zip(tiles, accel)):
        return None
    if not fusable_values(pipe, tiles) or words_for("hw_outputs", [w.type for w in tiles], None) is not None:
        return None
    return tiles if all(_schedule_key(w) == _schedule_key(tiles[0]) for w in tiles) else None


def _fuse_glb_copies(pipe: Pipeline, copies: dict, accel: list[Function], tiles: list[Function]) -> Pipeline:
    """Outputs each through a GLB copy of its own (`hw_a.in_()`, `hw_b.in_()` stored in the GLB, each hw computed at
    its copy's tile loop): the hws become one Tuple Func `hw_outputs_tiles` and the copies one GLB copy of it,
    `hw_outputs`, which takes the first copy's schedule; as one output through one GLB copy."""
    inner_schedule, inner_placement = tiles[0].definitions[0].schedule, tiles[0].placement
    schedule, placement = accel[0].definitions[0].schedule, accel[0].placement
    inner = fuse_into_tuple(tiles, "hw_outputs_tiles")
    inner.definitions[0] = dataclasses.replace(inner.definitions[0], schedule=inner_schedule)
    inner.placement = dataclasses.replace(inner_placement, estimates=None, compute_with=None, bounds={})
    _unwrap(accel)
    t = make_wrapper(handle_of(inner), None).function()
    _read_elements(accel, t)
    t.definitions[0] = dataclasses.replace(t.definitions[0], schedule=schedule, loc=accel[0].definitions[0].loc)
    t.placement = dataclasses.replace(placement, bounds={}, estimates=None, compute_with=None)
    inner.user_name, t.user_name = user_handle(tiles[0]), user_handle(accel[0])
    _place_at([*copies.values(), inner], tiles, inner)
    _place_at([*copies.values(), inner], accel, t)
    return Pipeline([handle_of(copies[id(f)]) for f in pipe.given], pipe.tuples_whole)


def copy_funcs(pipe: Pipeline) -> dict[int, Function]:
    """A copy of each of pipe's Funcs (by the original's id), reading the copies (through the in_() wrappers pipe
    resolved) and placed at them. Each keeps its original's creation serial, so the copies' unique names are the
    originals'."""
    made = {id(fn): copy.copy(fn) for fn in pipe.order}

    def moved(f: Function) -> Function:
        return made.get(id(f), f)

    def reads(n: ir.Expr, kids: tuple) -> ir.Expr:
        if isinstance(n, ir.Call) and isinstance(n.callee, Function):
            return ir.Call(n.type, moved(n.callee), kids)
        return ir.rebuild(n, kids)

    def level(at: LoopLevel | None) -> LoopLevel | None:
        return LoopLevel("at", moved(at.func), at.var, at.loc) if at is not None and at.kind == "at" else at

    for fn in pipe.order:
        c, p = made[id(fn)], fn.placement
        c.handle = None  # (handle_of makes one; the user's Func keeps naming the original)
        c.definitions = [dataclasses.replace(d, args=tuple(ir.transform(a, reads) for a in d.args),
                                             value=ir.transform(d.value, reads)) for d in pipe.definitions(fn)]
        c.wrappers = {k: moved(w) for k, w in fn.wrappers.items()}
        c.wrapped = None if fn.wrapped is None else moved(fn.wrapped)
        c.wrapper_for = tuple(moved(g) for g in fn.wrapper_for)
        c.requirements, c.specializations = list(fn.requirements), dict(fn.specializations)
        if hasattr(fn.tuple_layout, "funcs"):  # a Tuple over 32 bits: its words are the copies (wide_tuples.py)
            c.tuple_layout = dataclasses.replace(fn.tuple_layout, funcs=tuple(map(moved, fn.tuple_layout.funcs)))
        c.placement = dataclasses.replace(
            p, compute=level(p.compute), store=level(p.store), bounds=dict(p.bounds), aligns=dict(p.aligns),
            estimates=None if p.estimates is None else dict(p.estimates),
            compute_with=None if p.compute_with is None else (moved(p.compute_with[0]), *p.compute_with[1:]))
    return made


def fuse_into_tuple(funcs: list[Function], name: str) -> Function:
    """A new Tuple Func `name` whose elements are the values of `funcs` (pure, over as many variables), each of
    which becomes, in place, a read of its element, unscheduled (its bounds and estimates kept)."""
    first = funcs[0]
    vs = tuple(Var(n) for n in first.args)
    fused = Func(name)
    fused[vs] = tuple(Expr(_renamed(f, first.args)) for f in funcs)
    t = fused.function()
    _read_elements(funcs, t)
    return t


def fusable_values(pipe: Pipeline, funcs: list[Function], words: bool = False) -> bool:
    """Whether `funcs` can be the elements of one Tuple Func: pure, of one value of at most 32 bits between them
    (`words`: each, in words of their own), over as many variables, none reading another."""
    names = [pipe.name(f) for f in funcs]
    first = funcs[0]
    bits = [1 if f.type.is_bool() else f.type.bits() for f in funcs]
    return (max(bits) if words else sum(bits)) <= MAX_BITS \
        and not any(nx.has_path(pipe.graph, a, b) for a in names for b in names if a != b) \
        and all(len(f.definitions) == 1 and f.definitions[0].rdom is None
                and (f.tuple_layout is None or (words and _words_of_one_tuple(funcs)))
                and not f.type.is_float() and len(f.args) == len(first.args) and not f.specializations
                for f in funcs)


def _words_of_one_tuple(funcs: list[Function]) -> bool:
    """Whether `funcs` are the words of one Tuple over 32 bits (frontend/wide_tuples.py), each a word of its own."""
    from .wide_tuples import WideLayout

    layout = funcs[0].tuple_layout
    return isinstance(layout, WideLayout) and len(funcs) == len(layout.funcs) \
        and all(f is g for f, g in zip(funcs, layout.funcs))


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


def fuse_several_outputs(pipe: Pipeline, call: str) -> tuple[Pipeline, list[Function]]:
    """`autoscheduled_outputs` after the values of outputs that are read or reductions moved into Funcs of their
    own (frontend/output_reads.py), or the refusal of outputs that cannot be one Tuple Func; `call` is the user's
    call (apply_autoscheduler, or fuse_outputs, which an automatic schedule's source begins with)."""
    found = autoscheduled_outputs(separate_read_outputs(pipe))
    if found is None:
        _refuse_several_outputs(pipe, call)
    assert found is not None
    return found


def _refuse_several_outputs(pipe: Pipeline, call: str) -> None:
    names = [fn.name for fn in pipe.given]
    fix = ("define one Func per value (a Tuple's elements as Funcs of their own): the outputs leave the array as "
           "fields of words of at most 32 bits, a pixel's words side by side on one port")
    if call == "apply_autoscheduler":
        fix = ("apply it to each output's pipeline of its own, e.g. "
               + " and ".join(f"hl.Pipeline({n}).apply_autoscheduler(...)" for n in names[:2]) + ", or " + fix)
    who = "the Mainspring autoscheduler schedules" if call == "apply_autoscheduler" else "fuse_outputs computes"
    raise HalideError(
        f"{user_location()}: {call}: the pipeline has {len(names)} outputs "
        f"({', '.join(repr(n) for n in names)}), which {who} as the elements of one Tuple Func (in words of 32 bits), "
        "so they must be integer Funcs of one value each, over as many variables, of at most 32 bits each; " + fix)


def autoscheduled_outputs(pipe: Pipeline) -> tuple[Pipeline, list[Function]] | None:
    """For the autoscheduler, the pipeline of one output that computes the outputs of `pipe`: a Tuple output
    whole, or several outputs fused into one Tuple Func `hw_outputs` (in place, as `fuse_into_tuple`: the
    autoscheduler schedules the user's program), sized by the first output's estimates; and the outputs to bound
    as it is bounded then. None where they cannot be fused (see `fusable_values`)."""
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


def _read_elements(funcs: list[Function], t: Function) -> None:
    """Each of `funcs` becomes, in place, an unscheduled read of its element of the Tuple Func `t` (its bounds and
    estimates kept)."""
    for i, f in enumerate(funcs):
        args = tuple(ir.Var(I32, n) for n in f.args)
        read = handle_of(t)[tuple(Var(n) for n in f.args)][i]._ir()
        d = f.definitions[0]
        f.definitions[0] = Definition(args, read, None, d.loc, new_stage_schedule(args, None))
        f.placement = Placement(bounds=f.placement.bounds, estimates=f.placement.estimates)
