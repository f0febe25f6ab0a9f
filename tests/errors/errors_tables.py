"""Catalogue cases: tables computed inside the accelerator and read at coordinates computed from loaded values
(RAMs, hwlower/scatter.py, ram_copies.py and ops.py)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


def _equalise(split: bool):
    """Histogram equalisation of 16 levels: the histogram, its running sum (a scan, which the compiler reads through
    a RAM copy), and each pixel's level mapped through the sum, less the sum of the levels below it (the scan read
    twice); with `split` that second read in a Func of its own, computed at the accelerator's loop."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, cdf, below, hw_output, output = (
        hl.Func(n) for n in ("hw_input", "hist", "cdf", "below", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 8)], "r")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hw_input[r.x, r.y] >> 4, 0, 15)] += 1
    c = hl.RDom([hl.Range(1, 15)], "c")
    cdf[b] = hist[b]
    cdf[c.x] = cdf[c.x - 1] + hist[c.x]
    below[x, y] = cdf[hl.clamp(hw_input[x, y] >> 4, 1, 15) - 1]
    hw_output[x, y] = cdf[hl.clamp(hw_input[x, y] >> 4, 0, 15)] * 4 - below[x, y]  # <-equalise
    output[x, y] = hw_output[x, y]
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    for f in (hist, cdf) + ((below,) if split else ()):
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@case("hardware", "A scan read at two computed coordinates in one op (through the compiler's RAM copy)", (
    "{equalise}: Func 'hw_output' reads RAM 'cdf_ram' (the copy of 'cdf' that serves its reads at computed "
    "coordinates) at two computed coordinates per firing; a RAM is read at a computed address once per op: compute "
    "one of the reads in a Func of its own"), func="hw_output", simulate=True)
def scan_read_at_two_computed_coordinates():
    return hl.compile(_equalise(split=False), name="demo")


@scan_read_at_two_computed_coordinates.fix
def _():
    return hl.compile(_equalise(split=True), name="demo")
