"""Autoprobe22 (session 36): algorithms with no schedule (autoprobe22_programs.py, autoprobe22_more.py), held to
test_autoprobes.py's checks (bit-exact, Halide 21's realize, near ideal at minimum storage, the schedule source
pasted), and the findings fixed. Most cases simulate on Icarus only (VERILATOR lists those on both). Figures:
BENCHMARKS.md "Helper autoprobe22, session 36"."""

import autoprobe22_programs as progs
import numpy as np
import pytest
import test_autoprobes as shared
from porting import BUILD, params

import mainspring as hl

PROBE = "autoprobe22"
# the shared module's lookups (_auto, _program, _bounds) find this probe's cases by name; its own parametrized
# tests were collected from its PROGRAMS, so this adds no case to them
shared.MODULES[PROBE] = progs
MINE = {f"{PROBE}-{case}": (PROBE, case) for case in progs.AUTO}
shared.CASES.update(MINE)
VERILATOR = {f"{PROBE}-{c}" for c in (
    "prewitt_mag_13x7_l2", "gauss5_sep_13x9_l2", "trimmed_mean5_17x5", "tone_pw_19x3_l4", "lerp_blur_13x5",
    "div_by_image_11x5", "row_total_13x5", "hist8_weighted_13x5", "row_iir_13x5", "i8_scale_13x5",
    "u16_input_top_13x5_l2", "rgb_luma_blur_13x7")}


@pytest.mark.parametrize(("case", "simulator"), params(MINE, icarus_only=set(MINE) - VERILATOR))
def test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator, halide):
    shared.test_an_autoscheduled_algorithm_is_bit_exact_near_ideal_and_its_reference_is_halide(case, simulator,
                                                                                                halide)


@pytest.mark.parametrize("case", [pytest.param(c, marks=shared._with(*MINE[c]), id=c) for c in MINE])
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    shared.test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case)


@pytest.mark.parametrize(("case", "stream", "cycles", "words"), [
    pytest.param(c, s, n, w, marks=shared._with(PROBE, c), id=c) for c, s, n, w in (
        ("channel_swap_11x5", "rgb", 55, 6), ("channel_swap_11x5_l2", "rgb", 30, 12),
        ("argb_to_rgb_13x5", "argb", 69, 7), ("plane_mirror_diff_11x5", "rgb", 64, 9),
        ("plane_rotate_11x5", "rgb", 59, 6), ("plane_rotate_11x5_l2", "rgb", 34, 12),
        ("plane_neighbours_13x5", "rgb", 69, 8))])
def test_a_plane_read_at_an_offset_of_the_readers_own_plane_streams_channels_first(case, stream, cycles, words):
    """`rgb(x, y, 2 - c)`, `argb(x, y, c + 1)`, `rgb(x, y, max(c - 1, 0))`: with c unrolled each lane reads one constant
    plane, as at `c` itself (autoschedule_planes.plane_var), so the stream carries a pixel's planes a transfer and the
    output takes its planes together. Read plane after plane, the stream was held whole: channel_swap 276 cycles and 168
    words, at 2 lanes 151 and 171, argb_to_rgb 264 and 68, plane_mirror_diff 305 and 306, plane_neighbours 329 and 132.
    `rgb(x, y, (c + 1) % 3)` too, which hwlower now reads as a choice among the constant planes (plane_rotate: refused
    before, `ops` asked for hl.mux)."""
    design, result = shared._auto(PROBE, case)
    assert '.reorder(vars["c"], xi, yi, xo, yo).unroll(vars["c"])' in result.schedule_source
    assert (f'funcs["{stream}"].in_().reorder(hl.Var("_2"), hl.Var("_0"), hl.Var("_1")).unroll(hl.Var("_2"))'
            in result.schedule_source)
    rep = design.report
    assert (rep["predicted_cycles"], sum(b["words"] for b in rep["buffers"])) == (cycles, words)


def _rotated(planes: int, shift: int):
    """A hand schedule over a 4x3 input of `planes` planes: each plane averaged with plane (c + shift) % planes, c
    unrolled (the catalogue's errors_index_rotation.py, refused at 3 planes before)."""
    x, y, c, xo, yo, xi, yi = (hl.Var(n) for n in "x y c xo yo xi yi".split())
    inp = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y, c] = hl.u16(inp[x, y, c])
    hw_output[x, y, c] = hl.u8((hw_input[x, y, c] + hw_input[x, y, (c + shift) % planes]) >> 1)
    output[x, y, c] = hw_output[x, y, c]
    for f in (output, hw_output, hw_input):
        f.bound(c, 0, planes)
    output.bound(x, 0, 4).bound(y, 0, 3)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 3).reorder(c, xi, yi, xo, yo).unroll(c)
    hw_output.hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize(("planes", "shift"), [(3, 1), (3, -1), (4, 3), (2, 1)])
def test_a_plane_index_rotated_inside_its_period_is_read_as_a_choice_among_constant_planes(planes, shift):
    """`(c + 1) % 3` wraps inside each period of c: hwlower/periodic_reads.py reads it at each constant plane,
    chosen by c % 3 (which steps.py serves), as the refusal's fix had the user write it with hl.mux."""
    design = hl.compile(_rotated(planes, shift), name="ap22_rotated")
    inputs = design.example_inputs(1)
    design.check(inputs, simulator="icarus", build_dir=BUILD)
    got = design.reference_outputs(inputs)[0]
    image = np.asarray(inputs["input"]).astype(np.uint16)  # [c, y, x]
    assert np.array_equal(got, ((image + np.roll(image, -shift, axis=0)) >> 1).astype(np.uint8))
