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
from .update_lanes import _note, _serial


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


def row_update_loops(f: Function, d: Definition, k: int, s: StageLoops, rows: bool,
                     notes: list[str] | None) -> StageLoops:
    """Update k's loops (`s`, of definition d): with f's row lanes kept, its unrolled ones innermost (the rows'
    lanes with the chain's); else its lanes along part of y besides others (a chain's along x) run serially, with a
    note, as the pure definition's do (update_lanes.serial_split_lanes): the chain along x keeps its lanes."""
    if rows:
        return lanes_innermost(s) or s
    along = dict(s.var_exprs[f.args[1]].terms) if f.args[1:] and f.args[1] in s.var_exprs else {}
    lanes = [lp for lp in s.loops if lp.unrolled and lp.extent > 1]
    ys = [lp for lp in lanes if lp.dim in along]
    if not ys or len(ys) == len(lanes) or not _reads_other_elements(f, d):
        return s  # (an accumulation reads only its own element: its lanes are independent)
    y = f.args[1]
    why = (f"lanes along part of {y} (a split) would each hold one value of {y} in {ys[0].extent}, which the "
           f"scan's pure definition makes one value of {y} a firing; a scan's rows are lanes where its input streams "
           f"them (unroll({y}, {ys[0].extent}) of the input, the pure definition and the readers alike, docs/lanes.md)")
    if notes is not None:
        notes.extend(_note(f, d, k, lp, why) for lp in ys)
    return _serial(s, {lp.dim for lp in ys})


def chained_lanes(s: StageLoops, args: Sequence[str], rows: bool) -> int:
    """The lanes of an update (of a Func of pure Vars `args`) that chain: all its lanes, or with row lanes kept,
    those not along y (the second)."""
    along = dict(s.var_exprs[args[1]].terms) if rows and args[1:] and args[1] in s.var_exprs else {}
    return math.prod(lp.extent for lp in s.loops if lp.unrolled and lp.dim not in along)


def _reads_other_elements(f: Function, d: Definition) -> bool:
    """Whether update d of f reads f at another element than the one it writes (a scan's chain)."""
    at = [ir.structural_key(a) for a in d.args]
    return any(isinstance(n, ir.Call) and n.callee is f and [ir.structural_key(a) for a in n.args] != at
               for n in ir.walk(d.value))
