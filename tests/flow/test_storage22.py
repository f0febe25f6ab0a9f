"""Storage near the polyhedral minimum (helper storage22, session 36).

A gather whose coordinate moves with the loops by a loaded offset of few values (autoprobe19's warp_clamped:
`in(clamp(x + (disp(x, y) >> 6) - 2, 0, w - 1), y)`) was a RAM holding the whole frame, read after its last write
(2,051 words and 4,100 cycles at 64 x 32). hwlower/bounded_gathers.py reads it as a select between the reads at the
offset's values: taps of the stream, a few words (rows for an offset along y). A copy of a stream read by 10 lanes
over x / 3 ran ahead of it and held its plane (34 words): the fused schedule now spaces such a reader's rows out to
the stream's pace where that is no slower and its values wait less (memories/op_pacing.py). Dense schedules as fast
keep the one holding fewer words (schedule._better). Figures: BENCHMARKS.md "Helper storage22, session 36"."""

import functools
import sys
from pathlib import Path

import numpy as np
import pytest

import mainspring as hl

sys.path.insert(0, str(Path(__file__).parent / "independent"))
from autoprobe19_programs import warp_clamped
from oracle import autoscheduled, halide_outputs
from probe_common import estimate, u8_input, xy


def _displaced(m, w, h, name, at):
    """out(x, y) = inp at the coordinates `at(m, x, y, disp, w, h)`, disp a second image."""
    inp, disp = u8_input(m), u8_input(m, "disp")
    x, y = xy(m)
    out = m.Func(name)
    out[x, y] = inp[at(m, x, y, disp, w, h)]
    estimate(out, w, h)
    return out, {"inp": inp, "disp": disp}


def warp_rows(m, w, h):
    """A vertical displacement of -1 .. 2 rows read from a second image, clamped inside the frame."""
    return _displaced(m, w, h, "warp_rows", lambda m, x, y, d, w, h: (x, m.clamp(y + m.i32(d[x, y] >> 6) - 1, 0,
                                                                                   h - 1)))


def warp_wide(m, w, h):
    """A horizontal displacement of 16 values (-8 .. 7): more reads than a select serves, a RAM as before."""
    return _displaced(m, w, h, "warp_wide", lambda m, x, y, d, w, h: (m.clamp(x + m.i32(d[x, y] >> 4) - 8, 0,
                                                                              w - 1), y))


@functools.cache
def _design(algorithm, size):
    return autoscheduled(algorithm, size, {}, name=f"storage22_{algorithm.__name__}")[0]


def _words(design) -> dict[str, tuple[int, int]]:
    return {b["name"]: (b["words"], b["min_words"]) for b in design.report["buffers"]}


def _bit_exact(design, algorithm, size, simulator, build_dir, halide) -> None:
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]
    out, images = algorithm(halide, *size)
    want = halide_outputs(halide, out, images, inputs, list(size))
    got = design.reference_outputs(inputs)
    assert all(g.dtype == w.dtype and np.array_equal(g, w) for g, w in zip(got, want, strict=True))


@pytest.mark.xdist_group("storage22_warp")
@pytest.mark.parametrize("simulator", ["icarus", "verilator"], indirect=True)
def test_a_gather_by_a_loaded_offset_of_four_columns_keeps_taps_not_the_frame(simulator, build_dir, halide):
    # Was a RAM of the frame: 68 words (65 the frame) and 134 cycles (the image, then the displacements); now the
    # four taps x - 2 .. x + 1 of the stream, the displacements kept as long, and the output a few pixels behind.
    design = _design(warp_clamped, (13, 5))
    assert _words(design) == {"disp_im_global_wrapper": (4, 4), "inp_im_global_wrapper": (4, 4), "warp": (1, 1)}
    rep = design.report
    assert rep["mem_tiles"] == 0 and rep["predicted_cycles"] == 85 and rep["ideal_cycles"] == 80, rep
    _bit_exact(design, warp_clamped, (13, 5), simulator, build_dir, halide)


