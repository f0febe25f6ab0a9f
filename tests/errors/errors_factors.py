"""Catalogue cases: split and unroll factors that are not positive constant integers (hardware loops are fixed
at compile time); a refusal names the call the user wrote (unroll(x, k) is a split that they did not write); an
unrolled RVar whose RDom's extent is a Param is told to give the RDom constant bounds."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerated, case, io_funcs, pipeline, scheduled, stream


@case("schedule", "split by a factor of zero",
      "{at}: In schedule for hw_output: split factor 0 must be at least 1", func="hw_output")
def split_by_zero():
    p = scheduled()
    p.hw_output.split(p.xi, p.xi, hl.Var("xii"), 0)  # <-
    return hl.compile(p.output, name="demo")


@split_by_zero.fix
def _():
    p = scheduled()
    p.hw_output.split(p.xi, p.xi, hl.Var("xii"), 2)
    return hl.compile(p.output, name="demo")


@case("schedule", "split by a factor that is not a constant", (
    "{at}: split(xi, xi, xii, factor) of hw_output: factor must be a constant integer, got factor; "
    "hardware loops are fixed at compile time: use a Python int (e.g. 4)"), func="hw_output")
def split_by_a_param():
    p = scheduled()
    factor = hl.Param(hl.Int(32), "factor", 4)
    p.hw_output.split(p.xi, p.xi, hl.Var("xii"), factor)  # <-
    return hl.compile(p.output, name="demo")


@split_by_a_param.fix
def _():
    p = scheduled()
    p.hw_output.split(p.xi, p.xi, hl.Var("xii"), 4)
    return hl.compile(p.output, name="demo")


@case("schedule", "unroll by a factor that is not a constant", (
    "{at}: unroll(xi, factor) of hw_output: factor must be a constant integer, got lanes; hardware loops are "
    "fixed at compile time: use a Python int (e.g. 4)"), func="hw_output")
def unroll_by_a_param():
    p = scheduled()
    lanes = hl.Param(hl.Int(32), "lanes", 2)
    p.hw_output.unroll(p.xi, lanes)  # <-
    return hl.compile(p.output, name="demo")


@unroll_by_a_param.fix
def _():
    p = scheduled()
    p.hw_output.unroll(p.xi, 2)
    return hl.compile(p.output, name="demo")


@case("schedule", "unroll by a float factor", (
    "{at}: unroll(xi, factor) of hw_output: factor must be an integer, got 2.0; use a Python int (e.g. 2)"),
    func="hw_output")
def unroll_by_a_float():
    p = scheduled()
    p.hw_output.unroll(p.xi, 16 / 8)  # <-
    return hl.compile(p.output, name="demo")


@unroll_by_a_float.fix
def _():
    p = scheduled()
    p.hw_output.unroll(p.xi, 16 // 8)
    return hl.compile(p.output, name="demo")


def _window_sum(extent):
    """hw_output sums a 1 x extent window of hw_input through an RDom r unrolled."""
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, extent)], "r")
    s = hl.Func("s")
    s[x, y] = hl.u16(0)
    s[x, y] += hw_input[x + r.x, y]
    hw_output[x, y] = s[x, y]
    return hw_output, hw_input, s, r


@case("schedule", "unroll of an RVar whose RDom's extent is a Param", (
    "{at}: Can only unroll for loops over a constant extent.\n"
    'Loop over s.s1.r$x of Func "s" (s.update(0).unroll(r.x)) has an extent that is not known at compile time. '
    "Its RDom r has bounds that use a Param; an accelerator's loops are fixed at compile time: give the RDom "
    "constant bounds (e.g. hl.RDom([hl.Range(0, 3)])), or give taps the range its value stays in "
    "(taps.set_range(0, 8)): the loops then run over the widest domain it allows, each step guarded by taps"),
    func="s", simulate=True)
def unroll_rvar_of_a_param_extent():
    hw_output, hw_input, s, r = _window_sum(hl.Param(hl.Int(32), "taps", 3))
    s.update().unroll(r.x)  # <-
    return accelerated(hw_output, hw_input, [s])


@unroll_rvar_of_a_param_extent.fix
def _():
    hw_output, hw_input, s, r = _window_sum(3)
    s.update().unroll(r.x)
    return accelerated(hw_output, hw_input, [s])


def _fused_split(factor: int):
    """hw_output's fused loop split at the accelerator's boundary (hwlower/fused_splits.py), 8 x 6."""
    p = pipeline(8, 6)
    xy, xo, xi = hl.Var("xy"), hl.Var("xo"), hl.Var("xi")
    p.hw_output.compute_root().fuse(p.x, p.y, xy).split(xy, xo, xi, factor).hw_accelerate(xi, xo)  # <-fused_split
    p.mid.compute_at(p.hw_output, xo)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "A split of a fused loop at the accelerator in runs crossing rows", (
    "{fused_split}: Func 'hw_output': split(xy, xo, xi, 3) of the fused loop xy (fuse(x, y, xy) over 8 x 6) steps "
    "the host loop xo over runs of 3 pixels that are not boxes: they cross the rows of x, whose extent is 8, and the "
    "accelerator's streams are boxes. Use a factor dividing 8 (e.g. 2) or a multiple of it (e.g. 16: whole rows)."),
    func="hw_output", simulate=True, note="factors dividing the row or of whole rows compile since session 38")
def fused_split_across_rows():
    return _fused_split(3)


@fused_split_across_rows.fix
def _():
    return _fused_split(2)
