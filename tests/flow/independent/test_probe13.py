"""Probe13 (session 29): hand schedules written as the acceptance tests would write them (probe13_programs.py),
each bit-exact on both simulators, its cycles as predicted, and its reference equal to Halide 21's. Findings: a
host tile loop split again (`split(xo, xoo, xoi, 2)`, hw_accelerate at xoi) was refused though Halide accepts it
(now its parts step over the loop's tiles: split_of_split_host_apart); a Func computed inside the loop its readers
are computed at (`blur_x.compute_at(hw_output, xi)` with blur_y at xo) compiled though Halide refuses it, and the
"Legal locations" of every compute_at refusal listed such loops (now refused as Halide does, with its list).
Figures: BENCHMARKS.md "Helper probe13, session 29"."""

import functools

import numpy as np
import probe13_programs as progs
import pytest
from oracle import halide_outputs
from porting import BUILD, params

import mainspring as hl


@functools.cache
def _design(case):
    return hl.compile(progs.CASES[case](hl)[0], name=f"probe13_{case}")


@pytest.mark.parametrize(("case", "simulator"), params(progs.CASES))
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    design = _design(case)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    assert res.cycles == res.predicted_cycles
    out, images, size = progs.CASES[case](halide)
    want = halide_outputs(halide, out, images, inputs, size)
    got = design.reference_outputs(inputs)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and np.array_equal(g, w)


def test_a_split_host_loop_steps_over_each_tile_once():
    """The parts of the split host loop step over the 5 x 2 tiles of 6x4 once each (they were counted twice)."""
    assert _design("split_of_split_host_apart").report["ideal_cycles"] == 5 * 2 * 8 * 6


def test_a_func_inside_its_readers_loop_is_refused_as_halide_and_the_fix_compiles():
    with pytest.raises(hl.HalideError, match=r"Func \"blur_x\" is computed at the following invalid location:\n"
                                             r"  blur_x\.compute_at\(hw_output, xi\);\n(.*\n)*  blur_x\.compute_at"
                                             r"\(hw_output, xo\);\n"
                                             r"  blur_x\.compute_at\(blur_y, Var::outermost\(\)\);\n"
                                             r"(.*\n)*'hw_output' uses 'blur_x' only outside its loop "
                                             r"'xi' .* compute it there: blur_x\.compute_at\(hw_output, xo\), or "
                                             r"compute blur_y inside it, e.g\. blur_y\.compute_at\(hw_output, xi\)\.$"):
        hl.compile(progs.inner_of_its_readers(hl)[0], name="probe13_inner")
    hl.compile(progs.inner_of_its_readers(hl, fixed=True)[0], name="probe13_inner_fixed")
    with pytest.raises(hl.HalideError, match=r"invalid location:\n  blur_x\.store_at\(hw_output, xo\)\.compute_at\("
                                             r"hw_output, xi\);\n"):
        hl.compile(progs.inner_of_its_readers(hl, stored=True)[0], name="probe13_inner_stored")
