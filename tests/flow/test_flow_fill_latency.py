"""Where the cycles above the ideal go in the small multi-rate designs (BENCHMARKS.md "Helper rates7, session
24"): the first output waits for the rows of a lower-resolution Func or stream that its first output rows read,
delivered at the steady pace that keeps storage at a line. The gap grows with the width (output rows), not a
fixed cost, and it is the least an affine schedule at that storage allows: these tests pin each design to it.

Compile only: the same designs are simulated on both simulators in tests/flow/test_flow_autoschedule_newcomer2.py
(Icarus), tests/flow/test_flow_h2h.py and tests/flow/test_flow_divisor_chains.py."""

import pytest
from newcomer_algorithms import bilinear_up, pyramid, pyramid_by_levels, resampled_funcs_buffered

import mainspring as hl

DEPTH = 12  # the deepest pipeline among these designs (bilinear_up: 11 cycles past the fill)


def _report(algorithm, width, height):
    out, _, _ = algorithm(hl, width, height)
    with resampled_funcs_buffered():  # bilinear_up's ux buffered, whose fill these tests pin
        hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    return hl.compile(out, name=f"fill_{algorithm.__name__}").report


@pytest.mark.parametrize(("width", "height"), [(32, 16), (64, 32)])
def test_bilinear_up_fills_its_first_ux_rows_back_to_back(width, height):
    # Output row 2k + 1 reads ux row k + 1, and ux (one row per two output rows, as storage at two ux rows needs)
    # delivers its rows from -1 on: paced throughout, row 1, the third, landed three output rows after the first
    # (3 * width + 11: 619 cycles at 32 x 16, 2,251 at 64 x 32). The stream and ux, which steps its rows with it,
    # now take their first two rows back to back at their pace within a row and the rest paced
    # (memories/stream_prologue.py's followers): the first output waits about one output row, at the same storage.
    rep = _report(bilinear_up, width, height)
    assert width <= rep["first_output_cycle"] <= width + 17
    assert rep["predicted_cycles"] - rep["ideal_cycles"] <= width + 17
    ux = [b for b in rep["buffers"] if b["name"] == "ux"]
    assert ux and ux[0]["min_words"] == 2 * width  # two ux rows: the fill costs no storage


@pytest.mark.parametrize("algorithm", [pyramid, pyramid_by_levels], ids=lambda a: a.__name__)
@pytest.mark.parametrize(("width", "height"), [(32, 16), (64, 32)])
def test_a_pyramid_is_at_its_input_bound(algorithm, width, height):
    # No schedule beats ideal + 3 * width: the last four output rows all read d2's last row, which needs the image's
    # last row, and the image (one word a cycle, width x height words: the ideal) delivers it in its last `width`
    # cycles; four rows of output take 4 * width cycles after it. The designs are there to within their depth.
    rep = _report(algorithm, width, height)
    assert rep["ideal_cycles"] == width * height
    assert 3 * width <= rep["predicted_cycles"] - rep["ideal_cycles"] <= 3 * width + DEPTH


@pytest.mark.parametrize(("width", "height"), [(14, 6), (30, 8)])
def test_accumulation_waits_two_dense_input_rows(width, height):
    # The serial 3x3 reduction takes 9 cycles a pixel, and the stream is paced to it (one row per 9 * width cycles,
    # storage at two rows and 3 words); the first output reads input row 2. Paced, those two rows took 2 * 9 *
    # width cycles; they now come first at one word a cycle (memories/stream_prologue.py), 2 * (width + 2).
    from mainspring.apps import h2h_accumulation

    out, _ = h2h_accumulation.build(width, height)
    rep = hl.compile(out, name="fill_accumulation").report
    assert rep["ideal_cycles"] == 9 * width * height
    assert 2 * (width + 2) <= rep["predicted_cycles"] - rep["ideal_cycles"] <= 2 * (width + 2) + 2 * DEPTH
