"""The hardware program's invariants, checked between hwlower's passes (as `compute_json.graph.verify` checks
the compute graph): a failure is a bug in hwlower, not in the user's program, so these are plain asserts."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mainspring.frontend import ir

from .ir import Affine, CoordPort, LoadPort, Loop, LoopNest, Op, Rom, store_order
from .program import HwProgram


def verify_nest(nest: LoopNest) -> None:
    """Names are unique, every access is an affine function of its op's enclosing loops over a declared buffer
    of the right rank, and every leaf of an op's value is a constant, a Param, or one of the op's own ports."""
    buffers = {b.name: b for b in nest.buffers}
    assert len(buffers) == len(nest.buffers), f"hwlower contract: duplicate buffers {[b.name for b in nest.buffers]}"
    assert set(nest.inputs) <= set(buffers), f"hwlower contract: inputs {nest.inputs} are not all buffers"
    assert nest.output in buffers and nest.output not in nest.inputs, f"hwlower contract: output {nest.output}"
    ops = nest.ops()
    names = [op.name for _, op in ops]
    assert len(set(names)) == len(names), f"hwlower contract: duplicate op names {names}"
    loop_vars = [lp.var for lp in _loops(nest.body)]
    assert len(set(loop_vars)) == len(loop_vars), f"hwlower contract: duplicate loop vars {loop_vars}"
    stored = {op.store.buffer for _, op in ops}
    assert not stored & set(nest.inputs), f"hwlower contract: ops store into inputs {stored & set(nest.inputs)}"
    assert stored | set(nest.inputs) == set(buffers), \
        f"hwlower contract: buffers {set(buffers) - stored - set(nest.inputs)} are never stored"
    assert sum(op.store.buffer == nest.output for _, op in ops) == 1, "hwlower contract: the output has one op"
    for loops, op in ops:
        _verify_op(op, loops, buffers)
    for b, k in nest.lanes:
        assert b in nest.inputs or b == nest.output, f"hwlower contract: lanes of {b}, which is not a stream"
        assert k >= 1, f"hwlower contract: stream {b} of {k} lanes"


def _loops(nodes: Sequence[Loop | Op]) -> list[Loop]:
    out: list[Loop] = []
    for n in nodes:
        if isinstance(n, Loop):
            assert n.extent >= 1, f"hwlower contract: loop {n.var} of extent {n.extent}"
            assert n.asked >= 0 and not (n.asked and n.unrolled), f"hwlower contract: loop {n.var} asked {n.asked}"
            out.append(n)
            out += _loops(n.body)
    return out


def _verify_op(op: Op, loops: tuple[Loop, ...], buffers: dict) -> None:
    scope = {lp.var for lp in loops}
    who = f"hwlower contract: op '{op.name}'"
    for what, access in [("store", op.store)] + [(f"load '{p.name}'", p.access) for p in op.loads]:
        b = buffers.get(access.buffer)
        assert b is not None, f"{who} {what}: unknown buffer {access.buffer}"
        if access.buffer == op.store.buffer and op.scatter and not access.index:
            # the RAM element the update writes at its computed coordinates (read-modify-write)
            assert b.init is not None and len(op.scatter) == len(b.box), f"{who} {what}: a scatter into {b.name}"
            continue
        if op.lookup and not access.index:  # a RAM read at the op's computed coordinates
            assert b.init is not None and len(op.lookup) == len(b.box), f"{who} {what}: a lookup in {b.name}"
            continue
        assert len(access.index) == len(b.box), f"{who} {what}: {len(access.index)} indices into {b.name}"
        for a in access.index:
            _in_scope(a, scope, f"{who} {what}")
    for c in op.coords:
        _in_scope(c.value, scope, f"{who} coordinate '{c.name}'")
    loads, coords = {id(p) for p in op.loads}, {id(c) for c in op.coords}
    for n in (n for e in (op.value,) + op.scatter + op.lookup for n in ir.walk(e)):
        assert not isinstance(n, (ir.Var, ir.RVar)), f"{who}: free variable {n.name} in its value"
        if not isinstance(n, ir.Call):
            continue
        callee = n.callee
        if isinstance(callee, LoadPort):
            assert id(callee) in loads and not n.args, f"{who}: reads load {callee.name} of another op"
        elif isinstance(callee, CoordPort):
            assert id(callee) in coords and not n.args, f"{who}: reads coordinate {callee.name} of another op"
        elif isinstance(callee, Rom):
            assert len(n.args) == len(callee.box), f"{who}: ROM {callee.name} read with {len(n.args)} coordinates"
        else:
            assert not n.args and getattr(callee, "kind", None) in ("scalar", "shape"), \
                f"{who}: calls {getattr(callee, 'name', callee)}, which is not a port, a ROM or a scalar Param"


def _in_scope(a: Affine, scope: set[str], who: str) -> None:
    free = {v for v, _ in a.terms} - scope
    assert not free, f"{who}: index {a} uses {sorted(free)}, which are not its enclosing loops"


def verify_program(p: HwProgram) -> None:
    """The nest's invariants, and the program's own: every invocation has a box for every buffer, the host
    streams exactly the nest's inputs, and every op knows where the user defined it."""
    verify_nest(p.nest)
    assert p.tiles, "hwlower contract: no invocation"
    first = p.glb.mem_tiles if p.glb is not None else p.tiles
    for t in first:
        missing = {b.name for b in p.nest.buffers} - set(t.boxes)
        assert not missing, f"hwlower contract: tile at {t.output_box} has no box for {sorted(missing)}"
    streamed = tuple(s.buffer for s in p.inputs)
    assert streamed == (p.glb.inputs if p.glb is not None else p.nest.inputs), \
        f"hwlower contract: the host streams {streamed}, the array reads {p.nest.inputs}"
    for s in p.inputs:
        assert s.lanes == p.nest.stream_lanes(s.buffer), f"hwlower contract: lanes of {s.buffer}"
    assert p.array_output == p.nest.output
    assert (p.output == p.array_output) == (p.glb is None), "hwlower contract: the host reads the array's output"
    assert "" in p.where and all(op.name in p.where for _, op in p.nest.ops()), "hwlower contract: op locations"
    assert set(p.host_after) == set(p.host_boxes), "hwlower contract: boxes of the host Funcs after the accelerator"


