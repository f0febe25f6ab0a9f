"""Halide's `rename(old, new)`: the loop keeps its first name inside (StageSchedule.aliases), so a renamed schedule
builds byte for byte the design of the same schedule without renames, whether a consumer's loop is named by
compute_at / hw_accelerate before or after the rename, or renamed to a name a loop has (Halide 21 accepts it:
tests/frontend/test_rename_existing.py); bit-exact on both simulators."""

from __future__ import annotations

import re

import pytest

import mainspring as hl

SIMULATORS = ("icarus", "verilator")


def _blur(variant: str) -> hl.Func:
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = hl.u16(inp[x, y])
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]
    hw_output[x, y] = blur[x, y] * 3
    output[x, y] = hw_output[x, y]
    xo, yo, xi, yi, tx, col = (hl.Var(n) for n in ("xo", "yo", "xi", "yi", "tx", "col"))
    output.bound(x, 0, 16).bound(y, 0, 8)
    hw_output.compute_root()
    if variant == "plain":
        hw_output.tile(x, y, xo, yo, xi, yi, 16, 8).hw_accelerate(xi, xo)
        blur.compute_at(hw_output, xo).unroll(x, 2)
        hw_output.unroll(xi, 2)
    elif variant == "tile loop":  # the accelerated loop renamed, then named by its new name
        hw_output.tile(x, y, xo, yo, xi, yi, 16, 8).rename(xo, tx).hw_accelerate(xi, tx)
        blur.compute_at(hw_output, tx).unroll(x, 2)
        hw_output.unroll(xi, 2)
    elif variant == "named first":  # compute_at and hw_accelerate name tx before the rename makes it
        blur.compute_at(hw_output, tx).unroll(x, 2)
        hw_output.tile(x, y, xo, yo, xi, yi, 16, 8).hw_accelerate(xi, tx).rename(xo, tx).unroll(xi, 2)
    elif variant == "existing name":  # renamed to a loop's name, which then names the inner loop (Halide's x.y)
        hw_output.tile(x, y, xo, yo, xi, yi, 16, 8).hw_accelerate(xi, xo)
        blur.compute_at(hw_output, xo).rename(x, y).unroll(y, 2)
        hw_output.rename(xi, yi).unroll(yi, 2)
    else:  # "pure var": a Func's own variable renamed, then unrolled by the new name
        hw_output.tile(x, y, xo, yo, xi, yi, 16, 8).hw_accelerate(xi, xo)
        blur.compute_at(hw_output, xo).rename(x, col).unroll(col, 2)
        hw_output.rename(xi, col).unroll(col, 2)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("variant", ["tile loop", "named first", "pure var", "existing name"])
def test_a_renamed_schedule_builds_the_same_design(variant):
    def files(variant: str) -> dict[str, str]:  # the report's compile time aside
        out = hl.compile(_blur(variant), name="rename").files()
        out["rename.report.json"] = re.sub(r'"compile_seconds": [0-9.]+', "", out["rename.report.json"])
        return out

    assert files(variant) == files("plain")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_renamed_schedule_is_bit_exact(simulator, build_dir, compile_shared):
    design = compile_shared(_blur("named first"), name="rename")
    design.check(design.example_inputs(5), simulator=simulator, build_dir=build_dir)


def test_rename_of_a_missing_loop_is_refused():
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = x + y
    with pytest.raises(hl.ScheduleError, match="could not find dimension z to rename"):
        f.rename(hl.Var("z"), hl.Var("w"))
