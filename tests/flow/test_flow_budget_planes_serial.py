"""A PE budget just under a depthwise convolution's design (autoprobe19_more's depthwise3: 3x3 taps over 3
channels, `out(x, y, c)` reading `in(x + i, y + j, c)`, a weight per channel from a select): the full design
streams the planar image channels first and unrolls the output's 3 planes, 54 PEs; it had no cut, so max_pes 53 was
refused ("needs 54 PEs"). The budget's STREAMS_APART cut now takes the planes one after another
(autoschedule_planes.py `planes_to_cut`): 28 PEs, the image plane after plane, at the storage minimum."""

import sys
from pathlib import Path

import numpy as np
import pytest

import mainspring as hl

sys.path.insert(0, str(Path(__file__).parent / "independent"))
from autoprobe19_more import depthwise3
from oracle import halide_outputs

SIZE = (8, 6)


@pytest.mark.xdist_group("budget_planes_serial")
@pytest.mark.parametrize("simulator", ["icarus"], indirect=True)
def test_one_pe_under_the_depthwise_design_takes_its_planes_one_after_another(simulator, build_dir, halide):
    out, _ = depthwise3(hl, *SIZE)
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
    whole = hl.compile(out, name="dw_whole", prove=False).report
    assert whole["pes"] == 54
    out, images = depthwise3(hl, *SIZE)
    keys = {"max_pes": str(whole["pes"] - 1)}
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys))
    design = hl.compile(out, name="dw_budget_53")
    rep = design.report
    words, least = sum(b["words"] for b in rep["buffers"]), sum(b["min_words"] for b in rep["buffers"])
    assert rep["pes"] == 28 and words == least, rep
    assert rep["ideal_cycles"] == 3 * whole["ideal_cycles"] and rep["predicted_cycles"] <= 3 * whole[
        "predicted_cycles"], rep
    assert '.reorder(xi, yi, vars["c"], xo, yo)' in result.schedule_source
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    halide_out, images = depthwise3(halide, *SIZE)
    want = design.reference_outputs(inputs)[0]
    got = halide_outputs(halide, halide_out, images, inputs, want.shape[::-1])[0]
    assert got.dtype == want.dtype and np.array_equal(got, want)
