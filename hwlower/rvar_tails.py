"""A reduction variable split by a factor that does not divide its steps (Halide's guarded tail).

Halide runs `acc.update().split(r.x, rxo, rxi, 2)` over 3 steps as 2 x 2 iterations whose last one skips its
body (GuardWithIf, the default tail of an RVar; the predicated tails likewise). A hardware loop has a fixed
trip count, so the loops round up (loops.py records the RVars they run past, `StageLoops.guards`), and the
update becomes its own predicated form, as RDom.where's: each step past the domain stores the element's own
value (an accumulation adds its neutral value, so it stays a sum, a min or a max). The step's reads of other
Funcs carry the domain as a guard (edge_taps.Guarded): producers are never asked for what a skipped step
would have read, and the memory analysis constrains those reads to the steps that use them. An update that
writes at coordinates computed from its reads (a histogram in a RAM, `hist(bin(in(r.x, r.y))) += 1`) writes,
past the domain, the box's first element, whose value it keeps: the guarded reads there are unknown values, so
the address must not depend on them (the RAM's read-modify-write forwarding compares it with the next step's).
"""

from __future__ import annotations

import functools
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.define import predicated_value
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.types import BOOL, I32

from .edge_taps import Guarded
from .fold import map_calls


def guard_reduction_tail(f: Function, d: Definition, guards: tuple[tuple[str, int, int], ...],
                         skip: frozenset[int], box: tuple[tuple[int, int], ...]) -> Definition:
    """Update d of f with its RVars named in `guards` (name, first, last step) run past their last step; `skip`:
    the Funcs (ids) whose reads stay unguarded (tables folded to constants, RAMs read at computed coordinates);
    `box`: f's box, (first, last) element along each dimension."""
    assert d.rdom is not None and guards
    index = {name: i for i, (name, _, _) in enumerate(d.rdom.dims)}
    rvars = [ir.RVar(I32, name, d.rdom, index[name]) for name, _, _ in guards]
    bounds = tuple((lo, hi) for _, lo, hi in guards)

    def guarded(c: ir.Call) -> ir.Expr | None:
        g = c.callee
        if isinstance(g, Guarded):  # an edge tap in the reduction: both guards hold where it is read
            return ir.Call(c.type, Guarded(g.func, g.bounds + bounds), c.args + tuple(rvars))
        if not isinstance(g, Function) or g is f or id(g) in skip or _computed(c):
            return None
        return ir.Call(c.type, Guarded(g, bounds), c.args + tuple(rvars))

    cond = functools.reduce(lambda a, b: ir.BinOp(BOOL, "and", a, b),
                            [ir.BinOp(BOOL, "le", r, ir.i32(hi)) for r, (_, _, hi) in zip(rvars, guards)])
    memo: dict = {}
    # A coordinate computed from what the step reads (a histogram's bin, a RAM's read-modify-write) is the box's
    # first element past the domain: its reads there are guarded, so their values are unknown, and the step
    # writes that element's own value back (adds the neutral value), as Halide's skipped step leaves it.
    args = tuple(ir.Select(a.type, cond, map_calls(a, guarded, memo), ir.Const(a.type, low))
                 if any(isinstance(n, ir.Call) for n in ir.walk(a)) else a for a, (low, _) in zip(d.args, box))
    last = {name: hi for name, _, hi in guards}
    if any(isinstance(a, ir.RVar) and last.get(a.name) == hi for a, (_, hi) in zip(args, box)):
        # The step stores at a guarded RVar whose domain ends at the Func's box (a scan along r.x, unrolled): past
        # the domain it stores past the box, an element nothing reads, so it reads nothing there, its own buffer
        # included (the element's own value, as below, is not there to read).
        def everything(c: ir.Call) -> ir.Expr | None:
            return ir.Call(c.type, Guarded(f, bounds), c.args + tuple(rvars)) if c.callee is f else guarded(c)

        t = d.value.type
        skipped = ir.Select(t, cond, map_calls(d.value, everything, memo), ir.Const(t, 0))
        return replace(d, args=args, value=skipped)
    mine = tuple(ir.structural_key(a) for a in d.args)
    value = predicated_value(f, args, map_calls(d.value, lambda c: _own(c, f, mine, args) or guarded(c), memo), cond)
    return replace(d, args=args, value=value)


def _own(c: ir.Call, f: Function, mine: tuple, args: tuple[ir.Expr, ...]) -> ir.Expr | None:
    """The update's read of the element it writes (`mine`: its coordinates' keys), at its (guarded) coordinates.
    A read of another element (a scan's `f(r.x - 1, y)`) stays as written: it is not the element's own value."""
    if c.callee is not f or tuple(ir.structural_key(a) for a in c.args) != mine:
        return None
    return ir.Call(c.type, f, args)


def _computed(c: ir.Call) -> bool:
    return any(isinstance(n, ir.Call) for a in c.args for n in ir.walk(a))
