"""Pass `reduce_in_place`: an update that sweeps its pure loops once per reduction step (resnet's
`conv.update().reorder(w, r.z, x, y, r.x, r.y)`, the taps outermost) runs its reduction loops inside its pure
loops instead, so each output element takes all its steps in a row.

This is the same computation. The update stores at its pure coordinates alone and reads its own Func only at the
element it stores, so iterations at different pure coordinates are independent, and each element still sees
its reduction steps in their order. What changes is the hardware: the sweep order makes the first sweep wait
for the whole input stream and keeps every partial sum in memory, where in place the sums live in registers,
the input in line buffers, and the steps keep pace with the stream (h2h_resnet_layer_gen: 14,550 cycles for an
ideal of 7,200 before, BENCHMARKS.md). Clockwork likewise takes Halide's loop order as the iteration space only and
finds its own schedule.

Unrolled loops (lanes) stay innermost, where they were; loops a strip-mined upsample split, RAM updates and
lookups, and loops shared with other ops are left alone.

The user's order stays where it follows the stream and in place would not: a projection along rows, or a sum
over planes its operands' maker steps one after another (mobile's `pw_conv_reduction(k, x, y) += pw_conv(k, x,
y, r)` over channel planes: each sweep follows its plane; in place every pixel waits for the last plane, 1.75x
the input stream's transfers at large sizes instead of 1.5x). The constant pure definition of such an update
then takes its lanes (`init_lanes.py`), so that it keeps ahead of the first sweep.
"""

from __future__ import annotations

from dataclasses import replace

from .init_lanes import constant_inits_take_lanes
from .ir import Loop, LoopNest, Op
from .state import Lowering


def reduce_in_place(s: Lowering) -> Lowering:
    nest = s.built_nest
    ordered = set(nest.inputs) | _made_in_storage_order(nest)
    arriving = _made_over_time(nest, ordered)
    nest = replace(nest, body=tuple(_visit(n, ordered, arriving) for n in nest.body))
    return replace(s, nest=constant_inits_take_lanes(nest))


def _made_in_storage_order(nest: LoopNest) -> set[str]:
    """The buffers one op makes, point by point, in their storage order (its loops, outermost first, are its last
    dimension to its first: a Func's default order), as a stream arrives."""
    makers: dict[str, list[tuple[tuple[Loop, ...], Op]]] = {}
    for loops, op in nest.ops():
        makers.setdefault(op.store.buffer, []).append((loops, op))
    out = set()
    for name, found in makers.items():
        if len(found) != 1:
            continue
        loops, op = found[0]
        dims = [a.terms[0][0] if len(a.terms) == 1 and a.terms[0][1] == 1 else None for a in op.store.index]
        live = [lp.var for lp in loops if lp.extent > 1]  # lanes too: mobile's pw_conv makes its planes at once
        if None not in dims and [d for d in reversed(dims) if d in live] == live:
            out.add(name)
    return out


def _made_over_time(nest: LoopNest, ordered: set[str]) -> dict[str, set[int]]:
    """By buffer of `ordered`: the dimensions its maker steps serially (a stream's beyond one transfer's words,
    x first), which arrive one slice after another rather than in one firing."""
    out: dict[str, set[int]] = {}
    boxes = {b.name: b.box for b in nest.buffers}
    for name in nest.inputs:
        words, lanes = 1, nest.stream_lanes(name)
        out[name] = set()
        for j, (_, extent) in enumerate(boxes[name]):
            words *= extent
            if extent > 1 and words > lanes:
                out[name].add(j)
    for loops, op in nest.ops():
        if op.store.buffer in ordered and op.store.buffer not in out:
            serial = {lp.var for lp in loops if not lp.unrolled and lp.extent > 1}
            out[op.store.buffer] = {j for j, a in enumerate(op.store.index) if {v for v, _ in a.terms} & serial}
    return out


def _visit(node: Loop | Op, ordered: set[str], arriving: dict[str, set[int]]) -> Loop | Op:
    if isinstance(node, Op):
        return node
    chain, leaf = exclusive_chain(node)
    if isinstance(leaf, Op) and len(chain) > 1:
        order = _in_place_order(chain, leaf, ordered, arriving)
        if order is not None:
            return rebuild_chain(order, leaf)
    return replace(node, body=tuple(_visit(n, ordered, arriving) for n in node.body))


def exclusive_chain(node: Loop) -> tuple[list[Loop], Loop | Op]:
    """The loops from `node` down while each has a single child, and what the last one holds."""
    chain = [node]
    while len(chain[-1].body) == 1 and isinstance(chain[-1].body[0], Loop):
        chain.append(chain[-1].body[0])
    body = chain[-1].body
    return chain, body[0] if len(body) == 1 else chain[-1]


