"""Check that what each kernel assumes of its inputs is what the buffers it loads hold.

A kernel narrowed by value ranges (`kernel_widths`) is proved under the ranges its module assumes of its
inputs, and proved to keep its outputs in the ranges it states (`prove`). The proofs then compose when every
assumption holds: a buffer holds what its writers' value kernels output (their stated ranges, else their types'),
a RAM also its initial value, and an input stream the values of the Func the host computes (`streams`, from
the frontend's function value bounds; without them, the stream's type's range). This module checks exactly
that containment, with no solver.
"""

from __future__ import annotations

from mainspring.hwlower.ir import LoopNest, init_interval

from .kernel_widths import parse_ranges
from .names import kernel_module
from .prove_netlist import NetlistError, module_text

Interval = tuple[int, int]


def unmet_assumptions(nest: LoopNest, verilog: str, streams: dict[str, Interval]) -> dict[str, str]:
    """kernel module -> why one of its input ranges is not guaranteed (empty when every assumption holds)."""
    stated = {}
    for _, op in nest.ops():
        try:
            stated[op.name] = parse_ranges(module_text(verilog, kernel_module(op.name)))
        except NetlistError:  # a kernel missing from the text is the proofs' finding, not this check's
            stated[op.name] = ({}, {})
    holds = _buffer_values(nest, streams, {name: outs for name, (_, outs) in stated.items()})
    unmet: dict[str, str] = {}
    for _, op in nest.ops():
        assumed = stated[op.name][0]
        for load in op.loads:
            if load.name not in assumed:
                continue
            lo, hi = assumed[load.name]
            b = nest.buffer(load.access.buffer)
            got = holds.get(b.name, (0, 1) if b.type.is_bool() else (int(b.type.min()), int(b.type.max())))
            if not lo <= got[0] <= got[1] <= hi:
                unmet.setdefault(kernel_module(op.name), f"input {load.name} is assumed in [{lo}, {hi}], but buffer "
                                                         f"{load.access.buffer} holds values in [{got[0]}, {got[1]}]")
    return unmet


def _buffer_values(nest: LoopNest, streams: dict[str, Interval],
                   outputs: dict[str, dict[str, Interval]]) -> dict[str, Interval]:
    """Each buffer's values: the hull of its writers' stated output ranges (`outputs`: op -> port -> range; a
    writer without one, its type's range), its initial value and its input stream's values."""
    found: dict[str, Interval] = {}

    def join(buffer: str, iv: Interval) -> None:
        old = found.get(buffer, iv)
        found[buffer] = (min(old[0], iv[0]), max(old[1], iv[1]))

    for b in nest.buffers:
        whole = (0, 1) if b.type.is_bool() else (int(b.type.min()), int(b.type.max()))
        if b.name in nest.inputs:
            join(b.name, streams.get(b.name, whole))
        if b.init is not None:
            join(b.name, init_interval(b.init))
        for _, op in nest.ops():
            if op.store.buffer == b.name:
                join(b.name, outputs[op.name].get("out", whole))
    return found
