"""Coordinates read as values: a counter per coordinate an op reads (`hwlower.ir.CoordPort`) and lane.

A coordinate is an affine function of the op's loops, so it is the address of an affine controller that fires
with the op: in each firing cycle the controller's address plus `offset` is the coordinate's value. The
controller's words span exactly the values taken, so its address never wraps. Under host tiles a pure coordinate
adds its tile's offset (`CoordGen.tile_offsets`, hwlower/tile_coordinates.py).
"""

from __future__ import annotations

from mainspring.hwlower.lane_constants import lane_value

from .ir import Controller, CoordGen, OpSchedule
from .polyhedral import Program


def coordinate_generators(prog: Program, ops: dict[str, OpSchedule]) -> tuple[CoordGen, ...]:
    out = []
    for s in prog.stmts:
        if s.op is None or not s.op.coords:
            continue
        o = ops[s.name]
        for lane in s.lanes():
            at = {d.var: v for d, v in zip(s.lane_dims, lane)}
            for c in s.op.coords:
                coef = dict(c.value.terms)
                base = c.value.const + sum(coef.get(v, 0) * x for v, x in at.items())
                base += sum(coef.get(d.var, 0) * d.min for d in o.dims)
                steps = [coef.get(d.var, 0) for d in o.dims]
                lo = base + sum(min(0, k * (d.extent - 1)) for k, d in zip(steps, o.dims))
                hi = base + sum(max(0, k * (d.extent - 1)) for k, d in zip(steps, o.dims))
                when = o.controller
                ctrl = Controller(when.extent, when.cycle_starting_addr, when.cycle_stride, base - lo,
                                  tuple(reversed(steps)) or (0,), when.then)
                if c.fn is not None:  # a constant of the lane (hwlower/lane_constants.py)
                    assert lo == hi, f"{s.name}: {c.name} moves with a loop that is not unrolled"
                    lo = lane_value(c, lo)
                out.append(CoordGen(s.name, c.name, lane, ctrl, hi - lo + 1 if c.fn is None else 1, lo,
                                    c.tile_offsets))
    return tuple(out)
