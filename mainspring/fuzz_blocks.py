"""Kinds `mainspring fuzz` draws after session 20's (session 38): the schedules that session made compile. Each is
drawn from a random stream of its own (`with_blocks`), so that every seed's case without them is the case it was
before, whatever these draws take (`blocks_kinds` names a case's kinds for reports and tests):

- the input streamed in 2 x 2 blocks (`hw_input.unroll(x, 2).unroll(y, 2)`), each buffered stage and the output
  unrolled by 2 along x and y, x only, y only or not at all (tests/flow/test_blocks38.py);
- under seed 002's GLB level, the array output's rows unrolled (`hw_output.unroll(yii, 2)`), with the GLB copy, the
  buffered stages or the input's copies unrolled along y too (tests/flow/test_flow_glb_blocks.py);
- the output's loops fused and split at the accelerator (`fuse(x, y, xy).split(xy, xo, xi, F).hw_accelerate(xi,
  xo)`), F dividing the row or a whole number of rows (tests/flow/test_flow_fused_splits.py);
- the output bounded by `bound_extent(x, W)` alone, its min the realize's (tests/flow/test_flow_output_bound_extent.py).
"""

from __future__ import annotations

import dataclasses
import random

from .fuzz_case import Case

_READERS = ("xy", "x", "y", "")


def with_blocks(seed: int, case: Case) -> Case:
    """Every kind of this module, drawn from the seed's own stream (not the generator's: the draws of the
    sessions before stay as they were)."""
    rng = random.Random(f"fuzz session 38: {seed}")
    for draw in (with_input_blocks, with_glb_rows, with_fused_split, with_bound_extent):
        case = draw(rng, case)
    return case


def with_input_blocks(rng: random.Random, case: Case) -> Case:
    """One case in eight of one accelerator level, one lane, an image output and its tile's own loops streams the
    input in 2 x 2 blocks, each buffered stage and the output unrolled by 2 (RoundUp) along x and y, x, y or not:
    readers of fewer lanes step through each transfer's words (hwlower/lane_steps.py). Not over serial reductions
    (as `generate` draws lanes), nor a stage at the output's row loop (unrolled itself)."""
    plain = (case.variant in ("", "store_at", "accelerator_input") and case.lanes == 1 and not case.mixed
             and not case.channels and not case.bins and not case.loops and not any(s.at for s in case.stages)
             and all(s.kind != "reduce" or s.unrolled for s in case.stages))
    if not plain or rng.random() >= 1 / 8:
        return case
    names = [s.name for s in case.stages if not s.inline] + ["hw_output"]
    return dataclasses.replace(case, blocks=tuple((n, rng.choice(_READERS)) for n in names))


def with_glb_rows(rng: random.Random, case: Case) -> Case:
    """One GLB case in three unrolls the array output's rows by 2 (RoundUp: memory tiles of any height), in one of
    two the GLB copy too, the buffered stages in one of two, and (at one lane of x: the GLB input is refused in
    blocks, catalogue glb_input_in_blocks) the input's copies two rows per transfer in one of three."""
    if case.variant != "glb" or rng.random() >= 1 / 3:
        return case
    rows = "r" + "c" * (rng.random() < 1 / 2) + "s" * (rng.random() < 1 / 2)
    rows += "i" * (case.lanes == 1 and rng.random() < 1 / 3)
    return dataclasses.replace(case, glb_rows=rows)


def with_fused_split(rng: random.Random, case: Case) -> Case:
    """One case in eight of one accelerator tile, an image output and no loops of the output's own but x's lanes
    fuses x and y and splits the fused loop at the accelerator: F a divisor of the width (tiles of F columns by a
    row) or k whole rows (the last tile shifted inward where k does not divide the height), Halide's Auto tail."""
    fit = (case.variant in ("", "store_at", "accelerator_input") and case.tile is None and case.lanes == 1
           and not case.mixed and not case.blocks and not case.bins and not case.loops and case.store != "yo"
           and not any(s.at == "yi" for s in case.stages))
    if not fit or rng.random() >= 1 / 8:
        return case
    if rng.random() < 1 / 2:
        factor = rng.choice([d for d in range(1, case.width + 1) if case.width % d == 0])
    else:
        factor = case.width * rng.randint(1, case.height)
    return dataclasses.replace(case, fused=factor)


def with_bound_extent(rng: random.Random, case: Case) -> Case:
    """One case in ten bounds the output by `bound_extent` alone (its min 0, the realize's), as users whose
    generators leave the min to the caller write it."""
    if rng.random() >= 1 / 10:
        return case
    return dataclasses.replace(case, bound_extent=True)


def simpler_blocks(c: Case):
    """Cases with one of this module's kinds fewer, for the shrinker (mainspring/fuzz.py `shrink`)."""
    rep = dataclasses.replace
    for name, off in (("blocks", ()), ("glb_rows", ""), ("fused", 0), ("bound_extent", False)):
        if getattr(c, name) != off:
            yield rep(c, **{name: off})
    if c.blocks and any(d for _, d in c.blocks):  # the same blocks, read a word at a time
        yield rep(c, blocks=tuple((n, "") for n, _ in c.blocks))


def blocks_kinds(case: Case) -> list[str]:
    """The names of this module's kinds a case has drawn."""
    kinds = [f"blocks_{d or '1'}" for _, d in case.blocks] if case.blocks else []
    kinds += ["glb_rows"] * bool(case.glb_rows) + ["fused_row" if case.fused and case.fused <= case.width
                                                   else "fused_rows"] * bool(case.fused)
    return kinds + ["bound_extent"] * case.bound_extent


__all__ = ["blocks_kinds", "simpler_blocks", "with_blocks"]
