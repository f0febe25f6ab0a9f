"""Catalogue cases of helper glbin22 (session 36): a GLB input copy computed inside the accelerator at a loop other
than its GLB tile loop (hwlower/region.py; at the GLB tile loop it compiles with no GLB output level,
hwlower/glb_input_level.py)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


def _glb_copy_at(loop: str):
    """hw_output over 16x8 in accelerator tiles of 8x4 (hw_accelerate(xi, xo)), no GLB output level, and
    hw_input.in_() stored in the GLB computed at hw_output's `loop`."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    hw_output[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 16).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
    hw_input.in_().compute_at(hw_output, hl.Var(loop)).store_in(hl.MemoryType.GLB)  # <-copy
    hw_input.compute_root().accelerator_input()
    return hl.compile(output, name="demo")


@case("hardware", "store_in(GLB) on an input copy computed at a loop inside the accelerator tile", (
    "{copy}: Func 'hw_input_global_wrapper': store_in(MemoryType.GLB): 'hw_input_global_wrapper' is computed inside "
    "the accelerator (compute_at(hw_output, yi)), where buffers are memory tiles and registers; the GLB holds only "
    "the accelerator's tile copies (the hw_accelerate Func, e.g. hw_output.in_(), and copies of its inputs computed "
    "at its GLB tile loop, e.g. hw_input.in_()); remove the call, or load it into the GLB once per GLB tile: "
    "hw_input.in_().compute_at(hw_output, xo)"), func="hw_input_global_wrapper",
    note="Halide accepts it (store_in places the copy whatever its loop); mainspring loads a GLB copy once per GLB "
         "tile")
def glb_input_copy_inside_the_tile():
    return _glb_copy_at("yi")


@glb_input_copy_inside_the_tile.fix
def _():
    return _glb_copy_at("xo")
