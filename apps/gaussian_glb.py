"""Seed 002's three-level gaussian: host, global buffer (GLB), memory tiles, built from in_() wrappers.

The schedule is seed 002's listing in Python: `hw_output.in_()` is the GLB output tile (hw_accelerate at the
GLB tile loop, stored in the GLB), `hw_output` is computed once per GLB tile and tiled again for the memory
tiles, `hw_input.in_()` is the GLB input tile and `hw_input.in_().in_()` the memory-tile copy. The host loops
over GLB tiles (the last tile of a dimension shifts inward when the tile does not divide the image).
"""

from __future__ import annotations

import mainspring as hl

from .common import autoschedule, input_extent, random_image
from .gaussian import algorithm

NAME = "gaussian_glb"
DEFAULT_SIZE = (124, 124)


def _default_tile(extent: int) -> int:
    fits = [t for t in range(128, 257) if extent % t == 0]
    return fits[-1] if fits else -(-extent // 2)


def build(width: int = 124, height: int = 124, glb_tile: tuple[int, int] | None = None,
          mem_tile: tuple[int, int] | None = None, lanes: int = 1, auto: bool = False):
    """glb_tile: the GLB output tile (default: per dimension the largest divisor of the image in 128..256, as
    for 1920x1080 (240x216), else half the image rounded up); mem_tile: the
    memory tile inside it (default: the whole GLB tile, as seed 002's listing has it); lanes: pixels per cycle
    (seed 002's "Duplicating Compute": every stage of the array and the GLB input unrolled along x). `auto`: the
    algorithm scheduled by mainspring/autoschedule.py through the GLB (use_glb "true"; glb_tile as given, else
    the autoscheduler's default tiles; memory tiles are the GLB tile)."""
    glb_w, glb_h = glb_tile or (_default_tile(width), _default_tile(height))
    if auto:
        a = algorithm()
        extra = {"use_glb": "true", **({"glb_tile": f"{glb_w}x{glb_h}"} if glb_tile else {})}
        autoschedule(a.output, width, height, lanes, **extra)
        return a.output, {"input": random_image(*input_extent(a.output, "input"), seed=2)}
    tile_w, tile_h = mem_tile or (glb_w, glb_h)
    a = algorithm()
    x, y, output, hw_output, hw_input = a.x, a.y, a.output, a.hw_output, a.hw_input
    blur, blur_unnormalized, win = a.blur, a.blur_unnormalized, a.win
    output.bound(x, 0, width).bound(y, 0, height)

    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    hw_output.in_().compute_root()
    hw_output.in_().tile(x, y, xo, yo, xi, yi, glb_w, glb_h).hw_accelerate(xi, xo)
    hw_output.in_().store_in(hl.MemoryType.GLB)

    xii, yii, xio, yio = hl.Var("xii"), hl.Var("yii"), hl.Var("xio"), hl.Var("yio")
    hw_output.tile(x, y, xio, yio, xii, yii, tile_w, tile_h)
    hw_output.compute_at(hw_output.in_(), xo)
    blur.compute_at(hw_output, xio)
    blur_unnormalized.update().unroll(win.x, 3).unroll(win.y, 3)
    blur_unnormalized.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)  # the memory tile
    hw_input.in_().compute_at(hw_output.in_(), xo)
    hw_input.in_().store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    if lanes > 1:
        round_up = hl.TailStrategy.RoundUp  # tail lanes compute values that are dropped
        for f in (blur, blur_unnormalized, hw_input.in_().in_(), hw_input.in_()):
            f.unroll(x, lanes, round_up)
        blur_unnormalized.update().unroll(x, lanes, round_up)
        hw_output.unroll(xii, lanes, round_up)
    return output, {"input": random_image(*input_extent(output, "input"), seed=2)}
