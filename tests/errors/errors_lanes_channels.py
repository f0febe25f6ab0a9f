"""Catalogue cases: lanes that run along the channels (a pipeline stored channels first, `f(c, x, y)`): the
refusal names the dimension the lanes run along, not x (probe20's finding, session 35)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


@case("hardware", "Channel lanes of a stream read 3 a cycle by a stage unrolled by 3 over 4 channels", (
    "{mid_lanes}: Func 'mid' computes 3 pixels per cycle (mid.unroll(c, 3, hl.TailStrategy.RoundUp) at "
    "{mid_lanes}), so it reads 3 pixels of 'hw_input' along c per cycle, but accelerator input 'hw_input' streams "
    "4 per cycle (hw_input.unroll(c, 4) at {input_lanes}): each lane of a consumer reads one lane of its producer, "
    "so the producer's lanes must divide what the consumer reads per cycle, or the consumer must read them in "
    "turn, over whole steps of 4 iterations of its loop over c (which has 2). Fix: change mid.unroll(c, 3, "
    "hl.TailStrategy.RoundUp) to mid.unroll(c, 4) so that it keeps pace with 'hw_input', and add "
    "hw_output.unroll(c, 4) so that the stages after it keep pace in turn, or remove hw_input.unroll(c, 4) so that "
    "'hw_input' streams at its pace, and add hw_output.unroll(c, 3) so that the stages after it keep pace in turn, "
    "or change hw_input.unroll(c, 4) to hw_input.unroll(c, 2) so that 'hw_input' streams at its pace, and change "
    "mid.unroll(c, 3, hl.TailStrategy.RoundUp) to mid.unroll(c, 2) and add hw_output.unroll(c, 2) so that the "
    "stages after it keep pace in turn."), func="mid", simulate=True)
def lanes_along_the_channels():
    return _channels_first(fix=False)


@lanes_along_the_channels.fix
def _():
    return _channels_first(fix=True)


def _channels_first(fix: bool):
    """4 channels stored first, 6x4: a 2-tap sum along x per channel; the stream carries all 4 channels a
    transfer."""
    c, x, y, xo, yo, xi, yi = (hl.Var(n) for n in "c x y xo yo xi yi".split())
    inp = hl.ImageParam(hl.UInt(16), 3, "input")
    hw_input, mid, hw_output, output = hl.Func("hw_input"), hl.Func("mid"), hl.Func("hw_output"), hl.Func("output")
    hw_input[c, x, y] = inp[c, x, y]
    mid[c, x, y] = hw_input[c, x, y] + hw_input[c, x + 1, y]
    hw_output[c, x, y] = mid[c, x, y]
    output[c, x, y] = hw_output[c, x, y]
    output.bound(c, 0, 4).bound(x, 0, 6).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
    mid.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator().unroll(c, 4)  # <-input_lanes
    if fix:
        mid.unroll(c, 4)
        hw_output.unroll(c, 4)
    else:
        mid.unroll(c, 3, hl.TailStrategy.RoundUp)  # <-mid_lanes
    return hl.compile(output, name="demo")
