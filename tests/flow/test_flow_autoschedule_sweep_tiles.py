"""Swept reductions over frames larger than the memory tiles (mainspring/autoschedule_sweeps.py): block matching (an
argmin over disparities of a 3x3 SAD, `update(0).reorder(x, y, r)`: a sweep of the tile per disparity) holds its
sums and both images whole per tile, so the autoscheduler counts them and bounds its host tiles along y too (strips,
not columns of the frame's height). At 1920x1080 it was refused by the compiler (2,032 memory tiles); now 320 x 180
tiles, 117 memory tiles (the model's count), 8,458,956 cycles for a one-tile ideal of 8,318,416. An argmin over a
parameter that moves no read (`err(x, y, k) = absd(a(x, y) * k, b(x, y))`) is inlined and unrolled instead of swept:
one pixel per cycle, no memory tile. Each small design is bit-exact on both simulators, its reference Halide 21's,
and its `schedule_source` gives the same design on a fresh copy. Figures: BENCHMARKS.md "Helper autosad, session
29"."""

import functools

import numpy as np
import pytest
from oracle import autoscheduled, halide_outputs, pasted
from shared_programs import sad_match

import mainspring as hl

from conftest import SIMULATORS


def best_gain(m, w, h):
    """The gain (k + 1) / 4, k in 0..7, that brings image a closest to image b: an argmin over a parameter."""
    a, b = m.ImageParam(m.UInt(8), 2, "a"), m.ImageParam(m.UInt(8), 2, "b")
    x, y, k = m.Var("x"), m.Var("y"), m.Var("k")
    err, gain = m.Func("err"), m.Func("gain")
    err[x, y, k] = m.absd(m.u16(m.u16(a[x, y]) * (k + 1) >> 2), m.u16(b[x, y]))
    r = m.RDom([(0, 8)], "r")
    gain[x, y] = m.u8(m.argmin(err[x, y, r.x])[0])
    gain.set_estimates([(0, w), (0, h)])
    return gain, {"a": a, "b": b}


# (algorithm, size, autoscheduler keys): 64x64 in 6 memory tiles needs tiles bounded along y
SMALL = {"sad_64x64_mem6": (sad_match, (64, 64), {"max_mem_tiles": "6"}),
         "gain_33x9": (best_gain, (33, 9), {})}


@functools.cache
def _auto(case):
    return autoscheduled(*SMALL[case], name=f"sweep_tiles_{case}")


@pytest.mark.parametrize(("case", "simulator"), [pytest.param(c, s, marks=pytest.mark.xdist_group(f"sweep_tiles_{c}"))
                                                 for c in SMALL for s in SIMULATORS])
def test_a_swept_reduction_is_bit_exact_in_its_tiles_and_its_reference_is_halide(case, simulator, halide, build_dir):
    design, _ = _auto(case)
    rep = design.report
    inputs = design.example_inputs(3)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == rep["predicted_cycles"] <= 1.05 * rep["ideal_cycles"] + rep["first_output_cycle"]
    want = design.reference_outputs(inputs)[0]
    algorithm, size, _ = SMALL[case]
    assert np.array_equal(want, halide_outputs(halide, *algorithm(halide, *size), inputs, want.shape[::-1])[0])


@pytest.mark.parametrize("case", list(SMALL))
def test_the_schedule_source_gives_the_same_design_on_a_fresh_copy(case):
    design, result = _auto(case)
    algorithm, size, _ = SMALL[case]
    again = pasted(algorithm, size, result.schedule_source)
    second = hl.compile(again, name=f"sweep_tiles_{case}")
    assert second.verilog == design.verilog and second.memory_text == design.memory_text


def test_block_matching_in_six_memory_tiles_takes_tiles_bounded_along_y():
    design, result = _auto("sad_64x64_mem6")
    assert "host tiles of 32 x 32 over 64 x 64" in result.schedule_source
    assert 'funcs["argmin"].update(0).reorder(vars["x"], vars["y"], "r$x")' in result.schedule_source
    assert design.report["mem_tiles"] <= 6


def test_block_matching_at_full_hd_fits_in_strips_near_its_ideal():
    # compile only: the sums (u32, two slices) and both images held per tile, counted as the compiler holds them
    out, _ = sad_match(hl, 1920, 1080)
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    assert "host tiles of 320 x 180 over 1920 x 1080" in result.schedule_source
    assert "host tiles, each about 117" in result.schedule_source
    rep = hl.compile(out, name="sweep_tiles_sad_1080p", prove=False).report
    assert rep["mem_tiles"] == 117
    one_tile = 4 * 1922 * 1082  # a sweep per disparity over diff's box of the frame
    assert rep["predicted_cycles"] <= 1.02 * one_tile


def test_an_argmin_over_a_parameter_is_unrolled_at_full_hd_in_no_memory_tile():
    out, _ = best_gain(hl, 1920, 1080)
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    assert 'funcs["argmin"].update(0).unroll("r$x")' in result.schedule_source
    assert 'funcs["err"]' not in result.schedule_source  # inlined: its 8 steps read the same pixels
    rep = hl.compile(out, name="sweep_tiles_gain_1080p", prove=False).report
    assert rep["mem_tiles"] == 0
    assert rep["predicted_cycles"] <= 1920 * 1080 + 100


@pytest.mark.slow
def test_block_matching_at_full_hd_is_bit_exact_on_verilator(build_dir):
    # about 35 s on 2 shared cores (the model cached): 36 host tiles of 320 x 180, 8,458,956 cycles as predicted
    out, _ = sad_match(hl, 1920, 1080)
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    design = hl.compile(out, name="sweep_tiles_sad_1080p_sim")
    res = design.check(design.example_inputs(7), simulator="verilator", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles == design.report["predicted_cycles"]
