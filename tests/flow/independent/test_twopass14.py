"""Twopass14 (session 30): a whole-frame reduction then a map over the same input (a threshold at the frame's
total, a contrast stretch by the frame's minimum and maximum). The reduction gets a stream of its own (`inp.in_(
total)`, at any lanes), and the map's stream starts when the reduction is done (memories/late_streams.py): the frame
is no longer held between the two passes, so 1920x1080 compiles in no memory tile (it needed 1,013, refused by
compile after the autoscheduler accepted it; also written with copy Funcs, where the scan reads
`hw_input.clone_in(total)`), and the input streams twice: the scan a pixel a cycle (a serial
reduction), then the map at its k lanes (memories/schedule.py runs each pass at its own pace, not the fused radix).
Figures: BENCHMARKS.md "Helper twopass14, session 30"."""

import functools

import autoprobe14b_programs as progs
import numpy as np
import pytest
from oracle import autoscheduled, halide_outputs, pasted
from porting import BUILD, params
from twopass_common import assert_two_frames_at_lanes, copy_threshold

import mainspring as hl

# (algorithm, size, autoscheduler keys, the scan's own stream in the schedule source)
AUTO = {"threshold_mean_13x7_l2": (progs.threshold_mean, (13, 7), {"lanes": "2"}, 'funcs["inp"].in_(funcs["total"])'),
        "copy_threshold_13x7_l2": (copy_threshold, (13, 7), {"lanes": "2"},
                                   'funcs["hw_input"].clone_in(funcs["total"])')}


@functools.cache
def _auto(case):
    return autoscheduled(*AUTO[case][:3], name=f"twopass14_{case}")


@pytest.mark.parametrize(("case", "simulator"), params(AUTO))
def test_the_map_streams_after_the_reduction_bit_exact_and_equal_to_halide(case, simulator, halide):
    design, result = _auto(case)
    rep = design.report
    assert f"{AUTO[case][3]}.compute_root().stream_to_accelerator()" in result.schedule_source
    # the map's stream is not held while the reduction scans its own: a few words, no memory tile
    # (9 since twopass16: the scan's own stream carries 2 pixels a transfer)
    assert rep["mem_tiles"] == 0 and sum(b["words"] for b in rep["buffers"]) <= 9, rep
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    # two passes at 2 lanes (7 transfers a row of 13, 7 rows): the scan (twopass16: its r.x unrolled), then the map
    assert res.cycles == rep["predicted_cycles"] <= 7 * 7 + 7 * 7 + 10, (res.cycles, rep)
    want = design.reference_outputs(inputs)
    algorithm, size = AUTO[case][:2]
    got = halide_outputs(halide, *algorithm(halide, *size), inputs, want[0].shape[::-1])
    assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(want, got, strict=True))


@pytest.mark.parametrize("case", list(AUTO))
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    design, result = _auto(case)
    algorithm, size = AUTO[case][:2]
    second = hl.compile(pasted(algorithm, size, result.schedule_source), name=f"twopass14_{case}")
    assert second.verilog == design.verilog and second.memory_text == design.memory_text


@pytest.mark.parametrize(("algorithm", "lanes"), [(progs.threshold_mean, 1), (progs.contrast_stretch, 2),
                                                  (copy_threshold, 2)])
def test_a_1080p_threshold_at_the_frames_reduction_compiles_as_the_autoscheduler_accepts_it(algorithm, lanes):
    """Compile only: the autoscheduler accepted these and compile refused them (1,013 memory tiles, the frame held
    between the passes); now no memory tile, and the input streams twice, each pass at the lanes (since twopass16:
    the scan's r.x unrolled by them)."""
    assert_two_frames_at_lanes(algorithm, lanes, "twopass14_1080p")
