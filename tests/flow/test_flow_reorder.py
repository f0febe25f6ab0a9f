"""Pass `reorder` (hwlower/reorder.py): an update whose reduction loops enclose its pure loops takes each element's
steps in a row; the computation is the same, bit for bit on both simulators, and the run nears its ideal."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl
from mainspring.frontend.pipeline import Pipeline
from mainspring.hwlower import lower

SIMULATORS = ("icarus", "verilator")


def _sweeps(order: str, lanes: bool = False):
    """A 3x3 convolution over 2 input channels whose update sweeps the frame once per tap (`taps_outside`,
    resnet's order), or runs the taps per pixel (`taps_inside`), or is a scan along x (`scan`)."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    image = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, conv, hw_output, output = (hl.Func(n) for n in ("hw_input", "conv", "hw_output", "output"))
    hw_input[c, x, y] = hl.i16(image[c, x, y])
    r = hl.RDom([(0, 3), (0, 3), (0, 2)], "r")
    conv[x, y] = hl.i16(0)
    if order == "scan":
        s = hl.RDom([(1, 9)], "s")
        conv[x, y] = hw_input[0, x, y]
        conv[s.x, y] = conv[s.x - 1, y] + hw_input[1, s.x, y]
    else:
        conv[x, y] += hw_input[r.z, x + r.x, y + r.y] * hl.i16(r.x + 2 * r.y + 1)
    hw_output[x, y] = conv[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 10).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 10, 8).hw_accelerate(xi, xo)
    conv.compute_at(hw_output, xo)
    if order == "taps_outside":
        conv.update().reorder(r.z, x, y, r.x, r.y)
    if lanes:
        conv.update().unroll(r.z)
    hw_input.compute_root().stream_to_accelerator()
    rng = np.random.default_rng(4)
    return output, {"input": rng.integers(0, 256, size=(10, 12, 2), dtype=np.uint8)}  # c fastest


def _update_loops(order, lanes=False):
    prog = lower(Pipeline(_sweeps(order, lanes)[0]), "sweeps")
    loops = [lp for lp, op in prog.nest.ops() if op.func == "conv"][-1]  # the last update
    return [lp.var.split(".")[-1] + ("*" if lp.unrolled else "") for lp in loops if lp.extent > 1]


def test_reduction_loops_move_inside_the_pure_loops_in_their_order():
    # reorder(r.z, x, y, r.x, r.y): r.y, r.x outermost, then y, x, r.z; in place: y, x, then r.y, r.x, r.z
    assert _update_loops("taps_outside") == ["y", "x", "r$y", "r$x", "r$z"]
    assert _update_loops("taps_inside") == ["y", "x", "r$z", "r$y", "r$x"]  # Halide's default: r.x innermost


