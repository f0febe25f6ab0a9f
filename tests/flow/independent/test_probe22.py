"""Probe22 (session 36): hand schedules as researchers write them from the h2h generators and seed 002 (issue 8):
boundary conditions inside the accelerator, updates with where-clauses and RDom predicates, mixed types (u8 wrap,
i16, u32 shifts, saturating casts, absd, mul-shift idioms), several inputs and outputs at different sizes, each
TailStrategy inside and around the accelerator, host-tile reorder/fuse, compute_at/store_at at each level, partial
unrolls, GLB levels, `bound`/`align_bounds`, pyramids and lookup tables, in probe22*_programs.py (a CASES dict each).
Every case is bit-exact on Icarus at its predicted cycles and its reference equals Halide 21's; the VERILATOR cases
run on Verilator as well; output_bound_extent_only, once refused, compiles since session 38 (min 0, as Halide's
realize of the output's size). Figures: BENCHMARKS.md "Helper probe22, session 36"."""

import importlib

import pytest
from hand_probes import HandProbe

PARTS = ("probe22", "probe22b", "probe22c", "probe22d", "probe22e", "probe22f")
MODULES = {p: importlib.import_module(f"{p}_programs") for p in PARTS}
VERILATOR = ("bc_mirror_interior_two_lanes", "bc_mirror_interior_upsample_phase_form", "where_census_bits",
             "mixed_chain_u8_i16_u32_u16", "host_tiles_fused_then_split", "glb_memory_tiles_two_lanes",
             "pyramid_laplacian_two_lanes", "output_bound_extent_only")
PROBE = HandProbe("probe22", {c: mod.CASES[c] for mod in MODULES.values() for c in mod.CASES},
                  verilator=VERILATOR)


@pytest.mark.parametrize(("case", "simulator"), PROBE.params())
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    PROBE.check(case, simulator, halide)

