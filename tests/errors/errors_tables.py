"""Catalogue cases: tables computed inside the accelerator and read at coordinates computed from loaded values
(RAMs, hwlower/scatter.py, ram_copies.py and ops.py), and a float hl.Buffer read inside it at a computed coordinate."""

from __future__ import annotations

import numpy as np

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


def _gamma(table: bool):
    """Each pixel mapped through a float32 hl.Buffer (a gamma curve): read directly at the pixel's value and scaled
    by the next pixel before the cast (cast right away, or scaled by the pixel it reads at, the read is a ROM of
    integers: hwlower/cast_tables.py; a table over both pixels would be 65536 words), or with `table` through the
    integers the accelerator needs, computed from it in a Func of their own."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    curve = hl.Buffer((np.linspace(0, 1, 256) ** 0.5).astype(np.float32), "curve")
    hw_input, hw_output, output = (hl.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    if table:
        curve_int = hl.Func("curve_int")
        curve_int[x] = hl.u16(curve[x] * 256.0)
        hw_output[x, y] = hl.u8(curve_int[hw_input[x, y]] >> 1)
    else:
        hw_output[x, y] = hl.u8(curve[hw_input[x, y]] * hl.f32(hw_input[x + 1, y]))  # <-curve_read
    output[x, y] = hw_output[x, y]
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    output.bound(x, 0, 6).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


@case("hardware", "a float hl.Buffer read inside the accelerator at a computed coordinate", (
    "{curve_read}: Func 'hw_output' reads the hl.Buffer curve (constant data) at (int32(hw_input(x, y))), which is "
    "not a fixed coordinate, and its table of 256 float32 values cannot be a ROM (at most 65536 integer words); "
    "compute the integers the accelerator needs from it in a Func of their own, e.g. curve_int[x] = hl.u16(curve[x] * "
    "256.0), and read curve_int there instead, or read it at constant coordinates (unroll the loops that index it)"),
    func="hw_output", simulate=True,
    note="an integer hl.Buffer read directly inside the accelerator compiles as a table Func of its own "
    "(hwlower/buffer_tables.py): folded where read at fixed coordinates, else a ROM; a ROM holds integer words, and "
    "a float read cast to an integer with nothing but constants reads a ROM of those integers (cast_tables.py), "
    "and so does one scaled by one pixel where the table over (coordinate, pixel) has at most 4096 words (gaps20)")
def float_buffer_read_at_computed_coordinates():
    return _gamma(table=False)


@float_buffer_read_at_computed_coordinates.fix
def _():
    return _gamma(table=True)
