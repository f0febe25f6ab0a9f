"""Autoprobe20 (session 35): algorithms with no schedule (autoprobe20_programs.py, autoprobe20_more.py), held to
test_autoprobes.py's checks (bit-exact, Halide 21's realize, near ideal at minimum storage, the schedule source
pasted), and the findings fixed. Most cases simulate on Icarus only (VERILATOR lists those on both). Figures:
BENCHMARKS.md "Helper autoprobe20, session 35"."""

import re

import autoprobe20_more as more
import autoprobe20_programs as progs
import numpy as np
import pytest
import test_autoprobes as shared
from oracle import autoscheduled, pasted
from porting import params

import mainspring as hl

PROBE = "autoprobe20"
COUNTER = r"(?<![A-Za-z0-9'])b\d+(?![0-9])"  # an unnamed Buffer's name in Verilog (not a literal's 1'b0)
# the shared module's lookups (_auto, _program, _bounds) find this probe's cases by name; its own parametrized
# tests were collected from its PROGRAMS, so this adds no case to them
shared.MODULES[PROBE] = progs
MINE = {f"{PROBE}-{case}": (PROBE, case) for case in progs.AUTO}
shared.CASES.update(MINE)
VERILATOR = {f"{PROBE}-{c}" for c in (
    "scharr_mag_13x7_l2", "median5_row_15x5_l3", "range_weights_row_13x5", "col_cumsum_sq_9x5_l3",
    "gauss_pyr3_3x2", "masked_mean3_13x7", "sobel_xy_outputs_13x7", "minmax2_tuple_out_13x5", "ycocg_r_13x5",
    "fir5_1d_37_l2", "iir1_1d_29", "conv3x3_2to2_relu_7x5")}


@pytest.mark.parametrize(("case", "simulator"), params(MINE, icarus_only=set(MINE) - VERILATOR))
def test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator, halide):
    shared.test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator,
                                                                                                halide)


@pytest.mark.parametrize("case", [pytest.param(c, marks=shared._with(*MINE[c]), id=c) for c in MINE])
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    shared.test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case)


@pytest.mark.parametrize(("algorithm", "keys", "tables"), [(progs.unnamed_table, {}, 1),
                                                          (more.unnamed_two, {"lanes": "2"}, 2)])
def test_an_unnamed_constant_buffer_is_named_by_its_place_and_the_source_pastes(algorithm, keys, tables):
    """`hl.Buffer(table)` with no name is `b<counter>`, another on a fresh copy: the schedule named it
    `funcs["b0"]`, and pasting raised a KeyError; it names it `funcs["buffer(0)"]` (the next made `buffer(1)`),
    which the copy's funcs has. The hardware names each table's Funcs by the table's place too
    (hwlower/image_names.py), so the pasted copy's design is byte-identical."""
    design, result = autoscheduled(algorithm, (13, 5), keys, name="ap20_unnamed")
    for k in range(tables):
        assert f'funcs["buffer({k})"].in_().compute_root().stream_to_accelerator()' in result.schedule_source
    assert not re.search(r'funcs\["b\d+"\]', result.schedule_source)
    hl.Buffer(np.zeros(2, dtype=np.uint8))  # (the counter moves on, as other tests' programs would take it)
    again = hl.compile(pasted(algorithm, (13, 5), result.schedule_source), name="ap20_unnamed")
    assert again.verilog == design.verilog and again.memory_text == design.memory_text
    assert sorted(set(re.findall(COUNTER + "(?=_im_global_wrapper)", design.verilog))) == [f"b{k}" for k in
                                                                                         range(tables)]


@shared._with(PROBE, "col_cumsum_sq_9x5_l3")
def test_lanes_that_wait_on_a_carried_add_give_way_to_fewer_that_do_not():
    """A u32 column scan at 3 lanes over rows of 3 transfers waits for its carried add (two PEs with a carry): 34
    cycles for an ideal of 15 and a fill of 5, not weighed against fewer lanes (under 3 x its ideal); 2 lanes
    take 30, and the note says why."""
    design, result = shared._auto(PROBE, "col_cumsum_sq_9x5_l3")
    assert result.lanes == 2
    assert result.note == ("3 pixels per cycle make a design no better than 2: 34 cycles and 12 words (for 9) "
                           "against 30 and 6")
    assert design.report["predicted_cycles"] == 30