def _in_place_order(loops: list[Loop], op: Op, ordered: set[str],
                    arriving: dict[str, set[int]]) -> list[Loop] | None:
    """`loops` (outermost first) with the serial loops the store does not depend on moved inside the serial
    loops it does, each group in its order, the unrolled loops last; None if the op does not qualify, or its
    order already has them inside, or it reads the `ordered` buffers (the streams, and Funcs made in their
    storage order) as they arrive and would not in place."""
    if op.scatter or op.lookup or any(lp.strip for lp in loops):
        return None
    stored = {v for a in op.store.index for v, _ in a.terms}
    if not op.store.index or any(p.access.buffer == op.store.buffer and p.access.index != op.store.index
                                 for p in op.loads):
        return None  # it reads its own Func elsewhere than the element it stores (a scan)
    if not any(p.access.buffer == op.store.buffer for p in op.loads):
        return None  # not an update of what it stores: a pure definition (its order is the user's)
    serial = [lp for lp in loops if not lp.unrolled]
    unrolled = [lp for lp in loops if lp.unrolled]
    if unrolled and loops[-len(unrolled):] != unrolled:
        return None  # lanes must stay innermost; an unrolled loop in between would move
    pure = [lp for lp in serial if lp.var in stored]
    steps = [lp for lp in serial if lp.var not in stored]
    order = pure + steps + unrolled
    live = [lp for lp in order if lp.extent > 1]
    if not steps or [lp.var for lp in live] == [lp.var for lp in loops if lp.extent > 1]:
        return None
    stepped = {lp.var for lp in steps}
    if (_along_rows(op, stepped, ordered) or _across_arrivals(op, stepped, arriving)) and \
            _reads_as_streamed(serial, op, ordered) and not _reads_as_streamed(pure + steps, op, ordered):
        # A projection (`s(x) += im(x, r)`, r outside x), or a sum over planes that arrive one after another
        # (mobile's `pw_conv(k, x, y, r)`, r outside y and x): the user's order is the stream's, and each sweep
        # follows its plane, where in place every element would wait for the last plane.
        return None
    return order


def _across_arrivals(op: Op, steps: set[str], arriving: dict[str, set[int]]) -> bool:
    """Whether a step loop alone walks a dimension of a load that its maker steps serially: the sum's operands
    arrive one slice after another (mobile's channel planes), not together (the same layer over an input
    streamed a pixel's channels per transfer, whose sum in place keeps pace with it)."""
    for p in op.loads:
        for j, a in enumerate(p.access.index):
            names = {v for v, _ in a.terms}
            if names and names <= steps and j in arriving.get(p.access.buffer, set()):
                return True
    return False


def _along_rows(op: Op, steps: set[str], ordered: set[str]) -> bool:
    """Whether a step loop walks the rows of a load of `ordered`: alone in the dimension after the first one that
    moves with a pure loop (a column sum's `im(x, r)`; not a sum over planes, mobile's `pw_conv(k, x, y, r)`, nor a
    window's taps), as the autoscheduler's projections (mainspring/autoschedule_reduce.py)."""
    for p in op.loads:
        if p.access.buffer not in ordered:
            continue
        names = [{v for v, _ in a.terms} for a in p.access.index]
        moving = [j for j, ns in enumerate(names) if ns - steps]
        if moving and moving[0] + 1 < len(names) and len(row := names[moving[0] + 1]) == 1 and row <= steps:
            return True
    return False


def _reads_as_streamed(serial: list[Loop], op: Op, ordered: set[str]) -> bool:
    """Whether, in the order of `serial` (outermost first), every load of `ordered` (the streams, and Funcs made in
    their storage order) moves forwards through it as its words are made (the last dimension outermost, after
    pass `streams`): each loop's step, after its inner loops wrap around, is lexicographically non-negative. In
    place, a reduction along a whole dimension of its input (a column sum's rows) would wait for the whole frame.
    (A Func made in another order is left out: mobile's pw_conv, channels innermost.)"""
    for p in op.loads:
        if p.access.buffer not in ordered:
            continue
        coeffs = [dict(a.terms) for a in reversed(p.access.index)]  # the outermost dimension first
        for k, lp in enumerate(serial):
            step = [c.get(lp.var, 0) - sum(c.get(m.var, 0) * (m.extent - 1) for m in serial[k + 1:]) for c in coeffs]
            if next((d for d in step if d), 0) < 0:
                return False
    return True


def rebuild_chain(order: list[Loop], op: Op) -> Loop:
    body: Loop | Op = op
    for lp in reversed(order):
        body = replace(lp, body=(body,))
    assert isinstance(body, Loop)
    return body
