"""A multi-rate pipeline's levels at their producers' pace (helper sched37, session 37; issue 11).

down_down_up (two 2x down-samples d1, d2 read back at x / 4 and y / 4, automem16's program) at 16 x 16 and 2 lanes:
the fused schedule's one mixed radix takes each digit's widest extent, and hwlower strip-mined d1's x into 2 x 4 but
the output's into 4 x 2 transfers, so its rows are 4 * 4 = 16 cycles for rows of 8, and the input stream is paced to
them: 311 cycles (459 before storage22's spacing, which the 4/3 rule then kept over the dense schedule's 249). The
dense schedule ran d2 at its own radix, after the whole of d1 (its pace, a row every 32 cycles and a pixel every 2,
left no room for its own outer x step of 4 cycles, so `keep_pace` dropped it): its "spaced" variant spaces d2's outer
steps out instead (op_pacing.keep_pace `spaced`), and the output starts after 4 input rows and runs at full rate:
161 cycles, every buffer at its minimum but d2's delay line (6 words for 4). Figures: BENCHMARKS.md "Helper sched37,
session 37"."""

import functools
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "independent"))
from automem16_programs import down_down_up
from oracle import autoscheduled, halide_outputs


@functools.cache
def _design(size):
    return autoscheduled(down_down_up, size, {"lanes": "2"}, name=f"sched37_ddu_{size[0]}x{size[1]}")[0]


def _words(design) -> dict[str, tuple[int, int]]:
    return {b["name"]: (b["words"], b["min_words"]) for b in design.report["buffers"]}


@pytest.mark.xdist_group("sched37_ddu")
@pytest.mark.parametrize("simulator", ["icarus"], indirect=True)
def test_two_down_samples_read_back_at_x_over_4_run_at_the_streams_rate(simulator, build_dir, halide):
    # Was 311 cycles (fused, rows of 16 cycles), first output at 57; now 128 cycles of output after 4 input rows.
    size = (16, 16)
    design = _design(size)
    rep = design.report
    assert rep["schedule"] == "dense" and rep["ideal_cycles"] == 128, rep
    assert rep["predicted_cycles"] == 161 and rep["first_output_cycle"] == 33, rep
    assert _words(design) == {"wide": (18, 18), "d1": (10, 10), "d2": (6, 4), "ddu": (2, 2)}
    assert rep["mem_tiles"] == 2  # 3 before two banks of one port pair shared a tile (memories/shared_tiles.py)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == 161
    out, images = down_down_up(halide, *size)
    want = halide_outputs(halide, out, images, inputs, list(size))
    got = design.reference_outputs(inputs)
    assert all(g.dtype == w.dtype and np.array_equal(g, w) for g, w in zip(got, want, strict=True))


def test_two_down_samples_at_32_by_16_stay_near_ideal():
    # The same at 32 x 16: was 615 cycles (fused, first output at 105), now 313 for an ideal of 256.
    rep = _design((32, 16)).report
    assert rep["predicted_cycles"] == 313 and rep["first_output_cycle"] == 57, rep
    assert rep["predicted_cycles"] <= 1.1 * rep["ideal_cycles"] + rep["first_output_cycle"]
    assert _words(_design((32, 16))) == {"wide": (34, 34), "d1": (18, 18), "d2": (10, 8), "ddu": (2, 2)}
