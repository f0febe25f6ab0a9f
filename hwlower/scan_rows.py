"""Row lanes of a scan along x (`s.unroll(x, 2).unroll(y, 2)` with `s.update().unroll(r.x, 2).unroll(y, 2)`): each
row's scan reads only its own row, so the rows are independent chains, side by side. The update's unrolled loops
then run innermost as the pure definition's do (row_lanes.py: a firing makes k rows' values), and its lanes chain
along x only: the lanes of one row read the one before them in the same cycle (docs/lanes.md), the rows do not read
each other."""

from __future__ import annotations

import math
from collections.abc import Sequence

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function

from .loops import StageLoops, lanes_innermost


def scan_rows(f: Function, defs: list[Definition]) -> bool:
    """Whether every update of f stores at f's pure y (its second argument) and reads f only at that row."""
    if len(f.args) < 2 or len(defs) < 2:
        return False
    y = f.args[1]
    for d in defs[1:]:
        if not isinstance(d.args[1], ir.Var) or d.args[1].name != y:
            return False
        for n in ir.walk(d.value):
            if isinstance(n, ir.Call) and n.callee is f and not (isinstance(n.args[1], ir.Var) and n.args[1].name == y):
                return False
    return True


def row_update_loops(s: StageLoops) -> StageLoops:
    """An update's loops with its unrolled ones innermost (the rows' lanes with the chain's)."""
    return lanes_innermost(s) or s


def chained_lanes(s: StageLoops, args: Sequence[str], rows: bool) -> int:
    """The lanes of an update (of a Func of pure Vars `args`) that chain: all its lanes, or with row lanes kept,
    those not along y (the second)."""
    along = dict(s.var_exprs[args[1]].terms) if rows and args[1:] and args[1] in s.var_exprs else {}
    return math.prod(lp.extent for lp in s.loops if lp.unrolled and lp.dim not in along)
