"""Mirrorlanes (session 29): the autoscheduler gives k lanes to algorithms that read the image through
mirror_image, mirror_interior or repeat_image along x (mirrorlanes_programs.py), also under GLB tiles. hwlower
streams such an input extended by the host and reads it at the affine x inside (hwlower/edges.py), so its rate is
that x's; they had stayed at one lane ("a computed coordinate along x"). Each design is bit-exact on both
simulators, its reference equal to Halide 21's realize, near its ideal cycles at its minimum storage, and its
`schedule_source` gives the same design on a fresh copy. A Func computed inside read through a mirror keeps one
lane and the note. Figures: BENCHMARKS.md "Helper mirrorlanes, session 29"."""

import functools

import mirrorlanes_programs as progs
import numpy as np
import pytest
from oracle import autoscheduled, halide_outputs, pasted
from porting import BUILD, params

import mainspring as hl

# (algorithm, size, lanes asked, other keys)
AUTO = {"emboss_mirror_image_17x9_l3": (progs.emboss_mirror_image, (17, 9), 3, {}),
        "wrap_blur_16x6_l4": (progs.wrap_blur, (16, 6), 4, {}),
        "mirror_blur_xy_19x7_l4": (progs.mirror_blur_xy, (19, 7), 4, {}),
        "emboss_copied_24x10_l4_glb12x5": (progs.emboss_copied, (24, 10), 4, {"glb_tile": "12x5"})}


def _schedule(algorithm, size, lanes, extra=None):
    out, _ = algorithm(hl, *size)
    keys = {"lanes": str(lanes)} | (extra or {})
    return out, hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys))


@functools.cache
def _auto(case):
    algorithm, size, lanes, extra = AUTO[case]
    return autoscheduled(algorithm, size, {"lanes": str(lanes)} | extra, name=f"mirrorlanes_{case}")


@pytest.mark.parametrize(("case", "simulator"), params(AUTO))
def test_a_mirrored_image_at_k_lanes_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator, halide):
    design, result = _auto(case)
    algorithm, size, lanes, extra = AUTO[case]
    assert (result.lanes, result.note) == (lanes, "")
    rep = design.report
    words, least = sum(b["words"] for b in rep["buffers"]), sum(b["min_words"] for b in rep["buffers"])
    # a line buffer's rows hold whole transfers: 19 mirrored columns at 3 lanes take 21 (48 words for 43)
    assert words <= 1.1 * least + 2 * (lanes - 1), (words, least)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    # the ideal counts the extended stream's transfers (two columns and rows more a mirror, each GLB tile's): k
    # pixels a cycle
    assert res.cycles == rep["predicted_cycles"] <= 1.1 * rep["ideal_cycles"] + rep["first_output_cycle"]
    tile = [int(n) for n in extra["glb_tile"].split("x")] if "glb_tile" in extra else size
    tiles = (size[0] // tile[0]) * (size[1] // tile[1])
    assert rep["ideal_cycles"] <= tiles * -(-(tile[0] + 4) // lanes) * (tile[1] + 2)
    want = design.reference_outputs(inputs)
    got = halide_outputs(halide, *algorithm(halide, *size), inputs, want[0].shape[::-1])
    assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(want, got, strict=True))


@pytest.mark.parametrize("case", list(AUTO))
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    design, result = _auto(case)
    algorithm, size, _, _ = AUTO[case]
    again = pasted(algorithm, size, result.schedule_source)
    second = hl.compile(again, name=f"mirrorlanes_{case}")
    assert second.verilog == design.verilog and second.memory_text == design.memory_text


def test_a_func_computed_inside_read_through_a_mirror_keeps_one_lane_and_says_why():
    """hwlower extends the accelerator's inputs only: a mirror of a Func computed inside is read at a computed x."""
    _, result = _schedule(progs.blur_of_mirrored_blur, (13, 5), 2)
    assert result.lanes == 1
    assert result.note == ("2 pixels per cycle is not reachable: 'mirror_image' reads 'bx' at a computed "
                           "coordinate along x")
