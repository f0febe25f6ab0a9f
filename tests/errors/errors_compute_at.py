"""Catalogue cases: placement calls beyond errors_schedule.py's: compute_at a Func whose loops do not enclose every
use (frontend/pipeline.py's _check_loop_level), read both by the target and by the Func the target is computed at;
a second bound of a dimension that the first does not cover (frontend/placement.py); a compute_at naming a loop by
the name a rename took from it, and an hw_accelerate store loop named so (frontend/renames.py)."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerate, buffer, case, pipeline, stream


def _shared_tap(at_mid: bool):
    """tap is read by mid and by hw_output, mid computed at hw_output's xo; tap at mid's x (`at_mid`) or at
    hw_output's xo."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, tap, mid, hw_output, output = (hl.Func(n) for n in ("hw_input", "tap", "mid", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    tap[x, y] = hw_input[x, y] + 1
    mid[x, y] = tap[x, y] + tap[x + 1, y]
    hw_output[x, y] = mid[x, y] + tap[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    mid.compute_at(hw_output, xo)
    if at_mid:
        tap.compute_at(mid, x)  # <-shared_tap
    else:
        tap.compute_at(hw_output, xo)
    return hl.compile(output, name="demo")


@case("schedule", "compute_at a Func that reads it while the Func it is computed at reads it too", (
    '{shared_tap}: Func "tap" is computed at the following invalid location:\n'
    "  tap.compute_at(mid, x);\n"
    "Legal locations for this function are:\n"
    "  tap.compute_root();\n"
    "  tap.compute_at(hw_output, Var::outermost());\n"
    "  tap.compute_at(hw_output, yo);\n"
    "  tap.compute_at(hw_output, xo);\n"
    "'mid' uses 'tap', but 'hw_output' also reads it outside the loops of 'mid': a Func is computed where every "
    "use of it is inside; compute 'tap' at one of the locations above."), func="tap", simulate=True,
    note="was \"'mid' does not use 'tap'\" until session 32 (mends14's finding); Halide lists the uses instead")
def compute_at_a_reader_of_a_shared_func():
    return _shared_tap(True)


@compute_at_a_reader_of_a_shared_func.fix
def _():
    return _shared_tap(False)


@case("schedule", "A second bound of a dimension that the first does not cover", (
    "{at}: Bounds given for output in x (from 0 to 7, at {bound_pipeline}) do not cover required region (from 0 to "
    "15): Halide keeps both bounds and fails when the pipeline runs; give output one bound in x"), func="output",
    simulate=True)
def bound_twice():
    p = pipeline(8, 8)
    p.output.bound(p.x, 0, 16)  # <-
    accelerate(p)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@bound_twice.fix
def _():
    p = pipeline(16, 8)
    accelerate(p)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("schedule", "compute_at a loop by its name before a rename", (
    "{at}: Func 'mid': compute_at(hw_output, xo) names the loop xo of 'hw_output', but hw_output.rename(xo, tx) at "
    "{at2} renamed that loop tx, and a renamed loop answers to its new name only, as in Halide. Name it tx: "
    "mid.compute_at(hw_output, tx)"), func="mid")
def compute_at_by_the_name_before_a_rename():
    p, tx = pipeline(), hl.Var("tx")
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8)
    p.hw_output.rename(p.xo, tx).hw_accelerate(p.xi, tx)  # <-2
    p.mid.compute_at(p.hw_output, p.xo)  # <-
    stream(p)
    return hl.compile(p.output, name="demo")


@compute_at_by_the_name_before_a_rename.fix
def _():
    p, tx = pipeline(), hl.Var("tx")
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8)
    p.hw_output.rename(p.xo, tx).hw_accelerate(p.xi, tx)
    p.mid.compute_at(p.hw_output, tx)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("schedule", "hw_accelerate a store loop by its name before a rename", (
    "{at}: Func 'hw_output': hw_accelerate(xi, xo) names the loop xo of 'hw_output', but hw_output.rename(xo, tx) "
    "at {at2} renamed that loop tx, and a renamed loop answers to its new name only, as in Halide. Name it tx: "
    "hw_output.hw_accelerate(xi, tx)"), func="hw_output", simulate=True)
def hw_accelerate_by_the_name_before_a_rename():
    p, tx = pipeline(), hl.Var("tx")
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8)
    p.hw_output.rename(p.xo, tx)  # <-2
    p.hw_output.hw_accelerate(p.xi, p.xo)  # <-
    p.mid.compute_at(p.hw_output, tx)
    stream(p)
    return hl.compile(p.output, name="demo")


@hw_accelerate_by_the_name_before_a_rename.fix
def _():
    p, tx = pipeline(), hl.Var("tx")
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8)
    p.hw_output.rename(p.xo, tx)
    p.hw_output.hw_accelerate(p.xi, tx)
    p.mid.compute_at(p.hw_output, tx)
    stream(p)
    return hl.compile(p.output, name="demo")
