"""Probe19 (session 34): hand schedules a new user writes from the h2h generators and seed 002, in
probe19*_programs.py (a CASES dict each, as test_probes.py reads them). Every case is bit-exact on Icarus, its
cycles as predicted and its reference equal to Halide 21's; the VERILATOR cases run on Verilator as well (the
rest are small variations of them, kept to Icarus for the suite's time). Figures: BENCHMARKS.md "Helper probe19,
session 34"."""

import importlib

import pytest
from hand_probes import HandProbe

PARTS = ("probe19", "probe19b", "probe19c", "probe19d", "probe19e", "probe19f", "probe19g")
MODULES = {p: importlib.import_module(f"{p}_programs") for p in PARTS}
# None refused: tuple_mixed_types (a Tuple of 40 bits) was, with tuple_mixed_types_32_bits its fix, until session
# 36's Tuples over 32 bits (frontend/wide_tuples.py); now a case bit-exact as the others.
VERILATOR = ("rom_coreir_branch", "histogram_low_bits_odd_frame", "conv33_round_up_three_lanes", "resnet_pad_same_3ch",
             "seed002_three_level_two_lanes", "two_outputs_u8_i16", "division_by_zero", "product_index_clamped")
PROBE = HandProbe("probe19", {c: mod.CASES[c] for mod in MODULES.values() for c in mod.CASES},
                  verilator=VERILATOR)


@pytest.mark.parametrize(("case", "simulator"), PROBE.params())
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    PROBE.check(case, simulator, halide)