def verify_permuted(before: LoopNest, after: LoopNest) -> None:
    """`after` is `before` with some ops' loops reordered, each legally: the same ops in the same program order
    under the same loops; where an op's order changed, the loops that moved hold that op alone, it is pure (it
    reads neither its own buffer nor at computed coordinates) and stores each element once, or it is an update
    that reads its own buffer only at the element it stores and takes each element's steps in a row, innermost
    and in their order, so every order of its iterations writes the same buffer, and its unrolled loops (lanes)
    stay innermost in their order."""
    fields = ("name", "buffers", "inputs", "output", "lanes")
    assert all(getattr(before, f) == getattr(after, f) for f in fields), "hwlower contract: a reorder changed the nest"
    old, new = before.ops(), after.ops()
    assert [op for _, op in old] == [op for _, op in new], "hwlower contract: a reorder changed the ops"
    for (was, op), (now, _) in zip(old, new):
        who = f"hwlower contract: op '{op.name}' reordered"
        assert sorted(lp.var for lp in was) == sorted(lp.var for lp in now), f"{who}: its loops changed"
        for a in was:
            b = next(b for b in now if b.var == a.var)
            assert (a.min, a.extent, a.unrolled, a.strip, a.asked) == (b.min, b.extent, b.unrolled, b.strip, b.asked), \
                f"{who}: loop {a.var} changed"
        if [lp.var for lp in was] == [lp.var for lp in now]:
            continue
        first = next(i for i, (a, b) in enumerate(zip(was, now)) if a.var != b.var)
        for lp in was[first:] + now[first:]:
            assert [o for _, o in _ops_under(lp)] == [op], f"{who}: loop {lp.var} holds other ops"
        own = [p for p in op.loads if p.access.buffer == op.store.buffer]
        assert not op.scatter and not op.lookup and all(p.access.index for p in op.loads) and all(
            p.access.index == op.store.index for p in own), f"{who}: it is not pure"
        assert [lp.var for lp in was if lp.unrolled] == [lp.var for lp in now if lp.unrolled] and all(
            lp.unrolled for lp in now[len(now) - sum(lp.unrolled for lp in now):]), f"{who}: its lanes moved"
        # An update's loops outside the ones that moved stay as they were, so its steps among those that moved
        # decide: innermost and in their order, each element takes them in a row, as before.
        steps = _steps(now[first:], op) if own else []
        assert steps is not None and steps == (_steps(was[first:], op) if own else []), \
            f"{who}: it is an update whose steps moved"
        indexed = {v for a in op.store.index for v, _ in a.terms}
        stored = store_order([lp for lp in now if not own or lp.var in indexed], op)  # an update: once a step
        assert len(np.unique(stored, axis=0)) == len(stored), f"{who}: it stores an element twice"


def _steps(loops: Sequence[Loop], op: Op) -> list[str] | None:
    """An update's serial loops its store does not index, when they are the innermost serial loops (each element
    takes its steps in a row) and its lanes are pure, else None."""
    stored = {v for a in op.store.index for v, _ in a.terms}
    if any(lp.unrolled and lp.var not in stored for lp in loops):
        return None
    serial = [lp.var for lp in loops if not lp.unrolled and lp.extent > 1]
    steps = [v for v in serial if v not in stored]
    return steps if serial[len(serial) - len(steps):] == steps else None


def _ops_under(lp: Loop) -> list[tuple[tuple[Loop, ...], Op]]:
    return LoopNest("", (), (), "", (lp,)).ops()
