"""Pass `order_streams`: the host streams an accelerator input in the order its schedule gives.

An input's words travel in its storage order, `args[0]` fastest, unless its schedule says otherwise:
`reorder_storage(c, x, y)` (Halide's storage layout, innermost first) or, without it, the order of its own
loops (`hw_input.reorder(c, x, y)`), which on the host is the order it computes and sends the values. A planar
image (x, y, c) read a pixel's channels at a time then arrives channels first, as its consumer reads it,
instead of plane after plane (which would hold whole planes and delay the first output by them).

The pass permutes the input buffer's dimensions into stream order (its box and every load's index), so the
memories see the stream as any other; `HostStream.order` tells the host which dimension of the Func each
stream dimension is. With a GLB level the input keeps its storage order (the GLB's controllers address its
tiles by the Func's dimensions).
"""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend.func import Function
from mainspring.frontend.schedule import Fuse, Split

from .fold import with_loads
from .ir import Access, LoadPort, Loop, Op
from .state import Lowering


def stream_dims(f: Function, glb: bool = False) -> tuple[str, ...]:
    """The dimensions of accelerator input f, fastest first, in the order its words are streamed."""
    if glb:
        return tuple(f.args)
    if f.placement.storage_order is not None:
        return tuple(f.placement.storage_order)
    sched = f.definitions[0].schedule
    parent: dict[str, str] = {}
    for dv in sched.directives:
        if isinstance(dv, Split):
            parent[dv.inner] = parent[dv.outer] = dv.old
        elif isinstance(dv, Fuse):
            parent[dv.fused] = dv.inner
    out: list[str] = []
    for loop in sched.dim_names():  # innermost first
        d = loop
        while d not in f.args and d in parent:
            d = parent[d]
        if d in f.args and d not in out:
            out.append(d)
    return tuple(out + [a for a in f.args if a not in out])


def order_streams(s: Lowering) -> Lowering:
    nest, orders = s.built_nest, {}
    for f in s.found_region.inputs:
        dims = stream_dims(f, s.glb is not None)
        if dims != tuple(f.args):
            orders[s.pipe.name(f)] = tuple(f.args.index(d) for d in dims)
    if not orders:
        return s
    buffers = tuple(replace(b, box=tuple(b.box[i] for i in orders[b.name])) if b.name in orders else b
                    for b in nest.buffers)
    body = tuple(_permuted(n, orders) for n in nest.body)
    return replace(s, nest=replace(nest, buffers=buffers, body=body), stream_orders=orders)


def _permuted(n: Loop | Op, orders: dict[str, tuple[int, ...]]) -> Loop | Op:
    if isinstance(n, Loop):
        return replace(n, body=tuple(_permuted(c, orders) for c in n.body))
    new = {id(p): LoadPort(p.name, Access(p.access.buffer, tuple(p.access.index[i] for i in orders[p.access.buffer]),
                                          p.access.guard))
           for p in n.loads if p.access.buffer in orders}
    return with_loads(n, new) if new else n
