"""Refusals of several accelerated Funcs that are outputs of their own and that frontend/fuse_outputs.py cannot
fuse into one Tuple Func: a design has one accelerated region."""

from __future__ import annotations

import networkx as nx

from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Function
from mainspring.frontend.fuse_outputs import fusable_values
from mainspring.frontend.pipeline import Pipeline

from .placement import accelerate_call


def refuse_accelerated_outputs(pipe: Pipeline, accel: list[Function]) -> None:
    """Several accelerated Funcs that are outputs of their own: one reading another, or none reading another and not
    fused (frontend/fuse_outputs.py fuses outputs scheduled alike that can be one Tuple Func's elements). Returns for
    an accelerated stage inside an output's pipeline (the caller's message)."""
    names = [pipe.name(f) for f in accel]
    reads = [(a, b) for a in accel for b in accel
             if a is not b and nx.has_path(pipe.graph, pipe.name(a), pipe.name(b))]
    # an accelerated Func read by another is an output of its own (a Func other than the reader and its producers
    # reads it) or a stage the user meant to compute inside (the caller's message)
    reads = [(a, b) for a, b in reads if any(c != pipe.name(b) and not nx.has_path(pipe.graph, c, pipe.name(b))
                                             for c in pipe.graph.successors(pipe.name(a)))]
    if reads:
        producer, reader = reads[0]
        raise ScheduleError(
            f"{accelerate_call(reader)[2]}: Funcs '{producer.name}' and '{reader.name}' are each scheduled "
            f"hw_accelerate and '{reader.name}' reads '{producer.name}', but a design has one accelerated region, "
            "which computes several outputs only when none reads another; define "
            f"'{reader.name}' from what '{producer.name}' reads (a Func both read, computed at "
            f"{producer.name}'s {accelerate_call(producer)[1]}, in place of the call to '{producer.name}'), "
            f"scheduled exactly as '{producer.name}'")
    if any(nx.has_path(pipe.graph, a, b) for a in names for b in names if a != b):
        return
    locs = "; ".join(f"{f.name} at {accelerate_call(f)[2]}" for f in accel)
    a, b, store_var = accel[0].name, accel[1].name, accelerate_call(accel[0])[1]
    tuple_fix = (f"make them the elements of one Tuple Func and accelerate that (e.g. hw_outputs[x, y] = "
                 f"({a}[x, y], {b}[x, y]))")
    if not fusable_values(pipe, accel, words=True):
        raise ScheduleError(
            f"{accelerate_call(accel[1])[2]}: Funcs {', '.join(repr(n) for n in names)} are each scheduled "
            f"hw_accelerate ({locs}), and a design has one accelerated region, which computes several outputs as "
            "the elements of one Tuple Func: integer Funcs of one value each (not a Tuple, no update), over as many "
            f"variables, of at most 32 bits each; {tuple_fix}, a Tuple's values as elements of their own")
    raise ScheduleError(
        f"{accelerate_call(accel[1])[2]}: Funcs {', '.join(repr(n) for n in names)} are each scheduled hw_accelerate "
        f"({locs}) but not alike, and a design has one accelerated region; schedule '{b}' exactly as '{a}' (the "
        f"same tile and hw_accelerate calls, or the same tile and {b}.compute_with({a}, {store_var}) in place of its "
        f"hw_accelerate), so that one accelerator computes both as its outputs, or {tuple_fix}"
    )


def refuse_host_compute_with(pipe: Pipeline, out: Function) -> None:
    """A Func fused by compute_with with the accelerated `out` that frontend/fuse_outputs.py could not make one of
    its outputs: it would run on the host after the accelerator, which the user, who fused it with the
    accelerator's loops, would never learn (Halide-to-Hardware computes a loop fused inside the accelerated loop
    in the accelerator). One reading the other is refused before (frontend/compute_with.py), as Halide does."""
    for f in pipe.order:
        fused = f.placement.compute_with
        if fused is None or fused[0] is not out or f.placement.hw_accelerate is not None \
                or (f.placement.compute.kind == "at" and not pipe.is_output(f)):
            continue
        b, a, var = f.name, out.name, fused[1]
        call = f"{b}.compute_with({a}, {var})"
        drop = f"or drop the compute_with to compute '{b}' on the host after the accelerator"
        if not fusable_values(pipe, [out, f], words=True):
            raise ScheduleError(
                f"{fused[2]}: Func '{b}': {call} fuses '{b}' with the accelerated '{a}', but one accelerator computes "
                "several outputs as the elements of one Tuple Func: integer Funcs of one value each (not a Tuple, no "
                f"update), over as many variables, of at most 32 bits each, so '{b}' would run on the host; make them "
                f"the elements of one Tuple Func and accelerate that (e.g. hw_outputs[x, y] = ({a}[x, y], "
                f"{b}[x, y])), a Tuple's values as elements of their own, {drop}")
        raise ScheduleError(
            f"{fused[2]}: Func '{b}': {call} fuses '{b}' with the accelerated '{a}', but one accelerator computes "
            f"several outputs only when they are scheduled alike, and '{b}' is not scheduled exactly as '{a}', so "
            f"'{b}' would run on the host; schedule '{b}' exactly as '{a}' (the same tile, unroll and other calls) "
            f"and keep {call}, {drop}")
