"""A PE budget just under a reduction's full unroll (autoschedule_budget.py cuts it to fewer unrolled RVars):
conv_cin3_const (autoprobe14a, 3x3 taps over 3 planes, constant i32 weights `(i * 3 + j * 5 + c * 7) % 9 - 4`)
takes 52 PEs whole. Cut at r.z, each partial unroll counted more PEs than the whole one (96 at r.x and r.y, 60 at
r.x), so max_pes 51 fell to the serial reduction: 3,241 cycles for 149 at 13x7. Three causes, each fixed:
- the weights, inline and divided by a constant, were buffered and computed on PEs (36 for 27 words known at
  compile time): a table, a ROM (hwlower/region.py `_read_at_rvars_alone`);
- the ROM's small signed weights (patterns near 2**32) read as the whole 32-bit range, so each product took a
  32-bit multiply (4 PE ops for 1): compute_json/widths.py `_table_interval`;
- the planar image, read at the serial r.z, streamed plane after plane and was held whole (1,362 words for 305):
  channels first, one channel a step (autoschedule_serial_planes.py).
Now max_pes 51 gives the 47-PE design (r.x and r.y unrolled, 3 steps a pixel): 412 cycles at 13x7."""

import functools
import sys
from pathlib import Path

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS

sys.path.insert(0, str(Path(__file__).parent / "independent"))
from autoprobe14a_programs import conv_cin3_const
from oracle import halide_outputs

SIZE = (8, 6)


@functools.cache
def _design(max_pes: int | None):
    out, _ = conv_cin3_const(hl, *SIZE)
    keys = {} if max_pes is None else {"max_pes": str(max_pes)}
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys))
    return hl.compile(out, name=f"cin3_budget_{max_pes}", prove=False), result


@pytest.mark.xdist_group("budget_weights")
def test_a_budget_one_pe_under_the_full_unroll_keeps_the_taps_unrolled_and_the_planes_serial():
    whole, _ = _design(None)
    assert whole.report["pes"] == 52
    design, result = _design(51)
    rep = design.report
    words, least = sum(b["words"] for b in rep["buffers"]), sum(b["min_words"] for b in rep["buffers"])
    assert rep["pes"] == 47 and rep["ideal_cycles"] == 3 * whole.report["ideal_cycles"], rep
    assert rep["predicted_cycles"] <= 1.1 * rep["ideal_cycles"] + rep["first_output_cycle"], rep
    assert words <= 1.1 * least + 4, rep
    assert "wt" not in {b["name"] for b in rep["buffers"]} and rep["rom_words"] > 0  # the weights are a ROM
    assert '.unroll("r$x").unroll("r$y")' in result.schedule_source
    assert "streamed channels first, one a step" in result.schedule_source


@pytest.mark.xdist_group("budget_weights")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)  # signed 16-bit products of the ROM's words
def test_the_cut_design_is_bit_exact_with_halide(simulator, build_dir, halide):
    design, _ = _design(51)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    out, images = conv_cin3_const(halide, *SIZE)
    want = design.reference_outputs(inputs)[0]
    got = halide_outputs(halide, out, images, inputs, want.shape[::-1])[0]
    assert got.dtype == want.dtype and np.array_equal(got, want)
