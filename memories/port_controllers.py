"""Port controllers from an op's timing: the affine loop nest over a box of its iterations, in one piece or, for
a stream with a prologue (memories/stream_prologue.py), two."""

from __future__ import annotations

import dataclasses

from .ir import Controller, Dim, Steady
from .schedule import Timing


def controller(box: tuple[Dim, ...], rates: tuple[int, ...], start: int,
               address: tuple[int, tuple[int, ...]] | None = None) -> Controller:
    """An innermost-first controller over `box` (outermost first) firing at `start` for the box's min corner."""
    if not box:
        return Controller((1,), start, (0,), address[0] if address else 0, (0,) if address else ())
    data = (address[0], address[1]) if address else (0, ())
    cycles = tuple(r * d.step for r, d in zip(reversed(rates), reversed(box)))
    return Controller(tuple(d.extent for d in reversed(box)), start, cycles, data[0], data[1])


def timed_controller(box: tuple[Dim, ...], dims: tuple[Dim, ...], t: Timing, extra: int,
                     address: tuple[int, tuple[int, ...]] | None = None) -> Controller:
    """`controller` over `box` (within the op's loops `dims`) of an op fired at `t` plus `extra` cycles: with a
    two-piece timing, the box's outermost steps in the second piece fire on its schedule (`Controller.then`)."""
    first = controller(box, t.rates, t.delay + extra + box_offset(box, dims, t.rates), address)
    if t.then is None or not box:
        return first
    b0, split = box[0], dims[0].min + t.then.steps
    steps = min(b0.extent, max(0, -(-(split - b0.min) // b0.step)))
    if steps == b0.extent:
        return first
    at = (b0.min + b0.step * steps,) + tuple(d.min for d in box[1:])
    start = t.then.start + extra + t.then.rates[0] * (at[0] - split) + sum(
        q * (v - d.min) for q, v, d in zip(t.then.rates[1:], at[1:], dims[1:]))
    second = controller(box, t.then.rates, start, address)
    if steps == 0:  # the whole box in the second piece: one affine controller from its first firing
        return second
    return dataclasses.replace(first, then=Steady(steps, start, second.cycle_stride))


def box_offset(box: tuple[Dim, ...], dims: tuple[Dim, ...], rates: tuple[int, ...]) -> int:
    return sum(q * (b.min - d.min) for q, b, d in zip(rates, box, dims))
