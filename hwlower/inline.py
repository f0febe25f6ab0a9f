"""Pass `inline_funcs`: each buffered Func's definitions with the Funcs scheduled inline substituted."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.pipeline import Pipeline

from .fold import fold_update, map_calls
from .region import Region
from .state import Lowering


def inline_funcs(s: Lowering) -> Lowering:
    return replace(s, definitions=inlined_definitions(s.pipe, s.found_region))


def inlined_definitions(pipe: Pipeline, region: Region) -> dict[int, list[Definition]]:
    """id(Function) -> its definitions with the region's inline Funcs inlined, for each Func the region buffers
    (also what steps.py's `box_multiples` and `phase_periods` read: bounds.py computes it once for both)."""
    inlined = {id(f) for f in region.inlined}
    bodies: dict = {}
    return {id(f): [inline_definition(pipe, d, inlined, bodies) for d in pipe.definitions(f)]
            for f in region.buffered}


def format_definitions(s: Lowering) -> str:
    lines = []
    for f in s.found_region.buffered:
        for k, d in enumerate(s.defs(f)):
            args = ", ".join(ir.to_string(a) for a in d.args)
            stage = "" if k == 0 else f"  // update {k - 1}" + (f" over {d.rdom.name}" if d.rdom is not None else "")
            lines.append(f"{s.pipe.name(f)}({args}) = {ir.to_string(d.value)}{stage}")
    return "\n".join(lines) + "\n"


def inline_definition(pipe: Pipeline, d: Definition, inlined: set[int], bodies: dict | None = None) -> Definition:
    """d with the calls to the Funcs in `inlined` (ids) replaced by their values. `bodies` (id(Func) -> its value
    with its own inline calls inlined) may be shared by the definitions of one pipeline: a Func read at many
    places (a stencil's taps) is then inlined once, and each read substitutes its coordinates."""
    memo: dict = {}
    bodies = {} if bodies is None else bodies
    args = tuple(_inline(pipe, a, inlined, memo, bodies) for a in d.args)
    return Definition(args, _inline(pipe, d.value, inlined, memo, bodies), d.rdom, d.loc, d.schedule)


def _inline(pipe: Pipeline, e: ir.Expr, inlined: set[int], memo: dict, bodies: dict) -> ir.Expr:
    def replace(node: ir.Call) -> ir.Expr | None:
        g = node.callee
        if not isinstance(g, Function) or id(g) not in inlined:
            return None
        # node's args are rebuilt already (map_calls works bottom-up), so they hold no inline calls
        return ir.substitute(inline_body(pipe, g, inlined, bodies), dict(zip(g.args, node.args)))

    return map_calls(e, replace, memo)


def inline_body(pipe: Pipeline, g: Function, inlined: set[int], bodies: dict) -> ir.Expr:
    """g's value over its own Vars, its updates folded in and its inline calls inlined (cached in bodies)."""
    if id(g) not in bodies:
        gdefs = pipe.definitions(g)
        value = gdefs[0].value
        for d in gdefs[1:]:  # an inline reduction (sum(), maximum(), ...): its whole RDom in one expression
            folded = fold_update(g, d, value, force=True)
            # region.py buffers a Func whose updates do not fold, so an inlined one always folds
            assert folded is not None, f"Func '{g.name}' is inlined but its update does not fold"
            value = folded
        bodies[id(g)] = _inline(pipe, value, inlined, {}, bodies)
    return bodies[id(g)]
