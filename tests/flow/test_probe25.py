"""Probe25 (session 38): hand schedules as hardware researchers write them (issue 8), on the corners earlier probes
left: lanes that differ between producers and consumers (more, fewer, not dividing), producers computed at the
lanes' loop, several outputs (each through its own GLB copy, scheduled differently, one reading another,
compute_with), Tuple outputs and reductions, serial and partly unrolled reductions, channels, pooling, GLB levels
with lanes, in independent/probe25*_programs.py (a CASES dict each). Every compiled case is bit-exact on Icarus and
Verilator at its predicted cycles and its reference equals Halide 21's; each refused case names a fix that is a case
of its own. Figures: BENCHMARKS.md "Helper probe25, session 38"."""

import importlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "independent"))
from hand_probes import HandProbe
from simulator_share import on_verilator

PARTS = ("probe25", "probe25b", "probe25c", "probe25d")
MODULES = {p: importlib.import_module(f"{p}_programs") for p in PARTS}
_LANES = (r"each lane of a consumer reads one lane of its producer, so the producer's lanes must divide what the "
          r"consumer reads per cycle")
# Refused with a user error whose fix compiles (the fixed program is a case of its own): {case: (fixed case,
# message pattern)}. Halide accepts each schedule (the lanes are a gap of the hardware: a consumer would read a
# faster producer's lanes in turn; several accelerated regions are one of the design). Since session 39 (helper
# lanes39) producer_three_lanes_consumer_two and producer_at_xi_one_lane_output_two_reads_along_x compile: a reader
# of a stream in turn over no whole steps runs on past its last pixel (hwlower/lane_steps.py).
REFUSED = {
    "producer_four_lanes_consumer_two": ("producer_four_lanes_consumer_four", (
        r"Func 'hw_output' computes 2 pixels per cycle .* but Func 'blur_x' computes 4 per cycle .*" + _LANES
        + r".* Fix: change hw_output.unroll\(xi, 2\) to hw_output.unroll\(xi, 4\)")),
    "input_two_lanes_output_one": ("input_two_lanes_output_two", (
        r"Func 'hw_output' computes 1 pixel per cycle .* accelerator input 'hw_input' streams 2 per cycle .*" + _LANES
        + r".* Fix: add hw_output.unroll\(xi, 2\)")),
    "two_outputs_one_two_lanes_other_one": ("two_outputs_both_two_lanes", (
        r"Funcs 'hw_blur', 'hw_diff' are each scheduled hw_accelerate .* but not alike, .* schedule 'hw_diff' exactly "
        r"as 'hw_blur'")),
    "two_outputs_same_lanes_different_loop_order": ("two_outputs_as_one_tuple_column_major", (
        r"Funcs 'hw_blur', 'hw_diff' are each scheduled hw_accelerate .* but not alike, .* or make them the elements "
        r"of one Tuple Func and accelerate that")),
    "second_output_reads_first": ("second_output_reads_shared_producer", (
        r"Funcs 'hw_a' and 'hw_b' are each scheduled hw_accelerate and 'hw_b' reads 'hw_a', .* define 'hw_b' from what "
        r"'hw_a' reads \(a Func both read, computed at hw_a's xo, in place of the call to 'hw_a'\), scheduled exactly "
        r"as 'hw_a'")),
    "second_output_reads_first_compute_with": ("second_output_reads_shared_producer_compute_with", (
        r"Func 'hw_b': hw_b.compute_with\(hw_a, xo\): Invalid compute_with: there is dependency between hw_a and "
        r"hw_b \('hw_b' reads 'hw_a'\).* or define 'hw_b' from what 'hw_a' reads")),
    "tuple_output_beside_plain_output": ("tuple_and_plain_as_one_tuple", (
        r"Funcs 'hw_t', 'hw_p' are each scheduled hw_accelerate .* computes several outputs as the elements of one "
        r"Tuple Func: .* \(not a Tuple, no update\).* make them the elements of one Tuple Func")),
}
PROBE = HandProbe("probe25", {c: mod.CASES[c] for mod in MODULES.values() for c in mod.CASES},
                  verilator=[c for mod in MODULES.values() for c in mod.CASES if on_verilator(c)], refused=REFUSED)


@pytest.mark.parametrize(("case", "simulator"), PROBE.params())
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    PROBE.check(case, simulator, halide)


@pytest.mark.parametrize("case", REFUSED)
def test_a_refused_schedule_names_its_fix_and_the_fix_compiles(case):
    PROBE.check_refused(case)
