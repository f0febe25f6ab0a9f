"""Port of the reference system's `conv_layer_mobile` generator (Halide-to-Hardware,
apps/hardware_benchmarks/apps/conv_layer_mobile/conv_layer_generator.cpp; see ../shared/h2h/README.md): a
mobile-style convolution layer, a 3x3 depthwise convolution of 4 input channels followed by a pointwise (1x1)
convolution to 3 output channels and a ReLU, 18x18x4 in, 16x16x3 out, with its Clockwork schedule.

As the reference writes it: the weights are constant Funcs computed at the accelerator and unrolled (folded into
the kernels); the depthwise update unrolls its window and its channels; the pointwise products `pw_conv(k, x, y,
c)` unroll both channel loops; the reduction over input channels (`pw_conv_reduction`) runs serially over its
RDom with the output channels unrolled; the output loops are `reorder(xi, yi, k, xo, yo)`, one output channel
plane after another.
"""

from __future__ import annotations

import numpy as np

import mainspring as hl

NAME = "h2h_conv_layer_mobile"
DEFAULT_SIZE = (16, 16)
IN_CHANNELS, OUT_CHANNELS = 4, 3


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    return in_width - 2, in_height - 2


def build(width: int = 16, height: int = 16, auto: bool = False, **extra: str):
    """The generator's schedule, or with `auto` its algorithm scheduled by mainspring/autoschedule.py (`extra`: the
    autoscheduler's keys, e.g. max_pes="15", the hand design's PEs)."""
    x, y, c, k = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("k")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 3, "input")
    filter_dw, filter_pw, bias_dw, bias_pw = (hl.Func(n) for n in ("filter_dw", "filter_pw", "bias_dw", "bias_pw"))
    filter_dw[x, y, c] = hl.u16(1)
    filter_pw[c, k] = hl.u16(3)
    bias_dw[c] = hl.u16(0)
    bias_pw[k] = hl.u16(0)

    hw_input, dw_conv, pw_conv = hl.Func("hw_input"), hl.Func("dw_conv"), hl.Func("pw_conv")
    pw_conv_reduction, hw_output, output = hl.Func("pw_conv_reduction"), hl.Func("hw_output"), hl.Func("output")
    r_dw = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r_dw")
    r_pw = hl.RDom([hl.Range(0, IN_CHANNELS)], "r_pw")
    hw_input[x, y, c] = hl.u16(input_[x, y, c])
    dw_conv[x, y, c] = hl.i16(0)
    dw_conv[x, y, c] += hl.i16(filter_dw[r_dw.x, r_dw.y, c] * hw_input[x + r_dw.x, y + r_dw.y, c])
    pw_conv[k, x, y, c] = hl.i16(0)
    pw_conv[k, x, y, c] += hl.i16(filter_pw[k, c] * dw_conv[x, y, c])
    pw_conv_reduction[k, x, y] = hl.i16(0)
    pw_conv_reduction[k, x, y] += hl.i16(pw_conv[k, x, y, r_pw.x])
    hw_output[x, y, k] = hl.max(0, pw_conv_reduction[k, x, y])
    output[x, y, k] = hl.u8(hw_output[x, y, k])

    image = np.random.default_rng(29).integers(0, 256, size=(IN_CHANNELS, height + 2, width + 2), dtype=np.uint8)
    if auto:
        output.set_estimates([(0, width), (0, height), (0, OUT_CHANNELS)])
        hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", dict(extra)))
        return output, {"input": image}
    # The schedule, as the generator writes it (Clockwork target).
    output.bound(x, 0, width).bound(y, 0, height).bound(k, 0, OUT_CHANNELS)
    pw_conv_reduction.bound(x, 0, width).bound(y, 0, height)
    pw_conv.bound(c, 0, IN_CHANNELS)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).reorder(xi, yi, k, xo, yo).hw_accelerate(xi, xo)
    filter_dw.compute_at(hw_output, xo).unroll(x).unroll(y).unroll(c)
    filter_pw.compute_at(hw_output, xo).unroll(c).unroll(k)
    bias_dw.compute_at(hw_output, xo).unroll(c)
    bias_pw.compute_at(hw_output, xo).unroll(k)
    pw_conv_reduction.update().reorder(k, x, y, r_pw.x).unroll(k)
    pw_conv_reduction.compute_at(hw_output, xo).store_at(hw_output, xo)
    pw_conv.compute_at(hw_output, xo).store_at(hw_output, xo).reorder(c, x, y, k)
    pw_conv.update().unroll(c).unroll(k)
    dw_conv.compute_at(hw_output, xo).reorder(x, y, c)
    dw_conv.update().reorder(r_dw.x, r_dw.y, x, y, c).unroll(r_dw.x).unroll(r_dw.y).unroll(c)
    hw_input.stream_to_accelerator()
    return output, {"input": image}
