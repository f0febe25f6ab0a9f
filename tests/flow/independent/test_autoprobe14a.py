"""Autoprobe14a (session 30): ML-style and multi-stage algorithms with no schedule (autoprobe14a_programs.py),
scheduled by `apply_autoscheduler` at odd sizes and keys, each bit-exact on both simulators, its reference equal to
Halide 21's realize on the same inputs, near its ideal cycles at its minimum storage, and its `schedule_source`
giving the same design on a fresh copy. The two findings fixed: a fully connected layer (`acc(j) += vec(r) *
w(r, j)`, a 1-D output) was refused by hwlower, the autoscheduler's own schedule: its weights stream, whose
dimension before the output's x is a row's inputs, was both streamed down its columns (as a transposed image) and
unrolled whole; a convolution to planar output channels (`acc(x, y, k)`, its channels computed together) ran its
output plane after plane, holding the producer's other planes (163 words for 39 at 13x5, 234 cycles for 111; at 2
lanes 337 words for 48, 129 cycles for 62): the output now takes the planes its producer makes together, unrolled.
Figures: BENCHMARKS.md "Helper autoprobe14a, session 30"."""

import functools

import autoprobe14a_programs as progs
import numpy as np
import pytest
from oracle import autoscheduled, halide_outputs, pasted
from porting import BUILD, params

import mainspring as hl

# (algorithm, size, autoscheduler keys)
AUTO = {"fully_connected_16": (progs.fully_connected, (16, 1), {}),
        "conv_3d_out_13x5": (progs.conv_3d_out, (13, 5), {}),
        "conv_3d_out_13x5_l2": (progs.conv_3d_out, (13, 5), {"lanes": "2"}),
        "conv_cin3_const_13x7_l2": (progs.conv_cin3_const, (13, 7), {"lanes": "2"}),
        "conv_relu_pool_7x5_l2": (progs.conv_relu_pool, (7, 5), {"lanes": "2"}),
        "residual_15x7_l3": (progs.residual, (15, 7), {"lanes": "3"}),
        "chain5_19x7_l2": (progs.chain5, (19, 7), {"lanes": "2"}),
        "pointwise1x1_9x5_l2": (progs.pointwise1x1, (9, 5), {"lanes": "2"}),
        "batchnorm_13x5_l2": (progs.batchnorm, (13, 5), {"lanes": "2"})}


@functools.cache
def _auto(case):
    return autoscheduled(*AUTO[case], name=f"autoprobe14a_{case}")


@pytest.mark.parametrize(("case", "simulator"), params(AUTO))
def test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator, halide):
    design, _ = _auto(case)
    rep = design.report
    words, least = sum(b["words"] for b in rep["buffers"]), sum(b["min_words"] for b in rep["buffers"])
    assert words <= 1.1 * least, (words, least)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    # small frames: the pipeline's fill (first_output_cycle) is most of the gap to the ideal
    assert res.cycles == rep["predicted_cycles"] <= 1.1 * rep["ideal_cycles"] + rep["first_output_cycle"]
    want = design.reference_outputs(inputs)
    algorithm, size, _ = AUTO[case]
    got = halide_outputs(halide, *algorithm(halide, *size), inputs, want[0].shape[::-1])
    assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(want, got, strict=True))


@pytest.mark.parametrize("case", list(AUTO))
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    design, result = _auto(case)
    algorithm, size, _ = AUTO[case]
    again = pasted(algorithm, size, result.schedule_source)
    second = hl.compile(again, name=f"autoprobe14a_{case}")
    assert second.verilog == design.verilog and second.memory_text == design.memory_text


def test_a_fully_connected_layers_weights_stream_a_row_of_inputs_per_transfer():
    """w(r, j) for output j: its r unrolled whole, streamed in storage order (streamed down its columns as well,
    hwlower refused the schedule)."""
    _, result = _auto("fully_connected_16")
    assert 'funcs["wts"].in_().compute_root().stream_to_accelerator()' in result.schedule_source
    assert 'funcs["wts"].in_().unroll(hl.Var("_0"))' in result.schedule_source


@pytest.mark.parametrize("case", ["conv_3d_out_13x5", "conv_3d_out_13x5_l2"])
def test_output_channels_made_together_are_output_together(case):
    """acc(x, y, k) computes its 3 channels in one firing; the output takes them together, so acc keeps no frame
    (plane after plane: 163 words and 234 cycles at 1 lane, 337 words and 129 cycles at 2)."""
    design, result = _auto(case)
    assert '.reorder(vars["k"], xi, yi, xo, yo).unroll(vars["k"])' in result.schedule_source
    rep = design.report
    assert sum(b["words"] for b in rep["buffers"]) <= {"conv_3d_out_13x5": 39, "conv_3d_out_13x5_l2": 48}[case]
    assert rep["predicted_cycles"] <= {"conv_3d_out_13x5": 111, "conv_3d_out_13x5_l2": 62}[case]
