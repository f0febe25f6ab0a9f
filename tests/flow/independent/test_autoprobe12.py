"""Autoprobe12 (session 28): unscheduled algorithms as issue 11's acceptance tests write them (autoprobe12_programs.py),
scheduled by `apply_autoscheduler` at odd sizes (17x3, 17x9, 33x9, 33x17, 64x1) and keys, each bit-exact on both
simulators, its reference equal to Halide 21's realize on the same inputs, near its ideal cycles at its minimum
storage, and its `schedule_source` giving the same design on a fresh copy. The three findings: at 2 lanes over a
33-wide `repeat_edge(image)` (or constant_exterior, any boundary condition computed inside) the image's stream
rounded up to 34 columns, past the 33 the schedule binds the image to (the design needed a 34-wide image, so
Halide, given it, clamped elsewhere); a constant `hl.Buffer` read by the
algorithm (a gamma table) got random values from `example_inputs`, not its own; block matching at 2 lanes (a cost
read at `x - d` over a serial loop d) was refused by hwlower, the autoscheduler's own schedule. Figures:
BENCHMARKS.md "Helper autoprobe12, session 28"."""

import functools

import autoprobe12_programs as progs
import numpy as np
import pytest
from oracle import autoscheduled, halide_outputs, pasted
from porting import BUILD, params

import mainspring as hl

# (algorithm, size, autoscheduler keys)
AUTO = {"med3_33x9_l2": (progs.med3_separable, (33, 9), {"lanes": "2"}),
        "rom_gamma_64x1_l4": (progs.rom_gamma, (64, 1), {"lanes": "4"}),
        "sad_match_33x9_l2": (progs.sad_match, (33, 9), {"lanes": "2"}),
        "opening_17x3": (progs.opening, (17, 3), {}),
        "tuple_output_17x3_l2": (progs.tuple_output, (17, 3), {"lanes": "2"}),
        "two_outputs_17x3_l3": (progs.two_outputs, (17, 3), {"lanes": "3"}),
        "log_17x9_l2": (progs.log_filter, (17, 9), {"lanes": "2"}),
        "u16_gradient_17x9_l4": (progs.u16_gradient_lanes, (17, 9), {"lanes": "4"}),
        "i32_frame_diff_17x3": (progs.i32_frame_diff, (17, 3), {}),
        "copies_glb_33x17_glb11x17": (progs.copies_glb, (33, 17), {"glb_tile": "11x17"})}


@functools.cache
def _auto(case):
    return autoscheduled(*AUTO[case], name=f"autoprobe12_{case}")


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
    second = hl.compile(again, name=f"autoprobe12_{case}")
    assert second.verilog == design.verilog and second.memory_text == design.memory_text


def test_lanes_that_do_not_divide_a_bound_image_guard_its_stream_rather_than_read_past_it():
    """2 lanes over a 33-wide repeat_edge(image): the image is bound to 33 columns, so its stream's last transfer is
    guarded (a RoundUp tail read column 33, and the design asked for a 34-wide image)."""
    design, result = _auto("med3_33x9_l2")
    assert 'funcs["inp"].dim(0).set_bounds(0, 33)' in result.schedule_source
    assert 'funcs["inp"].in_().unroll(hl.Var("_0"), 2, hl.TailStrategy.GuardWithIf)' in result.schedule_source
    image = design.example_inputs(1)["inp"]
    assert (image.dim(0).min(), image.dim(0).extent()) == (0, 33)


def test_a_constant_buffer_keeps_its_values_in_the_example_inputs():
    design, _ = _auto("rom_gamma_64x1_l4")
    inputs = design.example_inputs(1)
    tables = [name for name in inputs if name != "inp"]
    assert len(tables) == 1 and np.array_equal(np.asarray(inputs[tables[0]]), progs.GAMMA)


def test_a_read_along_x_that_moves_with_a_serial_loop_keeps_one_lane_and_says_why():
    _, result = _auto("sad_match_33x9_l2")
    assert result.lanes == 1
    assert result.note == ("2 pixels per cycle is not reachable: 'diff' reads 'right_im_global_wrapper' along x at a "
                           "coordinate that moves with its loop d")
