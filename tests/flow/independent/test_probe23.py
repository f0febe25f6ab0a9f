"""Probe23 (session 36): hand schedules on corners earlier probes touched least (issue 8): scalar Params of several
types in arithmetic and RDom bounds, Halide's arithmetic intrinsics, bit operations, Euclidean division and modulo by
negative constants, lerp / clamp / select / mux chains, specialize, per-consumer in_(), rename, split + fuse and
reorder_storage inside the accelerator, compute_at at an inner loop of an unrolled consumer, chains of six and more
stencils and RDoms over 1-D strips, in probe23*_programs.py (a CASES dict each). Every case is bit-exact on Icarus
at its predicted cycles and its reference equals Halide 21's; the VERILATOR cases run on Verilator as well.
Figures: BENCHMARKS.md "Helper probe23, session 36"."""

import importlib

import pytest
from hand_probes import HandProbe

PARTS = ("probe23", "probe23b", "probe23c")
MODULES = {p: importlib.import_module(f"{p}_programs") for p in PARTS}
# Refused with a user error whose fix compiles (the fixed program is a case of its own); Halide 21 accepts each
# schedule, so each is a gap: {case: (fixed case, message pattern)}
_RDOM_PARAM = (r"Func 's': RDom r: dimension r.x has bounds that are not known values \(they use a Param\); .* give "
               r"the RDom constant bounds")
REFUSED = {
    "param_float_gain_in_accelerator": ("param_gain_fixed_point", (
        r"Func 'hw_output' computes in floating point inside the accelerator .* the PEs are integer units. .* or use "
        r"fixed point \(multiply, then shift\)")),
    "fuse_then_split_inside": ("split_then_fuse_inside", (
        r"Func 'blur_x': split\(f, ...\) of the loop f, which fuses two loops of \d+ and \d+ iterations \(y outside\): "
        r"hardware runs a fused loop as the two loops it fuses, .* split or unroll the loops before fusing them")),
    "param_rdom_extent": ("rdom_constant_extent_in_place_of_param", _RDOM_PARAM),
    "param_rdom_min": ("rdom_constant_extent_in_place_of_param", _RDOM_PARAM),
}
VERILATOR = ("param_u8_offset_i16_gain_i32_bias", "bits_popcount_clz_ctz_u8", "div_mod_by_negative_constants_i16",
             "lerp_i16_by_u16_weight", "producer_at_inner_loop_of_unrolled_consumer", "chain_eight_two_tap_two_lanes",
             "strip_rdom_fir_unrolled", "bits_clz_of_u32_product")
PROBE = HandProbe("probe23", {c: mod.CASES[c] for mod in MODULES.values() for c in mod.CASES}, verilator=VERILATOR,
                  refused=REFUSED)


@pytest.mark.parametrize(("case", "simulator"), PROBE.params())
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    PROBE.check(case, simulator, halide)


@pytest.mark.parametrize("case", REFUSED)
def test_a_refused_schedule_names_its_fix_and_the_fix_compiles(case):
    PROBE.check_refused(case)
