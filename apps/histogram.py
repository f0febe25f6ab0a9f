"""A 256-bin histogram of an 8-bit image, `hist(clamp(in(x, y), 0, 255)) += 1` (issue 8's example of a write at
a computed coordinate): the bins are a RAM in a memory tile, updated read-modify-write at one pixel per cycle
(memories/ram.py), then streamed out.

As in `h2h_histogram`, the output is the 256 bins whatever the image size: `build(width, height)` takes the input
image's size (`output_size` is the identity for the bench).
"""

from __future__ import annotations

import mainspring as hl

from .common import random_image

NAME = "histogram"
DEFAULT_SIZE = (64, 64)
BINS = 256


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    return in_width, in_height  # build() takes the input image's size (the output is always BINS bins)


def build(width: int = 64, height: int = 64, auto: bool = False):
    """The hand schedule, or with `auto` the algorithm scheduled by mainspring/autoschedule.py."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, width), hl.Range(0, height)], "r")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hl.i32(hw_input[r.x, r.y]), 0, BINS - 1)] += hl.u16(1)
    hw_output[b] = hist[b]
    output[b] = hw_output[b]

    inputs = {"input": random_image(width, height, seed=37)}
    if auto:
        output.set_estimates([(0, BINS)])
        hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
        return output, inputs
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, BINS)
    hw_output.compute_root().split(b, bo, bi, BINS).hw_accelerate(bi, bo)
    hist.compute_at(hw_output, bo)
    hw_input.compute_root().stream_to_accelerator()
    return output, inputs
