"""The output's bounds for the hardware, where a dimension of the output has no bound of its own but the output
reads, at that very variable, a Func that has one: `output[x, y] = u8(hw_output[x, y])` with
`hw_output.bound(x, 0, W)` (seed 002's accelerated copy bounded instead of the host's output). Halide takes the
output's size from realize([W, H]) and its bounds inference then requires that region of hw_output, which the
bound must cover; the accelerator's streams are fixed at compile time, so the compile takes the size realize
needs to fill the bound: the bound itself. A read at an offset (`hw_output[x + 1, y]`) or two reads whose bounds
differ leave the output's size open, and the output must be bounded (hwlower/bounds.py refuses)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import ir
from .errors import SourceLoc
from .func import Function

if TYPE_CHECKING:
    from .pipeline import Pipeline

Bound = tuple[int | None, int, SourceLoc]


def output_bounds(pipe: Pipeline) -> dict[str, Bound]:
    """The output's own bounds, and for each dimension it leaves unbounded, the bound of the Func it reads there
    (`bound_from_reads`) where that is one bound."""
    out = pipe.output
    bounds = dict(out.placement.bounds)
    for i, name in enumerate(out.args):
        if name not in bounds:
            found = bound_from_reads(pipe, i)
            if len(found) == 1:
                bounds[name] = next(iter(found.values()))[2]
    return bounds


def bound_from_reads(pipe: Pipeline, dim: int, output: Function | None = None
                     ) -> dict[tuple[int, int], tuple[str, str, Bound]]:
    """(min, extent) -> (Func, its variable, its bound) of the Funcs the output (or `output`, one of several)
    reads at its variable `dim`, through unbounded Funcs read there too (`output[x] = g[x]`, `g[x] = hw_output[x]`):
    reads in a reader's pure definition at the reader's own variable, which make the reader's region that of the
    Func read."""
    found: dict[tuple[int, int], tuple[str, str, Bound]] = {}
    seen: set[tuple[int, int]] = set()
    todo = [(pipe.output if output is None else output, dim)]
    while todo:
        fn, i = todo.pop()
        if (id(fn), i) in seen or not pipe.definitions(fn):
            continue
        seen.add((id(fn), i))
        for node in ir.walk(pipe.definitions(fn)[0].value):
            if not (isinstance(node, ir.Call) and isinstance(node.callee, Function)):
                continue
            g = node.callee
            for j, a in enumerate(node.args):
                if not (isinstance(a, ir.Var) and a.name == fn.args[i] and j < len(g.args)):
                    continue
                b = g.placement.bounds.get(g.args[j])
                if b is None:
                    todo.append((g, j))
                elif b[0] is not None:
                    found.setdefault((b[0], b[1]), (g.name, g.args[j], b))
    return found
