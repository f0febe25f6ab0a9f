"""Probe20 (session 35): hand schedules a researcher writes from the h2h generators and seed 002 and then changes
(compute and store levels apart, xi/yi reordered, tail strategies, `bound`, partial RDom unrolls, channels, GLB
levels at odd sizes, boundary conditions inside, where-clauses, ROMs, updates, Tuples, several outputs and inputs,
harris / camera / unsharp structures), in probe20*_programs.py (a CASES dict each). Every case is bit-exact on
Icarus, its cycles as predicted and its reference equal to Halide 21's; the VERILATOR cases run on Verilator as
well. Every refusal it found compiles since session 40 (REFUSED's notes say since when). Figures: BENCHMARKS.md
"Helper probe20, session 35"."""

import importlib

import pytest
from hand_probes import HandProbe

PARTS = ("probe20", "probe20b", "probe20c", "probe20d", "probe20e", "probe20f", "probe20g")
MODULES = {p: importlib.import_module(f"{p}_programs") for p in PARTS}
# The refusals this probe found, each with a fix that compiled (a case of its own), all since compiling themselves
# (Halide 21 accepts each schedule):
REFUSED: dict[str, tuple[str, str, str]] = {
    # blur_input_four_lanes_output_two compiles since session 40 (taps40: blur_x reads its 4-word stream through a
    # staging copy at its 2 lanes, frontend/stream_staging.py)
    # glb_histogram compiles since session 36 (glbin22: a GLB input level alone, hwlower/glb_input_level.py)
    # glb_channels_two_lanes compiles since session 36 (glbin22: the GLB stores the channels innermost)
    # blur_two_rows_input_two_rows compiles since session 36 (rows22: an input two rows per transfer) and
    # scan_along_x_unrolled too (scan22: the compiler unrolls the scan's pure definition to chain its lanes)
    # glb_two_rows_a_cycle compiles since session 38 (glby38: a GLB entry per block of the array's lanes)
}
VERILATOR = ("blur_x_computed_at_rows_stored_at_tile", "blur_host_tiles_round_up", "mobile_clockwork_two_in_three_out",
             "resnet_oc_split_two_of_four", "conv_bias_input_per_channel", "histogram_where_bright",
             "tuple_sum_and_count_where", "three_outputs_of_one_accelerator", "harris_glb_level",
             "camera_odd_host_tiles", "bc_repeat_image_wraps", "glb_two_inputs", "glb_channels_in_turn",
             "glb_channels_two_lanes", "glb_two_rows_a_cycle")
PROBE = HandProbe("probe20", {c: mod.CASES[c] for mod in MODULES.values() for c in mod.CASES},
                  verilator=VERILATOR,
                  refused={case: (fixed, pattern) for case, (_part, fixed, pattern) in REFUSED.items()})


@pytest.mark.parametrize(("case", "simulator"), PROBE.params())
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    PROBE.check(case, simulator, halide)
