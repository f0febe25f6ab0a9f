"""Port of the reference system's `three_level_memory` test (Halide-to-Hardware, apps/hardware_benchmarks/tests/
three_level_memory; see ../shared/h2h/README.md): a 3x3 box sum through three levels written as compute_at
levels, with no memory type named: the input copied once per accelerator tile (`input_gb`, "global buffer"), the
convolution and its input copy computed once per 62x62 tile of the output copy (`output_gb`, "memory tile").
The generator's size is 250x250 in, 248x248 out: one accelerator tile of 4x4 memory tiles.

As Clockwork does, the per-accelerator-tile copies are the GLB level (hwlower/hierarchy.py: an implicit GLB
level), and the array runs once per memory tile: 4097 cycles for each 64x64 input tile, the 3x3 window in one
memory tile at its minimum storage. The GLB tile streams through: each memory tile starts once the host has
loaded the rows it reads, and the host reads rows back as they are finished; since the host loads and reads back
in row order across the memory tiles, the run is about 1.4-1.5x the input's words in cycles (3x when the load,
the array and the read-back ran one after the other)."""

from __future__ import annotations

import mainspring as hl

from .common import autoschedule, random_image

NAME = "h2h_three_level_memory"
TILE = 62
DEFAULT_SIZE = (TILE * 4, TILE * 4)


def build(width: int = TILE * 4, height: int = TILE * 4, auto: bool = False):
    """The generator's schedule, or with `auto` its algorithm scheduled by mainspring/autoschedule.py."""
    x, y = hl.Var("x"), hl.Var("y")
    x_host, y_host, x_gb, y_gb, x_cgra, y_cgra = (hl.Var(n) for n in ("x_host", "y_host", "x_gb", "y_gb",
                                                                      "x_cgra", "y_cgra"))
    xi, yi = hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    kernel, conv = hl.Func("kernel"), hl.Func("conv")
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    kernel[x, y] = 1
    hw_input, input_host, input_gb = hl.Func("hw_input"), hl.Func("input_host"), hl.Func("input_gb")
    input_host[x, y] = hl.u16(input_[x, y])  # on the host
    input_gb[x, y] = input_host[x, y]  # the global buffer
    hw_input[x, y] = input_gb[x, y]  # a memory tile
    conv[x, y] += hw_input[x + r.x, y + r.y]
    hw_output, output_gb, output = hl.Func("hw_output"), hl.Func("output_gb"), hl.Func("output")
    output_gb[x, y] = conv[x, y]
    hw_output[x, y] = output_gb[x, y]
    output[x, y] = hl.u8(hw_output[x, y])

    inputs = {"input": random_image(width + 2, height + 2, seed=23)}
    if auto:
        autoschedule(output, width, height)
        return output, inputs
    hw_output.compute_root()
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.tile(x, y, x_host, y_host, xi, yi, width, height).hw_accelerate(xi, x_host)
    output_gb.compute_at(hw_output, x_host)
    output_gb.tile(x, y, x_gb, y_gb, x_cgra, y_cgra, TILE, TILE)
    conv.update().unroll(r.x).unroll(r.y)
    conv.compute_at(output_gb, x_gb)
    kernel.compute_at(output_gb, x_gb)
    input_host.compute_root()
    input_host.accelerator_input()
    input_gb.compute_at(hw_output, x_host)
    hw_input.compute_at(output_gb, x_gb)
    return output, inputs
