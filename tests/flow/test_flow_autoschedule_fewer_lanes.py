"""Lanes that make a design no better than fewer (helper lanes18, session 33): where the design at the lanes asked
looks doubtful (storage far over its minimum, cycles not below one lane's), the autoscheduler compiles the designs at
fewer lanes and keeps the better (autoschedule_budget.fewer_lanes), with a note. Compiled without the kernel proofs,
not simulated: the designs chosen are the 1-lane ones test_autoprobes.py checks bit-exact."""

import importlib
import sys
from pathlib import Path

import mainspring as hl
from mainspring import autoschedule_lanes

sys.path.insert(0, str(Path(__file__).parent / "independent"))
AUTOML17 = importlib.import_module("automl17_programs")
AUTOPROBE16 = importlib.import_module("autoprobe16_programs")


def _auto(algorithm, size, keys: dict):
    out = algorithm(hl, *size)[0]
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys))
    return result, hl.compile(out, name="fewer_lanes", prove=False).report


def test_mobile_at_two_lanes_keeps_one_where_two_take_its_planes_serially():
    """conv_layer_mobile at 8x6, lanes 2: the planes rule streams the input plane after plane at 2 lanes, 260 cycles
    and 602 words for 515; one lane takes a pixel's planes together, 88 cycles at its minimum storage."""
    result, rep = _auto(AUTOML17.mobile, (8, 6), {"lanes": "2"})
    assert result.lanes == 1 and result.note.startswith("2 pixels per cycle make a design no better than 1: 260 "), \
        result.note
    words, least = sum(b["words"] for b in rep["buffers"]), sum(b["min_words"] for b in rep["buffers"])
    assert rep["predicted_cycles"] <= 90 and words == least and rep["mem_tiles"] <= 4


def test_a_pe_budget_that_fits_three_lanes_keeps_the_compiled_one_lane_design_where_it_is_better():
    """max_pes 200 with no lanes: 200 // 56 gives 3 lanes, 253 cycles at 8x6 (its planes serial); the 1-lane design,
    compiled to set those lanes, takes 88."""
    result, rep = _auto(AUTOML17.mobile, (8, 6), {"max_pes": "200"})
    assert result.lanes == 1 and "3 pixels per cycle make a design no better than 1" in result.note, result.note
    assert rep["predicted_cycles"] <= 90 and rep["pes"] <= 200


def test_the_scan_whose_update_cannot_take_lanes_keeps_one_lane_without_the_lanes_rule(monkeypatch):
    """The diagonal 2-D scan at 9x5, lanes 2, with the lanes rule that refuses its lanes (_serial_updates) off: the
    2-lane design (53 cycles, not below one lane's ideal) is weighed against one lane's and gives way to it."""
    monkeypatch.setattr(autoschedule_lanes, "_serial_updates", lambda pipe, plan, funcs: None)
    result, rep = _auto(AUTOPROBE16.diagonal_scan, (9, 5), {"lanes": "2"})
    assert result.lanes == 1 and result.note.startswith("2 pixels per cycle make a design no better than 1: 53 "), \
        result.note
    assert rep["predicted_cycles"] <= 48
