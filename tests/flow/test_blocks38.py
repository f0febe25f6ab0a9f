"""Issue 8 (helper xyin38, session 38): an accelerator input streamed a block of rows by words of x per transfer,
`hw_input.unroll(x, 2).unroll(y, 2)` (refused before as `input_unrolled_along_y`; Halide accepts it).

Transfer (t_y, t_x) holds words (2 t_x + i, 2 t_y + j), x fastest (word 2 j + i): the host's stmt in
memories/polyhedral.py has the rows' lanes then x's innermost (`LoopNest.block_words`), and mainspring/design.py
`_box_words` lays the words out so. To the checks of lanes along x the stream is its x lanes (docs/lanes.md), to
those of rows its rows: readers unrolled along x and y take the block one to one, four pixels a cycle; a reader of
fewer lanes steps its loops through the block's words in turn (hwlower/lane_steps.py), along x, y or both."""

import functools

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl

from conftest import SIMULATORS

pytestmark = pytest.mark.xdist_group("blocks38")  # one compile of each design for the module

R = hl.TailStrategy.RoundUp


def _blocks(m, w: int, h: int, mid: str, out: str, out_x: int = 2, storage_yx: bool = False):
    """input -> hw_input (2 x 2 words per transfer) -> mid (two taps along x) -> hw_output (rows y and y + 1 when
    both stages take two rows a firing, else y and y + 2: whole steps of 2 rows for a reader taking them in turn)
    -> output, w x h; `mid`, `out`: the dimensions each stage is unrolled along by 2 (the output's x by `out_x`);
    `storage_yx`: the input stored (and streamed) y fastest."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, mid_f, hw_output, output = (m.Func(n) for n in ("hw_input", "mid", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    mid_f[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2
    hw_output[x, y] = mid_f[x, y] + mid_f[x, y + (1 if mid == out == "xy" else 2)] * 3
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        mid_f.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2, R).unroll(y, 2, R)
        if storage_yx:
            hw_input.reorder_storage(y, x)
        for f, dims, kx, (vx, vy) in ((mid_f, mid, 2, (x, y)), (hw_output, out, out_x, (xi, yi))):
            if "x" in dims:
                f.unroll(vx, kx, R)
            if "y" in dims:
                f.unroll(vy, 2, R)
    return output, {"input": inp}, [w, h]


def _window(m, w: int, h: int):
    """input -> hw_input (2 x 2 words per transfer) -> hw_output (a 3x3 weighted window, 2 x 2 lanes) -> output."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, hw_output, output = (m.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    taps = [hw_input[x + i, y + j] * (i + 2 * j + 1) for j in range(3) for i in range(3)]
    hw_output[x, y] = functools.reduce(lambda a, b: a + b, taps)
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2, R).unroll(y, 2, R)
        hw_output.unroll(xi, 2, R).unroll(yi, 2, R)
    return output, {"input": inp}, [w, h]


