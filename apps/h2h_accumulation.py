"""Port of the reference system's `accumulation` test (Halide-to-Hardware, apps/hardware_benchmarks/tests/
accumulation; see ../shared/h2h/README.md): a 3x3 convolution accumulated serially (the reduction is not
unrolled: one tap per cycle, 9 cycles a pixel) whose weights are a table of its coordinate, `kernel(x) = x`, read
at `r.x + 3 * r.y`: a ROM addressed by the reduction's counters. 64x64 in, 62x62 out, with the generator's
Clockwork schedule.

The input stream is paced to the reduction (one word per 9 cycles), so two rows are buffered (132 words at
64x64, 3844 at full HD); cycles are within 7% of the busiest kernel's 62 * 62 * 9 firings at 64x64 (0.3% at
full HD): the first output waits for two paced rows."""

from __future__ import annotations

import mainspring as hl

from .common import autoschedule, random_image

NAME = "h2h_accumulation"
KSIZE = 3
DEFAULT_SIZE = (64 - KSIZE + 1, 64 - KSIZE + 1)


def build(width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1], auto: bool = False, **extra: str):
    """The generator's schedule, or with `auto` its algorithm scheduled by mainspring/autoschedule.py (`extra`:
    the autoscheduler's keys, e.g. max_pes="8")."""
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    kernel, conv = hl.Func("kernel"), hl.Func("conv")
    r = hl.RDom([hl.Range(0, KSIZE), hl.Range(0, KSIZE)], "r")
    kernel[x] = x
    conv[x, y] = hl.u16(0)
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    conv[x, y] += hl.u16(kernel[r.x + 3 * r.y]) * hw_input[x + r.x, y + r.y]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = hl.u8(conv[x, y])
    output[x, y] = hl.u8(hw_output[x, y])

    inputs = {"input": random_image(width + KSIZE - 1, height + KSIZE - 1, seed=37)}
    if auto:
        autoschedule(output, width, height, **extra)
        return output, inputs
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    conv.store_at(hw_output, xo).compute_at(hw_output, xo)
    kernel.compute_at(conv, x)
    kernel.unroll(x, 9)
    hw_input.stream_to_accelerator()
    return output, inputs
