"""Catalogue cases: tables computed inside the accelerator and read at coordinates computed from loaded values
(RAMs, hwlower/scatter.py, ram_copies.py and ops.py)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


def _summed_levels(split: bool):
    """Each pixel's count in the 16-level histogram of its image plus its right neighbour's: an update over an
    unrolled RDom reading the histogram (a RAM) at a coordinate computed from the RDom's pixel. With `split`, each
    pixel's count is a Func of its own, computed at the accelerator's loop, and the update reads it at affine
    coordinates."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, count, acc, hw_output, output = (
        hl.Func(n) for n in ("hw_input", "hist", "count", "acc", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r, s = hl.RDom([hl.Range(0, 8), hl.Range(0, 8)], "r"), hl.RDom([hl.Range(0, 2)], "s")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hw_input[r.x, r.y] >> 4, 0, 15)] += 1
    count[x, y] = hist[hl.clamp(hw_input[x, y] >> 4, 0, 15)]
    acc[x, y] = hl.u16(0)
    if split:
        acc[x, y] += count[x + s.x, y]
    else:
        acc[x, y] += hist[hl.clamp(hw_input[x + s.x, y] >> 4, 0, 15)]  # <-sum
    hw_output[x, y] = acc[x, y]
    output[x, y] = hw_output[x, y]
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, 7).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 7, 8).hw_accelerate(xi, xo)
    acc.update().unroll(s.x)
    for f in (hist, acc) + ((count,) if split else ()):
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@case("hardware", "A RAM read at two computed coordinates in one op (an unrolled RDom's)", (
    "{sum}: Func 'acc'.update(0) reads RAM 'hist' at two computed coordinates per firing; a RAM is read at a "
    "computed address once per op: compute one of the reads in a Func of its own"), func="acc", simulate=True,
    note="the compiler moves a second read into a Func of its own where its coordinates use the reader's pure "
    "variables alone (hwlower/ram_lookups.py); an unrolled RDom's are the user's to move")
def ram_read_at_two_computed_coordinates():
    return hl.compile(_summed_levels(split=False), name="demo")


@ram_read_at_two_computed_coordinates.fix
def _():
    return hl.compile(_summed_levels(split=True), name="demo")