def test_an_unrolled_reduction_loop_stays_a_tree_and_a_scan_keeps_its_order():
    assert _update_loops("taps_outside", lanes=True) == ["y", "x", "r$y", "r$x"]  # r.z summed in one firing
    assert _update_loops("scan") == ["y", "s$x"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("lanes", [False, True])
def test_a_sweep_per_tap_is_bit_exact_and_near_its_ideal(simulator, build_dir, lanes, compile_shared):
    out, inputs = _sweeps("taps_outside", lanes)
    design = compile_shared(out, name=f"sweeps_{int(lanes)}")
    rep = design.report
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == rep["predicted_cycles"]
    # 80 pixels of 18 steps (9 with the channels as lanes); the first waits for two rows of the stream (about
    # a quarter of this small run: the share falls with the frame's height)
    assert rep["ideal_cycles"] == (720 if lanes else 1440)
    assert rep["predicted_cycles"] <= 1.3 * rep["ideal_cycles"], (rep["predicted_cycles"], rep["ideal_cycles"])


def _rows_unrolled(ky: int, kx: int, height: int):
    """`hw_output.unroll(yi, ky)` (with xi inside it), and `unroll(xi, kx)`: Halide accepts an unrolled loop outside
    a serial one; the output's unrolled loops run innermost instead (hwlower/loops.py `lanes_innermost`), each
    transfer holding ky rows side by side (fuzz 155121, refused before)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y + 1] * 2
    hw_output[x, y] = blur[x, y] >> 1
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, height).hw_accelerate(xi, xo)
    hw_output.unroll(yi, ky)
    if kx > 1:
        hw_output.unroll(xi, kx)
    blur.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("ky", "kx", "height"), [(2, 1, 4), (2, 2, 4), (3, 1, 6), (2, 1, 5)])
def test_the_outputs_rows_unrolled_outside_its_columns_run_side_by_side(ky, kx, height, simulator, build_dir,
                                                                        compile_shared):
    design = compile_shared(_rows_unrolled(ky, kx, height), name="rows_unrolled")
    assert any("run" in n and "innermost" in n for n in design.report["notes"]), design.report.get("notes")
    design.check(design.example_inputs(2), simulator=simulator, build_dir=build_dir)


def _column_sums(rows_outside: bool, width: int = 16, height: int = 8):
    """A projection, each column's sum over the rows (`s(x) += im(x, r)`), the output accelerated itself. With
    `update().reorder(x, r.x)` (the rows outside the columns) it reads the image as it streams; in place (each
    column's rows in a row) it would wait for the whole frame, so the pass keeps the user's order."""
    im = hl.ImageParam(hl.UInt(16), 2, "im")
    x, xo, xi = hl.Var("x"), hl.Var("xo"), hl.Var("xi")
    r = hl.RDom([(0, height)], "rows")
    s = hl.Func("column_sums")
    s[x] = hl.u16(0)
    s[x] += im[x, r.x]
    s.bound(x, 0, width)
    s.compute_root().split(x, xo, xi, width).hw_accelerate(xi, xo)
    if rows_outside:
        s.update(0).reorder(x, r.x)
    im.in_().compute_root().stream_to_accelerator()
    return s


def test_a_projection_read_as_its_input_streams_keeps_its_order():
    def update_loops(rows_outside):
        nest = lower(Pipeline(_column_sums(rows_outside)), "c").nest
        (loops,) = [loops for loops, op in nest.ops() if op.name.endswith("_s1")]
        return [lp.var.split(".")[-1] for lp in loops]

    assert update_loops(True) == ["rows$x", "x"]
    assert update_loops(False) == ["x", "rows$x"]  # Halide's default order: the whole frame first, either way


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_projection_with_its_rows_outside_holds_a_row_of_sums(simulator, build_dir, compile_shared):
    design = compile_shared(_column_sums(True), name="column_sums")
    words = {b["name"]: b["words"] for b in design.report["buffers"]}
    assert words["im_im_global_wrapper"] <= 2 and sum(words.values()) <= 16 + 4, words  # 127 + 3 in place
    res = design.check(design.example_inputs(3), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 128 + 4, res.cycles


def test_the_autoscheduler_puts_a_projections_rows_outside():
    """A column sum written with no schedule: the sums keep pace with the stream, a row of them held (at 64x64,
    67 words and 1 PE; its 64 rows unrolled whole were 4,034 words and 63 PEs)."""
    im = hl.ImageParam(hl.UInt(16), 2, "im")
    x = hl.Var("x")
    r = hl.RDom([(0, 64)])
    s = hl.Func("s")
    s[x] = hl.u16(0)
    s[x] += im[x, r.x]
    s.set_estimates([(0, 64)])
    src = hl.Pipeline(s).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring")).schedule_source
    assert 'funcs["s"].update(0).reorder(vars["x"], vars["s.update(0).x"])' in src and "unroll" not in src, src
    rep = hl.compile(s, name="column_sums_auto", prove=False).report
    assert sum(b["words"] for b in rep["buffers"]) <= 70 and rep["pes"] <= 2, rep["buffers"]
    assert rep["predicted_cycles"] <= 4096 + 8
