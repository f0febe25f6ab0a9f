"""An index clamped with min or max as one affine function of the op's loops, where it is one: decided at each
iteration of the loops the clamps move with, the clamped index lies on a line.

rfactor of a split RVar whose factor does not divide the RVar's extent clamps the last part's taps at the
RVar's last point (frontend/rfactor.py, as Halide guards an RVar's split, the value past the extent discarded by
a select): `x + min(2 * u + 1, 2)` over the intermediate's lanes u = 0, 1 reads x + 1 and x + 2, i.e.
x + u + 1, an address the memories can serve. Over u = 0, 1, 2 (`min(2 * u + 1, 4)`: x + 1, x + 3, x + 4) it
is no line, and the index stays refused.
"""

from __future__ import annotations

import itertools
import math

from mainspring.frontend import ir

from .affine import affine_of
from .ir import Affine

# Iterations past this many are not tried one by one (the clamped index is refused as before).
_MOST_POINTS = 256


def affine_of_clamped(e: ir.Expr, env: dict[str, Affine], ranges: dict[str, int]) -> Affine | None:
    """e (its Vars and RVars affine in the loops by `env`; `ranges`: loop -> extent, loops from 0) as one affine
    function of the loops when its clamps, decided at each iteration of the loops they move with, leave an
    index that is affine at each and whose values there lie on a line; else None."""
    clamps = [n for n in ir.walk(e) if isinstance(n, ir.BinOp) and n.op in ("min", "max")]
    loops = sorted({d for c in clamps for n in ir.walk(c) if isinstance(n, (ir.Var, ir.RVar)) and n.name in env
                    for d, _ in env[n.name].terms})
    if not clamps or not loops or any(lp not in ranges for lp in loops) \
            or math.prod(ranges[lp] for lp in loops) > _MOST_POINTS:
        return None
    at_point: dict[tuple[int, ...], Affine] = {}
    for point in itertools.product(*(range(ranges[lp]) for lp in loops)):
        at = dict(zip(loops, point))
        fixed = {v: Affine.make({d: c for d, c in a.terms if d not in at},
                                a.const + sum(c * at[d] for d, c in a.terms if d in at)) for v, a in env.items()}
        a = affine_of(_clamps_decided(e, fixed, ranges), fixed, ranges)
        if a is None or (at_point and a.terms != next(iter(at_point.values())).terms):
            return None
        at_point[point] = a
    origin = at_point[(0,) * len(loops)]
    slope = {lp: at_point[tuple(int(j == i) for j in range(len(loops)))].const - origin.const
             if ranges[lp] > 1 else 0 for i, lp in enumerate(loops)}
    if any(a.const != origin.const + sum(slope[lp] * i for lp, i in zip(loops, p)) for p, a in at_point.items()):
        return None
    return Affine.make(dict(origin.terms) | slope, origin.const)


def _clamps_decided(e: ir.Expr, env: dict[str, Affine], ranges: dict[str, int]) -> ir.Expr:
    """e with each min or max whose sides differ by a constant (at one iteration) replaced by the side it takes."""

    def visit(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if isinstance(n, ir.BinOp) and n.op in ("min", "max"):
            a, b = affine_of(n.a, env, ranges), affine_of(n.b, env, ranges)
            if a is not None and b is not None and a.terms == b.terms:
                return n.a if (a.const <= b.const) == (n.op == "min") else n.b
        return n

    return ir.transform(e, visit, {})
