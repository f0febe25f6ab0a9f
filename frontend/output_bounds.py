"""The output's bounds for the hardware, where a dimension of the output has no bound of its own but the output
reads, at that variable (or at it plus a constant), Funcs that have one: `output[x, y] = u8(hw_output[x, y])` with
`hw_output.bound(x, 0, W)` (seed 002's accelerated copy bounded instead of the host's output). Halide takes the
output's size from realize([W, H]) and its bounds inference then requires that region of each Func read, which
its bound must cover; the accelerator's streams are fixed at compile time, so the compile takes the largest region
every such read stays inside: a read at x + c of a bound [m, m + W) allows [m - c, m - c + W), and several reads
allow what all of them do (`hw_output[x, y] + hw_output[x + 1, y]`, or two Funcs bounded differently: Halide
realizes any region inside all of them). No such region (bounds that do not overlap) leaves the output's size
open, and the output must be bounded (hwlower/bounds.py refuses)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import ir
from .errors import SourceLoc
from .func import Function

if TYPE_CHECKING:
    from .pipeline import Pipeline

Bound = tuple[int | None, int, SourceLoc]


def output_bounds(pipe: Pipeline) -> dict[str, Bound]:
    """The output's own bounds, and for each dimension it leaves unbounded, the region the bounds of the Funcs it
    reads there allow (`derived_bound`), where they allow one."""
    out = pipe.output
    bounds = dict(out.placement.bounds)
    for i, name in enumerate(out.args):
        if name not in bounds:
            b = derived_bound(pipe, i)
            if b is not None:
                bounds[name] = b
    return bounds


def derived_bound(pipe: Pipeline, dim: int, output: Function | None = None) -> Bound | None:
    """The largest region of the output's (or `output`'s) dimension `dim` inside which every read `bound_from_reads`
    finds stays inside its Func's bound; None if there is no read of a bounded Func there, or no such region."""
    found = bound_from_reads(pipe, dim, output)
    if not found:
        return None
    lo = max(m for m, _ in found)
    hi = min(m + e for m, e in found)
    if hi <= lo:
        return None
    return (lo, hi - lo, next(iter(found.values()))[2][2])


def bound_from_reads(pipe: Pipeline, dim: int, output: Function | None = None
                     ) -> dict[tuple[int, int], tuple[str, str, Bound]]:
    """(min, extent) of the output's region each read allows -> (Func, its variable, its bound), for the bounded
    Funcs the output (or `output`, one of several) reads at its variable `dim` plus a constant, through unbounded
    Funcs read so too (`output[x] = g[x + 1]`, `g[x] = hw_output[x]`): reads in a reader's pure definition, which
    make the reader's region that of the Func read, shifted."""
    found: dict[tuple[int, int], tuple[str, str, Bound]] = {}
    seen: set[tuple[int, int, int]] = set()
    todo = [(pipe.output if output is None else output, dim, 0)]
    while todo:
        fn, i, shift = todo.pop()  # fn's dimension i is the output's dimension `dim` plus `shift`
        if (id(fn), i, shift) in seen or not pipe.definitions(fn):
            continue
        seen.add((id(fn), i, shift))
        for node in ir.walk(pipe.definitions(fn)[0].value):
            if not (isinstance(node, ir.Call) and isinstance(node.callee, Function)):
                continue
            g = node.callee
            for j, a in enumerate(node.args):
                c = _offset(a, fn.args[i])
                if c is None or j >= len(g.args):
                    continue
                b = g.placement.bounds.get(g.args[j])
                if b is None:
                    todo.append((g, j, shift + c))
                elif b[0] is not None:
                    found.setdefault((b[0] - shift - c, b[1]), (g.name, g.args[j], b))
    return found


def _offset(a: ir.Expr, var: str) -> int | None:
    """c where `a` is the variable `var` plus the constant c (var, var + c, c + var, var - c); else None."""
    if isinstance(a, ir.Var):
        return 0 if a.name == var else None
    if not (isinstance(a, ir.BinOp) and a.op in ("add", "sub")):
        return None
    if isinstance(a.a, ir.Var) and a.a.name == var and isinstance(a.b, ir.Const) and isinstance(a.b.value, int):
        return a.b.value if a.op == "add" else -a.b.value
    if a.op == "add" and isinstance(a.b, ir.Var) and a.b.name == var and isinstance(a.a, ir.Const) \
            and isinstance(a.a.value, int):
        return a.a.value
    return None
