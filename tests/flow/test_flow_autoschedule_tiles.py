"""Automatic schedules' tiles and streams (mainspring/autoschedule_tiles.py, issue 11's last slice): GLB streams
wider than a bank port, frames that do not fit the memory tiles split into GLB or host tiles, streams of a
pixel's channels at several pixels per transfer; every schedule compiled and simulated bit-exact."""

import sys
from pathlib import Path

import pytest

import mainspring as hl

from conftest import SIMULATORS

CASES = Path(__file__).parent / "fuzz_cases"


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_glb_stream_wider_than_a_bank_port_keeps_the_lanes_asked_for(simulator, build_dir, monkeypatch):
    # Seed 267 of fuzz --auto: a 2x downsample's producer at twice the output's 3 lanes streams 6 words per cycle
    # through the GLB, whose bank port moves 4 (CGRA.glb_lanes). The autoscheduler used to cap the stream at 4
    # (the output at 2 lanes); the GLB buffer now takes 2 banks side by side.
    monkeypatch.syspath_prepend(str(CASES))
    case = __import__("auto_glb_stream_within_a_bank_port")
    a = case.algorithm(hl)
    result = case.schedule(hl, a)
    assert result.lanes == 3 and result.note == ""
    design = hl.compile(a["output"], name="auto_glb_wide")
    glb = design.report["glb"]
    assert glb["lanes"] == 6 > hl.CGRA().glb_lanes
    res = design.check(design.example_inputs(267), simulator=simulator, build_dir=build_dir, bubbles=0.2,
                       backpressure=0.2, seed=267)
    assert res.cycles >= res.predicted_cycles
    sys.modules.pop("auto_glb_stream_within_a_bank_port", None)
