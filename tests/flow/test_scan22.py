"""Issue 8 (helper scan22, session 36): a scan whose update alone is unrolled (`acc.update().unroll(r.x, 2)`)
compiles to the chained design: the compiler gives its pure definition, readers and input streams the lanes on a
copy of the pipeline (hwlower/scan_lanes.py), which rows22 had the user write (a note named the fix). A scan the
rewrite does not take (a reader of its pairs) still runs its lanes serially with that note. The refusals' wording
(a rate fix naming the loop r.x.ui, a reverse-reading scan's lanes) is pinned by the catalogue
(tests/errors/errors_lanes.py `scan_over_two_lane_stream`, errors_tiles.py `unrolled_scan`)."""

import numpy as np
import pytest
from compile_once import compiled, together
from oracle import halide_outputs
from test_rows22 import _scan

import mainspring as hl
from mainspring.apps.common import accelerate

from conftest import SIMULATORS


def _built():
    """rows22's running sum along x, 10x8, acc.update().unroll(r.x, 2) alone (serial at 81 cycles, 42 with the
    lanes written by hand)."""
    return _scan(hl, False)[0], None


def _bit_exact(design, simulator: str, build_dir, halide, program, seed: int) -> None:
    """design simulated on `simulator` at its predicted cycles, its outputs equal to Halide 21's of `program`."""
    inputs = design.example_inputs(seed)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    out, images, size = program(halide)[:3]
    (want,) = halide_outputs(halide, out, images, inputs, size)
    (got,) = design.reference_outputs(inputs)
    assert got.dtype == want.dtype and np.array_equal(got, want)


@together("scan22_chain")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_unrolled_scan_alone_compiles_to_the_chained_design(simulator, build_dir, halide):
    design, _ = compiled("scan22_chain", _built)
    (note,) = design.report["notes"]
    assert note.startswith("acc.update(0).unroll(r.x, 2) at tests/flow/test_rows22.py:") and note.endswith(
        " chains its lanes (each reading the one before it in the same cycle): the compiler added "
        "acc.unroll(x, 2, hl.TailStrategy.RoundUp), hw_input.unroll(x, 2, hl.TailStrategy.RoundUp) and "
        "hw_output.unroll(xi, 2, hl.TailStrategy.RoundUp), for the chain to run at 2 pixels per cycle (the scan's "
        "pure definition, its readers and its inputs making as many lanes)")
    assert design.report["predicted_cycles"] == 42  # 2 pixels a cycle (rows22: 81 serial, 42 written by hand)
    _bit_exact(design, simulator, build_dir, halide, lambda m: _scan(m, False), 1)


def test_the_users_funcs_keep_their_schedule_and_the_design_is_deterministic():
    out = _scan(hl, False)[0]
    acc = hl.Pipeline(out).funcs()["acc"]
    first = hl.compile(out, name="scan22_twice")
    second = hl.compile(out, name="scan22_twice")
    assert first.verilog == second.verilog and first.memory_text == second.memory_text
    # the lanes are the copy's: acc's pure definition as the user wrote it (no split, no unroll)
    assert acc.function().definitions[0].schedule.directives == []


def _output_scan(m):
    """f, a running sum along x that is itself the accelerated output (its x split by the tile), its update
    unrolled by 2 (refused before session 36, then serial at 33 cycles)."""
    x, y = m.Var("x"), m.Var("y")
    i = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, f = m.Func("hw_input"), m.Func("f")
    hw_input[x, y] = i[x, y]
    f[x, y] = hw_input[x, y]
    r = m.RDom([m.Range(1, 7)], "r")
    f[r.x, y] = f[r.x - 1, y] + hw_input[r.x, y]
    if m is hl:
        f.update().unroll(r.x, 2)
        accelerate(f, f, 8, 4, [], hw_input)
    return f, {"input": i}, [8, 4]


def test_a_scan_that_is_the_accelerators_output_chains_too(build_dir, halide):
    design = hl.compile(_output_scan(hl)[0], name="scan22_output")
    (note,) = design.report["notes"]
    assert "the compiler added f.unroll(xi, 2, hl.TailStrategy.RoundUp) and hw_input.unroll(x, 2, " in note
    assert design.report["predicted_cycles"] == 18
    _bit_exact(design, "icarus", build_dir, halide, _output_scan, 2)


def _pairs(m):
    """acc read in pairs (hw_output(x) = acc(2x) + acc(2x + 1)): a reader the rewrite leaves alone."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    i = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    hw_input[x, y] = i[x, y]
    acc[x, y] = hw_input[x, y]
    r = m.RDom([m.Range(1, 15)], "r")
    acc[r.x, y] = acc[r.x - 1, y] + hw_input[r.x, y]
    hw_output[x, y] = acc[2 * x, y] + acc[2 * x + 1, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, 8).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        acc.update().unroll(r.x, 2)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": i}, [8, 4]


def test_a_scan_whose_reader_the_rewrite_leaves_runs_serially_with_the_note(build_dir, halide):
    design = hl.compile(_pairs(hl)[0], name="scan22_pairs")
    (note,) = design.report["notes"]
    assert note.startswith("acc.update(0).unroll(r.x, 2) at ") and "runs serially: its lanes would chain" in note
    _bit_exact(design, "icarus", build_dir, halide, _pairs, 3)


def _both_ways(m):
    """acc(r.x) = acc(r.x + 1) * 2 + in(r.x) + acc(r.x - 1), r.x in 1 .. 8 over 10x4: lane 1 reads lane 0's result
    (chained) and lane 0 the element lane 1 overwrites, its value from before (refused as a dependence before
    session 36; Halide accepts it), acc.update().unroll(r.x, 2) alone."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    r = m.RDom([m.Range(1, 8)], "r")
    hw_input[x, y] = inp[x, y]
    acc[x, y] = hw_input[x, y]
    acc[r.x, y] = acc[r.x + 1, y] * 2 + hw_input[r.x, y] + acc[r.x - 1, y]
    hw_output[x, y] = acc[x, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, 10).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 10, 4).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        acc.update().unroll(r.x, 2)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [10, 4]


def _both_ways_built():
    return _both_ways(hl)[0], None


@together("scan22_both_ways")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_lane_reading_the_element_a_later_lane_overwrites_reads_its_value_from_before(simulator, build_dir,
                                                                                        halide):
    design, _ = compiled("scan22_both_ways", _both_ways_built)
    (note,) = design.report["notes"]
    assert " chains its lanes " in note
    assert design.report["predicted_cycles"] <= 10 * 4 // 2 + 4
    _bit_exact(design, simulator, build_dir, halide, _both_ways, 4)
