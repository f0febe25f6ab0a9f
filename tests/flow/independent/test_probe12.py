"""Probe12 (session 28): hand schedules written as the acceptance tests would write them (probe12_programs.py),
each bit-exact on both simulators, its cycles as predicted, and its reference equal to Halide 21's; a GLB level
whose input copy is missing is refused with a fix that compiles and is bit-exact. Findings: update().unroll of a
Func defined by hl.argmax suggested a fix (f.unroll) that did not schedule the RDom (catalogue case
argmax_update_unroll); an input unrolled along rows suggested only unrolling it along x, which then needs every
consumer unrolled along x (the message now also says to remove the unroll, which compiles: rows_two_per_cycle);
a histogram's unrolled RVar was refused naming the compiler's unroll of the bins instead of the user's call, and
crashed in memories/ where the factor did not divide the RVar (refused in session 28, compiled since session 29).
Figures: BENCHMARKS.md "Helper probe12, session 28"."""

import functools

import numpy as np
import probe12_programs as progs
import pytest
from oracle import halide_outputs
from porting import BUILD, params

import mainspring as hl


@functools.cache
def _design(case):
    return hl.compile(progs.CASES[case](hl)[0], name=f"probe12_{case}")


@pytest.mark.parametrize(("case", "simulator"), params(progs.CASES))
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    design = _design(case)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    assert res.cycles == res.predicted_cycles
    out, images, size = progs.CASES[case](halide)
    want = halide_outputs(halide, out, images, inputs, size)[0]
    got = design.reference_output(inputs)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_a_glb_level_without_the_inputs_glb_copy_is_refused_with_the_fix_the_others_compile():
    with pytest.raises(hl.HalideError, match=r"Func 'hw_output_global_wrapper' is a GLB output buffer but no input "
                                             r"is stored in the GLB; add the GLB input copy: "
                                             r"hw_input\.in_\(\)\.compute_at\(hw_output\.in_\(\), xo\) and "
                                             r"hw_input\.in_\(\)\.store_in\(MemoryType\.GLB\)$"):
        hl.compile(progs.glb_memory_tiles_not_dividing(hl, fixed=False)[0], name="probe12_glb_unfixed")


def test_an_input_unrolled_along_rows_is_refused_and_removing_the_unroll_compiles():
    """The message's second fix (remove the input's unroll) is rows_two_per_cycle, simulated above; its first
    (unroll the input along x) needs every consumer unrolled along x as well (catalogue input_unrolled_along_y)."""
    with pytest.raises(hl.HalideError, match=r"accelerator input 'hw_input': hw_input\.unroll\(y, 2\): .* or remove "
                                             r"hw_input\.unroll\(y, 2\) to stream it a word per transfer"):
        hl.compile(progs.rows_two_per_cycle(hl, stream_rows=True)[0], name="probe12_rows_refused")


def test_an_unrolled_histogram_compiles_as_halide_accepts_it(halide):
    """Refused in session 28 (4 bins in registers: lanes of one cycle may add to one bin; 7 columns unrolled by 2:
    a step past them would still add to a bin). Since session 29 the 4 bins add each cycle's two steps as a tree,
    and the 8-bin RAM runs r.x serially (tests/flow/test_flow_histogram_unrolls.py): both bit-exact on Icarus and
    equal to Halide."""
    for kw in ({"w": 6, "lanes": 2, "bins": 4}, {"lanes": 2}):
        design = hl.compile(progs.weighted_histogram(hl, **kw)[0], name=f"probe12_histogram_{kw.get('bins', 8)}")
        inputs = design.example_inputs(1)
        res = design.check(inputs, simulator="icarus", build_dir=BUILD)
        assert res.cycles == res.predicted_cycles
        out, images, size = progs.weighted_histogram(halide, **kw)
        images["input"].set(halide.Buffer(np.ascontiguousarray(np.asarray(inputs["input"]))))
        assert np.array_equal(design.reference_output(inputs), np.asarray(out.realize(size)))
