"""Pass `buffer_divided_reads`: a serial reduction's read at a quotient of its reduction variable (or an
unrolled one's past a divisor of 2: taps at (x + 1) / 3, fuzz 151009), through a buffered Func that divides.

A transposed convolution reads its input at a quotient that moves with a reduction variable it runs serially:

    up(x, y) += hw_input((x + r.x) / 2, (y + r.y) / 2) * w(r)

which is affine in no loop order (x + r.x crosses a step of 2 at a different r.x for each x). The pass adds a
Func that divides, and reads it at the dividends:

    hw_input_for_up(x, y) = hw_input(x / 2, y / 2)          (inline: region.py buffers it, as written by hand)
    up(x, y) += hw_input_for_up(x + r.x, y + r.y) * w(r)

The values are the same (an inline Func's are wherever it is read); the new Func is buffered at the
accelerator's loop, where its own loops are strip-mined (x / 2 affine), and the reduction reads it at affine
x + r.x. The frontend's pipeline and its reference are unchanged: the pass returns a copy of the pipeline for the
passes after it. An index this cannot serve (two quotients, or a variable outside the quotient, or a modulo) is
left as written, and the `ops` pass refuses it, saying how to unroll the reduction."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function, new_stage_schedule
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.types import I32

from .region import find_region, reads_inputs
from .state import Lowering


def buffer_divided_reads(s: Lowering) -> Lowering:
    """Read each buffered Func's serial quotients through a synthesised Func that divides."""
    pipe = s.pipe
    # Only reads of the accelerator's values: a constant Func at a quotient is a ROM or coordinate arithmetic.
    streamed = reads_inputs(pipe, [f for f in pipe.order if f.placement.accelerator_input is not None])
    for f in s.found_region.buffered:
        made: dict[tuple, Function] = {}  # one Func per callee and division shape, shared by f's reads
        defs = pipe.definitions(f)
        new_defs = [defs[0]] + [_rewritten(pipe, f, d, made, streamed) for d in defs[1:]]
        if made:
            pipe = pipe.with_producers(list(made.values()), f, new_defs)
    if pipe is s.pipe:
        return s
    return replace(s, pipe=pipe, region=find_region(pipe))


def _fresh(pipe: Pipeline, stem: str, made: dict[tuple, Function]) -> str:
    """An unused name: the pipeline's and the Funcs made so far."""
    taken = set(pipe.functions) | {g.name for g in made.values()}
    name, k = stem, 1
    while name in taken:
        name, k = f"{stem}_{k}", k + 1
    return name


def _rewritten(pipe: Pipeline, f: Function, d: Definition, made: dict[tuple, Function],
               streamed: set[int]) -> Definition:
    """d with each read of a Func in `streamed` at a serial quotient replaced by a read of a Func that divides
    (made, by shape)."""
    lanes = d.schedule.lane_dims()

    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if not (isinstance(n, ir.Call) and isinstance(n.callee, Function) and n.callee is not f
                and id(n.callee) in streamed):
            return n
        if any(isinstance(m, ir.Call) for a in n.args for m in ir.walk(a)):  # data-dependent: not ours
            return n
        if not any(_serial_quotient(a, lanes) for a in n.args):
            return n
        split = [_split(n.callee.args[i], a, lanes) for i, a in enumerate(n.args)]
        if any(p is None for p in split):
            return n
        body = tuple(p[0] for p in split if p is not None)
        key = (id(n.callee), tuple(ir.structural_key(b) for b in body))
        g = made.get(key)
        if g is None:
            name = _fresh(pipe, f"{pipe.name(n.callee)}_for_{pipe.name(f)}", made)
            g = made[key] = _dividing_func(name, n, body, d)
        return ir.Call(n.type, g, tuple(p[1] for p in split if p is not None))

    return replace(d, value=ir.transform(d.value, go))


def _dividing_func(name: str, c: ir.Call, body: tuple[ir.Expr, ...], d: Definition) -> Function:
    """name(u...) = callee(body), inline, located at the reading update (where its errors point)."""
    callee = c.callee
    assert isinstance(callee, Function)
    g = Function(name, d.loc)
    args = tuple(ir.Var(I32, v) for v in callee.args)
    g.definitions = [Definition(args, ir.Call(c.type, callee, body), None, d.loc, new_stage_schedule(args, None))]
    return g


def _serial_quotient(e: ir.Expr, lanes: set[str]) -> bool:
    """e divides (or takes modulo) by a constant a dividend moving with a reduction variable run serially, or
    unrolled past a divisor of 2 (taps at (x + 1) / 3: the quotient changes partway through each 3-long step of x,
    affine in no split, where by 2 (xi + 1) / 2 = xi happens to be; fuzz 151009)."""
    return any(_by_constant(n) and any(isinstance(v, ir.RVar) and (v.name not in lanes or _above_two(n))
                                       for v in ir.walk(n.a))
               for n in ir.walk(e))


def _above_two(n: ir.Expr) -> bool:
    assert isinstance(n, ir.BinOp) and isinstance(n.b, ir.Const)
    return isinstance(n.b.value, int) and n.b.value > 2


def _by_constant(n: ir.Expr) -> bool:
    return (isinstance(n, ir.BinOp) and n.op in ("div", "mod") and isinstance(n.b, ir.Const)
            and not n.b.type.is_float())


def _split(var: str, e: ir.Expr, lanes: set[str]) -> tuple[ir.Expr, ir.Expr] | None:
    """(the synthesised Func's index in its variable `var`, the reader's index into it) for the reader's index e:
    ((u / 2) + 1, x + r.x) for ((x + r.x) / 2) + 1, (u, e) where e needs no division; None where the variables
    are not all inside one quotient by a constant (a modulo: the synthesised Func could not strip-mine it)."""
    u = ir.Var(I32, var)
    if not _serial_quotient(e, lanes):
        return u, e
    total = _variables(e)
    q = next((n for n in ir.walk(e) if isinstance(n, ir.BinOp) and n.op == "div" and _by_constant(n)
              and n.a.type == I32 and _variables(n.a) == total
              and not any(_by_constant(m) for m in ir.walk(n.a))), None)
    if q is None:
        return None
    assert isinstance(q, ir.BinOp)
    return ir.transform(e, lambda n, kids: ir.BinOp(q.type, q.op, u, q.b) if n is q else ir.rebuild(n, kids)), q.a


def _variables(e: ir.Expr) -> int:
    """How many times e reads a variable (pure or reduction), counting shared subtrees each time they occur."""
    if isinstance(e, (ir.Var, ir.RVar)):
        return 1
    return sum(_variables(c) for c in ir.children(e))
