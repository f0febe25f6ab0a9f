"""Pieces the apps share: Vars, random inputs, and the standard single-tile hardware schedule."""

from __future__ import annotations

import numpy as np

import mainspring as hl


def random_image(width: int, height: int, dtype=np.uint8, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=(height, width), endpoint=True, dtype=dtype)


def accelerate(output: hl.Func, hw_output: hl.Func, width: int, height: int, inner: list[hl.Func],
               hw_input: hl.Func) -> None:
    """Seed 002's schedule: bound the output, one accelerator tile, every inner Func buffered at xo."""
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()


def autoschedule(output: hl.Func, width: int, height: int, lanes: int = 1, **extra: str) -> str:
    """The automatic schedule (mainspring/autoschedule.py) of an unscheduled algorithm, for a width x height
    output at `lanes` pixels per cycle (`extra`: more of its keys, e.g. use_glb="true"); returns its Python
    source."""
    output.set_estimates([(0, width), (0, height)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": str(lanes), **extra})
    return hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), params).schedule_source


def input_extent(output: hl.Func, name: str) -> tuple[int, int]:
    """(width, height) of input `name` from (0, 0) to the farthest pixel the scheduled pipeline reads (RoundUp
    tails read past the image's stencil border, as in Halide)."""
    from mainspring.frontend.bounds import infer_boxes
    from mainspring.frontend.pipeline import Pipeline
    from mainspring.hwlower.bounds import output_box

    pipe = Pipeline(output)
    _, needed = infer_boxes(pipe, output_box(pipe), lambda p: None)
    (_, x1), (_, y1) = needed[name]
    return x1 + 1, y1 + 1


def parrot_output(hw_output: hl.Func, tile: tuple[int, int], unroll: int) -> hl.Func:
    """The output side of the generators' schedule 3 ("big parrot with unroll"): `hw_output(c, x, y)` computed in
    the GLB once per host tile of `tile` pixels (its copy `hw_output.in_()` accelerated), the channels and `unroll`
    pixels of x per cycle. Returns the GLB copy."""
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    up = hl.TailStrategy.RoundUp
    glb_out = hw_output.in_()
    glb_out.compute_root()
    glb_out.tile(x, y, xo, yo, xi, yi, tile[0], tile[1]).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
    glb_out.unroll(c).unroll(xi, unroll, up)
    hw_output.tile(x, y, xo, yo, xi, yi, tile[0], tile[1]).reorder(c, xi, yi, xo, yo)
    hw_output.compute_at(glb_out, xo)
    hw_output.store_in(hl.MemoryType.GLB)
    hw_output.unroll(c).unroll(xi, unroll, up)
    return glb_out
