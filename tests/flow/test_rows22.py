"""Issue 8 gaps (helper rows22, session 36): an accelerator input streamed two rows per transfer
(`hw_input.unroll(y, 2)`, Halide-to-Hardware's output rate along y; refused before as `input_unrolled_along_y`),
and a scan's RVar unrolled over a pure definition of fewer lanes (refused before as `unrolled_scan`).

Each transfer carries the words (x, 2t) and (x, 2t + 1) side by side (memories/polyhedral.py `_host_stmt`,
mainspring/design.py `_box_words`). Readers unrolled along y as well keep their row lanes (hwlower/row_lanes.py),
two rows a cycle; a reader of one row per firing steps its loop over y in runs of 2 rows, each reading one word of
the transfer (hwlower/lane_steps.py), and reads the other row from the buffer a row later."""

import functools

import numpy as np
import pytest
from oracle import halide_outputs

import mainspring as hl

pytestmark = pytest.mark.xdist_group("rows22")  # one compile of each design for the module

R = hl.TailStrategy.RoundUp
W, H = 16, 8


def _rows(m, together: bool, mid_rows: bool = False):
    """input -> hw_input -> mid (two taps along x) -> hw_output (two taps along y: rows y and y + 1 with `together`,
    every stage two rows a cycle; else y and y + 2, one row a cycle, or with `mid_rows` y and y + 1 with mid alone
    unrolled along y) -> output, the input two rows per transfer."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = (m.Func(n) for n in ("hw_input", "mid", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = mid[x, y] + mid[x, y + (2 if not together and not mid_rows else 1)] * 3
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, W).bound(y, 0, H)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
        mid.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(y, 2, R)
        if together or mid_rows:
            mid.unroll(y, 2, R)
        if together:
            hw_output.unroll(yi, 2, R)
    return output, {"input": inp}, [W, H]


@functools.cache
def _design(together: bool):
    return hl.compile(_rows(hl, together)[0], name=f"rows22_{'together' if together else 'in_turn'}")


def _stream(design):
    (s,) = design.program.inputs
    return s.lanes, s.lane_dim


def test_rows_together_stream_two_rows_per_transfer_and_run_two_rows_a_cycle():
    design = _design(True)
    assert _stream(design) == (2, 1)
    rep = design.report
    # mid covers rows 0..8, rounded up to 10: 16 x 10 / 2 = 80 transfers in (160 cycles at a row a cycle)
    assert rep["ideal_cycles"] <= 85 and rep["predicted_cycles"] <= rep["ideal_cycles"] + 4, rep
    assert all(b["words"] == b["min_words"] for b in rep["buffers"]), rep["buffers"]
    # hw_output's firing t reads mid's rows 2t, 2t + 1 and 2t + 2, the last a firing of mid a row of x later: mid holds
    # both lanes of a row (the schedule's exact minimum, 34 words); the stream's two rows pass through registers
    assert sum(b["words"] for b in rep["buffers"]) <= 2 * (W + 1) + 4 + 2, rep["buffers"]
    assert not [n for n in rep["notes"] if "runs serially" in n], rep["notes"]
    lanes = {op.func: [lp.var for lp in loops if lp.unrolled] for loops, op in design.program.nest.ops()}
    assert len(lanes["mid"]) == 1 and len(lanes["hw_output"]) == 1, lanes


def test_a_reader_of_one_row_takes_the_rows_of_each_transfer_in_turn():
    design = _design(False)
    assert _stream(design) == (2, 1)
    loops = [(lp.var, lp.extent, lp.unrolled) for loops, op in design.program.nest.ops() if op.func == "mid"
             for lp in loops]
    assert ("mid.s0.y.lane", 2, False) in loops, loops
    rep = design.report
    assert rep["predicted_cycles"] <= W * (H + 2) + 5, rep  # mid's 160 pixels at one a cycle
    # the second row of each transfer waits a row for mid: a line of hw_input (19 words at least, one more held)
    assert all(b["words"] <= b["min_words"] + 1 for b in rep["buffers"]), rep["buffers"]
    assert [b["words"] for b in rep["buffers"] if b["name"] == "hw_input"] == [W + 4], rep["buffers"]


@pytest.mark.parametrize(("together", "simulator"), [(True, "icarus"), (True, "verilator"), (False, "icarus")])
def test_rows_per_transfer_are_bit_exact_and_equal_to_halide(together, simulator, build_dir, halide):
    design = _design(together)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    out, images, size = _rows(halide, together)
    (want,) = halide_outputs(halide, out, images, inputs, size)
    (got,) = design.reference_outputs(inputs)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_a_func_of_row_lanes_read_one_row_a_cycle_runs_its_rows_serially(build_dir):
    """mid.unroll(y, 2) read by a stage of one row per firing: its lanes would be read at a stride, so mid runs its
    rows serially, as before (with the note), and its loop of 2 rows takes the stream's transfers in turn."""
    design = hl.compile(_rows(hl, False, mid_rows=True)[0], name="rows22_serial_mid")
    assert _stream(design) == (2, 1)
    (note,) = [n for n in design.report["notes"] if n.startswith("mid.unroll(y, 2) at")]
    assert "runs serially: lanes along part of y (a split)" in note
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _scan(m, pure_lanes: bool, width: int = 10):
    """A running sum along x, acc.update().unroll(r.x, 2): with `pure_lanes` acc, hw_output and the input at 2 lanes
    too (the lanes chain, session 30); else alone (the compiler adds those lanes, session 36: test_scan22.py)."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    r = m.RDom([m.Range(1, width - 1)], "r")
    hw_input[x, y] = inp[x, y]
    acc[x, y] = hw_input[x, y]
    acc[r.x, y] = acc[r.x - 1, y] * 3 + hw_input[r.x, y]
    hw_output[x, y] = acc[x, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, width).bound(y, 0, H)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, H).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        acc.update().unroll(r.x, 2)
        hw_input.compute_root().stream_to_accelerator()
        if pure_lanes:
            acc.unroll(x, 2, R)
            hw_output.unroll(xi, 2, R)
            hw_input.unroll(x, 2, R)
    return output, {"input": inp}, [width, H]


@pytest.mark.parametrize("pure_lanes", [False, True])
def test_an_unrolled_scan_chains_or_runs_serially_and_is_bit_exact(pure_lanes, build_dir, halide):
    design = hl.compile(_scan(hl, pure_lanes)[0], name=f"rows22_scan_{int(pure_lanes)}")
    notes = design.report.get("notes", [])
    # 2 pixels a cycle: 10 x 8 / 2; alone, the compiler adds the lanes (session 36, tests/flow/test_scan22.py)
    assert design.report["predicted_cycles"] <= 40 + 4, design.report
    if pure_lanes:
        assert not notes
    else:
        (note,) = notes
        assert note.startswith("acc.update(0).unroll(r.x, 2) at ") and " chains its lanes " in note
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    out, images, size = _scan(halide, pure_lanes)
    (want,) = halide_outputs(halide, out, images, inputs, size)
    (got,) = design.reference_outputs(inputs)
    assert got.dtype == want.dtype and np.array_equal(got, want)
