"""A staging copy for a stencil reading a stream's words in turn (session 40).

An accelerator input of k words of x per transfer (`hw_input.unroll(x, 2)`) read by a Func taking c < k pixels
per firing (k not dividing c) is read in turn: each read takes fixed words of the transfer over runs of
iterations (hwlower/lane_steps.py). That splits every read into one per word, and the words wait for the latest
of them, so beyond `MAX_PORTS` reads (3 taps) the stream would hold much of a frame, and the reader is refused.
Halide accepts the schedule. Here the compiler puts a copy of the stream between them, as a user would write

    hw_input_turns(x, y) = hw_input(x, y)      # computed where the reader is, at its lanes

which reads the stream once, in turn, and keeps pace with the reader; the reader's taps then read the copy, a
buffer of its own lanes, as any stencil reads its producer (3 taps of a 2-word stream over 8 x 8: 84 cycles for
an ideal of 80, the stream 3 words and the copy 3; seed 002's gaussian, a 3x3 window unrolled in an update, over
`hw_input.unroll(x, 2)` at 30 x 16: 582 for 576). The values are the same (the copy is the identity). The
rewrite is of a copy of the user's Funcs.

A stream several Funcs read, one of them in turn, is refused without a copy: the host paces the stream to the
reader taking its words in turn, the others run ahead, and their values would pile up (lane_steps.py). There
every reader reads one shared copy (session 41), the stream's only reader, at the lanes each reader's divide (the
gcd of theirs; one where a serial RVar loop steps across x, as `acc(x, y) += in(x + r.x, y)`, which cannot step
across a buffer's lanes): the copy reads the stream in turn through one read and the readers read it as any
buffer (two 1-lane Funcs over a 2-word stream at 8 x 8: 91 cycles for 81; fuzz 187502 at 2 x 1: 14, the
hand-written copy's). A reader inlined into other Funcs counts as them (their lanes, their loop)."""

from __future__ import annotations

import math

from . import ir
from .func import Definition, Func, Function, handle_of
from .fuse_outputs import copy_funcs
from .output_reads import read_from
from .pipeline import Pipeline
from .schedule import ForType, LoopLevel, Placement, Split
from .stream_turns import transfer_lanes, unrolled_factors, var_plus_constant
from .vars import Var

# as hwlower/lanes.py's: the reads of a stream a reader takes in turn
MAX_PORTS = 2


def staged_streams(pipe: Pipeline) -> Pipeline | None:
    """The pipeline with a staging copy between each stream and its one reader that would read it in turn
    through more than MAX_PORTS reads, or its readers where one of several would read it in turn (see the
    module), or None if there is none."""
    callers = _callers(pipe)
    staged = []
    for h, fns in _readers(pipe, callers).items():
        sole = len(fns) == 1 and _needs_staging(fns[0], h)
        lanes = None if sole else _shared_lanes(fns, h, callers)
        if sole or lanes is not None:
            staged.append((fns, h, lanes))
    if not staged:
        return None
    made = copy_funcs(pipe)
    for fns, h, lanes in staged:
        stream = made[id(h)]
        if lanes is None:
            (reader,) = [made[id(fn)] for fn in fns]
            copy = _staging(stream, unrolled_factors(reader.definitions[0].schedule), reader.args, reader.placement)
        else:
            copy = _staging(stream, lanes, h.args, _shared_placement(_hosts(fns, callers) or [], made))
        for fn in fns:
            read_from(made[id(fn)], {id(stream): copy})
    return Pipeline([handle_of(made[id(f)]) for f in pipe.given], pipe.tuples_whole)


def _readers(pipe: Pipeline, callers: dict[int, list[Function]]) -> dict[Function, list[Function]]:
    """The Funcs reading each accelerator input (that any Func reads), in pipeline order (`callers`: `_callers`)."""
    # a stream with in_() wrappers is read through them once the pipeline resolves its calls (the copy's own read
    # would be redirected to a wrapper that reads the copy): the definitions here are the unresolved ones
    return {h: callers[id(h)] for h in pipe.order
            if h.placement.accelerator_input is not None and id(h) in callers and not h.wrappers}


def _callers(pipe: Pipeline) -> dict[int, list[Function]]:
    """The Funcs calling each Func (by its id), in pipeline order."""
    out: dict[int, list[Function]] = {}
    for fn in pipe.order:
        for g in {id(c.callee): c.callee for c in _calls(fn)}.values():
            out.setdefault(id(g), []).append(fn)
    return out


