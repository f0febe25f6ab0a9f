"""Autoscan17 (session 33): the findings fixed, on the designs the shared tests compile (test_autoprobes.py, its
programs in autoscan17_programs.py), and at 1920x1080 compile only. Figures: BENCHMARKS.md "Helper autoscan17,
session 33"."""

import autoprobe16_programs as p16
import autoscan17_programs as progs
import pytest
import zerod32_programs as z32
from oracle import autoscheduled
from test_autoprobes import _auto, _with

import mainspring as hl


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
    """Compile only: 3,849 words in 4 memory tiles as two ops; 2 tiles before two banks shared one
    (memories/shared_tiles.py)."""
    design, result = autoscheduled(p16.integral2d, (1920, 1080), {"lanes": "2"}, name="autoscan17_1080p")
    rep = design.report
    assert result.lanes == 2 and rep["mem_tiles"] == 1
    assert sum(b["words"] for b in rep["buffers"]) == 1925 and rep["predicted_cycles"] == 1036801


@pytest.mark.parametrize(("case", "cycles"), [
    pytest.param("row_scan_u32_9x5", 46, marks=_with("autoscan17", "row_scan_u32_9x5")),
    pytest.param("row_scan_u32_own_9x5", 47, marks=_with("autoscan17", "row_scan_u32_own_9x5"))])
def test_a_u32_row_scan_takes_a_pixel_a_cycle(case, cycles):
    """The 32-bit add's two PE stages: its carried operand is read in the kernel's last stage (91 and 92 cycles
    for 45, two a pixel)."""
    design, _ = _auto("autoscan17", case)
    rep = design.report
    assert rep["schedule"] == "fused" and not rep["ii_limits"] and rep["predicted_cycles"] == cycles


def test_at_1080p_a_u32_row_scan_takes_a_pixel_a_cycle():
    """Compile only: 4,147,201 cycles before."""
    design, _ = autoscheduled(progs.row_scan_u32, (1920, 1080), {}, name="autoscan17_1080p")
    assert design.report["predicted_cycles"] == 2073601


@_with("autoscan17", "threshold_sized_9x5_l2")
def test_a_frame_sum_over_the_images_size_binds_it_and_takes_the_lanes():
    """`RDom([(0, inp.width()), (0, inp.height())])`: refused before (its bounds are Params)."""
    design, result = _auto("autoscan17", "threshold_sized_9x5_l2")
    assert 'funcs["inp"].dim(0).set_bounds(0, 9)' in result.schedule_source
    assert 'funcs["total"].update(0).unroll("r$x", 2, hl.TailStrategy.GuardWithIf)' in result.schedule_source
    assert result.lanes == 2 and design.report["predicted_cycles"] == 55


@pytest.mark.parametrize(("probe", "case", "cycles"), [
    pytest.param("zerod32", "frame_sum_9x5_l2", 26, marks=_with("zerod32", "frame_sum_9x5_l2")),
    pytest.param("autoscan17", "copied_mean_8x6_l2", 28, marks=_with("autoscan17", "copied_mean_8x6_l2"))])
def test_a_frame_sum_of_no_dimensions_takes_the_lanes_asked(probe, case, cycles):
    """`total[()] += inp(r.x, r.y)` as the accelerator's output: its r.x unrolled by 2, its stream 2 pixels a
    transfer (one lane before: 46 cycles for frame_sum 9x5)."""
    design, result = _auto(probe, case)
    assert result.lanes == 2 and ".update(0).unroll(\"r$x\", 2, hl.TailStrategy.GuardWithIf)" in result.schedule_source
    assert design.report["predicted_cycles"] == cycles


def test_at_1080p_a_frame_sum_of_no_dimensions_takes_2_pixels_a_cycle():
    """Compile only: 2,073,601 cycles at one lane."""
    design, result = autoscheduled(z32.frame_sum, (1920, 1080), {"lanes": "2"}, name="autoscan17_1080p")
    assert result.lanes == 2 and design.report["predicted_cycles"] == 1036801


def test_a_point_that_sweeps_no_stream_keeps_one_lane_and_says_why():
    """The maximum of a blur: the blur is computed inside, not a stream, so no frame scan takes the lanes."""
    out, _ = z32.blurred_max(hl, 7, 5)
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": "2"}))
    assert result.lanes == 1 and result.note == ("2 pixels per cycle is not reachable: 'top' has no dimensions (no x "
                                                 "to take lanes along) and sweeps no frame of a stream")


@_with("autoscan17", "channel_gain_12x6")
def test_a_sum_per_channel_stays_serial_and_the_output_goes_plane_after_plane():
    """`tot(c) += inp(r.x, r.y, c)` over 72 points: r.x was unrolled as a pixel's channels (43 PEs, 558 cycles, 423
    words in 18 memory tiles at 12x6), the output's planes innermost."""
    design, result = _auto("autoscan17", "channel_gain_12x6")
    assert 'funcs["tot"].update(0).unroll' not in result.schedule_source
    assert 'funcs["inp"].in_(funcs["tot"])' in result.schedule_source
    assert '.reorder(xi, yi, vars["c"], xo, yo)' in result.schedule_source
    rep = design.report
    assert rep["pes"] <= 6 and rep["predicted_cycles"] <= 293 and sum(b["words"] for b in rep["buffers"]) <= 80


def test_at_64x32_a_sum_per_channel_holds_a_plane_at_most():
    """Compile only: 6,217 words, 12,292 cycles, 71 PEs and 3 memory tiles before (the frame held, the planes
    innermost); the reads of the sum without each plane's first step are boxes (memories/iteration_boxes._peel)."""
    design, _ = autoscheduled(progs.channel_gain, (64, 32), {}, name="autoscan17_64x32")
    rep = design.report
    assert sum(b["words"] for b in rep["buffers"]) <= 64 * 32 + 16 and rep["predicted_cycles"] <= 4 * 64 * 32 + 8


@_with("autoscan17", "channel_gain_12x6_l2")
def test_a_sum_per_channel_takes_the_lanes_of_the_map():
    """Its sweep per plane is a frame scan, r.x unrolled by 2 (the output stayed at one lane, its sum's stream taken
    for a pixel's channels, unrolled whole, which compile refused)."""
    design, result = _auto("autoscan17", "channel_gain_12x6_l2")
    assert result.lanes == 2 and result.note == ""
    assert 'funcs["tot"].update(0).unroll("r$x", 2, hl.TailStrategy.GuardWithIf)' in result.schedule_source
    assert design.report["predicted_cycles"] <= 149
