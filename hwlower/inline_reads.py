"""Pass `inline_offending_reads`: a read of an inline Func at coordinates the memories cannot address as written
(a product or quotient of the loops, a value loaded from a Func), or whose inlined value reads so or at a periodic
offset (periodic_reads.py), takes the inline Func's value in its place.

    g(x, y) = hw_input(x, y) * 3 + 1                 (inline)
    hw_output(x, y) = g((x * y) % 5, y) + g(idx(x, y), y)

is, as Halide computes an inline Func, the same as

    hw_output(x, y) = (hw_input((x * y) % 5, y) * 3 + 1) + (hw_input(idx(x, y), y) * 3 + 1)

whose reads of hw_input the passes after this one serve as they serve reads written so: the product through a
clamped index Func (index_funcs.py), the loaded coordinate as a lookup of a RAM holding hw_input's box
(ram_copies.py; a second lookup in a Func of its own, ram_lookups.py). The pointwise part (the * 3 + 1) runs in the
reader's op, as it would inline; only the Funcs the inline one reads are held in memories, at the words the reads
touch. Reads of inline Funcs at affine coordinates stay as written (the `inline` pass substitutes them later).
The frontend's pipeline and its reference are unchanged: the pass returns a copy of the pipeline for the passes
after it."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.pipeline import Pipeline

from .fold import map_definition_calls
from .index_hints import nonlinear
from .inline import inline_body
from .periodic_reads import periodic_offsets
from .region import find_region
from .state import Lowering


def inline_offending_reads(s: Lowering) -> Lowering:
    """Substitute the inline Funcs read at non-affine or loaded coordinates into their buffered readers."""
    pipe, region = s.pipe, s.found_region
    inlined = {id(g) for g in region.inlined}
    if not inlined:
        return s
    bodies: dict = {}  # each inline Func's value with its own inline reads substituted, shared by all readers
    for f in region.buffered:
        defs = pipe.definitions(f)
        new_defs = [_substituted(pipe, f, d, inlined, bodies) for d in defs]
        if any(a is not b for a, b in zip(new_defs, defs, strict=True)):
            pipe = pipe.with_producers([], f, new_defs)
    if pipe is s.pipe:
        return s
    pipe = pipe.computing(pipe.output)  # an inline Func no buffered Func reads any more drops out
    return replace(s, pipe=pipe, region=find_region(pipe))


def _offending(args: tuple[ir.Expr, ...]) -> bool:
    """Whether coordinates `args` are loaded from a Func or multiply or divide loop variables."""
    return any(isinstance(n, ir.Call) for a in args for n in ir.walk(a)) or any(nonlinear(a) for a in args)


def _substituted(pipe: Pipeline, f: Function, d: Definition, inlined: set[int], bodies: dict) -> Definition:
    """d (of f) with each read of an inline Func that is offending, or whose value read there is (or reads at a
    periodic offset, which periodic_reads.py serves in f's definitions only), replaced by that value."""
    pure = set(d.pure_vars()) & set(f.args)

    def go(c: ir.Call) -> ir.Expr | None:
        g = c.callee
        if not isinstance(g, Function) or id(g) not in inlined:
            return None
        value = ir.substitute(inline_body(pipe, g, inlined, bodies), dict(zip(g.args, c.args, strict=True)))
        reads = [n for n in ir.walk(value) if isinstance(n, ir.Call) and isinstance(n.callee, Function)]
        if _offending(c.args) or any(_offending(n.args) or periodic_offsets(n, pure) for n in reads):
            return value
        return None

    new = map_definition_calls(d, go)
    same = new.value is d.value and all(a is b for a, b in zip(new.args, d.args, strict=True))
    return d if same else new
