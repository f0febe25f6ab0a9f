"""Probe19 (session 34): hand schedules a new user writes from the h2h generators and seed 002, in
probe19*_programs.py (a CASES dict each, as test_probes.py reads them). Every case is bit-exact on Icarus, its
cycles as predicted and its reference equal to Halide 21's; the VERILATOR cases run on Verilator as well (the
rest are small variations of them, kept to Icarus for the suite's time). Refusals: REFUSED below, each with what
Halide does. Figures: BENCHMARKS.md "Helper probe19, session 34"."""

import importlib

import pytest
from hand_probes import HandProbe

PARTS = ("probe19", "probe19b", "probe19c", "probe19d", "probe19e", "probe19f", "probe19g")
MODULES = {p: importlib.import_module(f"{p}_programs") for p in PARTS}
# Refused with a user error whose fix compiles (the fixed program is a case of its own); Halide 21 accepts each,
# so each is a gap: {case: (part, fixed case, message pattern)}
REFUSED = {
    "tuple_mixed_types": ("probe19b", "tuple_mixed_types_32_bits",
                          (r"Func 'stats': its Tuple's elements need 8 \(uint8\) \+ 16 \(uint16\) \+ 16 \(int16\) = 40 "
                           r"bits, but mainspring packs a Tuple into one integer word of at most 32 bits")),
}
VERILATOR = ("rom_coreir_branch", "histogram_low_bits_odd_frame", "conv33_round_up_three_lanes", "resnet_pad_same_3ch",
             "seed002_three_level_two_lanes", "two_outputs_u8_i16", "division_by_zero", "product_index_clamped")
PROBE = HandProbe("probe19", {c: mod.CASES[c] for mod in MODULES.values() for c in mod.CASES},
                  verilator=VERILATOR,
                  refused={case: (fixed, pattern) for case, (_part, fixed, pattern) in REFUSED.items()})


@pytest.mark.parametrize(("case", "simulator"), PROBE.params())
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    PROBE.check(case, simulator, halide)


@pytest.mark.parametrize("case", REFUSED)
def test_a_refused_schedule_names_its_fix_and_the_fix_compiles(case):
    PROBE.check_refused(case)
