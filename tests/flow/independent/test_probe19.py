"""Probe19 (session 34): hand schedules a new user writes from the h2h generators and seed 002, in
probe19*_programs.py (a CASES dict each, as test_probes.py reads them). Every case is bit-exact on Icarus, its
cycles as predicted and its reference equal to Halide 21's; the VERILATOR cases run on Verilator as well (the
rest are small variations of them, kept to Icarus for the suite's time). Refusals: REFUSED below, each with what
Halide does. Figures: BENCHMARKS.md "Helper probe19, session 34"."""

import functools
import importlib

import numpy as np
import pytest
from oracle import halide_outputs
from porting import BUILD

import mainspring as hl

PARTS = ("probe19", "probe19b", "probe19c", "probe19d", "probe19e", "probe19f", "probe19g")
MODULES = {p: importlib.import_module(f"{p}_programs") for p in PARTS}
# Refused with a user error whose fix compiles (the fixed program is a case of its own); Halide 21 accepts each,
# so each is a gap: {case: (part, fixed case, message pattern)}
REFUSED = {
    "tuple_mixed_types": ("probe19b", "tuple_mixed_types_32_bits",
                          (r"Func 'stats': its Tuple's elements need 8 \(uint8\) \+ 16 \(uint16\) \+ 16 \(int16\) = 40 "
                           r"bits, but mainspring packs a Tuple into one integer word of at most 32 bits")),
}
CASES = {c: (p, c) for p, mod in MODULES.items() for c in mod.CASES if c not in REFUSED}
VERILATOR = ("rom_coreir_branch", "histogram_low_bits_odd_frame", "conv33_round_up_three_lanes", "resnet_pad_same_3ch",
             "seed002_three_level_two_lanes", "two_outputs_u8_i16", "division_by_zero", "product_index_clamped")


def _params():
    out = []
    for case in CASES:
        for sim in ("icarus", "verilator") if case in VERILATOR else ("icarus",):
            out.append(pytest.param(case, sim, marks=pytest.mark.xdist_group(f"probe19-{case}"),
                                    id=f"{case}-{sim}"))
    return out


@functools.cache
def _design(case):
    part, name = CASES[case]
    return hl.compile(MODULES[part].CASES[name](hl)[0], name=f"probe19_{name}")


@functools.cache
def _inputs_and_halide(halide, case):
    part, name = CASES[case]
    inputs = _design(case).example_inputs(1)
    out, images, size = MODULES[part].CASES[name](halide)
    return inputs, tuple(halide_outputs(halide, out, images, inputs, size))


@pytest.mark.parametrize(("case", "simulator"), _params())
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    design = _design(case)
    inputs, want = _inputs_and_halide(halide, case)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    assert res.cycles == res.predicted_cycles
    got = design.reference_outputs(inputs)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)


@pytest.mark.parametrize("case", REFUSED)
def test_a_refused_schedule_names_its_fix_and_the_fix_compiles(case):
    part, fixed, pattern = REFUSED[case]
    with pytest.raises(hl.HalideError, match=pattern):
        hl.compile(MODULES[part].CASES[case](hl)[0], name=f"probe19_{case}")
    assert fixed in CASES
