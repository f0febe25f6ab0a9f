"""Autoprobe19 (session 34): algorithms with no schedule (autoprobe19_programs.py), held to test_autoprobes.py's
checks (bit-exact, Halide 21's realize, near ideal at minimum storage, the schedule source pasted), and the findings
fixed. Most cases simulate on Icarus only (VERILATOR lists those on both): 60 cases on both doubled this file's
time. Figures: BENCHMARKS.md "Helper autoprobe19, session 34"."""

import autoprobe19_programs as progs
import pytest
import test_autoprobes as shared
from oracle import autoscheduled
from porting import params

import mainspring as hl

PROBE = "autoprobe19"
# the shared module's lookups (_auto, _program, _bounds) find this probe's cases by name; its own parametrized
# tests were collected from its PROGRAMS, so this adds no case to them
shared.MODULES[PROBE] = progs
MINE = {f"{PROBE}-{case}": (PROBE, case) for case in progs.AUTO}
shared.CASES.update(MINE)
# 9 of 60 (15%), each a distinct kind of hardware: 3 lanes, a pyramid's levels, a 2-D gather from a RAM through
# its 2 ports, a histogram's scatter and its scan (hist16's and warp_clamped's hardware are in them), a column
# scan at 3 lanes, two outputs, channels (pointwise_3to2's kind), a guarded tail, a signed Tuple output
# (minmax_tuple's Tuple is inside)
VERILATOR = {f"{PROBE}-{c}" for c in (
    "plus5_15x7_l3", "pyramid3_6x4_l2", "col_runmax_9x7_l3", "blur_and_edges_15x7_l2", "conv2in_relu_pool_5x3",
    "hist_cdf_13x5", "warp2d_13x5_l2", "hw_output_bounded_13x5_l2", "tuple_out_grad_13x5_l2")}


@pytest.mark.parametrize(("case", "simulator"), params(MINE, icarus_only=set(MINE) - VERILATOR))
def test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator, halide):
    shared.test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator,
                                                                                                halide)


@pytest.mark.parametrize("case", [pytest.param(c, marks=shared._with(*MINE[c]), id=c) for c in MINE])
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    shared.test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case)


@shared._with(PROBE, "hw_output_bounded_13x5")
def test_a_bound_on_hw_output_alone_gives_the_autoscheduler_its_size():
    """`hw_output.bound(x, 0, 13).bound(y, 0, 5)`, no estimates (compile takes the output's size from it since
    bounds18): apply_autoscheduler asked for the output's estimates."""
    design, result = shared._auto(PROBE, "hw_output_bounded_13x5")
    assert "one accelerator tile of 13 x 5" in result.schedule_source
    assert design.report["ideal_cycles"] == 84  # hw_input's 14 x 6


@shared._with(PROBE, "hw_output_bounded_13x5_l2")
def test_lanes_that_do_not_divide_a_bounded_hw_output_guard_its_tail():
    """2 lanes over a 13-wide hw_output bounded by the user: a RoundUp tail ran past its bound, compile refused,
    and the autoscheduler fell back to one lane (87 cycles); the tail is guarded as the output's is."""
    design, result = shared._auto(PROBE, "hw_output_bounded_13x5_l2")
    assert (result.lanes, result.note) == (2, "")
    assert 'funcs["hw_output"].unroll(xi, 2, hl.TailStrategy.GuardWithIf)' in result.schedule_source
    assert design.report["predicted_cycles"] <= 46


def test_a_bound_on_hw_output_alone_at_1080p_takes_that_size():
    design, result = autoscheduled(progs.hw_output_bounded, (1920, 1080), {"lanes": "2"}, name="ap19_hw_1080p")
    assert result.lanes == 2 and "one accelerator tile of 1920 x 1080" in result.schedule_source
    assert design.report["predicted_cycles"] <= 1.01 * design.report["ideal_cycles"]


def test_a_budget_under_the_smallest_design_is_refused_and_the_budget_named_fits():
    """max_pes=12 under a 7-tap FIR's 17 PEs (its taps serial): refused, naming the budget that fits; it does."""
    out = progs.fir7_rdom(hl, 15, 5)[0]
    with pytest.raises(hl.HalideError, match=r'needs 17 PEs .* raise the budget \(max_pes="17"'):
        hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"max_pes": "12"}))
    design, _ = autoscheduled(progs.fir7_rdom, (15, 5), {"max_pes": "17"}, name="ap19_fir_pes17")
    assert design.report["pes"] <= 17


@shared._with(PROBE, "rom_curve_15x5_l3")
def test_a_table_from_a_constant_buffer_read_at_pixel_values_takes_a_memory_tiles_two_ports():
    """`table(in(x, y) >> 4)` of a constant Buffer (streamed in, held as a RAM): its read was taken for a clamped
    image read the host extends, so any lanes were refused and 3 asked gave 1 (96 cycles); now 2, a memory tile's
    read ports, as a table computed inside takes (61 cycles, ideal 40 and a fill of 21: the table streams first)."""
    design, result = shared._auto(PROBE, "rom_curve_15x5_l3")
    assert result.lanes == 2 and "through a memory tile's 2 read ports" in result.note, result.note
    assert design.report["predicted_cycles"] <= 61


@shared._with(PROBE, "warp2d_13x5_l2")
def test_an_image_gathered_at_computed_coordinates_in_both_dimensions_takes_two_lanes():
    """`in(clamp(x + dx(x, y)), clamp(y + dy(x, y)))`: held whole as a RAM (as at one lane), read by 2 lanes through
    its tile's 2 ports; the read was taken for a clamped read the host extends: 1 lane, 134 cycles."""
    design, result = shared._auto(PROBE, "warp2d_13x5_l2")
    assert (result.lanes, result.note) == (2, "")
    assert design.report["predicted_cycles"] <= 104
