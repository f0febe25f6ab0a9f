"""Storage near the polyhedral minimum (helper storage22, session 36).

A gather whose coordinate moves with the loops by a loaded offset of few values (autoprobe19's warp_clamped:
`in(clamp(x + (disp(x, y) >> 6) - 2, 0, w - 1), y)`) was a RAM holding the whole frame, read after its last write
(2,051 words and 4,100 cycles at 64 x 32). hwlower/bounded_gathers.py reads it as a select between the reads at the
offset's values: taps of the stream, a few words (rows for an offset along y). Figures: BENCHMARKS.md "Helper
storage22, session 36"."""

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


def warp_rows(m, w, h):
    """A vertical displacement of -1 .. 2 rows read from a second image, clamped inside the frame."""
    inp, disp = u8_input(m), u8_input(m, "disp")
    x, y = xy(m)
    out = m.Func("warp_rows")
    out[x, y] = inp[x, m.clamp(y + m.i32(disp[x, y] >> 6) - 1, 0, h - 1)]
    estimate(out, w, h)
    return out, {"inp": inp, "disp": disp}


def warp_wide(m, w, h):
    """A horizontal displacement of 16 values (-8 .. 7): more reads than a select serves, a RAM as before."""
    inp, disp = u8_input(m), u8_input(m, "disp")
    x, y = xy(m)
    out = m.Func("warp_wide")
    out[x, y] = inp[m.clamp(x + m.i32(disp[x, y] >> 4) - 8, 0, w - 1), y]
    estimate(out, w, h)
    return out, {"inp": inp, "disp": disp}


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
