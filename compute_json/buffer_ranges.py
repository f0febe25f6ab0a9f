"""The values each buffer of the accelerator holds, and so each kernel input's interval (an analysis).

A buffer holds what its ops store (each op's value kernel, `widths.value_intervals` of its graph from the
intervals of the buffers it loads), a RAM also its `init`, and an input stream its source Func's values, which the
host computes (Halide's function value bounds, `frontend.bounds.func_value_bounds`: `u16(input(x, y))` of a
uint8 image is [0, 255]). A reduction's update reads the buffer it writes, so the intervals are a fixpoint,
computed in rounds over the ops in program order; a buffer that keeps growing (an accumulator that may wrap)
takes its type's whole range after a few rounds, which ends the iteration.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import networkx as nx

from mainspring.hwlower.ir import LoopNest, Op, init_interval

from .widths import Interval, stated_outputs, type_interval, value_intervals

GROWTHS = 3  # rounds a buffer may grow before it takes its type's range (widening)


def stream_intervals(pipe: Any, inputs: Sequence[Any]) -> dict[str, Interval]:
    """The values of each input stream (`hwlower.program.HostStream`s `inputs`) by stream buffer: its source
    Func's values over all coordinates, with every scalar Param unknown (the accelerator is configured at run
    time). A stream whose source has no known bounds is left out (its type's range)."""
    from mainspring.frontend.bounds import func_value_bounds

    values = func_value_bounds(pipe, lambda _param: None)
    out: dict[str, Interval] = {}
    for s in inputs:
        fn = pipe.functions.get(s.source)
        if fn is not None and id(fn) in values:
            lo, hi = values[id(fn)]
            out[s.buffer] = (int(lo), int(hi))
    return out


def buffer_intervals(nest: LoopNest, values: Sequence[tuple[Op, nx.MultiDiGraph]],
                     streams: dict[str, Interval]) -> dict[str, Interval]:
    """The interval of every buffer's values (values of its type), given each op's value-kernel graph (`values`,
    ops in program order) and the input streams' intervals."""
    found: dict[str, Interval] = {}
    for b in nest.buffers:
        if b.name in nest.inputs:
            found[b.name] = streams.get(b.name, type_interval(b.type))
        elif b.init is not None:
            found[b.name] = init_interval(b.init)
    growths: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for op, g in values:
            name = op.store.buffer
            out = _stored(g, kernel_inputs(op, nest, found))
            old = found.get(name)
            new = out if old is None else (min(old[0], out[0]), max(old[1], out[1]))
            if new == old:
                continue
            if old is not None:
                growths[name] = growths.get(name, 0) + 1
                if growths[name] > GROWTHS:
                    new = type_interval(nest.buffer(name).type)
            changed = changed or new != old
            found[name] = new
    return found


def _stored(g: nx.MultiDiGraph, inputs: dict[str, Interval]) -> Interval:
    """What a value kernel stores: its output's stated range (the one its proof proves)."""
    (iv,) = stated_outputs(g, value_intervals(g, inputs)).values()
    return iv


def kernel_inputs(op: Op, nest: LoopNest, buffers: dict[str, Interval]) -> dict[str, Interval]:
    """The intervals of op's load ports whose buffers' values are known (`buffers`); a buffer not yet known
    (stored later in program order) is left to its type's range. Coordinates and scalar Params take their
    type's range."""
    out: dict[str, Interval] = {}
    for load in op.loads:
        iv = buffers.get(load.access.buffer)
        if iv is not None:
            out[load.name] = iv
    return out
