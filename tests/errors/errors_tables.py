"""Catalogue cases: tables computed inside the accelerator and read at coordinates computed from loaded values
(RAMs, hwlower/scatter.py and ops.py)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


def _equalise(copy: bool):
    """Histogram equalisation of 16 levels: the histogram, its running sum (a scan), and each pixel's level mapped
    through the sum; with `copy` the sum is read through a RAM copy of it."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, cdf, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "cdf", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 8)], "r")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hw_input[r.x, r.y] >> 4, 0, 15)] += 1
    c = hl.RDom([hl.Range(1, 15)], "c")
    cdf[b] = hist[b]
    cdf[c.x] = cdf[c.x - 1] + hist[c.x]
    read = cdf
    if copy:
        q = hl.RDom([hl.Range(0, 16)], "q")
        read = hl.Func("cdf_ram")
        read[b] = hl.u16(0)
        read[q.x] = cdf[q.x]
    hw_output[x, y] = read[hl.clamp(hw_input[x, y] >> 4, 0, 15)] * 4  # <-equalise
    output[x, y] = hw_output[x, y]
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    for f in (hist, cdf) + ((read,) if copy else ()):
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@case("hardware", "A scan read at computed coordinates (a table that is not a RAM)", (
    "{equalise}: Func 'hw_output' reads 'cdf' at coordinates computed from loaded values, but 'cdf' is not a RAM: "
    "a memory read at the address a kernel computes holds a Func that starts at a constant and has one update, "
    "written at computed coordinates or over an RDom alone. Copy it into one and read the copy: cdf_ram(b) = 0; "
    "cdf_ram(r.x) = cdf(r.x) with r an RDom over the box of 'cdf', the copy computed at the accelerator's loop."),
    func="hw_output", simulate=True)
def scan_read_at_computed_coordinates():
    return hl.compile(_equalise(copy=False), name="demo")


@scan_read_at_computed_coordinates.fix
def _():
    return hl.compile(_equalise(copy=True), name="demo")
