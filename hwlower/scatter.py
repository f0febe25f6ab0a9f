"""Pass `scatter_writes`: an update that writes at a computed coordinate (a histogram's `hist(bin(r)) += 1`)
becomes, at each step of its reduction, an update of every element of the Func's box, each element a lane
that changes only when the coordinate names it:

    hist(b) = select(bin(r) == b, hist(b) + 1, hist(b))      with b unrolled over hist's box

The reduction keeps its order and its rate (one step per cycle), so the result is Halide's bit for bit, and each
lane accumulates in its own register: consecutive steps to one element need no read-modify-write forwarding.
The price is a compare and an update per element, so boxes are limited to MAX_ELEMENTS elements; a larger
table would need a RAM with data-dependent addresses (not built yet)."""

from __future__ import annotations

import functools
import math
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.errors import HalideError
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.schedule import Dim, ForType, StageSchedule
from mainspring.frontend.types import BOOL, I32

from .fold import map_calls
from .state import Lowering

MAX_ELEMENTS = 64


def scatter_writes(s: Lowering) -> Lowering:
    defs = dict(s.definitions)
    for f in s.found_region.buffered:
        ds = s.defs(f)
        if any(_computed(d) for d in ds[1:]):
            box = s.tile.boxes[s.pipe.name(f)]
            defs[id(f)] = [ds[0]] + [_spread(f, d, k, box) if _computed(d) else d for k, d in enumerate(ds[1:], 1)]
    return replace(s, definitions=defs)


def _computed(d: Definition) -> bool:
    """Whether the update stores at a coordinate computed from loaded values."""
    return any(isinstance(n, ir.Call) for a in d.args for n in ir.walk(a))


def _spread(f: Function, d: Definition, k: int, box: list[tuple[int, int]]) -> Definition:
    who = f"{d.loc}: Func '{f.name}'.update({k - 1})"
    size = math.prod(hi - lo + 1 for lo, hi in box)
    shown = ", ".join(ir.to_string(a) for a in d.args)
    if size > MAX_ELEMENTS:
        raise HalideError(
            f"{who} writes '{f.name}' at the computed coordinate ({shown}); inside the accelerator such a write "
            f"updates every element of '{f.name}' in each step (a compare and an update per element), and its box "
            f"has {size} elements, more than {MAX_ELEMENTS}. Bound '{f.name}' smaller (clamp the coordinate and "
            f"{f.name}.bound(...)), or compute '{f.name}' on the host."
        )
    args, conds, added = [], [], []
    for a, name in zip(d.args, f.args):
        v = ir.Var(I32, name)
        if isinstance(a, ir.Var) and a.name == name:
            args.append(a)
            continue
        if any(isinstance(n, ir.Var) and n.name == name for e in d.args + (d.value,) for n in ir.walk(e)):
            raise HalideError(
                f"{who} writes '{f.name}' at ({shown}) and also uses its pure variable {name} elsewhere; write the "
                "computed coordinate in a position of its own"
            )
        args.append(v)
        conds.append(ir.BinOp(BOOL, "eq", a, v))
        added.append(name)
    own = ir.Call(f.type, f, tuple(args))
    keys = [ir.structural_key(a) for a in d.args]

    def read(c: ir.Call) -> ir.Expr | None:
        if c.callee is not f:
            return None
        if [ir.structural_key(a) for a in c.args] != keys:
            raise HalideError(
                f"{who} writes '{f.name}' at ({shown}) but reads it at "
                f"({', '.join(ir.to_string(a) for a in c.args)}); inside the accelerator an update at a computed "
                "coordinate may read only the element it writes"
            )
        return own

    value = map_calls(d.value, read, {})
    cond = functools.reduce(lambda p, q: ir.BinOp(BOOL, "and", p, q), conds)
    schedule = StageSchedule([Dim(n, False) for n in added] + list(d.schedule.dims),
                             list(d.schedule.directives) + [ForType("unroll", n, d.loc) for n in added])
    return Definition(tuple(args), ir.Select(f.type, cond, value, own), d.rdom, d.loc, schedule)
