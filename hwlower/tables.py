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
from .buffer_tables import buffer_source
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
        _refuse_rom(c, args, store, who, pipe)
    idx = tuple(int_value(a) - m for a, m in zip(consts, store.mins))
    return ir.Const(c.type, int(store.arr[idx]))


def _refuse_rom(c: ir.Call, args: list[ir.Expr], store: Store, who: str, pipe: Pipeline) -> None:
    shown = ", ".join(ir.user_text(a) for a in args)
    buffer = buffer_source(c.callee)
    what = f"the hl.Buffer {buffer.name} (constant data)" if buffer is not None else \
        f"'{pipe.name(c.callee)}' (a constant Func, known at compile time)"
    fix = ("bound the coordinates it is read at (clamp them), or read it at constant coordinates (unroll the loops "
           "that index it)")
    if c.type.is_float():  # no bound makes floats a ROM: the table must hold what the reader makes of them
        name = buffer.name if buffer is not None else pipe.name(c.callee)
        dims = ", ".join(("x", "y", "z", "w")[:len(args)]) if len(args) <= 4 else "..."
        fix = (f"compute the integers the accelerator needs from it in a Func of their own, e.g. {name}_int[{dims}] "
               f"= hl.u16({name}[{dims}] * 256.0), and read {name}_int there instead, or read it at constant "
               "coordinates (unroll the loops that index it)")
    raise HalideError(
        f"{who} reads {what} at ({shown}), which is not a fixed coordinate, and its table of {store.arr.size} "
        f"{c.type} values cannot be a ROM (at most {_MAX_ROM_WORDS} integer words); {fix}"
    )


def _uniform(store: Store, args: list[ir.Expr]) -> int | float | None:
    """The one value of the table's slice at the constant coordinates among `args` (its other coordinates over
    the whole box, which bounds inference made cover every read), or None when the slice holds two values."""
    idx = tuple(int_value(a) - m if isinstance(a, ir.Const) else slice(None) for a, m in zip(args, store.mins))
    part = np.asarray(store.arr[idx])
    if part.size == 0 or not (part == part.flat[0]).all():
        return None
    return part.flat[0].item()