def _hosts(fns: list[Function], callers: dict[int, list[Function]], seen: frozenset[int] = frozenset()) \
        -> list[Function] | None:
    """The Funcs computing `fns`' values: each Func computed, and the Funcs an inlined one is inlined into (through
    inlined Funcs), each calling it at its own x plus a constant and in no serial RVar loop along x (its reads of
    a stream then are taps, as its own); None where one is called otherwise. `seen`: the inlined Funcs on the way
    (an update reads its own Func)."""
    out: dict[int, Function] = {}
    for fn in fns:
        if fn.placement.compute.kind != "inline":
            out[id(fn)] = fn
            continue
        up = [c for c in callers.get(id(fn), []) if c is not fn]
        if not up or id(fn) in seen \
                or any(var_plus_constant(n.args[0]) != c.args[0] for c in up for n in _calls(c) if n.callee is fn) \
                or any(_steps_serially(d, fn) for c in up for d in c.definitions):
            return None
        more = _hosts(up, callers, seen | {id(fn)})
        if more is None:
            return None
        out.update({id(g): g for g in more})
    return list(out.values())


def _needs_staging(fn: Function, h: Function) -> bool:
    """Whether fn, computed inside the accelerator from one pure definition, reads h (of k words of its first
    dimension per transfer, of rows too or not) at c pixels per firing, k not dividing c, through more than MAX_PORTS
    distinct reads, each at fn's own x plus a constant (a stencil's taps: a resampling read, x * 2 or x / 2, moves
    by other than a word a firing). fn may have more variables than h: an rfactor's intermediate, f0_intm(x, y, v)
    reading h(x + r.x, y + v) at its reduction's x (fuzz 180113: its copy there, 55 cycles for an ideal of 50)."""
    lanes = transfer_lanes(h)
    # an update not unrolled along x runs in its pure definition's lanes (hwlower/update_lanes.py)
    c = unrolled_factors(fn.definitions[0].schedule).get(fn.args[0], 1)
    if fn.placement.compute.kind != "at" or len(fn.args) < len(h.args) or lanes.get(h.args[0], 1) <= 1 \
            or any(unrolled_factors(d.schedule).get(fn.args[0], 1) not in (1, c) for d in fn.definitions):
        return False
    k = lanes[h.args[0]]
    calls = [n for n in _calls(fn) if n.callee is h]
    taps = all(var_plus_constant(n.args[0]) == fn.args[0] for n in calls)
    return c % k != 0 and taps and sum(_reads(d, h) for d in fn.definitions) > MAX_PORTS


def _shared_lanes(fns: list[Function], h: Function, callers: dict[int, list[Function]]) -> dict[str, int] | None:
    """The lanes (by h's variables) of a copy of h that its readers `fns` share, where h has k words of its first
    dimension per transfer, the readers' values are computed in more than one Func (`_hosts`) and one of those
    would read it in turn: at c pixels a firing (k not dividing c) or in a serial RVar loop stepping along it; else
    None. Each reader reads h along it at its own x plus a constant, inside the accelerator (or is its output).
    The copy's lanes divide every computing Func's (the gcd; one where a serial loop steps across them, which no
    buffer's lanes serve)."""
    k = transfer_lanes(h).get(h.args[0], 1)
    hosts = _hosts(fns, callers) if k > 1 else None
    if hosts is None or len(hosts) < 2 or _accelerator_level(hosts) is None \
            or any(var_plus_constant(n.args[0]) != fn.args[0] for fn in fns for n in _calls(fn) if n.callee is h):
        return None
    lanes: list[int] = []
    rows: list[int] = []
    for fn in hosts:
        c = _lanes_along(fn.definitions[0].schedule, fn.args[0])
        if any(_lanes_along(d.schedule, fn.args[0]) not in (1, c) for d in fn.definitions):
            return None
        lanes.append(c)
        rows.append(_lanes_along(fn.definitions[0].schedule, fn.args[1]) if len(fn.args) > 1 else 1)
    serial = any(_steps_serially(d, h) for fn in fns for d in fn.definitions)
    if not serial and all(c % k == 0 for c in lanes):
        return None  # each reads whole transfers (lanes.py), as it does today
    return {h.args[0]: 1 if serial else math.gcd(*lanes), **({h.args[1]: math.gcd(*rows)} if len(h.args) > 1 else {})}


