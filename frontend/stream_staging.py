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
rewrite is of a copy of the user's Funcs, and only where the stream has that one reader (a stream read by
several Funcs in turn keeps its refusal: their values would pile up, lane_steps.py)."""

from __future__ import annotations

import math

from . import ir
from .func import Definition, Func, Function, handle_of
from .fuse_outputs import copy_funcs
from .output_reads import read_from
from .pipeline import Pipeline
from .schedule import ForType, Placement, Split
from .stream_turns import _var_plus_constant, transfer_lanes
from .vars import Var

# as hwlower/lanes.py's: the reads of a stream a reader takes in turn
MAX_PORTS = 2


def staged_streams(pipe: Pipeline) -> Pipeline | None:
    """The pipeline with a staging copy between each stream and its one reader that would read it in turn
    through more than MAX_PORTS reads (see the module), or None if there is none."""
    pairs = [(fn, h) for fn, h in _sole_readers(pipe) if _needs_staging(fn, h)]
    if not pairs:
        return None
    made = copy_funcs(pipe)
    for fn, h in pairs:
        reader, stream = made[id(fn)], made[id(h)]
        read_from(reader, {id(stream): _staging(reader, stream)})
    return Pipeline([handle_of(made[id(f)]) for f in pipe.given], pipe.tuples_whole)


def _sole_readers(pipe: Pipeline) -> list[tuple[Function, Function]]:
    """(reader, stream) for each accelerator input one Func reads (and no other Func)."""
    readers: dict[int, list[Function]] = {}
    for fn in pipe.order:
        for h in {id(c.callee): c.callee for c in _calls(fn)}.values():
            readers.setdefault(id(h), []).append(fn)
    return [(fns[0], h) for h in pipe.order if h.placement.accelerator_input is not None
            and len(fns := readers.get(id(h), [])) == 1]


def _needs_staging(fn: Function, h: Function) -> bool:
    """Whether fn, computed inside the accelerator from one pure definition, reads h (of k words of its first
    dimension per transfer, of rows too or not) at c pixels per firing, k not dividing c, through more than MAX_PORTS
    distinct reads, each at fn's own x plus a constant (a stencil's taps: a resampling read, x * 2 or x / 2, moves
    by other than a word a firing)."""
    lanes = transfer_lanes(h)
    # an update not unrolled along x runs in its pure definition's lanes (hwlower/update_lanes.py)
    c = _unrolled(fn.definitions[0].schedule).get(fn.args[0], 1)
    if fn.placement.compute.kind != "at" or len(fn.args) != len(h.args) or lanes.get(h.args[0], 1) <= 1 \
            or any(_unrolled(d.schedule).get(fn.args[0], 1) not in (1, c) for d in fn.definitions):
        return False
    k = lanes[h.args[0]]
    calls = [n for n in _calls(fn) if n.callee is h]
    taps = all(_var_plus_constant(n.args[0]) == fn.args[0] for n in calls)
    return c % k != 0 and taps and sum(_reads(d, h) for d in fn.definitions) > MAX_PORTS


def _unrolled(sched) -> dict[str, int]:
    """A stage's unrolled variables with their factors (transfer_lanes' of any stage)."""
    unrolled = {dv.var for dv in sched.directives if isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize")}
    return {sp.old: sp.factor for sp in sched.directives if isinstance(sp, Split) and sp.inner in unrolled}


def _reads(d: Definition, h: Function) -> int:
    """The reads of h definition d makes a firing: each distinct call, once per point of the RVars it reads
    that the stage unrolls whole (a 3x3 window summed in an update: 9)."""
    whole = {dv.var for dv in d.schedule.directives if isinstance(dv, ForType) and dv.kind == "unroll"}
    extents = {n: e.value for n, _, e in (d.rdom.dims if d.rdom is not None else ()) if isinstance(e, ir.Const)}
    out = 0
    for call in {ir.structural_key(n): n for e in (*d.args, d.value) for n in ir.walk(e)
                 if isinstance(n, ir.Call) and n.callee is h}.values():
        rvars = {n.name for a in call.args for n in ir.walk(a) if isinstance(n, ir.RVar)}
        out += math.prod(extents.get(r, 1) for r in rvars if r in whole)
    return out


def _calls(fn: Function) -> list[ir.Call]:
    return [n for d in fn.definitions for e in (*d.args, d.value) for n in ir.walk(e)
            if isinstance(n, ir.Call) and isinstance(n.callee, Function)]


def _staging(reader: Function, stream: Function) -> Function:
    """`<stream>_turns`, a copy of the stream computed and stored where the reader is, at the reader's lanes
    (of x and of y: over a stream of 2 x 2 blocks a 1 x 1 reader's copy takes a block's words in turn)."""
    vs = tuple(Var(n) for n in stream.args)
    copy = Func(f"{stream.name}_turns")
    copy[vs] = handle_of(stream)[vs]
    mine = _unrolled(reader.definitions[0].schedule)
    for v, a in zip(vs, reader.args):
        if mine.get(a, 1) > 1:
            copy.unroll(v, mine[a])
    fn = copy.function()
    fn.placement = Placement(compute=reader.placement.compute, store=reader.placement.store)
    return fn
