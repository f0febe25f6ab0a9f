"""Issue 12's area flow (`mainspring bench`'s flat_cells: `read_verilog; synth -flatten -top TOP; stat`) stays
reproducible: the hand-written 16-bit line-buffer gaussian (a copy of ../shared/baselines/gaussian3x3_w16.v, kept
in tests/verilog/baseline/) counts the 5,164 cells the issue compares the generated gaussian with."""

from __future__ import annotations

import shutil
from pathlib import Path

from mainspring.bench import flat_cells
from mainspring.sim import require_tool

BASELINE = Path(__file__).resolve().parent / "baseline" / "gaussian3x3_w16.v"


def test_hand_written_gaussian_baseline_counts_5164_flat_cells():
    require_tool(shutil.which("yosys") is not None, "yosys")
    assert flat_cells([str(BASELINE)], "gaussian3x3_w16") == 5164
