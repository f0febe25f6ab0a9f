"""Boundary conditions on Funcs computed inside the accelerator: a read at a clamped or reflected index becomes a
choice among affine taps, by coordinate.

`repeat_edge(blur)(x - 1, y)` reads `blur(clamp(x - 1, 0, W - 1), y)`. Over the coordinates the consumer
visits, the clamped index is x - 1 + k with an offset k that is constant on runs of x (k = 1 at x = 0, 0
elsewhere). Each run reads one affine tap, `blur(x - 1 + k, y)`, and the consumer selects the run's tap by its
coordinate (`select(x - 1 <= -1, blur(x, y), blur(x - 1, y))`), as a line buffer with edge multiplexers does.
A tap is needed only on its run: elsewhere it may fall outside the Func's box (`blur(-1, y)` at x = 0), where no
value is ever written, so its load carries the run as a guard (`Guarded`): the memory analysis constrains the
read to it (the value read elsewhere is never used), and every guarded value is proved like any other.

The coordinates are absolute, so the accelerator must run as one invocation (no host tiles, no GLB level).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder, Box, definition_env
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.evaluate import Evaluator
from mainspring.frontend.func import Definition, Function, user_handle
from mainspring.frontend.types import BOOL, Type

from .fold import map_calls
from .simplify import simplify

Run = tuple[int, int, int]  # (first, last, offset): over a in [first, last], the index is a + offset


@dataclass(frozen=True, eq=False)
class Guarded:
    """The callee of a tap: Func `func`, whose value the reader uses only where lo <= e <= hi for each of
    `bounds`, e the call's argument past the Func's own (an affine expression of the reader's variables, in the
    arguments so that passes substituting variables, such as unrolled reductions, substitute it too)."""

    func: Function
    bounds: tuple[tuple[int, int], ...]


def tap_inner_reads(f: Function, k: int, d: Definition, box: Box, inside: frozenset[int], single: bool,
                    split_index: Callable[[ir.Expr], tuple[ir.Expr, ir.Expr | None] | None],
                    evaluator: Evaluator) -> Definition:
    """d (stage k of f, over `box`) with each read of a Func computed `inside` at index functions f(a) made a
    selection of guarded affine taps. `split_index(e)` gives (a, f of edge.v) or None, as `edges` splits an
    index; `single`: the accelerator runs as one invocation."""
    env = definition_env(box, d, lambda p: None)

    def visit(c: ir.Call) -> ir.Expr | None:
        g = c.callee
        if not isinstance(g, Function) or id(g) not in inside or g is f:
            return None
        args = [simplify(a) for a in c.args]
        found = [split_index(a) for a in args]
        split = [p for p in found if p is not None]
        if len(split) < len(found) or all(m is None for _, m in split):
            return None
        shown = ", ".join(ir.to_string(a) for a in args)
        if not single:
            raise ScheduleError(
                f"{d.loc}: Func '{f.name}' reads '{g.name}' at ({shown}), a boundary condition on a Func computed "
                "inside the accelerator: its edges are chosen by absolute coordinates, which every host tile or "
                "memory tile of a GLB level would share; accelerate the output as one tile, or compute "
                f"'{g.name}' on the host and stream it in ({user_handle(g)}.compute_root().stream_to_accelerator())"
            )
        bnd = Bounder(env, lambda p: None)
        runs = [None if m is None else _runs(bnd(a), m, evaluator) for a, m in split]
        return _select(c.type, g, [a for a, _ in split], runs, ())

    # a RAM update's coordinates (its args) read Funcs too
    memo: dict = {}
    return Definition(tuple(map_calls(a, visit, memo) for a in d.args), map_calls(d.value, visit, memo), d.rdom,
                      d.loc, d.schedule)


def _runs(reach: tuple[int, int], m: ir.Expr, evaluator: Evaluator) -> list[Run]:
    """The runs of constant offset m(v) - v over v in `reach`."""
    lo, hi = reach
    vs = np.arange(lo, hi + 1, dtype=np.int64)
    src = np.broadcast_to(np.asarray(evaluator.eval(m, {"edge.v": vs}, {}), dtype=np.int64), vs.shape)
    offsets = (src - vs).tolist()
    runs: list[Run] = []
    for v, k in zip(vs.tolist(), offsets):
        if runs and runs[-1][2] == k:
            runs[-1] = (runs[-1][0], v, k)
        else:
            runs.append((v, v, k))
    return runs


def _select(t: Type, g: Function, index: list[ir.Expr], runs: list[list[Run] | None],
            guards: tuple[tuple[ir.Expr, int, int], ...]) -> ir.Expr:
    """The taps of dimensions from the first with runs on, each chosen by its coordinate."""
    j = next((j for j, r in enumerate(runs) if r), None)
    mine = runs[j] if j is not None else None
    if j is None or mine is None:
        bounds = tuple((lo, hi) for _, lo, hi in guards)
        return ir.Call(t, Guarded(g, bounds), tuple(index) + tuple(e for e, _, _ in guards))
    rest = runs[:j] + [None] + runs[j + 1:]
    a = index[j]
    out: ir.Expr | None = None
    for first, last, k in reversed(mine):
        moved = index[:j] + [simplify(ir.BinOp(a.type, "add", a, ir.Const(a.type, k))) if k else a] + index[j + 1:]
        guard = guards + (((a, first, last),) if len(mine) > 1 else ())
        tap = _select(t, g, moved, rest, guard)
        out = tap if out is None else ir.Select(t, ir.BinOp(BOOL, "le", a, ir.Const(a.type, last)), tap, out)
    assert out is not None
    return out