def _steps_serially(d: Definition, h: Function) -> bool:
    """Whether definition d reads h along its first dimension at an RVar that d does not unroll whole (a serial
    loop of taps: each iteration reads another lane)."""
    whole = _unrolled_whole(d)
    return any(isinstance(r, ir.RVar) and r.name not in whole for e in (*d.args, d.value) for n in ir.walk(e)
               if isinstance(n, ir.Call) and n.callee is h for r in ir.walk(n.args[0]))


def _lanes_along(sched, arg: str) -> int:
    """A stage's lanes along its variable `arg`: the factor of the unrolled split of it or of a loop split from it
    (the accelerator output's xi, split from x by its tile)."""
    parent: dict[str, str] = {}
    for sp in sched.directives:
        if isinstance(sp, Split):
            parent.update({n: sp.old for n in (sp.inner, sp.outer) if n != sp.old})
    out = 1
    for var, factor in unrolled_factors(sched).items():
        v = var
        while v != arg and v in parent:
            v = parent[v]
        if v == arg:
            out *= factor
    return out


def _accelerator_level(fns: list[Function]) -> tuple[Function, str] | None:
    """(the accelerator's output, its compute loop) that every reader is computed inside (through the Funcs it is
    computed at) or is, or None."""
    tops = set()
    for fn in fns:
        g = fn
        while g.placement.hw_accelerate is None and g.placement.compute.kind == "at":
            g = g.placement.compute.func
        if g.placement.hw_accelerate is None:
            return None
        tops.add((g, g.placement.hw_accelerate[1]))
    return next(iter(tops)) if len(tops) == 1 else None


def _shared_placement(fns: list[Function], made: dict[int, Function]) -> Placement:
    """Where the shared copy is computed: where `fns` (the Funcs computing its readers' values) are, if at one loop
    (seed 187502: the accelerator's loop xo), else at the accelerator's loop, which holds them all (an rfactor's
    intermediate at its reduction's x beside a Func at xo, fuzz 179709). `made`: the copies of the user's Funcs, by
    the original's id."""
    levels = {(id(fn.placement.compute.func), fn.placement.compute.var) for fn in fns}
    if len(levels) == 1 and all(fn.placement.store is None for fn in fns):
        return Placement(compute=made[id(fns[0])].placement.compute)
    top = _accelerator_level(fns)
    assert top is not None
    at = LoopLevel("at", made[id(top[0])], top[1])
    return Placement(compute=at, store=at)


def _reads(d: Definition, h: Function) -> int:
    """The reads of h definition d makes a firing: each distinct call, once per point of the RVars it reads
    that the stage unrolls whole (a 3x3 window summed in an update: 9)."""
    whole = _unrolled_whole(d)
    extents = {n: e.value for n, _, e in (d.rdom.dims if d.rdom is not None else ()) if isinstance(e, ir.Const)}
    out = 0
    for call in {ir.structural_key(n): n for e in (*d.args, d.value) for n in ir.walk(e)
                 if isinstance(n, ir.Call) and n.callee is h}.values():
        rvars = {n.name for a in call.args for n in ir.walk(a) if isinstance(n, ir.RVar)}
        out += math.prod(extents.get(r, 1) for r in rvars if r in whole)
    return out


def _unrolled_whole(d: Definition) -> set[str]:
    """The loops definition d unrolls whole (an RVar's, or a split's inner loop)."""
    return {dv.var for dv in d.schedule.directives if isinstance(dv, ForType) and dv.kind == "unroll"}


def _calls(fn: Function) -> list[ir.Call]:
    return [n for d in fn.definitions for e in (*d.args, d.value) for n in ir.walk(e)
            if isinstance(n, ir.Call) and isinstance(n.callee, Function)]


def _staging(stream: Function, lanes: dict[str, int], args: tuple[str, ...], at: Placement) -> Function:
    """`<stream>_turns`, a copy of the stream computed and stored at `at`'s levels, unrolled along each dimension
    by `lanes` of the reader's variable `args` names there (of x and of y: over a stream of 2 x 2 blocks a 1 x 1
    reader's copy takes a block's words in turn)."""
    vs = tuple(Var(n) for n in stream.args)
    copy = Func(f"{stream.name}_turns")
    copy[vs] = handle_of(stream)[vs]
    for v, a in zip(vs, args):
        if lanes.get(a, 1) > 1:
            copy.unroll(v, lanes[a])
    fn = copy.function()
    fn.placement = Placement(compute=at.compute, store=at.store)
    return fn
