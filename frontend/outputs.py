"""Several outputs on the hardware flow: the outputs of a pipeline (Halide's `Pipeline([a, b])`, a Tuple output's
elements) are computed on the host from the accelerator's output stream, so `compile` builds one accelerator and
packs the outputs, as a Tuple's elements are packed (frontend/tuples.py), into one host Func, the design's output;
`unpack` gives each output back from its words, as Halide's Realization has a buffer per output."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import semantics
from .errors import HalideError, user_location
from .expr import type_name
from .func import Func, Function, handle_of
from .output_bounds import derived_bound
from .output_words import Words, define_words, words_for
from .pipeline import Pipeline
from .tuples import MAX_BITS, Field
from .vars import Var


@dataclass(frozen=True, slots=True)
class Output:
    """One output of a pipeline compiled as several: its name and where its values lie in the packed word."""

    name: str
    field: Field
    word: int | None = None  # outputs over 32 bits together: which word of a pixel holds it (output_words.py)


def packed_outputs(pipe: Pipeline, call: str = "compile") -> tuple[Func, tuple[Output, ...]] | None:
    """The host Func packing the outputs of `pipe` (every output's value at each point) and the outputs' fields;
    None for a pipeline of one output that is not a Tuple."""
    if len(pipe.outputs) == 1 and pipe.outputs[0] is pipe.given[0]:
        return None
    _check_widths(pipe, call)
    first = pipe.outputs[0]
    vs = tuple(Var(n) for n in first.args)
    sink = Func("outputs")
    words = words_for(sink.name(), [fn.type for fn in pipe.outputs], user_location())
    if words is not None:
        return _packed_in_words(pipe, sink, words, call)
    sink[vs] = tuple(handle_of(fn)[vs] for fn in pipe.outputs)
    # outputs of no dimensions: so is their packing, whose values the design gives as 0-D arrays
    sink.function().scalar = all(fn.scalar for fn in pipe.given)
    _bound_like_the_outputs(pipe, sink, call)
    layout = sink.function().tuple_layout
    assert layout is not None and len(layout.fields) == len(pipe.outputs)
    return sink, tuple(Output(fn.name, f) for fn, f in zip(pipe.outputs, layout.fields))


def _packed_in_words(pipe: Pipeline, sink: Func, words: Words, call: str) -> tuple[Func, tuple[Output, ...]]:
    """`sink`(word, x, ...): the outputs in words of at most 32 bits each, a word per group of them."""
    args = pipe.outputs[0].args
    values = [handle_of(fn)[tuple(Var(n) for n in args)]._ir() for fn in pipe.outputs]
    word = define_words(sink, args, words, values)
    _bound_like_the_outputs(pipe, sink, call, first=1)
    sink.function().placement.bounds[word] = (0, len(words.groups), user_location())
    found = []
    for k, (g, lay) in enumerate(zip(words.groups, words.layouts)):
        found += [(i, Output(pipe.outputs[i].name, f, k)) for i, f in zip(g, lay.fields)]
    return sink, tuple(o for _i, o in sorted(found, key=lambda p: p[0]))


def _check_widths(pipe: Pipeline, call: str) -> None:
    """Each output is a field of a word of at most 32 bits: an integer or a Bool (integer types have 32 bits at
    most, so only a float is refused)."""
    floats = [fn for fn in pipe.outputs if fn.type.is_float()]
    if not floats:
        return
    listed = ", ".join(f"'{fn.name}' ({type_name(fn.type)})" for fn in pipe.outputs)
    bad = floats[0].name
    raise HalideError(
        f"{user_location()}: {call} of a pipeline of outputs {listed}: a mainspring design streams each output in "
        f"an integer word of at most {MAX_BITS} bits, and '{bad}' is a float; make '{bad}' an integer of at most "
        f"{MAX_BITS} bits (e.g. hl.u32(...) or hl.i32(...)); outputs of at most {MAX_BITS} bits each leave the "
        "accelerator as several words a pixel"
    )


def _bound_like_the_outputs(pipe: Pipeline, sink: Func, call: str, first: int = 0) -> None:
    """Bound the packing Func in each dimension (from `first`) as the outputs (a Tuple output for its elements) are
    bounded there: they must agree, as the design streams its outputs together, point by point."""
    for i, var in enumerate(sink.function().args[first:]):
        seen: dict[tuple[int | None, int], Function] = {}
        locs = []
        for fn in pipe.given:
            b = fn.placement.bounds.get(fn.args[i])
            if b is None and not fn.scalar:  # the bound of the Func it reads at its variable (output_bounds.py)
                b = derived_bound(pipe, i, fn)
            if b is not None:
                seen.setdefault((b[0], b[1]), fn)
                locs.append(b[2])
        if not seen and all(fn.scalar for fn in pipe.given):  # Funcs of no dimensions: their one element, at 0
            seen[(0, 1)] = pipe.given[0]
            locs.append(None)
        if not seen:
            names = " and ".join(f"'{fn.name}'" for fn in pipe.given)
            first = pipe.given[0]
            raise HalideError(
                f"{user_location()}: {call} of a pipeline of several outputs ({names}): dimension {i} "
                f"({first.args[i]}) has no bound, and hardware sizes are fixed at compile time; bound the outputs, "
                f"e.g. {first.name}.bound({first.args[i]}, 0, <extent>)"
            )
        if len(seen) > 1:
            (b1, f1), (b2, f2) = list(seen.items())[:2]
            raise HalideError(
                f"{user_location()}: {call} of a pipeline of several outputs: '{f1.name}' is bounded to "
                f"[{b1[0]}, +{b1[1]}) in dimension {i} ({f1.args[i]}), '{f2.name}' to [{b2[0]}, +{b2[1]}); a "
                "mainspring design streams its outputs together, over one region: bound them alike (e.g. "
                f"{f2.name}.bound({f2.args[i]}, {b1[0]}, {b1[1]})), or compile them as designs of their own"
            )
        (lo, extent), = seen
        sink.function().placement.bounds[var] = (lo, extent, locs[0])


def unpack(words: np.ndarray, output: Output) -> np.ndarray:
    """The values of one output from the packed words (as Halide gives that output's buffer); several words a
    pixel are the innermost dimension (arr[..., word])."""
    f = output.field
    w = np.asarray(words) if output.word is None else np.asarray(words)[..., output.word]
    v = (w.astype(np.int64) >> f.offset) & ((1 << f.width) - 1)
    if f.signed:
        v = np.where(v >> (f.width - 1) != 0, v - (1 << f.width), v)
    return semantics.to_numpy(v, f.type)
