"""A float hl.Buffer read inside the accelerator at computed coordinates and cast to an integer right away
(`u8(curve[hw_input(x, y)] * 128.0)`): the integer depends on the coordinates alone, so it is a table of integers,
a ROM, where the float table could not be one (a ROM holds integer words):

    curve_u8_table(x) = u8(curve(x) * 128.0)          (a table: folded where read, or a ROM, tables.py)
    hw_output(x, y) = curve_u8_table(hw_input(x, y))

Taken: an integer cast of an expression whose only non-constant leaves are reads of one float buffer at one
coordinate, and at most one integer value made a float (a pixel: `i32(gain[idx] * hw_input(x, y))`). The pixel is
one of the coordinates (`curve[v] * f32(v)`: the table's own), else a coordinate of its own, the table being
indexed by (idx, pixel) where it has at most _MAX_WORDS words (the ranges of idx and the pixel, as bounds give):

    gain_int32_table(x, p) = i32(gain(x) * f32(u8(p)))
    hw_output(x, y) = gain_int32_table(idx, i32(hw_input(x, y)))

Its values are the reference's own (the table is evaluated as the expression it replaces, floats as Halide's), so
the hardware stays bit-exact. Any other float read at computed coordinates is left to buffer_tables.py (refused by
tables.py, with its fix)."""

from __future__ import annotations

import collections
import math

from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder, func_value_bounds
from mainspring.frontend.func import Definition, Function, new_stage_schedule
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import LoopLevel, Placement
from mainspring.frontend.types import I32

from .image_names import image_places
from .region import Region, constant_buffer, funcs_between

_OPS = (ir.BinOp, ir.UnOp, ir.Cast, ir.MathCall, ir.Select)
# A table indexed by the pixel too spans at most this many words (two of the default target's memory tiles): a
# pixel of 8 bits times a table of 16 floats; a wider product stays refused, with the fix of a Func of integers.
_MAX_WORDS = 4096


def cast_reads_through_tables(pipe: Pipeline, region: Region) -> Pipeline:
    """`pipe` with each integer cast of a float buffer read inside `region` reading an integer table Func."""
    inside = funcs_between(pipe, region.output, [*region.inputs, *region.tables])
    tables: dict[str, Function] = {}  # (buffer, the table's value as text) -> the table
    values = func_value_bounds(pipe, lambda p: None)
    for h in list(pipe.order):
        if id(h) not in inside:
            continue
        before = len(tables)
        defs = [_through_tables(pipe, d, region, tables, values) for d in pipe.definitions(h)]
        if any(a is not b for a, b in zip(defs, pipe.definitions(h))):
            pipe = pipe.with_producers(list(tables.values())[before:], h, defs)
    return pipe


def _through_tables(pipe: Pipeline, d: Definition, region: Region, tables: dict[str, Function],
                    values: dict) -> Definition:
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if not (isinstance(n, ir.Cast) and not n.type.is_float() and n.value.type.is_float()):
            return n
        got = _sole_read(n.value)
        if got is None or all(isinstance(a, ir.Const) for a in got[0].args):
            return n  # (at constant coordinates the float folds: tables.py)
        read, pixel = got
        coords = read.args
        if pixel is not None and not any(_text(a) == _text(pixel) for a in coords):
            if _words((*coords, pixel), values) > _MAX_WORDS:
                return n  # (refused by tables.py, with its fix)
            coords = (*coords, pixel if pixel.type == I32 else ir.Cast(I32, pixel))
        table = _table(pipe, n, read, pixel, region, d, tables)
        return ir.Call(n.type, table, coords)

    value = ir.transform(d.value, go)
    return d if value is d.value else Definition(d.args, value, d.rdom, d.loc, d.schedule)


