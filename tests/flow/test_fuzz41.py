"""Helper fuzz41 (session 41): the report's note on a pure definition's lanes along y where its op runs in an
update's loops.

fuzz 179594 (tests/flow/fuzz_cases/banked_rows_read_at_every_other_row.py): f0's pure definition only initialises
(a constant), so its op runs in the loops of f0's first update (hwlower/ops.py `_lower_func`). Both definitions are
unrolled by 2 along x and y: the ops make 2 x 2 lanes a firing (`rates`: lanes f0.s0.y.ui and f0.s0.x.ui), read by
hw_output a row a firing through strided port controllers (session 40). The report still said "f0.unroll(y, 2) ...
runs serially", the note of the pure definition's own loops, which the op no longer runs in. The note stays where
the update's loops do run those rows serially (its unroll of y left out)."""

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl

from conftest import SIMULATORS

pytestmark = pytest.mark.xdist_group("fuzz41")  # one compile of each design for the module

R = hl.TailStrategy.RoundUp


def _banked_rows(m, update_rows: bool):
    """f0 sums 3 taps of hw_input along x (r.x unrolled by 2), in 2 x 2 lanes (its update along y only with
    `update_rows`), read by hw_output at 2 lanes of x a row a firing in 8 x 3 tiles of 8 x 6."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.Int(16), 2, "input")
    hw_input, f0, hw_output, output = (m.Func(n) for n in ("hw_input", "f0", "hw_output", "output"))
    r = m.RDom([m.Range(0, 3)], "r")
    hw_input[x, y] = m.i16(inp[x, y])
    f0[x, y] = m.i16(0)
    f0[x, y] += hw_input[x + r.x, y] * m.i16(2)
    hw_output[x, y] = f0[x, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, 8).bound(y, 0, 6)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 3).hw_accelerate(xi, xo)
        f0.compute_at(hw_output, xo)
        f0.unroll(x, 2, R).unroll(y, 2, R)
        f0.update().unroll(r.x, 2).unroll(x, 2, R)
        if update_rows:
            f0.update().unroll(y, 2, R)
        hw_input.compute_root().stream_to_accelerator()
        hw_output.unroll(xi, 2, R)
    return output, {"input": inp}, [8, 6]


def _lanes(design) -> dict[tuple[str, int], list[str]]:
    return {(op.func, op.stage): [lp.var for lp in loops if lp.unrolled and lp.extent > 1]
            for loops, op in design.program.nest.ops()}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_rows_kept_by_the_update_loops_get_no_serial_note(simulator, compile_shared, build_dir, halide):
    design = compile_shared(_banked_rows(hl, True)[0], name="fuzz41_rows_kept")
    rep = design.report
    assert not [n for n in rep.get("notes", []) if "runs serially" in n], rep.get("notes")
    lanes = _lanes(design)
    assert lanes[("f0", 0)] == ["f0.s0.y.ui", "f0.s0.x.ui"] and lanes[("f0", 1)] == ["f0.s1.y.ui", "f0.s1.x.ui"]
    # (as session 40 measured it: the rows' lanes cost 16 cycles against the serial rows of the next test)
    assert (rep["predicted_cycles"], rep["ideal_cycles"], rep["pes"]) == (100, 80, 28), rep
    check_simulated_and_halide(design, lambda m: _banked_rows(m, True), simulator, build_dir, halide)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_rows_the_update_runs_serially_keep_the_note(simulator, compile_shared, build_dir, halide):
    design = compile_shared(_banked_rows(hl, False)[0], name="fuzz41_rows_serial")
    rep = design.report
    (note,) = rep["notes"]
    assert note.startswith("f0.unroll(y, 2) at ") and "runs serially: lanes along part of y (a split)" in note
    lanes = _lanes(design)
    assert lanes[("f0", 0)] == ["f0.s0.x.ui"] and lanes[("f0", 1)] == ["f0.s1.x.ui"], lanes
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (84, 80), rep
    check_simulated_and_halide(design, lambda m: _banked_rows(m, False), simulator, build_dir, halide)