@pytest.mark.xdist_group("storage22_rows")
@pytest.mark.parametrize("simulator", ["icarus"], indirect=True)
def test_a_gather_by_a_loaded_offset_of_four_rows_keeps_line_buffers(simulator, build_dir, halide):
    # Was a RAM of the frame (94 words for 91, 186 cycles); now rows y - 1 .. y + 2: 3 rows and a pixel of each.
    design = _design(warp_rows, (13, 7))
    assert _words(design) == {"disp_im_global_wrapper": (40, 40), "inp_im_global_wrapper": (40, 40),
                              "warp_rows": (1, 1)}
    assert design.report["predicted_cycles"] == 135
    _bit_exact(design, warp_rows, (13, 7), simulator, build_dir, halide)


def test_a_gather_by_an_offset_of_more_values_than_a_select_serves_stays_a_ram():
    # 16 values would be 16 read ports and a 16-way select: the RAM of the frame as before.
    words = _words(_design(warp_wide, (13, 5)))
    assert words["inp_im_global_wrapper_ram"] == (68, 65), words


def test_a_gather_at_a_loaded_coordinate_alone_stays_a_ram_lookup():
    # in(disp(x, y) % 4, y): the coordinate does not move with x, a table lookup, not a window around x.
    x, y = hl.Var("x"), hl.Var("y")
    inp, disp = hl.ImageParam(hl.UInt(8), 2, "inp"), hl.ImageParam(hl.UInt(8), 2, "disp")
    out = hl.Func("lookup")
    out[x, y] = inp[hl.i32(disp[x, y]) % 4, y]
    out.set_estimates([(0, 8), (0, 4)])
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
    words = _words(hl.compile(out, name="storage22_lookup", prove=False))
    assert any(name.endswith("_ram") for name in words), words


@functools.cache
def _ten_lanes():
    from test_flow_upsample_uneven_lanes import _upsample

    return _upsample(10, 3, True, width=30)


@pytest.mark.xdist_group("storage22_lanes")
@pytest.mark.parametrize("simulator", ["icarus", "verilator"], indirect=True)
def test_a_stream_copy_read_by_faster_lanes_keeps_a_few_words(simulator, build_dir):
    # f = 3 * input + 1 (a copy at the stream's pace, 10 words a row), up = f(x / 3) + x at 10 lanes: up took its
    # rows every 3 cycles, 31 cycles late, f's plane held (34 words for 30, 52 cycles); now its rows every 10 cycles
    # at 3 a step, as the stream makes f: 4 words, 51 cycles.
    design, inputs = _ten_lanes()
    assert _words(design) == {"hw_input": (1, 1), "f": (4, 4), "up": (10, 10), "hw_output": (10, 10)}
    assert design.report["predicted_cycles"] == 51 and design.report["ideal_cycles"] == 40
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == 51


def test_dense_schedules_as_fast_keep_the_one_holding_fewer_words(monkeypatch):
    # f(x / 2) + g(x / 4) at 32 x 8: the dense schedule's variants (ops and streams at their own pace, or paced)
    # finish at cycle 259 with as many flows at a varying delay; the first held 117 words, a later one 70
    # (schedule._better kept the first: it weighed no storage). The fused schedule is chosen here either way.
    from test_flow_divisor_chains import _two_levels

    from mainspring.memories import schedule
    from mainspring.memories.capacity import live_words

    seen = []
    real = schedule._dense

    def spy(prog, fixed, max_ii):
        seen.append((prog, real(prog, fixed, max_ii)))
        return seen[-1][1]

    monkeypatch.setattr(schedule, "_dense", spy)
    design = hl.compile(_two_levels(2, 4, 32, 8), name="storage22_chain", prove=False)
    prog, dense = seen[-1]
    assert schedule._finish(prog, dense) == 259 and live_words(prog, dense) == 70
    assert design.report["schedule"] == "fused"
