"""Autoprobe24 (session 38): algorithms with no schedule (autoprobe24_programs.py, autoprobe24_more.py), held to
test_autoprobes.py's checks (bit-exact, Halide 21's realize, near ideal at minimum storage, the schedule source
pasted), with the PE budgets asked for met and the refusals checked. Most cases simulate on Icarus only (VERILATOR
lists those on both). Figures: BENCHMARKS.md "Helper autoprobe24, session 38"."""

import autoprobe24_more as more
import autoprobe24_programs as progs
import pytest
import test_autoprobes as shared
from oracle import autoscheduled
from porting import params

import mainspring as hl

PROBE = "autoprobe24"
# the shared module's lookups (_auto, _program, _bounds) find this probe's cases by name; its own parametrized
# tests were collected from its PROGRAMS, so this adds no case to them
shared.MODULES[PROBE] = progs
MINE = {f"{PROBE}-{case}": (PROBE, case) for case in progs.AUTO}
shared.CASES.update(MINE)
VERILATOR = {f"{PROBE}-{c}" for c in (
    "laplace5_13x7_l2", "sobel_thresh_15x7_l3", "open3_13x9", "census3_13x7", "blur121_edge_16x8_l4",
    "box3_zero_pad_16x16_glb", "fir7_row_15x5_l3", "alpha_blend_11x5", "up2_linear_x_14x5", "lap_level_12x8",
    "hist16_13x5", "box5_rdom_13x9_pes20", "argmax_row_13x5", "frame_minmax_11x5", "blur_and_edge_13x7",
    "three_outputs_13x5", "stats4_tuple_13x7_pes64", "rgb_to_yuv_11x5", "hist_then_scale_11x5",
    "wide_tuple5_13x5_pes60")}


@pytest.mark.parametrize(("case", "simulator"), params(MINE, icarus_only=set(MINE) - VERILATOR))
def test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator, halide):
    shared.test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator,
                                                                                                halide)


@pytest.mark.parametrize("case", [pytest.param(c, marks=shared._with(*MINE[c]), id=c) for c in MINE])
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    shared.test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case)


@pytest.mark.parametrize("case", [pytest.param(c, marks=shared._with(*MINE[c]), id=c) for c in MINE
                                  if "max_pes" in shared._program(*MINE[c])[2]])
def test_a_pe_budget_at_the_least_the_refusal_names_is_met(case):
    """max_pes at the figure the refusal one below it names (box5_sep 13, stats4 64, wide5 60: a Tuple over 32
    bits costs its words' packing)."""
    design, _ = shared._auto(*MINE[case])
    assert design.report["pes"] <= int(shared._program(*MINE[case])[2]["max_pes"])


@pytest.mark.parametrize(("algorithm", "size", "pes", "least"), [
    (progs.box5_sep, (13, 9), 12, 13), (more.stats4_tuple, (13, 7), 63, 64), (more.wide_tuple5, (13, 5), 59, 60)])
def test_a_pe_budget_below_the_least_schedule_is_refused_with_the_budget_that_fits(algorithm, size, pes, least):
    with pytest.raises(hl.HalideError, match=rf'needs {least} PEs.*raise the budget \(max_pes="{least}"'):
        autoscheduled(algorithm, size, {"max_pes": str(pes)}, name="ap24_refused")


@pytest.mark.parametrize(("algorithm", "size", "keys", "message"), [
    (more.three_outputs, (16, 8), {"use_glb": "true", "glb_tile": "8x4"},
     r"with 3 outputs \('o_mean', 'o_inv', 'o_sq'\).*leave use_glb at \"auto\""),
    (more.stats4_tuple, (16, 8), {"use_glb": "true", "glb_tile": "8x8"},
     r"'stats4' is a Tuple over 32 bits.*narrow its elements to 32 bits in all.*or drop glb_tile")])
def test_a_glb_level_over_several_outputs_or_a_wide_tuple_is_refused_with_its_fix(algorithm, size, keys, message):
    """Gaps: the GLB level copies the accelerated Func's tiles, and several outputs (one Tuple Func) or a Tuple over
    32 bits (a Func a word) copy none; a Tuple of one word is made a copy (sum_diff_tuple_16x8_glb)."""
    with pytest.raises(hl.HalideError, match=message):
        autoscheduled(algorithm, size, keys, name="ap24_glb_refused")


@pytest.mark.parametrize("case", [pytest.param(c, marks=shared._with(*MINE[c]), id=c) for c in (
    "autoprobe24-sum_diff_tuple_16x8_glb", "autoprobe24-argmax2_tuple_16x8_glb")])
def test_a_tuple_of_one_word_takes_a_glb_level_as_a_copy_of_its_value(case):
    """Refused before (the Tuple was the accelerated Func itself): its value moves into `<name>_value`, a Tuple of
    the same packing, of which the output is a copy, and the GLB level copies its tiles (autoschedule_copy.py)."""
    design, result = shared._auto(*MINE[case])
    name = {"autoprobe24-sum_diff_tuple_16x8_glb": "sd", "autoprobe24-argmax2_tuple_16x8_glb": "pick"}[case]
    assert f'copied = hl.Pipeline(funcs["{name}"]).copy_output()' in result.schedule_source
    assert f'glb = funcs["{name}_value"].in_()' in result.schedule_source
    assert design.report["mem_tiles"] <= 1


@pytest.mark.parametrize(("algorithm", "size", "keys"), [
    (more.wide_tuple5, (13, 5), {}), (more.stats4_tuple, (13, 7), {"max_pes": "64"})])
def test_a_wide_tuples_words_keep_the_funcs_placement_through_the_autoschedulers_trials(algorithm, size, keys):
    """A Tuple over 32 bits holds words 1 and up in Functions sharing its Placement; the trials' restore gave the
    Func a copy, so those words stayed inline (computed by the host: 7 PEs and a 32-bit output for wide5's three
    words), and the schedule source, pasted, gave another design (autoschedule_budget.restore)."""
    out = algorithm(hl, *size)[0]
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys))
    words = out.function().tuple_layout.funcs
    assert len(words) > 1 and all(w.placement is words[0].placement for w in words)
    assert words[0].placement.compute.kind == "root"
