"""Twopass16 (session 32): a whole-frame reduction then a map over the same input, the reduction at the map's k
lanes. The scan's innermost RVar is unrolled by k (`total.update(0).unroll(r.x, k, GuardWithIf)`,
autoschedule_lanes.frame_scan) and its own stream carries k pixels a transfer, so the two passes each take frame / k
cycles instead of frame + frame / k (threshold_mean 13x7 at 2 lanes: 145 -> 103 cycles; 1080p: 3,110,408 ->
2,073,608). Figures: BENCHMARKS.md "Helper twopass16, session 32"."""

import functools

import autoprobe14b_programs as progs
import numpy as np
import pytest
from oracle import autoscheduled, halide_outputs, pasted
from porting import BUILD, params
from twopass_common import assert_two_frames_at_lanes, copy_threshold

import mainspring as hl


def host_threshold(m, w, h):
    """A threshold at the mean of a stream the host computes (`g = u16(inp) * 3 + 1`, the image's only reader),
    read by the whole-frame sum and by the map."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(0, w), (0, h)], "r")
    g, total, out = m.Func("g"), m.Func("total"), m.Func("out")
    g[x, y] = m.u16(inp[x, y]) * 3 + 1
    total[()] = m.u32(0)
    total[()] += m.u32(g[r.x, r.y])
    out[x, y] = m.select(m.u32(g[x, y]) * (w * h) > total[()], m.u8(255), m.u8(0))
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


# (algorithm, size, lanes, the scans' unrolls in the schedule source)
AUTO = {"threshold_mean_13x7_l2": (progs.threshold_mean, (13, 7), 2, ['funcs["total"]']),
        "threshold_mean_13x7_l4": (progs.threshold_mean, (13, 7), 4, ['funcs["total"]']),
        "copy_threshold_13x7_l2": (copy_threshold, (13, 7), 2, ['funcs["total"]']),
        "host_threshold_13x7_l2": (host_threshold, (13, 7), 2, ['funcs["total"]']),
        "contrast_stretch_13x7_l3": (progs.contrast_stretch, (13, 7), 3, ['funcs["minimum"]', 'funcs["maximum"]'])}


@functools.cache
def _auto(case):
    algorithm, size, lanes, _ = AUTO[case]
    return autoscheduled(algorithm, size, {"lanes": str(lanes)}, name=f"twopass16_{case}")


@pytest.mark.parametrize(("case", "simulator"), params(AUTO))
def test_the_reduction_scans_at_the_maps_lanes_bit_exact_and_equal_to_halide(case, simulator, halide):
    design, result = _auto(case)
    algorithm, (w, h), lanes, scans = AUTO[case]
    rep = design.report
    for f in scans:
        assert f'{f}.update(0).unroll("r$x", {lanes}, hl.TailStrategy.GuardWithIf)' in result.schedule_source
    assert rep["mem_tiles"] == 0, rep
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    # two passes of h rows of ceil(w / lanes) transfers each (the scan, then the map), and the pipeline's fill
    transfers = h * -(-w // lanes)
    assert res.cycles == rep["predicted_cycles"] <= 2 * transfers + 12, (res.cycles, rep)
    # the ideal adds the passes up: the map's stream waits for the scan's (memories/late_streams.py)
    assert rep["ideal_cycles"] == 2 * transfers, rep
    want = design.reference_outputs(inputs)
    got = halide_outputs(halide, *algorithm(halide, w, h), inputs, want[0].shape[::-1])
    assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(want, got, strict=True))


@pytest.mark.parametrize("case", list(AUTO))
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    design, result = _auto(case)
    algorithm, size = AUTO[case][:2]
    second = hl.compile(pasted(algorithm, size, result.schedule_source), name=f"twopass16_{case}")
    assert second.verilog == design.verilog and second.memory_text == design.memory_text


@pytest.mark.parametrize(("algorithm", "lanes"), [(progs.threshold_mean, 2), (progs.threshold_mean, 4),
                                                  (progs.contrast_stretch, 2), (copy_threshold, 2),
                                                  (host_threshold, 1), (host_threshold, 2)])
def test_a_1080p_two_pass_design_takes_two_frames_at_its_lanes(algorithm, lanes):
    """Compile only: the scan and the map each stream the frame at k pixels a cycle, in no memory tile (was frame +
    frame / k cycles: the scan a pixel a cycle)."""
    assert_two_frames_at_lanes(algorithm, lanes, "twopass16_1080p")


def test_a_histograms_scan_stays_serial():
    """A histogram's update writes a computed bin (a RAM): k pixels a cycle would write it k times a cycle, so its
    scan keeps one pixel a step (no unroll of its RVar) while the map runs at 2 lanes."""
    _, result = autoscheduled(progs.threshold_hist, (13, 7), {"lanes": "2"}, name="twopass16_hist")
    assert result.lanes == 2 and 'funcs["hist"].update(0).unroll' not in result.schedule_source


def test_the_sum_of_a_host_computed_stream_reads_a_clone_of_its_own():
    """g, read by the sum and the map, was one stream held whole until the sum was done (refused at 1080p: about
    1,013 memory tiles); the sum now reads `g.clone_in(total)`, which the host streams too (see the 1080p test)."""
    _, result = _auto("host_threshold_13x7_l2")
    assert 'funcs["g"].clone_in(funcs["total"]).compute_root().stream_to_accelerator()' in result.schedule_source


def border_sum(m, w, h):
    """A sum over the frame less its border, then a map over the whole frame."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(1, w - 4), (2, h - 3)], "r")
    total, out = m.Func("total"), m.Func("o")
    total[()] = m.u16(7)
    total[()] += m.u16(inp[r.x + 1, r.y]) * 2
    out[x, y] = m.u8((m.u16(inp[x, y]) + total[()]) >> 2)
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def test_a_scan_shorter_than_the_maps_stream_stays_serial_so_the_stream_starts_late():
    """At 2 lanes the border's sum would end before the map's stream did: that stream, waiting for the sum, would be
    held (1,008 memory tiles at 1080p, refused by compile); serial, the sum outlasts it, and it starts late."""
    design, result = autoscheduled(border_sum, (1920, 1080), {"lanes": "2"}, name="twopass16_border")
    assert result.lanes == 2 and 'funcs["total"].update(0).unroll' not in result.schedule_source
    assert design.report["mem_tiles"] == 0, design.report["mem_tiles"]
