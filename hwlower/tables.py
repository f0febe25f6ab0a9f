"""Pass `evaluate_tables`: each constant table (a Func reading no input or Param) as the reference computes it.

A table read at constant coordinates folds to the constant it reads; read at loop or computed coordinates it
becomes a ROM (`ir.Rom`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from mainspring.frontend import ir
from mainspring.frontend.errors import HalideError
from mainspring.frontend.evaluate import realize_arrays
from mainspring.frontend.func import Func
from mainspring.frontend.pipeline import Pipeline

from .affine import int_value
from .ir import Rom
from .simplify import simplify
from .state import Lowering

if TYPE_CHECKING:
    from mainspring.frontend.evaluate import Store  # a realised Func: its values and box mins


def evaluate_tables(s: Lowering) -> Lowering:
    out: dict[int, Table] = {}
    for t in s.found_region.tables:
        sub = Pipeline(t.handle if t.handle is not None else Func(t))
        out[id(t)] = Table(s.pipe.name(t), realize_arrays(sub, s.boxes[s.pipe.name(t)])[id(t)])
    return replace(s, tables=out)


def format_tables(s: Lowering) -> str:
    lines = [f"{t.name}: {t.store.arr.size} values over {list(zip(t.store.mins, t.store.arr.shape))} (min, extent)"
             for t in s.tables.values()]
    return "\n".join(lines or ["(no constant tables)"]) + "\n"


_MAX_ROM_WORDS = 1 << 16  # a table read at computed coordinates is a ROM of at most this many words


class Table:
    """A constant table as the reference computed it; its ROM is built once, at its first varying read."""

    def __init__(self, name: str, store: Store):
        self.name, self.store = name, store
        self._rom: Rom | None = None

    def rom(self) -> Rom:
        if self._rom is None:
            box = tuple((m, n) for m, n in zip(self.store.mins, self.store.arr.shape))
            values = tuple(int(v) for v in np.asarray(self.store.arr).transpose().ravel())
            self._rom = Rom(self.name, values, box)
        return self._rom


def table_constant(c: ir.Call, tables: dict[int, Table], who: str, pipe: Pipeline) -> ir.Expr | None:
    """A read of a constant table at constant coordinates, as the constant it reads."""
    table = tables.get(id(c.callee))
    if table is None:
        return None
    store = table.store
    args = [simplify(a) for a in c.args]
    consts = [a for a in args if isinstance(a, ir.Const)]
    if len(consts) < len(args):
        uniform = _uniform(store, args)
        if uniform is not None:  # every value it can read is the same: no ROM (mobile's weights of 1 and 3)
            return ir.Const(c.type, uniform)
        if not c.type.is_float() and store.arr.size <= _MAX_ROM_WORDS:
            # Read at loop or computed coordinates: a ROM holding the table as the reference computed it.
            return ir.Call(c.type, table.rom(), tuple(args))
        shown = ", ".join(ir.to_string(a) for a in args)
        raise HalideError(
            f"{who} reads '{pipe.name(c.callee)}' (a constant Func, known at compile time) at ({shown}), which is "
            f"not a fixed coordinate, and its table of {store.arr.size} {c.type} values cannot be a ROM (at most "
            f"{_MAX_ROM_WORDS} integer words); bound the coordinates it is read at (clamp them), or read it at "
            "constant coordinates (unroll the loops that index it)"
        )
    idx = tuple(int_value(a) - m for a, m in zip(consts, store.mins))
    return ir.Const(c.type, int(store.arr[idx]))


def _uniform(store: Store, args: list[ir.Expr]) -> int | float | None:
    """The one value of the table's slice at the constant coordinates among `args` (its other coordinates over
    the whole box, which bounds inference made cover every read), or None when the slice holds two values."""
    idx = tuple(int_value(a) - m if isinstance(a, ir.Const) else slice(None) for a, m in zip(args, store.mins))
    part = np.asarray(store.arr[idx])
    if part.size == 0 or not (part == part.flat[0]).all():
        return None
    return part.flat[0].item()
