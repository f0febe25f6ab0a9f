"""Autoscan17 (session 33): the findings fixed, on the designs the shared tests compile (test_autoprobes.py, its
programs in autoscan17_programs.py), and at 1920x1080 compile only. Figures: BENCHMARKS.md "Helper autoscan17,
session 33"."""

import autoprobe16_programs as p16
import pytest
from oracle import autoscheduled
from test_autoprobes import _auto, _with


@pytest.mark.parametrize(("case", "words", "cycles"), [
    pytest.param("integral2d_9x5_l2", 15, 26, marks=_with("autoscan17", "integral2d_9x5_l2")),
    pytest.param("integral2d_10x6_l2", 15, 31, marks=_with("autoscan17", "integral2d_10x6_l2"))])
def test_an_integral_image_as_one_2d_scan_at_2_lanes_is_one_op(case, words, cycles):
    """Its pure definition's x from 0, its update's from 1: the lanes are renamed as a whole (hwlower/scans.py), a
    lane reading the one before it chained (two ops: 29 words, 28 cycles at 9x5)."""
    design, result = _auto("autoscan17", case)
    assert result.lanes == 2
    assert sorted({op.stage for _, op in design.program.nest.ops() if op.func == "s"}) == [0]
    rep = design.report
    assert sum(b["words"] for b in rep["buffers"]) == words and rep["predicted_cycles"] == cycles


def test_at_1080p_an_integral_image_at_2_lanes_stores_a_row_once():
    """Compile only: 3,849 words in 4 memory tiles as two ops."""
    design, result = autoscheduled(p16.integral2d, (1920, 1080), {"lanes": "2"}, name="autoscan17_1080p")
    rep = design.report
    assert result.lanes == 2 and rep["mem_tiles"] == 2
    assert sum(b["words"] for b in rep["buffers"]) == 1925 and rep["predicted_cycles"] == 1036801
