"""Port of the reference system's `up_sample` test (Halide-to-Hardware, apps/hardware_benchmarks/tests/up_sample,
unet/up_sample in its PAPER_APPS; see ../shared/h2h/README.md): a 2x bilinear upsample, 3/4 of the nearest input
pixel and 1/4 of the next one on the side of the output pixel, along x (upx) then y (nearest_neighbor, the
generator's name), 64x64 in, 124x124 out, with the generator's Clockwork schedule (the whole output one
accelerator tile).

Each output pixel reads hw_input at columns x / 2 - 1 + 2 * (x % 2) and x / 2 of rows y / 2 - 1 + 2 * (y % 2)
and y / 2: hwlower strip-mines x and y (x = 2 * xo + xi), where these are xo - 1 + 2 * xi and xo, and the
input stream is paced to the output (memories.schedule._paced): one word per two cycles, one row per two
output rows, so about three input rows are stored. An odd output row reads the input row after its own
(y / 2 + 1), so the first output waits for one and a half input rows of the paced stream.
"""

from __future__ import annotations

import mainspring as hl

from .common import accelerate, autoschedule, input_extent, random_image

NAME = "h2h_up_sample"
DEFAULT_SIZE = (124, 124)
FACTOR = 2


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    """The output size for an input size (the bench's sizes are input sizes): the blend reads one input pixel on
    each side, and hw_input starts at input (1, 1)."""
    return FACTOR * (in_width - 2), FACTOR * (in_height - 2)


def build(width: int = 124, height: int = 124, auto: bool = False):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x + 1, y + 1])
    upx, nearest_neighbor = hl.Func("upx"), hl.Func("nearest_neighbor")
    upx[x, y] = hw_input[x / 2 - 1 + 2 * (x % 2), y] / 4 + 3 * hw_input[x / 2, y] / 4
    nearest_neighbor[x, y] = upx[x, y / 2 - 1 + 2 * (y % 2)] / 4 + 3 * upx[x, y / 2] / 4
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = nearest_neighbor[x, y]
    output[x, y] = hl.u8(hw_output[x, y])

    if auto:  # the algorithm as written, scheduled by mainspring/autoschedule.py
        autoschedule(output, width, height)
    else:
        accelerate(output, hw_output, width, height, [], hw_input)
    # hw_input is read at x / 2 - 1 to x / 2 + 1, from input column 1 on: input columns 0 to width / 2 + 1 (Halide's
    # intervals of x / 2 - 1 + 2 * (x % 2) take one more at an odd width).
    return output, {"input": random_image(*input_extent(output, "input"), seed=29)}
