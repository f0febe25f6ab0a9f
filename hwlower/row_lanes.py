"""Row lanes: which Funcs inside the accelerator keep lanes along part of y (`mid.unroll(y, 2)`), several rows
per firing, as Halide-to-Hardware schedules an output rate along y.

A pure Func's lanes along part of a dimension other than x run serially by default (update_lanes.py
`serial_split_lanes`): a reader stepping through y one row at a time would read lane y mod 2, a strided set of
iterations no port controller walks. They are kept where every reader takes them one to one: each reader is a
pure Func in the accelerator that keeps row lanes itself, a multiple of them, and reads the Func along y at its own
y plus a constant (the accelerator's output keeps its lanes: they are the words of its stream). Lane l of such a
reader at firing t reads row k * t + l + b, always the same lane of the producer, at a constant delay: a box of
iterations per (producer lane, reader lane), as lanes along x. The lanes run innermost (`lanes_innermost`, a pure
definition's points are independent), so a firing makes k rows' values of one x.
"""

from __future__ import annotations

from collections.abc import Mapping

from mainspring.frontend import ir
from mainspring.frontend.bounds import Box
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Function
from mainspring.frontend.pipeline import Pipeline

from .lanes import stage_lanes
from .loops import replay
from .region import Region


def row_factor(f: Function, box: Box) -> int:
    """The lanes of f's pure definition (over `box`) along part of its second dimension (1 if none)."""
    if len(f.args) < 2:
        return 1
    extents = {a: (lo, hi - lo + 1) for a, (lo, hi) in zip(f.args, box)}
    sched = f.definitions[0].schedule
    try:
        s = replay(sched, extents, set(), f"Func '{f.name}'")
    except ScheduleError:  # (a schedule the op's own loops refuse or replay otherwise, ops.py: no row lanes here)
        return 1
    return stage_lanes(f"Func '{f.name}'", f.name, f.args[1], s, sched).k


def rows_kept(pipe: Pipeline, region: Region, boxes: Mapping[str, Box],
              output_box: Box | None = None) -> frozenset[int]:
    """The ids of the Funcs the accelerator buffers whose row lanes stay lanes: every reader takes them one to one
    (each reader keeps a multiple of them), and every producer makes as many rows per firing (an input stream's
    transfer, or a Func keeping as many row lanes), so that no lane waits for rows its producer makes later (a
    line more in memory and a slower schedule than serial rows: 92 cycles for 83 over an 8x8 two-tap blur).
    `output_box`: the box the accelerator output's loops run over (its tile, or the loop box of a GLB's memory
    tile), as ops.py lowers it: its buffer's box is rounded up to its lanes, which a tile of an odd extent does not
    divide (7 x 5 tiles unrolled by 2)."""
    factors = {id(f): row_factor(f, output_box if f is region.output and output_box else boxes[pipe.name(f)])
               for f in (*region.inputs, *region.buffered)}

    def row_factor_of(g: Function) -> int:
        return factors.get(id(g), 1)

    back: set[int] = set()  # the readers take them
    for f in reversed(region.buffered):
        k = row_factor_of(f)
        if k == 1:
            continue
        readers = [g for g in pipe.order if g is not f and any(_reads(d.value, f) for d in pipe.definitions(g))]
        if f is region.output or (readers and all(
                id(g) in back and row_factor_of(g) % k == 0 and len(pipe.definitions(g)) == 1
                and _along_rows(pipe.definitions(g)[0].value, f, g.args[1]) for g in readers)):
            back.add(id(f))
    made = {id(g) for g in region.inputs}
    known = made | {id(g) for g in (*region.buffered, *region.tables)}
    kept: set[int] = set()
    for f in region.buffered:  # producers first
        defs = pipe.definitions(f)
        # (a Func inlined into f could read its producers at a stride: f keeps no row lanes then)
        callees = {id(n.callee) for d in defs for n in ir.walk(d.value)
                   if isinstance(n, ir.Call) and isinstance(n.callee, Function) and n.callee is not f}
        producers = [g for g in (*region.inputs, *region.buffered) if id(g) in callees]
        if id(f) in back and f is not region.output and callees <= known and all(
                (id(g) in kept or id(g) in made) and row_factor_of(g) == row_factor_of(f)
                and all(_along_rows(d.value, g, f.args[1]) for d in defs) for g in producers):
            kept.add(id(f))
    return frozenset(kept)


def _reads(e: ir.Expr, f: Function) -> bool:
    return any(isinstance(n, ir.Call) and n.callee is f for n in ir.walk(e))


def _along_rows(e: ir.Expr, f: Function, y: str) -> bool:
    """Every read of f in e is at row `y` plus a constant."""
    from .affine import affine_of
    from .ir import Affine

    for n in ir.walk(e):
        if isinstance(n, ir.Call) and n.callee is f:
            names = {v.name for a in n.args for v in ir.walk(a) if isinstance(v, ir.Var)}
            a = affine_of(n.args[1], {v: Affine.make({v: 1}, 0) for v in names})
            if a is None or dict(a.terms) != {y: 1}:
                return False
    return True

