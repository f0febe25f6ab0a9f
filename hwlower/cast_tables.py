"""A float hl.Buffer read inside the accelerator at computed coordinates and cast to an integer right away
(`u8(curve[hw_input(x, y)] * 128.0)`): the integer depends on the coordinates alone, so it is a table of integers,
a ROM, where the float table could not be one (a ROM holds integer words):

    curve_u8_table(x) = u8(curve(x) * 128.0)          (a table: folded where read, or a ROM, tables.py)
    hw_output(x, y) = curve_u8_table(hw_input(x, y))

Taken: an integer cast of an expression whose only non-constant leaves are reads of one float buffer at one
coordinate. Its values are the reference's own (the table is evaluated as the expression it replaces), so the
hardware stays bit-exact. Any other float read at computed coordinates is left to buffer_tables.py (refused by
tables.py, with its fix)."""

from __future__ import annotations

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function, new_stage_schedule
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import LoopLevel, Placement
from mainspring.frontend.types import I32

from .region import Region, constant_buffer, funcs_between

_OPS = (ir.BinOp, ir.UnOp, ir.Cast, ir.MathCall, ir.Select)


def cast_reads_through_tables(pipe: Pipeline, region: Region) -> Pipeline:
    """`pipe` with each integer cast of a float buffer read inside `region` reading an integer table Func."""
    inside = funcs_between(pipe, region.output, [*region.inputs, *region.tables])
    tables: dict[str, Function] = {}  # (buffer, the table's value as text) -> the table
    for h in list(pipe.order):
        if id(h) not in inside:
            continue
        before = len(tables)
        defs = [_through_tables(pipe, d, region, tables) for d in pipe.definitions(h)]
        if any(a is not b for a, b in zip(defs, pipe.definitions(h))):
            pipe = pipe.with_producers(list(tables.values())[before:], h, defs)
    return pipe


def _through_tables(pipe: Pipeline, d: Definition, region: Region, tables: dict[str, Function]) -> Definition:
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if not (isinstance(n, ir.Cast) and not n.type.is_float() and n.value.type.is_float()):
            return n
        read = _sole_read(n.value)
        if read is None or all(isinstance(a, ir.Const) for a in read.args):
            return n  # (at constant coordinates the float folds: tables.py)
        table = _table(pipe, n, read, region, d, tables)
        return ir.Call(n.type, table, read.args)

    value = ir.transform(d.value, go)
    return d if value is d.value else Definition(d.args, value, d.rdom, d.loc, d.schedule)


def _sole_read(e: ir.Expr) -> ir.Call | None:
    """The one read of a float constant buffer, at one coordinate, `e` is made of with constants alone (the
    coordinate itself aside: a value read elsewhere too makes the integer depend on more than the read); else
    None."""
    reads = {(id(n.callee), ir.to_string(n)): n for n in ir.walk(e)
             if isinstance(n, ir.Call) and n.args and constant_buffer(n.callee) and n.type.is_float()}
    if len(reads) != 1:
        return None
    read = next(iter(reads.values()))
    hole = ir.Const(read.type, 0.0)
    rest = ir.transform(e, lambda n, kids: hole if _same(n, read) else ir.rebuild(n, kids))
    if all(isinstance(n, (ir.Const, *_OPS)) for n in ir.walk(rest)):
        return read
    return None


def _same(n: ir.Expr, read: ir.Call) -> bool:
    """Whether n reads what `read` does (the same buffer at the same coordinates, maybe another node)."""
    return n is read or (isinstance(n, ir.Call) and n.callee is read.callee and ir.to_string(n) == ir.to_string(read))


def _table(pipe: Pipeline, cast: ir.Cast, read: ir.Call, region: Region, d: Definition,
           tables: dict[str, Function]) -> Function:
    names = ("x", "y", "z", "w")[:len(read.args)] if len(read.args) <= 4 else \
        tuple(f"d{i}" for i in range(len(read.args)))
    args = tuple(ir.Var(I32, n) for n in names)
    at_vars = ir.Call(read.type, read.callee, args)
    value = ir.transform(cast, lambda n, kids: at_vars if _same(n, read) else ir.rebuild(n, kids))
    key = f"{id(read.callee)}:{ir.to_string(value)}"  # (two buffers may share a name)
    if key not in tables:
        taken, stem = set(pipe.functions) | {t.name for t in tables.values()}, f"{read.callee.name}_{cast.type}_table"
        name, k = stem, 1
        while name in taken:
            name, k = f"{stem}_{k}", k + 1
        table = Function(name, d.loc)
        table.definitions = [Definition(args, value, None, d.loc, new_stage_schedule(args, None))]
        table.placement = Placement(compute=LoopLevel("at", region.output, region.store_var or "__outermost", d.loc))
        tables[key] = table
    return tables[key]
