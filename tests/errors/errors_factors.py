"""Catalogue cases: split and unroll factors that are not positive constant integers (hardware loops are fixed
at compile time); a refusal names the call the user wrote (unroll(x, k) is a split that they did not write)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case, scheduled


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