def _sole_read(e: ir.Expr) -> tuple[ir.Call, ir.Expr | None] | None:
    """The one read of a float constant buffer, at one coordinate, `e` is made of with constants and at most one
    integer value made a float (the pixel, returned second; None if there is none); else None."""
    reads = {(id(n.callee), ir.to_string(n)): n for n in ir.walk(e)
             if isinstance(n, ir.Call) and n.args and constant_buffer(n.callee) and n.type.is_float()}
    if len(reads) != 1:
        return None
    read = next(iter(reads.values()))
    hole = ir.Const(read.type, 0.0)
    rest = ir.transform(e, lambda n, kids: hole if _same(n, read) else ir.rebuild(n, kids))
    pixels = {_text(n.value): n.value for n in ir.walk(rest) if _made_float(n)}
    if len(pixels) > 1:
        return None
    pixel = next(iter(pixels.values()), None)
    if pixel is not None and any(n.type.is_float() for n in ir.walk(pixel)):
        return None  # (an integer made of the float read: no value of its own)
    if pixel is not None:
        rest = ir.transform(rest, lambda n, kids: ir.Cast(n.type, ir.Const(n.value.type, 0)) if _made_float(n)
                            else ir.rebuild(n, kids))
    if all(isinstance(n, (ir.Const, *_OPS)) for n in ir.walk(rest)):
        return read, pixel
    return None


def _made_float(n: ir.Expr) -> bool:
    """Whether n makes a non-constant integer value a float."""
    return isinstance(n, ir.Cast) and n.type.is_float() and not n.value.type.is_float() and \
        not isinstance(n.value, ir.Const)


def _text(e: ir.Expr) -> str:
    return ir.to_string(e)


def _words(coords: tuple[ir.Expr, ...], values: dict) -> int:
    """How many words a table read at `coords` spans, as their bounds (Funcs' values as far as known) give."""
    anywhere = (-(1 << 31), (1 << 31) - 1)
    bound = Bounder(collections.defaultdict(lambda: anywhere), lambda p: None, values)
    return math.prod(hi - lo + 1 for lo, hi in map(bound, coords))


def _same(n: ir.Expr, read: ir.Call) -> bool:
    """Whether n reads what `read` does (the same buffer at the same coordinates, maybe another node)."""
    return n is read or (isinstance(n, ir.Call) and n.callee is read.callee and ir.to_string(n) == ir.to_string(read))


def _table(pipe: Pipeline, cast: ir.Cast, read: ir.Call, pixel: ir.Expr | None, region: Region, d: Definition,
           tables: dict[str, Function]) -> Function:
    """The table of `cast` over the read's coordinates, and the pixel's where it is not one of them."""
    texts = [_text(a) for a in read.args]
    own = pixel is not None and _text(pixel) not in texts
    n_args = len(read.args) + own
    names = ("x", "y", "z", "w")[:n_args] if n_args <= 4 else tuple(f"d{i}" for i in range(n_args))
    args = tuple(ir.Var(I32, n) for n in names)
    at_vars = ir.Call(read.type, read.callee, args[:len(read.args)])
    if pixel is not None:  # the pixel's value at the table's coordinate (its own, or the read's it equals)
        var = args[-1] if own else args[texts.index(_text(pixel))]
        as_pixel = var if pixel.type == I32 else ir.Cast(pixel.type, var)

    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        if _same(n, read):
            return at_vars
        if pixel is not None and isinstance(n, ir.Cast) and _made_float(n) and _text(n.value) == _text(pixel):
            return ir.Cast(n.type, as_pixel)
        return ir.rebuild(n, kids)

    value = ir.transform(cast, go)
    key = f"{id(read.callee)}:{ir.to_string(value)}"  # (two buffers may share a name)
    if key not in tables:
        image = image_places(pipe.inputs).get(read.callee.name, read.callee.name)  # (image_names.py)
        taken, stem = set(pipe.functions) | {t.name for t in tables.values()}, f"{image}_{cast.type}_table"
        name, k = stem, 1
        while name in taken:
            name, k = f"{stem}_{k}", k + 1
        table = Function(name, d.loc)
        table.definitions = [Definition(args, value, None, d.loc, new_stage_schedule(args, None))]
        table.placement = Placement(compute=LoopLevel("at", region.output, region.store_var or "__outermost", d.loc))
        tables[key] = table
    return tables[key]
