"""Probe14b (session 30): hand schedules written as the acceptance tests would write them (probe14b_programs.py),
each bit-exact on both simulators, its cycles as predicted, and its reference equal to Halide 21's. Findings: a host
loop unrolled by a factor (`hw_output.unroll(yo, 2)`, a split that keeps the name yo) never finished compiling
(hwlower/tiling.py looped), a whole host loop unrolled (`unroll(yo)`) was refused as "not known at compile time"
with a fix Halide refuses (bound on yo), and unrolling the store loop xo was refused; all three compile now, as
Halide accepts them. Figures: BENCHMARKS.md "Helper probe14b, session 30"."""

import functools

import numpy as np
import probe14b_programs as progs
import pytest
from oracle import halide_outputs
from porting import BUILD, params

import mainspring as hl


@functools.cache
def _design(case):
    return hl.compile(progs.CASES[case](hl)[0], name=f"probe14b_{case}")


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


@pytest.mark.parametrize("case", ["host_yo_unrolled_by_2", "host_yo_unrolled_whole", "store_loop_unrolled"])
def test_an_unrolled_host_loop_runs_each_tile_once(case):
    """Unrolling a host loop changes no tile: the accelerator runs once per 8x4 output tile, as without it."""
    rows = progs.CASES[case](hl)[2][1]
    assert _design(case).report["tiles"] == 2 * -(-rows // 4)
