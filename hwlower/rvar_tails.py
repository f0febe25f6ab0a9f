"""A reduction variable split by a factor that does not divide its steps (Halide's guarded tail).

Halide runs `acc.update().split(r.x, rxo, rxi, 2)` over 3 steps as 2 x 2 iterations whose last one skips its
body (GuardWithIf, the default tail of an RVar; the predicated tails likewise). A hardware loop has a fixed
trip count, so the loops round up (loops.py records the RVars they run past, `StageLoops.guards`), and the
update becomes its own predicated form, as RDom.where's: each step past the domain stores the element's own
value (an accumulation adds its neutral value, so it stays a sum, a min or a max). The step's reads of other
Funcs carry the domain as a guard (edge_taps.Guarded): producers are never asked for what a skipped step
would have read, and the memory analysis constrains those reads to the steps that use them.
"""

from __future__ import annotations

import functools

from mainspring.frontend import ir
from mainspring.frontend.define import predicated_value
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.schedule import ForType, Split
from mainspring.frontend.types import BOOL, I32

from .edge_taps import Guarded
from .fold import map_calls


def guard_reduction_tail(f: Function, d: Definition, guards: tuple[tuple[str, int, int], ...],
                         skip: frozenset[int]) -> ir.Expr:
    """The value of update d of f whose RVars named in `guards` (name, first, last step) run past their last
    step; `skip`: the Funcs (ids) whose reads stay unguarded (tables folded to constants, RAMs read at computed
    coordinates)."""
    assert d.rdom is not None and guards
    _refuse_computed_coordinates(f, d, guards)
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
    return predicated_value(f, d.args, map_calls(d.value, guarded, {}), cond)


def _computed(c: ir.Call) -> bool:
    return any(isinstance(n, ir.Call) for a in c.args for n in ir.walk(a))


def _refuse_computed_coordinates(f: Function, d: Definition, guards: tuple[tuple[str, int, int], ...]) -> None:
    """A step past the domain would still write where its own reads point (a histogram's bin): refuse it."""
    if not any(isinstance(n, ir.Call) for a in d.args for n in ir.walk(a)):
        return
    stage = f"{f.name}.update({f.definitions.index(d) - 1})" if d in f.definitions else f"{f.name}.update(0)"
    for name, lo, hi in guards:
        split = next((sp for sp in d.schedule.directives if isinstance(sp, Split) and sp.old == name), None)
        if split is None:
            continue
        shown, steps = name.replace("$", "."), hi - lo + 1
        unrolled = any(isinstance(dv, ForType) and dv.var == split.inner and not dv.made  # the user's schedule
                       for u in f.definitions[1:] for dv in u.schedule.directives)
        call = (f"{stage}.unroll({shown}, {split.factor})" if unrolled else
                f"{stage}.split({shown}, {split.outer.replace('$', '.')}, {split.inner.replace('$', '.')}, "
                f"{split.factor})")
        divisor = max(q for q in range(1, split.factor + 1) if steps % q == 0)
        raise ScheduleError(
            f"{split.loc}: Func '{f.name}': {call}: {split.factor} does not divide the {steps} steps of {shown}, and "
            f"the update writes at coordinates it computes from what it reads "
            f"({', '.join(ir.to_string(a) for a in d.args)}), so a step past the domain cannot be skipped: use a "
            f"factor that divides {steps} (e.g. {divisor if divisor > 1 else steps}), or keep {shown} serial")