def _stream(design):
    (s,) = design.program.inputs
    return s.lanes, s.lane_dim, s.x_words


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("size", [(8, 8), (7, 5)])
def test_blocks_read_by_stages_of_as_many_lanes_run_four_pixels_a_cycle(size, simulator, compile_shared, build_dir,
                                                                        halide):
    design = compile_shared(_blocks(hl, *size, "xy", "xy")[0], name=f"blocks38_xy_{size[0]}x{size[1]}")
    assert _stream(design) == (4, 1, 2)
    rep = design.report
    # the input's box, rounded up to whole blocks: 10 x 10 (8 x 8) or 8 x 6 (7 x 5), 4 words a transfer
    w, h = size
    assert rep["ideal_cycles"] == ((w + 3) // 2) * ((h + 3) // 2), rep
    assert rep["predicted_cycles"] <= rep["ideal_cycles"] + 4, rep
    assert all(b["words"] == b["min_words"] for b in rep["buffers"]), rep["buffers"]
    assert not [n for n in rep["notes"] if "runs serially" in n], rep["notes"]
    lanes = {op.func: sorted(lp.var.rsplit(".", 1)[-1] for lp in loops if lp.unrolled)
             for loops, op in design.program.nest.ops()}
    assert len(lanes["mid"]) == 2 and len(lanes["hw_output"]) == 2, lanes
    assert design.program.output_lanes == 4
    check_simulated_and_halide(design, lambda m: _blocks(m, *size, "xy", "xy")[0:3], simulator, build_dir, halide)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_readers_of_x_lanes_take_the_rows_of_each_block_in_turn(simulator, compile_shared, build_dir, halide):
    design = compile_shared(_blocks(hl, 7, 6, "x", "x")[0], name="blocks38_x_7x6")
    assert _stream(design) == (4, 1, 2)
    loops = [(lp.var, lp.extent, lp.unrolled) for loops, op in design.program.nest.ops() if op.func == "mid"
             for lp in loops]
    assert ("mid.s0.y.lane", 2, False) in loops, loops
    rep = design.report
    # mid: 8 x 8 pixels at 2 a cycle; the rows' second waits a line in memory
    assert rep["ideal_cycles"] == 32 and rep["predicted_cycles"] <= 32 + 6, rep
    check_simulated_and_halide(design, lambda m: _blocks(m, 7, 6, "x", "x"), simulator, build_dir, halide)


@pytest.mark.parametrize(("mid", "out", "out_x", "cycles"), [
    ("", "", 2, 85),  # one pixel a cycle: mid's 8 x 10 and its steps through x and y
    ("xy", "", 2, 85),  # mid's row lanes run serially (its reader takes a row a firing), with the note
    ("y", "y", 2, 45),  # rows one to one, x in turn
    ("x", "xy", 2, 45),  # the output two rows a firing over mid's rows in turn
    ("xy", "x", 4, 45),  # the output at 4 lanes of x: paced to mid
])
def test_blocks_read_by_stages_of_other_lanes_are_bit_exact(mid, out, out_x, cycles, build_dir, halide):
    design = hl.compile(_blocks(hl, 8, 8, mid, out, out_x)[0], name=f"blocks38_{mid or 1}_{out or 1}_{out_x}")
    assert _stream(design) == (4, 1, 2)
    assert design.report["predicted_cycles"] == cycles, design.report
    check_simulated_and_halide(design, lambda m: _blocks(m, 8, 8, mid, out, out_x), "icarus", build_dir, halide)


def test_a_window_over_blocks_at_four_lanes(build_dir, halide):
    design = hl.compile(_window(hl, 8, 8)[0], name="blocks38_window")
    rep = design.report
    # 10 x 10 words in 25 transfers; the window's first output waits two rows of blocks
    assert rep["ideal_cycles"] == 25 and rep["predicted_cycles"] <= 25 + 6, rep
    assert all(b["words"] == b["min_words"] for b in rep["buffers"]), rep["buffers"]
    check_simulated_and_halide(design, lambda m: _window(m, 8, 8), "icarus", build_dir, halide)


def test_blocks_of_an_input_stored_y_fastest(build_dir, halide):
    """hw_input.reorder_storage(y, x): the stream runs y fastest, so a block is 2 words of y by 2 rows of x."""
    design = hl.compile(_blocks(hl, 8, 8, "xy", "xy", storage_yx=True)[0], name="blocks38_yx")
    (s,) = design.program.inputs
    assert (s.lanes, s.order) == (4, (1, 0)), s
    check_simulated_and_halide(design, lambda m: _blocks(m, 8, 8, "xy", "xy"), "icarus", build_dir, halide)


def _scan(m, w: int, h: int, rows: bool = True):
    """A running sum along x over blocks: acc(x, y) = in(x, y); acc(r.x, y) = acc(r.x - 1, y) * 3 + in(r.x, y), with
    the input, acc, its update and the output unrolled along x and y by 2: two chains of 2 lanes, a row each
    (without `rows`, the input along x only)."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    r = m.RDom([m.Range(1, w - 1)], "r")
    hw_input[x, y] = inp[x, y]
    acc[x, y] = hw_input[x, y]
    acc[r.x, y] = acc[r.x - 1, y] * 3 + hw_input[r.x, y]
    hw_output[x, y] = acc[x, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2, R)
        if rows:
            hw_input.unroll(y, 2, R)
        acc.unroll(x, 2, R).unroll(y, 2, R)
        acc.update().unroll(r.x, 2).unroll(y, 2, R)
        hw_output.unroll(xi, 2, R).unroll(yi, 2, R)
    return output, {"input": inp}, [w, h]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("size", [(10, 8), (9, 5)])
def test_a_scan_over_blocks_chains_its_lanes_along_x_in_each_row(size, simulator, compile_shared, build_dir, halide):
    design = compile_shared(_scan(hl, *size)[0], name=f"blocks38_scan_{size[0]}x{size[1]}")
    assert _stream(design) == (4, 1, 2)
    rep = design.report
    # 4 pixels a cycle: the input's box rounded up to whole blocks (10 x 8: 20 transfers; 10 x 6: 15)
    w, h = size
    assert rep["ideal_cycles"] == ((w + 1) // 2) * ((h + 1) // 2), rep
    assert rep["predicted_cycles"] <= rep["ideal_cycles"] + 2, rep
    assert not [n for n in rep["notes"] if "runs serially" in n or "chains its lanes" in n], rep["notes"]
    lanes = {(op.func, op.stage): sorted(lp.var.rsplit(".", 2)[-2] for lp in loops if lp.unrolled)
             for loops, op in design.program.nest.ops()}
    assert all(len(v) == 2 for v in lanes.values()), lanes
    check_simulated_and_halide(design, lambda m: _scan(m, *size), simulator, build_dir, halide)


def _two_readers(m):
    """hw_input (blocks) read by mid (two taps along x) and other (one tap), both 2 x 2 lanes; 8 x 8."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, mid, other, hw_output, output = (m.Func(n) for n in ("hw_input", "mid", "other", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    other[x, y] = hw_input[x, y] * 3
    hw_output[x, y] = mid[x, y] + mid[x, y + 1] + other[x, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, 8).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
        mid.compute_at(hw_output, xo)
        other.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2, R).unroll(y, 2, R)
        for f in (mid, other):
            f.unroll(x, 2, R).unroll(y, 2, R)
        hw_output.unroll(xi, 2, R).unroll(yi, 2, R)
    return output, {"input": inp}, [8, 8]


