"""Autoprobe16 (session 32): the findings fixed, on the designs the shared tests compile (test_autoprobes.py, its
programs in autoprobe16_programs.py), and at 1920x1080 compile only. Figures: BENCHMARKS.md "Helper autoprobe16,
session 32"."""

import autoprobe16_programs as progs
import pytest
from oracle import autoscheduled
from test_autoprobes import _auto, _with


@_with("autoprobe16", "up_blur_14x10")
def test_a_func_read_at_an_upsampled_coordinate_is_buffered_not_inlined():
    """`up(x, y) = blur(x / 2, y / 2)`: each value of blur is read by 2 x 2 pixels. Inlined, up read the image at
    divided coordinates, holding it in 92 words, 5 memory tiles; buffered, blur's rows and the image's."""
    design, result = _auto("autoprobe16", "up_blur_14x10")
    assert 'funcs["blur"].compute_at(funcs["up"], xo)' in result.schedule_source
    rep = design.report
    assert sum(b["words"] for b in rep["buffers"]) <= 31 and rep["mem_tiles"] == 2


@_with("autoprobe16", "integral2d_9x5")
def test_an_integral_image_as_one_2d_scan_is_one_op_a_pixel_a_cycle():
    """`s(r.x, r.y) += s(r.x - 1, r.y) + s(r.x, r.y - 1) - s(r.x - 1, r.y - 1)`: its pure definition and update
    are one op (hwlower/scans.py), a row of sums stored once (24 words as two ops, 137 cycles for 45)."""
    design, _ = _auto("autoprobe16", "integral2d_9x5")
    assert sorted({op.stage for _, op in design.program.nest.ops() if op.func == "s"}) == [0]
    rep = design.report
    assert sum(b["words"] for b in rep["buffers"]) == 12 and rep["predicted_cycles"] <= rep["ideal_cycles"] + 1


@_with("autoprobe16", "integral_rc_11x6_l2")
def test_a_row_scan_that_adds_to_its_own_element_takes_its_lanes():
    """`rows(rx, y) += rows(rx - 1, y)` reads the element it stores: its RVar is unrolled with x, its lanes chained
    (the autoscheduler left the update at one lane, which compile refused)."""
    _, result = _auto("autoprobe16", "integral_rc_11x6_l2")
    assert result.lanes == 2
    assert 'funcs["rows"].update(0).unroll("rx$x", 2, hl.TailStrategy.GuardWithIf)' in result.schedule_source


@_with("autoprobe16", "diagonal_scan_9x5_l2")
def test_a_scan_whose_update_cannot_take_lanes_keeps_one_lane():
    """A 2-D scan reading the row above ahead of x (`s(r.x + 1, r.y - 1)`) at 2 lanes: the lanes rule gave its
    update one lane beside its pure definition's two, which compile refused, and apply_autoscheduler raised that
    ScheduleError (lead, session 32); once compile accepted it (session 33: an update runs at the lanes its readers
    take), the design was slower and larger than one lane's (53 cycles, 25 words against 48 and 15). The lanes rule
    now refuses lanes of a Func whose update stores along x one element a step."""
    design, result = _auto("autoprobe16", "diagonal_scan_9x5_l2")
    assert result.lanes == 1 and "update 0 of 's' stores along x at r.x one element a step" in result.note, \
        result.note
    assert design.report["predicted_cycles"] <= design.report["ideal_cycles"] + 4


@pytest.mark.parametrize(("algorithm", "words", "cycles"), [(progs.up_blur, 2890, 2081291),
                                                            (progs.integral2d, 1923, 2073601)])
def test_at_1080p_an_upsampled_blur_and_an_integral_image_store_a_few_rows(algorithm, words, cycles):
    """Compile only: the blur upsampled held 5,787 words inlined; the integral image 3,846 words as two ops, at 3
    cycles a pixel (6,220,802)."""
    design, _ = autoscheduled(algorithm, (1920, 1080), {}, name="autoprobe16_1080p")
    rep = design.report
    assert sum(b["words"] for b in rep["buffers"]) == words and rep["predicted_cycles"] == cycles


def test_at_1080p_a_row_scan_over_a_buffered_column_scan_is_accepted_and_holds_a_row():
    """Compile only: the memory model took the column scan's rows for the frame's 1,080 (2,142 memory tiles at any
    tile width: refused by the autoscheduler); it holds a row of sums (autoschedule_memory._scan_rows)."""
    design, result = autoscheduled(progs.integral_rc, (1920, 1080), {"lanes": "2"}, name="autoprobe16_1080p")
    rep = design.report
    assert result.lanes == 2 and "one accelerator tile of 1920 x 1080" in result.schedule_source
    assert sum(b["words"] for b in rep["buffers"]) == 1926 and rep["predicted_cycles"] == 1036806
