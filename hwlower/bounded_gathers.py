"""Pass `select_bounded_gathers`: a read whose coordinate moves with the loops by an offset loaded at run time that
takes few values (`in(clamp(x + (disp(x, y) >> 6) - 2, 0, w - 1), y)`: a displacement of -2 .. 1 columns) as a
choice between the reads at each value the offset takes.

Read as written, the coordinate is computed from a loaded value, so the Func is read from a RAM (scatter.py,
ram_copies.py) whose every element is written before any is read: the whole frame is held, and the reader waits
for it. The offset's values are few (its interval over the reader's box), so

    warp(x, y) = in(clamp(x + q - 2, 0, w - 1), y),    q = i32(disp(x, y) >> 6) in 0 .. 3

is, value for value, the same as

    warp(x, y) = select(q == 0, in(clamp(x - 2, 0, w - 1), y), select(q == 1, in(clamp(x - 1, 0, w - 1), y),
                 select(q == 2, in(clamp(x, 0, w - 1), y), in(clamp(x + 1, 0, w - 1), y))))

whose reads are taps a few words apart (a delay line, or line buffers for a displacement along y), and whose
condition the op computes from the loaded value. Served: an offset that is a whole operand of the coordinate's sums,
differences, mins and maxes (so that each value leaves the coordinate free of loads), whose values, over all such
offsets of the read, number at most MAX_BRANCHES (a read port each, as periodic_reads.py), in a coordinate that
still moves with the reader's pure variables (a table read at a loaded index alone, a lookup, stays a RAM). The
frontend's pipeline and its reference are unchanged: the pass returns a copy of the pipeline for the passes after
it."""

from __future__ import annotations

from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder
from mainspring.frontend.func import Definition, Function

from .periodic_reads import MAX_BRANCHES, select_reads_at_offsets
from .state import Lowering

_SPINE = ("add", "sub", "min", "max")  # operations through which an offset moves a coordinate by its value


def select_bounded_gathers(s: Lowering) -> Lowering:
    """Read each buffered Func's loaded offsets of few values as a select between the reads at those values."""
    return select_reads_at_offsets(s, _offsets, _values)


def _loads(n: ir.Expr) -> bool:
    """Whether n reads a value at run time (a Func or an image; a scalar Param is a constant of the run)."""
    return any(isinstance(m, ir.Call) and m.args for m in ir.walk(n))


def _offsets(f: Function, d: Definition, c: ir.Call) -> list[ir.Expr]:
    """The loaded offsets of c's coordinates, one a structure, when each is an operand of its coordinate's spine
    (sums, differences, mins and maxes) and the coordinate has no other load and moves with the pure variables of
    f's definition d; none otherwise."""
    pure = set(d.pure_vars()) & set(f.args)
    found: dict = {}
    for a in c.args:
        if not _loads(a):
            continue
        mine: list[ir.Expr] = []
        if not _spine_offsets(a, mine) or not _moves(a, mine, pure):
            return []
        for q in mine:
            found.setdefault(ir.structural_key(q), q)
    return list(found.values())


def _moves(a: ir.Expr, offsets: list[ir.Expr], pure: set[str]) -> bool:
    """Whether coordinate a, its offsets aside, moves with a pure variable."""
    keys = {ir.structural_key(q) for q in offsets}

    def drop(n: ir.Expr, kids: tuple) -> ir.Expr:
        return ir.Const(n.type, 0) if ir.structural_key(n) in keys else ir.rebuild(n, kids)

    return any(isinstance(v, ir.Var) and v.name in pure for v in ir.walk(ir.transform(a, drop)))


def _spine_offsets(n: ir.Expr, out: list[ir.Expr]) -> bool:
    """Collect n's loaded operands along its spine into `out`; False where a load sits anywhere else."""
    if not _loads(n):
        return True
    if isinstance(n, ir.BinOp) and n.op in _SPINE:
        return _spine_offsets(n.a, out) and _spine_offsets(n.b, out)
    if n.type.is_float() or n.type.is_bool():
        return False
    out.append(n)
    return True


def _values(q: ir.Expr, spans: dict[str, tuple[int, int]]) -> list[int]:
    """The values offset q may take over the reader's box `spans` (its interval; none past MAX_BRANCHES + 1)."""
    if any(isinstance(v, (ir.Var, ir.RVar)) and v.name not in spans for v in ir.walk(q)):
        return []  # (an offset that moves with a reduction's RVars: its interval is not the reader's)
    lo, hi = Bounder(spans, lambda _p: None)(q)
    if not isinstance(lo, int) or not isinstance(hi, int):
        return []
    return list(range(lo, min(hi, lo + MAX_BRANCHES) + 1))
