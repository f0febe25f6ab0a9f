"""The accelerator's output with a serial reduction of its own (`hw_output(x, y) += ...` over an RDom that is
not unrolled, the output accelerated itself), or held in a RAM (a histogram whose table is the output,
hwlower/scatter.py): its definitions run on an internal buffer, and a copy op over the pure definition's loops
streams each element out once, after its last update. The output stream carries one word per element, in the
order of the pure definition's loops with its unrolled ones innermost (each transfer one firing's lanes), as for
a pure output (loops.py `lanes_innermost`); a RAM's internal buffer is the RAM (its `init`), as if the user had
written `out(b) = hist(b)`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from mainspring.frontend import ir

from .ir import Access, Affine, Buffer, LoadPort, Loop, Op


def copies_out(nodes: list[Loop | Op], buffer: Buffer, taken: set[str]) -> tuple[list[Loop | Op], Buffer] | None:
    """`nodes` (the output Func's op trees, the pure definition's first) rewritten to store into an internal
    buffer, and the internal buffer; None when one op stores the output already. The copy to `buffer`
    (`copy_from`) follows them. For a RAM (`buffer.init`) the pure definition's op is dropped: the RAM starts at
    `init`."""
    if buffer.init is None and sum(1 for n in nodes for _, op in _ops(n) if op.store.buffer == buffer.name) <= 1:
        return None
    acc = f"{buffer.name}_acc"
    while acc in taken:
        acc += "_"
    kept = nodes[1:] if buffer.init is not None else nodes
    moved = [_retarget(n, buffer.name, acc) for n in kept]
    return moved, replace(buffer, name=acc)


def _ops(node: Loop | Op, loops: tuple[Loop, ...] = ()) -> Iterator[tuple[tuple[Loop, ...], Op]]:
    if isinstance(node, Op):
        yield loops, node
        return
    for child in node.body:
        yield from _ops(child, loops + (node,))


def _retarget(node: Loop | Op, old: str, new: str) -> Loop | Op:
    if isinstance(node, Loop):
        return replace(node, body=tuple(_retarget(c, old, new) for c in node.body))
    ports = {p: LoadPort(p.name, replace(p.access, buffer=new)) if p.access.buffer == old else p for p in node.loads}
    value = ir.transform(node.value, lambda n, kids: ir.Call(n.type, ports[n.callee], ())
                         if isinstance(n, ir.Call) and n.callee in ports else ir.rebuild(n, kids))
    store = replace(node.store, buffer=new) if node.store.buffer == old else node.store
    return replace(node, store=store, loads=tuple(ports.values()), value=value)


def copy_from(pure: Loop | Op, out: str, acc: str) -> Loop | Op:
    """The pure definition's loop nest `pure` (its loops renamed) storing each element of `acc` to `out`."""
    ((loops, op),) = list(_ops(pure))
    names = {lp.var: lp.var.replace(".s0.", ".out.", 1) for lp in loops}

    def moved(a: Affine) -> Affine:
        return Affine.make({names[v]: c for v, c in a.terms}, a.const)

    index = tuple(moved(a) for a in op.store.index)
    port = LoadPort(f"{acc}_0", Access(acc, index))
    node: Loop | Op = Op(f"{op.func}_out", op.func, 0, Access(out, index), (port,), ir.Call(op.value.type, port, ()))
    for lp in reversed(loops):
        node = Loop(names[lp.var], lp.min, lp.extent, (node,), lp.unrolled, lp.strip, lp.asked)
    return node
