"""A staging copy for a stencil reading a stream's words in turn (session 40).

An accelerator input of k words of x per transfer (`hw_input.unroll(x, 2)`) read by a Func taking c < k pixels
per firing (k not dividing c) is read in turn: each read takes fixed words of the transfer over runs of
iterations (hwlower/lane_steps.py). That splits every read into one per word, and the words wait for the latest
of them, so beyond `MAX_PORTS` reads (3 taps) the stream would hold much of a frame, and the reader is refused.
Halide accepts the schedule. Here the compiler puts a copy of the stream between them, as a user would write

    hw_input_turns(x, y) = hw_input(x, y)      # computed where the reader is, at its lanes

which reads the stream once, in turn, and keeps pace with the reader; the reader's taps then read the copy, a
buffer of its own lanes, as any stencil reads its producer (3 taps of a 2-word stream over 8 x 8: 84 cycles for
an ideal of 80, the stream 3 words and the copy 3). The values are the same (the copy is the identity). The
rewrite is of a copy of the user's Funcs, and only where the stream has that one reader (a stream read by
several Funcs in turn keeps its refusal: their values would pile up, lane_steps.py)."""

from __future__ import annotations

from . import ir
from .func import Func, Function, handle_of
from .fuse_outputs import copy_funcs
from .output_reads import read_from
from .pipeline import Pipeline
from .schedule import Placement
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
    if len(fn.definitions) != 1 or fn.placement.compute.kind != "at" or len(fn.args) != len(h.args) \
            or lanes.get(h.args[0], 1) <= 1:
        return False
    k = lanes[h.args[0]]
    c = transfer_lanes(fn).get(fn.args[0], 1)
    calls = [n for n in _calls(fn) if n.callee is h]
    taps = all(_var_plus_constant(n.args[0]) == fn.args[0] for n in calls)
    return c % k != 0 and taps and len({ir.structural_key(n) for n in calls}) > MAX_PORTS


def _calls(fn: Function) -> list[ir.Call]:
    return [n for d in fn.definitions for e in (*d.args, d.value) for n in ir.walk(e)
            if isinstance(n, ir.Call) and isinstance(n.callee, Function)]


def _staging(reader: Function, stream: Function) -> Function:
    """`<stream>_turns`, a copy of the stream computed and stored where the reader is, at the reader's lanes
    (of x and of y: over a stream of 2 x 2 blocks a 1 x 1 reader's copy takes a block's words in turn)."""
    vs = tuple(Var(n) for n in stream.args)
    copy = Func(f"{stream.name}_turns")
    copy[vs] = handle_of(stream)[vs]
    mine = transfer_lanes(reader)
    for v, a in zip(vs, reader.args):
        if mine.get(a, 1) > 1:
            copy.unroll(v, mine[a])
    fn = copy.function()
    fn.placement = Placement(compute=reader.placement.compute, store=reader.placement.store)
    return fn