def test_blocks_read_by_two_stages_of_as_many_lanes(build_dir, halide):
    design = hl.compile(_two_readers(hl)[0], name="blocks38_two")
    rep = design.report
    assert rep["ideal_cycles"] == 25 and rep["predicted_cycles"] <= 25 + 4, rep
    check_simulated_and_halide(design, _two_readers, "icarus", build_dir, halide)


def test_a_scan_unrolled_along_y_over_an_input_of_x_lanes_runs_its_rows_serially(build_dir, halide):
    """The input streams x lanes only: acc's rows are not lanes (row_lanes.py), so its update's unroll of y runs
    serially with a note, and its lanes along x chain at the pure definition's 2 (an internal assert, "no lanes
    agree", before session 38)."""
    design = hl.compile(_scan(hl, 10, 8, rows=False)[0], name="blocks38_scan_x")
    rep = design.report
    assert rep["ideal_cycles"] == 40 and rep["predicted_cycles"] <= 40 + 2, rep
    (note,) = [n for n in rep["notes"] if n.startswith("acc.update(0).unroll(y, 2) at ")]
    assert "runs serially" in note
    lanes = {(op.func, op.stage): [lp.var for lp in loops if lp.unrolled] for loops, op in design.program.nest.ops()}
    assert lanes[("acc", 1)] == ["acc.s1.r$x.ui"], lanes
    check_simulated_and_halide(design, lambda m: _scan(m, 10, 8, rows=False), "icarus", build_dir, halide)


def _scan_ahead(m):
    """acc(r.x, y) = acc(r.x + 1, y) * 2 + in(r.x, y), r.x in 1 .. 8 (each step reads the pure value the next step
    overwrites), 9 x 8, its update unrolled along r.x and y by 2 (refused before session 38 as `unrolled_scan`)."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    r = m.RDom([m.Range(1, 8)], "r")
    hw_input[x, y] = inp[x, y]
    acc[x, y] = hw_input[x, y]
    acc[r.x, y] = acc[r.x + 1, y] * 2 + hw_input[r.x, y]
    hw_output[x, y] = acc[x, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, 9).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 9, 8).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
        acc.update().unroll(r.x, 2).unroll(y, 2)
    return output, {"input": inp}, [9, 8]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_scan_reading_ahead_unrolled_along_y_runs_its_rows_serially(simulator, compile_shared, build_dir, halide):
    design = compile_shared(_scan_ahead(hl)[0], name="blocks38_scan_ahead")
    rep = design.report
    (note,) = rep["notes"]
    assert note.startswith("acc.update(0).unroll(y, 2) at ") and "runs serially" in note, note
    assert rep["predicted_cycles"] <= rep["ideal_cycles"] + 4, rep
    check_simulated_and_halide(design, _scan_ahead, simulator, build_dir, halide)
