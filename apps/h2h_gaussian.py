"""Port of the reference system's `gaussian` generator (Halide-to-Hardware, apps/hardware_benchmarks/apps/
gaussian; see ../shared/h2h/README.md): a 3x3 gaussian (sigma 1.5) whose weights are computed in floating
point (`exp`, normalised to 256) and cast to uint16, as the generator writes them. The weights are a constant
Func: the reference evaluates them exactly as Halide 21 does, and they fold into the kernel.

The schedule is the generator's default (GeneratorParam schedule = 3, mywidth = 62, myunroll = 2): GLB tiles of
62x196 output pixels (one memory tile each) at 2 pixels per cycle, the input copied into the GLB and into the
memory tile; its frame is 16x20 such tiles (992x3920, `GENERATOR_SIZE`). `schedule=0` is a single accelerator
tile with `lanes` pixels per cycle."""

from __future__ import annotations

import math

import mainspring as hl

from .common import autoschedule, input_extent, random_image
from .lanes import input_width, unroll_lanes

NAME = "h2h_gaussian"
DEFAULT_SIZE = (62, 196)  # one GLB tile of the generator's schedule; its whole frame is 16x20 of them
GENERATOR_SIZE = (62 * 16, 196 * 20)
BLOCK = 3
SIGMA = 1.5


def build(width: int = 62, height: int = 196, lanes: int = 2, schedule: int = 3, tile: tuple[int, int] = (62, 196),
          auto: bool = False):
    """The generator's schedule, or with `auto` its algorithm scheduled by mainspring/autoschedule.py at `lanes`
    pixels per cycle, through the GLB (use_glb "true", the default tiles) for schedule 3."""
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    win = hl.RDom([hl.Range(0, BLOCK), hl.Range(0, BLOCK)], "win")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    kernel_f = hl.Func("kernel_f")
    kernel_f[x] = hl.exp(-x * x / hl.f32(2 * SIGMA * SIGMA)) / hl.f32(math.sqrt(2 * math.pi) * SIGMA)
    total = None
    for i in range(BLOCK):
        for j in range(BLOCK):
            term = kernel_f[i - BLOCK // 2] * kernel_f[j - BLOCK // 2]
            total = term if total is None else term + total
    kernel = hl.Func("kernel")
    kernel[x, y] = hl.u16(kernel_f[x - BLOCK // 2] * kernel_f[y - BLOCK // 2] * 256.0 / total)
    blur_unnormalized, blur = hl.Func("blur_unnormalized"), hl.Func("blur")
    blur_unnormalized[x, y] = hl.u16(0)
    blur_unnormalized[x, y] += kernel[win.x, win.y] * hw_input[x + win.x, y + win.y]
    blur[x, y] = blur_unnormalized[x, y] / 256
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = blur[x, y]
    output[x, y] = hl.u8(hw_output[x, y])

    if auto:
        autoschedule(output, width, height, lanes, **({"use_glb": "true"} if schedule == 3 else {}))
        return output, {"input": random_image(*input_extent(output, "input"), seed=29)}
    output.bound(x, 0, width).bound(y, 0, height)
    if schedule == 3:
        _glb_schedule(locals(), tile, lanes)
        return output, {"input": random_image(input_width(width, lanes, (2,)), height + 2, seed=29)}
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    blur_unnormalized.update().unroll(win.x, BLOCK).unroll(win.y, BLOCK)
    blur_unnormalized.compute_at(hw_output, xo)
    blur.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()
    unroll_lanes(lanes, hw_output, [blur_unnormalized, blur], hw_input)
    return output, {"input": random_image(input_width(width, lanes, (2,)), height + 2, seed=29)}


def _glb_schedule(a: dict, tile: tuple[int, int], unroll: int) -> None:
    """The generator's schedule 3: GLB tiles of `tile` (one memory tile each), `unroll` pixels per cycle."""
    hw_output, hw_input, blur, blur_unnormalized, win = (a[k] for k in ("hw_output", "hw_input", "blur",
                                                                        "blur_unnormalized", "win"))
    x, y, xo, yo, xi, yi = (a[k] for k in ("x", "y", "xo", "yo", "xi", "yi"))
    xio, yio, xii, yii = hl.Var("xio"), hl.Var("yio"), hl.Var("xii"), hl.Var("yii")
    r = hl.TailStrategy.RoundUp
    hw_output.in_().compute_root()
    hw_output.in_().tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)
    hw_output.in_().unroll(xi, unroll, r)
    hw_output.in_().store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, *tile)
    hw_output.compute_at(hw_output.in_(), xo)
    hw_output.unroll(xii, unroll, r)
    blur.compute_at(hw_output, xio)
    blur.unroll(x, unroll, r)
    blur_unnormalized.update().unroll(win.x, BLOCK).unroll(win.y, BLOCK)
    blur_unnormalized.update().unroll(x, unroll, r)
    blur_unnormalized.unroll(x, unroll, r)
    blur_unnormalized.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)  # the memory tile
    hw_input.in_().in_().unroll(x, unroll, r)
    hw_input.in_().compute_at(hw_output.in_(), xo)
    hw_input.in_().store_in(hl.MemoryType.GLB)
    hw_input.in_().unroll(x, unroll, r)
    hw_input.compute_root().accelerator_input()
