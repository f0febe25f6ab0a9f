"""A PE budget's cuts of the planes (mainspring/autoschedule_budget.py, autoschedule_planes.py's APART): at every
lane count, after the full unroll, the output takes the planes its producer makes together one by one (two PEs
fewer for a 3-plane convolution), then no planes; a cut of the planes that fits at k lanes is weighed against the
first design that fits at one lane fewer, storage within 10% of its minimum first, then cycles, then words."""

import importlib
import sys
from pathlib import Path

import mainspring as hl

sys.path.insert(0, str(Path(__file__).parent / "independent"))
AUTOPROBE14A = importlib.import_module("autoprobe14a_programs")
AUTOML16 = importlib.import_module("automl16_programs")


def _words(rep) -> tuple[int, int]:
    return sum(b["words"] for b in rep["buffers"]), sum(b["min_words"] for b in rep["buffers"])


def test_a_budget_just_under_the_planes_takes_the_output_planes_apart(build_dir):
    # 3-plane conv at 13x5: the full design takes 54 PEs; at max_pes 53 the planes cut took 41 PEs, 370 cycles and
    # 446 words; the output taking acc's planes one by one takes 52, 234 cycles and 163 words.
    out, _ = AUTOPROBE14A.conv_3d_out(hl, 13, 5)
    params = hl.AutoschedulerParams("Mainspring", {"max_pes": "53"})
    source = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), params).schedule_source
    assert '.reorder(xi, yi, vars["k"], xo, yo)' in source and 'funcs["acc"].update(0).unroll(vars["k"])' in source
    design = hl.compile(out, name="auto_budget_planes_apart")
    rep = design.report
    assert rep["pes"] <= 53 and rep["predicted_cycles"] <= 234 and _words(rep)[0] <= 163
    res = design.check(design.example_inputs(3), simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_a_cut_of_the_planes_at_two_lanes_loses_to_one_lane_at_its_minimum_storage():
    # Conv over 2 channels to 2 planes at 11x5, lanes 2: 448 PEs over the target's 384. Its planes cut at 2 lanes
    # fits (224 PEs, 100 cycles) but holds 773 words for 236; one lane with the planes takes 119 cycles, 115 words.
    out, _ = AUTOML16.conv_param(hl, 11, 5)
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": "2"}))
    assert result.lanes == 1
    rep = hl.compile(out, name="auto_budget_planes_lanes").report
    words, least = _words(rep)
    assert words <= 1.1 * least + 4 and rep["predicted_cycles"] <= 119
