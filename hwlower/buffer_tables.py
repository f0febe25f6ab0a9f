"""An hl.Buffer of constant data read directly inside the accelerator (`weights[r.x, r.y]`), as Halide accepts it,
is read through a table Func of its own, computed at the accelerator's store loop:

    weights_table(x, y) = weights(x, y)               (a table: folded where read, or a ROM, tables.py)
    conv(x, y) += weights_table(r.x, r.y) * hw_input(x + r.x, y + r.y)

which is what a user would write (and what the refusal used to ask for): the accelerator has no host memory to
read, and a Func that reads nothing but constants is known at compile time. Funcs outside the accelerator keep
their direct reads (the host reads the buffer itself). The frontend's pipeline and its reference are unchanged:
the pass returns a copy of the pipeline for the passes after it."""

from __future__ import annotations

import re
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.errors import SourceLoc
from mainspring.frontend.func import Definition, Function, new_stage_schedule
from mainspring.frontend.params import Parameter
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import LoopLevel, Placement
from mainspring.frontend.types import I32

from .image_names import image_places
from .region import Region, constant_buffer, funcs_between


def read_buffers_through_tables(pipe: Pipeline, region: Region) -> Pipeline:
    """`pipe` with every direct read of a constant hl.Buffer by a Func inside `region` reading a table Func."""
    inside = funcs_between(pipe, region.output, [*region.inputs, *region.tables])
    tables: dict[int, Function] = {}  # id(buffer parameter) -> its table Func
    for h in list(pipe.order):
        if id(h) not in inside:
            continue
        fresh: list[Function] = []
        for b in _buffers_read(pipe.definitions(h)):
            if id(b) not in tables:
                tables[id(b)] = _table_of(pipe, b, region, {t.name for t in tables.values()},
                                          pipe.definitions(h)[0].loc)
                fresh.append(tables[id(b)])
        if fresh or any(_buffers_read([d]) for d in pipe.definitions(h)):
            defs = [_read_through(d, tables) for d in pipe.definitions(h)]
            pipe = pipe.with_producers(fresh, h, defs)
    return pipe


def _buffers_read(defs: list[Definition]) -> list[Parameter]:
    """The constant hl.Buffers the definitions read directly, each once, in the order they are read."""
    out: dict[int, Parameter] = {}
    for d in defs:
        for e in (*d.args, d.value):
            for n in ir.walk(e):
                if isinstance(n, ir.Call) and n.args and constant_buffer(n.callee):
                    out.setdefault(id(n.callee), n.callee)
    return list(out.values())


def _read_through(d: Definition, tables: dict[int, Function]) -> Definition:
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if isinstance(n, ir.Call) and n.args and id(n.callee) in tables:
            return ir.Call(n.type, tables[id(n.callee)], n.args)
        return n

    return replace(d, args=tuple(ir.transform(a, go) for a in d.args), value=ir.transform(d.value, go))


def _table_of(pipe: Pipeline, buffer: Parameter, region: Region, made: set[str], loc: SourceLoc) -> Function:
    """`<buffer>_table(x, y, ...) = <buffer>(x, y, ...)` under an unused name, computed at the accelerator's store
    loop, located at the first reader's definition (where a table's errors point)."""
    # (named by the image's place if the counter named it: image_names.py)
    taken, stem = set(pipe.functions) | made, f"{image_places(pipe.inputs).get(buffer.name, buffer.name)}_table"
    name, k = stem, 1
    while name in taken:
        name, k = f"{stem}_{k}", k + 1
    table = Function(name, loc)
    names = ("x", "y", "z", "w")[:buffer.dims] if buffer.dims <= 4 else tuple(f"d{i}" for i in range(buffer.dims))
    args = tuple(ir.Var(I32, n) for n in names)
    value = ir.Call(buffer.type, buffer, args)
    table.definitions = [Definition(args, value, None, loc, new_stage_schedule(args, None))]
    table.placement = Placement(compute=LoopLevel("at", region.output, region.store_var or "__outermost", loc))
    return table


def buffer_source(f: object) -> Parameter | None:
    """The hl.Buffer a table this pass made reads (messages name it: the user wrote no such Func), else None."""
    defs = getattr(f, "definitions", None) or [None]
    read = getattr(defs[0], "value", None)
    if len(defs) == 1 and isinstance(read, ir.Call) and constant_buffer(read.callee) and \
            re.match(rf"({re.escape(read.callee.name)}|[bp]\d+)_table", getattr(f, "name", "")) is not None and \
            all(isinstance(a, ir.Var) for a in read.args) and read.args == defs[0].args:
        return read.callee
    return None
