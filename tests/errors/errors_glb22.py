"""Catalogue cases of helper glb22 (session 36): host tiles that are not whole runs apart over lanes that read at a
quotient (hwlower/tile_coordinates.py)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


def _upsample_in_host_tiles(width: int):
    """hw_output(x, y) = 2 * mid(x / 3, y) at 2 lanes of x (runs of 6 pixels: lane_quotients.py) in host tiles 12
    wide over an output `width` wide (the last tile shifted inward unless 12 divides it)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = hl.Func("hw_input"), hl.Func("mid"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    mid[x, y] = hw_input[x, y] + 1
    hw_output[x, y] = mid[x / 3, y] * 2
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 12, 4).hw_accelerate(xi, xo)  # <-host_tiles12
    hw_output.unroll(xi, 2)
    mid.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


@case("hardware", "Host tiles not whole runs apart over 2 lanes reading at x / 3", (
    "{host_tiles12}: Func 'hw_output' runs its loop over x in runs of 6 pixels, in which each read at a quotient "
    "selects its word by its place in the run, but its host tiles start at x = 0, 9, not all whole runs apart; "
    "make the tiles along x a multiple of 6 wide (and the output a multiple of them)"), func="hw_output", simulate=True,
    note="Halide accepts it (the last tile shifted inward by 3 pixels, half a run)")
def host_tiles_off_the_lane_runs():
    return _upsample_in_host_tiles(20)


@host_tiles_off_the_lane_runs.fix
def _():
    return _upsample_in_host_tiles(24)
