"""Port of the reference system's `resnet_layer_gen` generator (Halide-to-Hardware,
apps/hardware_benchmarks/apps/resnet_layer_gen; `resnet_output_stationary` in its CI; see ../shared/h2h/README.md):
a 3x3 convolution layer of 8 input channels to 3 output channels with a ReLU, zero-padded by clamping, 28x28x8
in, 28x28x3 out, with its Clockwork schedule ("channel weight stationary").

As the reference schedules it: the image and the weights are two accelerator inputs streamed side by side; the
update of `conv` loops over the window taps outermost (`reorder(w, r.z, x, y, r.x, r.y)`), sweeping the frame
once per tap, with the output channels `w` and the input channels `r.z` unrolled: the 8 unrolled input channels
of one output pixel add into the same `conv(x, y, w)`, so they form one adder tree per output channel
(hwlower/trees.py), and `conv` accumulates across the 9 sweeps in memory. Each memory bank holds the input
channels its reads touch, so the image is stored once, not once per pair of read ports.
"""

from __future__ import annotations

import numpy as np

import mainspring as hl

NAME = "h2h_resnet_layer_gen"
DEFAULT_SIZE = (28, 28)
PAD, KSIZE, STRIDE = 1, 3, 1
K_IC, K_OC = 8, 3


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    return (in_width + 2 * PAD - KSIZE) // STRIDE + 1, (in_height + 2 * PAD - KSIZE) // STRIDE + 1


def build(width: int = 28, height: int = 28, auto: bool = False):
    """`width` x `height` is the output (and, with this padding, the input) image; `auto`: the algorithm scheduled
    by mainspring/autoschedule.py instead of the generator's schedule."""
    in_w, in_h = width, height  # (in + 2 * pad - ksize) / stride + 1 == in for the generator's parameters
    x, y, z, w = hl.Var("x"), hl.Var("y"), hl.Var("z"), hl.Var("w")
    input_ = hl.ImageParam(hl.Int(16), 3, "input")
    kernel = hl.ImageParam(hl.Int(16), 4, "kernel")
    r = hl.RDom([hl.Range(0, KSIZE), hl.Range(0, KSIZE), hl.Range(0, K_IC)], "r")
    conv, hw_input, clamp_input, hw_kernel = (hl.Func(n) for n in ("conv", "hw_input", "clamp_input", "hw_kernel"))
    conv[x, y, w] = hl.i16(0)
    clamp_input[z, x, y] = input_[z, hl.clamp(x - PAD, 0, in_w - 1), hl.clamp(y - PAD, 0, in_h - 1)]
    hw_kernel[z, w, x, y] = hl.i16(kernel[z, w, x, y])
    hw_input[z, x, y] = hl.i16(clamp_input[z, x, y])
    conv[x, y, w] += hw_kernel[r.z, w, r.x, r.y] * hw_input[r.z, STRIDE * x + r.x, STRIDE * y + r.y]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y, w] = hl.i16(hl.max(0, conv[x, y, w]))
    output[x, y, w] = hw_output[x, y, w]

    rng = np.random.default_rng(41)
    # arrays are indexed [y, x, z] and [y, x, w, z]: the reverse of the Funcs' argument order
    inputs = {"input": rng.integers(-128, 128, size=(in_h, in_w, K_IC)).astype(np.int16),
              "kernel": rng.integers(-16, 16, size=(KSIZE, KSIZE, K_OC, K_IC)).astype(np.int16)}
    out_w, out_h = output_size(in_w, in_h)
    if auto:
        output.set_estimates([(0, out_w), (0, out_h), (0, K_OC)])
        hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
        return output, inputs
    output.bound(x, 0, out_w).bound(y, 0, out_h).bound(w, 0, K_OC)
    hw_output.bound(w, 0, K_OC)
    hw_kernel.bound(z, 0, K_IC)
    hw_input.bound(z, 0, K_IC)
    xi, yi, xo, yo = hl.Var("xi"), hl.Var("yi"), hl.Var("xo"), hl.Var("yo")
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, out_w, out_h).hw_accelerate(xi, xo).reorder(xi, yi, w, xo, yo)
    hw_kernel.reorder_storage(z, w, x, y).reorder(z, w, x, y)
    hw_input.reorder_storage(z, x, y).reorder(z, x, y)
    conv.reorder(w, x, y).reorder_storage(w, x, y)
    conv.update().reorder(w, r.z, x, y, r.x, r.y)
    conv.unroll(w, K_OC)
    conv.update().unroll(w, K_OC).unroll(r.z, K_IC)  # channel weight stationary
    conv.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()
    hw_kernel.stream_to_accelerator()
    return output, inputs
