"""Autoprobe39 (session 39): pipelines of 4 to 8 stages written with no schedule (autoprobe39_programs.py,
autoprobe39_more.py), held to test_autoprobes.py's checks (bit-exact, Halide 21's realize, near ideal at minimum
storage, the schedule source pasted), with the budgets asked for met. Most cases simulate on Icarus only (VERILATOR
lists those on both). Figures: docs/benchmarks-history.md "Helper autoprobe39, session 39"."""

import autoprobe39_programs as progs
import pytest
import test_autoprobes as shared
from porting import params

PROBE = "autoprobe39"
# the shared module's lookups (_auto, _program, _bounds) find this probe's cases by name; its own parametrized
# tests were collected from its PROGRAMS, so this adds no case to them
shared.MODULES[PROBE] = progs
MINE = {f"{PROBE}-{case}": (PROBE, case) for case in progs.AUTO}
shared.CASES.update(MINE)
VERILATOR = {f"{PROBE}-{c}" for c in (
    "canny_lite_14x7_l2", "gamma_unsharp_13x7", "grad_two_scales_14x8", "sad2_disparity_13x7", "census_hamming_13x7",
    "harris_tuple_13x7", "orient_hist_13x7", "cascade5_16x12_glb")}


@pytest.mark.parametrize(("case", "simulator"), params(MINE, icarus_only=set(MINE) - VERILATOR))
def test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator, halide):
    shared.test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator,
                                                                                                halide)


@pytest.mark.parametrize("case", [pytest.param(c, marks=shared._with(*MINE[c]), id=c) for c in MINE])
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    shared.test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case)


@pytest.mark.parametrize("case", [pytest.param(c, marks=shared._with(*MINE[c]), id=c) for c in MINE
                                  if {"max_pes", "max_mem_tiles"} & set(shared._program(*MINE[c])[2])])
def test_the_budgets_asked_for_are_met(case):
    design, _ = shared._auto(*MINE[case])
    keys = shared._program(*MINE[case])[2]
    assert design.report["pes"] <= int(keys.get("max_pes", design.report["pes"]))
    assert design.report["mem_tiles"] <= int(keys.get("max_mem_tiles", design.report["mem_tiles"]))
