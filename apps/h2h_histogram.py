"""Port of the reference system's `histogram` test (Halide-to-Hardware, apps/hardware_benchmarks/tests/histogram;
see ../shared/h2h/README.md): a 16-bin histogram of the low 4 bits of a 64x64 image, `histogram(bin(r.x, r.y))
+= 1`, with its Clockwork schedule.

The output is the 16 bins whatever the image size: here `width` x `height` is the input image (the generator's
64x64), so `output_size` is the identity for the bench. `histogram` is left unscheduled, as in the generator:
Halide computes a Func with updates at its consumer's innermost loop, and the hardware buffers it at the
accelerator's loop (the same values). Its write at a computed coordinate updates all 16 bins in each step, each
bin a lane that adds one when the pixel falls in it (hwlower/scatter.py): one pixel per cycle.
"""

from __future__ import annotations

import mainspring as hl

from .common import random_image

NAME = "h2h_histogram"
DEFAULT_SIZE = (64, 64)
BINS = 16


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    return in_width, in_height  # build() takes the input image's size (the output is always BINS bins)


def build(width: int = 64, height: int = 64, auto: bool = False):
    """The generator's schedule, or with `auto` its algorithm scheduled by mainspring/autoschedule.py."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, bin_, histogram = hl.Func("hw_input"), hl.Func("bin"), hl.Func("histogram")
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, width), hl.Range(0, height)], "r")
    bin_[x, y] = hl.clamp(hl.i32(hw_input[x, y] & 0xf), 0, BINS - 1)  # the lower 4 bits
    histogram[b] = hl.u16(0)
    histogram[bin_[r.x, r.y]] += hl.u16(1)
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[b] = histogram[b]
    output[b] = hl.u8(hw_output[b])

    inputs = {"input": random_image(width, height, seed=31)}
    if auto:
        output.set_estimates([(0, BINS)])
        hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
        return output, inputs
    bo, bi = hl.Var("bo"), hl.Var("bi")
    histogram.bound_extent(b, BINS)
    output.bound(b, 0, BINS)
    hw_output.compute_root()
    hw_output.split(b, bo, bi, BINS).hw_accelerate(bi, bo)
    bin_.compute_at(hw_output, bo)
    hw_input.stream_to_accelerator()
    return output, inputs
