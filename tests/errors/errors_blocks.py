"""Catalogue cases: an accelerator input streamed in blocks of rows by words of x (`hw_input.unroll(x, 2)
.unroll(y, 2)`, session 38; refused before as `input_unrolled_along_y`, now compiled: tests/flow/test_blocks38.py)
where a block cannot be streamed: an unroll of a third dimension besides, and a GLB input, whose entries hold lanes
along one dimension (memories/glb_rows.py)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case, glb_levels, pipeline

R = hl.TailStrategy.RoundUp


def _planes(third: bool):
    """hw_input (x, y, c: 2 planes) -> hw_output (a tap and its diagonal neighbour), 6x4x2, 2x2 lanes each."""
    c, x, y, xo, yo, xi, yi = (hl.Var(n) for n in "c x y xo yo xi yi".split())
    inp = hl.ImageParam(hl.UInt(16), 3, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y, c] = inp[x, y, c]
    hw_output[x, y, c] = hw_input[x, y, c] * 2 + hw_input[x + 1, y + 1, c]
    output[x, y, c] = hw_output[x, y, c]
    output.bound(c, 0, 2).bound(x, 0, 6).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(xi, yi, c, xo, yo).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator().unroll(x, 2, R).unroll(y, 2, R)
    hw_output.unroll(xi, 2, R).unroll(yi, 2, R)
    if third:
        hw_input.unroll(c, 2)  # <-third
    return hl.compile(output, name="demo")


@case("hardware", "An accelerator input unrolled along x, y and a third dimension", (
    "{third}: accelerator input 'hw_input': hw_input.unroll(c, 2): the host streams an accelerator input in stream "
    "order (x, y, c: its storage order, or the order its reorder_storage or its loops' reorder give), several "
    "consecutive words per transfer: its leading dimensions unrolled whole, then one unrolled by a factor, e.g. "
    "hw_input.unroll(x, <lanes>) (or hw_input.unroll(y, <lanes>): values of it side by side, each a word of x or, "
    "with x unrolled by a factor too, a block of them), or remove hw_input.unroll(c, 2) to stream it a word per "
    "transfer (its unrolled consumers then read it from its buffer)"), func="hw_input", simulate=True,
    note="Halide accepts it; x and y unrolled together compile since session 38 (a block per transfer)")
def input_unrolled_along_three_dims():
    return _planes(third=True)


@input_unrolled_along_three_dims.fix
def _():
    return _planes(third=False)


@case("hardware", "The GLB copy of an accelerator input unrolled along x and y", (
    "{at}: accelerator input 'hw_input_global_wrapper': hw_input.in_().unroll(y, 2, hl.TailStrategy.RoundUp): "
    "with a GLB level, a GLB input's entries hold its stream's lanes along one dimension, but hw_input.in_() is "
    "unrolled along x too (hw_input.in_().unroll(x, 2, hl.TailStrategy.RoundUp) at {at}): a block of 2 x 2 words "
    "per transfer streams only without a GLB level. Fix: remove hw_input.in_().unroll(y, 2, "
    "hl.TailStrategy.RoundUp) to stream 2 words of x per transfer (or remove hw_input.in_().unroll(x, 2, "
    "hl.TailStrategy.RoundUp) to stream 2 rows per transfer)"), func="hw_input_global_wrapper", simulate=True,
    note="Halide accepts it (a gap: a GLB entry of a block)")
def glb_input_in_blocks():
    p = glb_levels(pipeline(32, 32))
    p.hw_input.in_().unroll(p.x, 2, R).unroll(p.y, 2, R)  # <-
    p.hw_input.in_().in_().unroll(p.y, 2, R)
    return hl.compile(p.output, name="demo")


@glb_input_in_blocks.fix
def _():
    # (the message's second fix: the rows per transfer that the memory tiles' copy takes, tests/flow/test_glbrows22.py)
    p = glb_levels(pipeline(32, 32))
    p.hw_input.in_().unroll(p.y, 2, R)
    p.hw_input.in_().in_().unroll(p.y, 2, R)
    return hl.compile(p.output, name="demo")
