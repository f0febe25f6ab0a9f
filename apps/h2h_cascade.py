"""Port of the reference system's `cascade` generator (Halide-to-Hardware, apps/hardware_benchmarks/apps/cascade;
see ../shared/h2h/README.md): two chained 3x3 convolutions with a [1 2 1]x[1 2 1] kernel, each divided by 16.

The kernel is a constant Func (a pure zero plus nine updates at constant coordinates) computed inside the
accelerator, as the reference's schedule writes it; its reads at constant coordinates fold into the kernels.
Three schedules, as in the generator:
- `schedule=0`: hw_output is accelerated as one tile; conv1, conv1_shift and conv2 are not scheduled, so they
  are inlined into hw_output.
- `schedule=1` (the default, as the generator's GeneratorParam: `schedule{"schedule", 1}`): conv1, conv1_shift and
  conv2 get line buffers, with their reductions unrolled.
- `schedule=2`: the three-level hierarchy: a GLB tile (360x360 in the generator, shrunk to the output as in
  Halide) of 60x60 memory tiles, the input copied into the GLB and into the memory tiles.
The generator's image is 64x64 in, 60x60 out.
"""

from __future__ import annotations

import mainspring as hl

from .common import autoschedule, random_image

NAME = "h2h_cascade"
DEFAULT_SIZE = (60, 60)


def algorithm(schedule: int):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    kernel = hl.Func("kernel")
    kernel[x, y] = 0
    for (i, j), w in zip([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)],
                         [1, 2, 1, 2, 4, 2, 1, 2, 1]):
        kernel[i, j] = w
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    r2 = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r2")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    conv1, conv1_shift, conv2 = hl.Func("conv1"), hl.Func("conv1_shift"), hl.Func("conv2")
    if schedule in (1, 2):
        conv1[x, y] = hl.u16(0)
        conv1[x, y] += hl.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    else:
        conv1[x, y] = sum((hl.u16(kernel[i, j]) * hw_input[x + i, y + j] for j in range(3) for i in range(3)),
                          start=hl.u16(0))
    conv1_shift[x, y] = conv1[x, y] / 16
    if schedule in (1, 2):
        conv2[x, y] = hl.u16(0)
        conv2[x, y] += hl.u16(kernel[r2.x, r2.y]) * conv1_shift[x + r2.x, y + r2.y]
    else:
        conv2[x, y] = sum((hl.u16(kernel[i, j]) * conv1_shift[x + i, y + j] for j in range(3) for i in range(3)),
                          start=hl.u16(0))
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = conv2[x, y] / 16
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])
    return locals()


def build(width: int = 60, height: int = 60, schedule: int = 1, auto: bool = False):
    """The generator's schedule, or with `auto` its algorithm (schedule 1's and 2's) scheduled by
    mainspring/autoschedule.py: with schedule 2, seed 002's three levels (use_glb "true") as the generator's."""
    a = algorithm(1 if auto else schedule)
    x, y, output, hw_output, hw_input = a["x"], a["y"], a["output"], a["hw_output"], a["hw_input"]
    if auto:
        autoschedule(output, width, height, **({"use_glb": "true"} if schedule == 2 else {}))
        return output, {"input": random_image(width + 4, height + 4, seed=11)}
    conv1, conv1_shift, conv2, kernel, r, r2 = (a[k] for k in ("conv1", "conv1_shift", "conv2", "kernel", "r", "r2"))
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    output.bound(x, 0, width).bound(y, 0, height)
    if schedule == 2:
        xio, yio, xii, yii = hl.Var("xio"), hl.Var("yio"), hl.Var("xii"), hl.Var("yii")
        hw_output.in_().compute_root().tile(x, y, xo, yo, xi, yi, 360, 360).hw_accelerate(xi, xo) \
            .store_in(hl.MemoryType.GLB)
        hw_output.tile(x, y, xio, yio, xii, yii, 60, 60).compute_at(hw_output.in_(), xo)
        conv2.compute_at(hw_output, xio)
        conv2.update().unroll(r2.x).unroll(r2.y)
        conv1.compute_at(hw_output, xio)
        conv1.update().unroll(r.x).unroll(r.y)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(hw_output.in_(), xo).store_in(hl.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
        kernel.compute_at(hw_output, xio)
    else:
        hw_output.compute_root()
        hw_output.tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
        if schedule == 1:
            conv2.store_at(hw_output, xo).compute_at(hw_output, xo)
            conv2.update().unroll(r2.x).unroll(r2.y)
            conv1_shift.store_at(hw_output, xo).compute_at(hw_output, xo)
            conv1.store_at(hw_output, xo).compute_at(hw_output, xo)
            conv1.update().unroll(r.x).unroll(r.y)
        kernel.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": random_image(width + 4, height + 4, seed=11)}
