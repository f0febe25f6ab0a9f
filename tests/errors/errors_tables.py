"""Catalogue cases: tables computed inside the accelerator and read at coordinates computed from loaded values
(RAMs, hwlower/scatter.py, ram_copies.py and ops.py), and an hl.Buffer of constant weights read inside it."""

from __future__ import annotations

from types import SimpleNamespace

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


def _weighted():
    """A 3x3 conv whose weights are an hl.Buffer the algorithm reads, its update left for the case to define:
    (namespace, finish) where finish() schedules and compiles it."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    weights = hl.Buffer(np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype=np.uint16), "weights")
    hw_input, conv, hw_output, output = (hl.Func(n) for n in ("hw_input", "conv", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    conv[x, y] = hl.u16(0)
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")

    def finish():
        hw_output[x, y] = hl.u8(conv[x, y] >> 4)
        output[x, y] = hw_output[x, y]
        output.bound(x, 0, 6).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        conv.compute_at(hw_output, xo).update().unroll(r.x).unroll(r.y)
        hw_input.compute_root().stream_to_accelerator()
        return hl.compile(output, name="demo")

    return SimpleNamespace(x=x, y=y, r=r, xo=xo, weights=weights, hw_input=hw_input, conv=conv,
                           hw_output=hw_output), finish


@case("hardware", "an hl.Buffer of weights read directly inside the accelerator", (
    "{at}: Func 'conv' is inside the accelerator (it feeds 'hw_output') and reads the hl.Buffer weights directly; "
    "its values are constant, so the accelerator holds them as a table of a Func of their own: weights_table[x, y] "
    "= weights[x, y]; read weights_table instead of weights and compute it at the accelerator's loop: "
    "weights_table.compute_at(hw_output, xo)"), func="conv", simulate=True)
def buffer_read_inside():
    p, finish = _weighted()
    p.conv[p.x, p.y] += p.weights[p.r.x, p.r.y] * p.hw_input[p.x + p.r.x, p.y + p.r.y]  # <-
    return finish()


@buffer_read_inside.fix
def _():
    p, finish = _weighted()
    table = hl.Func("weights_table")
    table[p.x, p.y] = p.weights[p.x, p.y]
    table.compute_at(p.hw_output, p.xo)
    p.conv[p.x, p.y] += table[p.r.x, p.r.y] * p.hw_input[p.x + p.r.x, p.y + p.r.y]
    return finish()
