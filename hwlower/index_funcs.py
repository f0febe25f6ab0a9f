"""Pass `compute_indices`: a read at an index that multiplies or divides loop variables, through a Func that
computes the index.

    hw_output(x, y) = hw_input((x * y) % 5, y)

has no affine address (memories need one), but Halide runs it: it bounds the index by the box its variables span.
The pass computes the index in a Func of its own, clamped to that range, at the reader's level, and reads at it:

    hw_input_index_for_hw_output(x, y) = clamp((x * y) % 5, 0, 4)      (compute_at(hw_output, xo))
    hw_output(x, y) = hw_input(hw_input_index_for_hw_output(x, y), y)

which is what the user would write by hand (the `non_affine_index` refusal's fix, index_hints.py). A coordinate
loaded from a Func is a lookup of a RAM holding the read Func's box (scatter.py, ram_copies.py, ram_lookups.py).
The clamp spans every value the index takes over the reader's box, so it changes none: the values are the same as
the algorithm's, which the reference keeps (the pass returns a copy of the pipeline for the passes after it).
Indices it does not serve stay as written, for `ops` to refuse with their own fix: those of reduction variables,
of loaded values, of a reader not buffered at a loop (index_hints.reader_level), or of variables the reader's definition
does not bind. A read of an inline Func at such an index, or one an inline Func makes, reaches this pass with the
inline Func's value substituted (inline_reads.py)."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder, Box, infer_boxes
from mainspring.frontend.func import Definition, Function, new_stage_schedule
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import LoopLevel
from mainspring.frontend.types import I32

from .bounds import output_box
from .index_hints import nonlinear, reader_level
from .region import find_region
from .state import Lowering


def compute_indices(s: Lowering) -> Lowering:
    """Read each buffered Func's nonlinear coordinate indices through a synthesised, clamped index Func."""
    pipe, region = s.pipe, s.found_region
    # a Func that holds its values in a memory the lookup reads (an inline one has none: inline_reads.py has
    # substituted its value where it is read so)
    held = {id(g) for g in (*region.inputs, *region.buffered, *region.tables)}
    boxes: dict[str, Box] | None = None
    for f in region.buffered:
        defs = pipe.definitions(f)
        if reader_level(f) is None or not any(_candidates(f, d, held) for d in defs):
            continue
        if boxes is None:  # only a pipeline with such a read pays for the bounds
            boxes, _ = infer_boxes(s.pipe, output_box(s.pipe), lambda _p: None)
        box = boxes.get(s.pipe.name(f))
        if box is None:
            continue
        made: dict[tuple, Function] = {}  # one Func per index, shared by f's reads at it
        new_defs = [_rewritten(pipe, f, d, box, made, held) for d in defs]
        if made:
            pipe = pipe.with_producers(list(made.values()), f, new_defs)
    if pipe is s.pipe:
        return s
    return replace(s, pipe=pipe, region=find_region(pipe))


def _served(f: Function, d: Definition, e: ir.Expr) -> bool:
    """Whether index e of a read in f's definition d is one this pass computes in a Func: nonlinear in the
    definition's pure variables only (no reduction variable, no loaded value, no variable of another Func)."""
    if not nonlinear(e):
        return False
    pure = set(d.pure_vars()) & set(f.args)
    return all(not isinstance(n, (ir.RVar, ir.Call)) and (not isinstance(n, ir.Var) or n.name in pure)
               for n in ir.walk(e))


def _candidates(f: Function, d: Definition, held: set[int]) -> list[ir.Expr]:
    return [a for n in ir.walk(d.value) if isinstance(n, ir.Call) and id(n.callee) in held
            for a in n.args if _served(f, d, a)]


def _fresh(pipe: Pipeline, stem: str, made: dict[tuple, Function]) -> str:
    """An unused name: the pipeline's and the Funcs made so far."""
    taken = set(pipe.functions) | {g.name for g in made.values()}
    name, k = stem, 1
    while name in taken:
        name, k = f"{stem}_{k}", k + 1
    return name


def _rewritten(pipe: Pipeline, f: Function, d: Definition, box: Box, made: dict[tuple, Function],
               held: set[int]) -> Definition:
    """d with each served index replaced by a read of its index Func (made, by index)."""
    spans = {v: box[i] for i, v in enumerate(f.args)}

    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if not (isinstance(n, ir.Call) and isinstance(n.callee, Function) and id(n.callee) in held):
            return n
        args = tuple(_index_read(pipe, f, d, a, n.callee, spans, made) if _served(f, d, a) else a for a in n.args)
        return n if args == n.args else ir.Call(n.type, n.callee, args)

    return replace(d, value=ir.transform(d.value, go))


def _index_read(pipe: Pipeline, f: Function, d: Definition, e: ir.Expr, callee: Function,
                spans: dict[str, tuple[int, int]], made: dict[tuple, Function]) -> ir.Expr:
    """A read of the Func that computes index e, clamped to the values e takes over f's box."""
    used = {n.name for n in ir.walk(e) if isinstance(n, ir.Var)}
    args = tuple(v for v in f.args if v in used)
    key = (ir.structural_key(e), args)
    g = made.get(key)
    if g is None:
        lo, hi = Bounder(spans, lambda _p: None)(e)
        name = _fresh(pipe, f"{pipe.name(callee)}_index_for_{pipe.name(f)}", made)
        g = made[key] = _index_func(name, f, d, e, args, int(lo), int(hi))
    return ir.Call(e.type, g, tuple(ir.Var(I32, v) for v in args))


def _index_func(name: str, f: Function, d: Definition, e: ir.Expr, args: tuple[str, ...], lo: int,
                hi: int) -> Function:
    """name(args) = clamp(e, lo, hi), computed at f's level (where the user's fix computes it), located at the
    reading definition (where its errors point)."""
    g = Function(name, d.loc)
    clamped = ir.BinOp(e.type, "max", ir.BinOp(e.type, "min", e, ir.Const(e.type, hi)), ir.Const(e.type, lo))
    lhs = tuple(ir.Var(I32, v) for v in args)
    g.definitions = [Definition(lhs, clamped, None, d.loc, new_stage_schedule(lhs, None))]
    p = f.placement
    if p.hw_accelerate is not None:
        g.placement.compute = LoopLevel("at", f, p.hw_accelerate[1], d.loc)
    else:
        g.placement.compute = p.compute
    return g
