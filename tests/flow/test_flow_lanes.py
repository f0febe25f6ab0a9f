"""Several pixels per cycle (lanes) through the whole flow: streams of k words per transfer, one kernel per
lane, RoundUp tails, and the schedule errors when producer and consumer rates disagree (passes: lower,
schedule, verilog, simulate)."""

import math
import os
import re
import shutil
import subprocess

import pytest

import mainspring as hl
from mainspring import apps
from mainspring.apps.common import accelerate
from mainspring.apps.gaussian import algorithm
from mainspring.sim import require_tool

from conftest import assert_lint_clean_and_latch_free

SIMULATORS = ("icarus", "verilator")
SIZE = (30, 16)


# Harris at two lanes needs 386 PE ops, two more than the reference array's 384 (hl.CGRA's default).
WIDE = hl.CGRA(num_pes=512)


def _app(name, lanes, width=SIZE[0], height=SIZE[1]):
    out, inputs = apps.load(name).build(width, height, lanes=lanes)
    return hl.compile(out, name=f"{name}_l{lanes}_{width}", target=WIDE), inputs


def _check_rates(design, lanes, depth_slack=8):
    r = design.report
    ideal = math.ceil(design.plan.input_words / lanes)
    # The kernels' pipeline stages beyond their output register add to the depth (at most their sum).
    staged = sum(max(0, n - 1) for n in r["kernel_latency"].values())
    assert r["ideal_cycles"] == ideal and r["tile_cycles"] - ideal <= depth_slack + staged, r


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("lanes", [1, 2, 4])
def test_gaussian_lanes_bit_exact(lanes, simulator, build_dir):
    design, inputs = _app("gaussian", lanes)
    nest = design.program.nest
    assert nest.stream_lanes("hw_input") == nest.stream_lanes("hw_output") == lanes
    width = {1: 32, 2: 32, 4: 36}[lanes]  # 30 + 2 columns, rounded up to whole transfers (RoundUp)
    assert nest.buffer("hw_input").box[0] == (0, width)
    _check_rates(design, lanes)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles and res.output.shape == (SIZE[1], SIZE[0])
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=3)
    if lanes > 1:
        assert f"input [{16 * lanes - 1}:0] hw_input_data" in design.verilog
        assert f"output [{16 * lanes - 1}:0] hw_output_data" in design.verilog
        assert len(re.findall(r"\bk_blur_unnormalized_s0 u_blur_unnormalized_s0_l\d", design.verilog)) == lanes


def _slow_on_verilator(apps_):
    return [pytest.param(a, s, marks=[pytest.mark.slow] if s == "verilator" else [])
            for a in apps_ for s in SIMULATORS]


@pytest.mark.parametrize(("name", "simulator"), _slow_on_verilator(["cascade", "harris"]), indirect=["simulator"])
def test_apps_with_two_lanes_bit_exact(name, simulator, build_dir):
    design, inputs = _app(name, 2)
    _check_rates(design, 2)
    assert all(b["words"] == b["min_words"] for b in design.report["buffers"])  # even widths: no padding
    res = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=1)
    assert res.cycles > res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_round_up_tail_at_a_width_lanes_do_not_divide(simulator, build_dir):
    """Seed 002's form: unroll(x, 3, RoundUp) everywhere, 31 wide: every stage computes 33 columns, the
    output stream carries them all and the host keeps 31."""
    design, inputs = _app("gaussian", 3, 31, 8)
    nest = design.program.nest
    assert nest.buffer("hw_output").box[0] == (0, 33) and nest.buffer("hw_input").box[0] == (0, 36)
    assert inputs["input"].shape == (10, 36)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.output.shape == (8, 31) and res.accelerator_output.shape[1] >= 31
    _check_rates(design, 3)


def _tiled_lanes():
    """Host tiling with lanes and a RoundUp tail: 26 columns in tiles of 10 (ShiftInwards: at 0, 10 and 16),
    each tile's 10 columns computed as 12 by 4 lanes."""
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    R = hl.TailStrategy.RoundUp
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    f = hl.Func("f")
    f[x, y] = hw_input[x, y] * 3 + hw_input[x + 1, y + 1]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f[x, y] >> 1
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 26).bound(y, 0, 6)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 10, 6).hw_accelerate(xi, xo).unroll(xi, 4, R)
    f.compute_at(hw_output, xo).unroll(x, 4, R)
    hw_input.compute_root().stream_to_accelerator().unroll(x, 4, R)
    return output


@pytest.mark.parametrize("simulator", ["icarus"], indirect=True)
def test_round_up_tail_in_host_tiles(simulator, compile_shared, build_dir):
    design = compile_shared(_tiled_lanes(), name="tiled_lanes")
    assert design.report["tiles"] == 3
    assert design.program.nest.buffer("hw_output").box[0][1] == 12
    inputs = design.example_inputs()
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)


def _column_scan(lanes: int):
    """A running sum down each column, f(x, r) = f(x, r - 1) + in(x, r): its update unrolled in x with RoundUp
    is fine (each column's scan is independent of its neighbours)."""
    x, y = hl.Var("x"), hl.Var("y")
    R = hl.TailStrategy.RoundUp
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    f = hl.Func("f")
    f[x, y] = hw_input[x, y]
    r = hl.RDom([hl.Range(1, 5)], "r")
    f[x, r.x] = f[x, r.x - 1] + hw_input[x, r.x]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f[x, y]
    accelerate(hw_output, hw_output, 9, 6, [f], hw_input)
    f.unroll(x, lanes, R)
    f.update().unroll(x, lanes, R)
    # (the output's own loop guards its last transfer: a RoundUp past its bound of 9 is refused, as in Halide)
    hw_output.unroll(hl.Var("xi"), lanes, hl.TailStrategy.GuardWithIf)
    hw_input.unroll(x, lanes, R)
    return hw_output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_reduction_unrolled_in_a_pure_var_with_round_up(simulator, compile_shared, build_dir):
    design = compile_shared(_column_scan(2), name="column_scan")
    assert design.program.nest.buffer("f").box[0] == (0, 10)
    # one op per lane (hwlower/scans.py), a row of sums stored once: 12 words, 32 cycles (as two ops 114, 65)
    assert [op.stage for _, op in design.program.nest.ops() if op.func == "f"] == [0]
    assert sum(b["words"] for b in design.report["buffers"]) == sum(b["min_words"] for b in design.report["buffers"])
    design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize(("name", "lanes"), [("gaussian", 4), ("harris", 2)])
def test_lanes_rtl_is_lint_clean_and_latch_free(name, lanes, tmp_path):
    design, _ = _app(name, lanes)
    assert_lint_clean_and_latch_free(design, tmp_path)


def test_one_lane_designs_are_unchanged():
    """lanes=1 adds no unroll: the same loop nest and RTL as the app without the parameter."""
    mod = apps.load("gaussian")
    a, _ = mod.build(30, 16)
    b, _ = mod.build(30, 16, lanes=1)
    da, db = hl.compile(a, name="g"), hl.compile(b, name="g")
    assert da.verilog == db.verilog and da.program.nest.lanes == (("hw_input", 1), ("hw_output", 1))


# ---- schedule errors, each message pinned -------------------------------------------------------------

def _gaussian(out=0, inp=0, blur=0, pure=0, update=0, tail=hl.TailStrategy.Auto, width=30):
    """Seed 002's gaussian with the given unrolls of x (0: none); returns the program and the line of each call."""
    a = algorithm()
    x, xi, win = a.x, hl.Var("xi"), a.win
    hw_input, bu, b, hw_output, output = a.hw_input, a.blur_unnormalized, a.blur, a.hw_output, a.output
    bu.update().unroll(win.x).unroll(win.y)
    accelerate(output, hw_output, width, 16, [bu, b], hw_input)
    base = _line()
    if update:
        bu.update().unroll(x, update, tail)  # base + 2
    if pure:
        bu.unroll(x, pure, tail)  # base + 4
    if blur:
        b.unroll(x, blur, tail)  # base + 6
    if out:
        hw_output.unroll(xi, out, tail)  # base + 8
    if inp:
        hw_input.unroll(x, inp, tail)  # base + 10
    return output, {"update": base + 2, "pure": base + 4, "blur": base + 6, "out": base + 8, "inp": base + 10}


def _file() -> str:
    return os.path.relpath(__file__)


def _line() -> int:
    import inspect

    return inspect.currentframe().f_back.f_lineno


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("kw", "cycles", "ideal", "copy"), [
    ({"inp": 2}, 582, 576, 67),
    ({"out": 2, "blur": 2, "pure": 2, "inp": 4}, 294, 288, 68),
])
def test_a_window_reads_a_staging_copy_of_a_wider_stream(kw, cycles, ideal, copy, simulator, compile_shared,
                                                         build_dir):
    """The 3x3 window reads its stream's words in turn through 9 reads: refused until session 40 ("at most 2
    reads of a stream"), now through a copy of the stream at the window's lanes (frontend/stream_staging.py)."""
    design = compile_shared(_gaussian(**kw)[0], name="gaussian_staged_" + "_".join(f"{k}{v}" for k, v in kw.items()))
    words = {b["name"]: (b["words"], b["min_words"]) for b in design.report["buffers"]}
    assert (design.report["predicted_cycles"], design.report["ideal_cycles"]) == (cycles, ideal)
    assert words["hw_input_turns"] == (copy, copy) and words["hw_input"][0] <= words["hw_input"][1] + 2
    res = design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_update_unrolled_but_not_its_pure_definition(simulator, compile_shared, build_dir):
    """Gaussian's schedule 1 in the reference generator: Halide runs each stage in its own loops; the folded op
    runs in the update's lanes (the pure definition only gives the initial value)."""
    out, _ = _gaussian(out=2, blur=2, update=2, inp=2)
    design = compile_shared(out, name="update_lanes")
    assert design.program.nest.lanes == (("hw_input", 2), ("hw_output", 2))
    design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_lanes_that_do_not_divide_round_up_with_guarded_reads(simulator, compile_shared, build_dir):
    """Halide's Auto tail (ShiftInwards) on Funcs inside the accelerator: hw_input's 34 columns in 4 lanes run 9
    transfers, the host padding the last; the extra values are never read (shift_tails.py)."""
    out, _ = _gaussian(out=4, blur=4, pure=4, update=4, inp=4, width=32)
    design = compile_shared(out, name="shift_tails")
    assert design.program.nest.lanes == (("hw_input", 4), ("hw_output", 4))
    assert design.program.nest.buffer("hw_input").box[0] == (0, 36)
    res = design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 1.1 * design.report["ideal_cycles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_output_lanes_that_do_not_divide_round_up_inside_the_tile(simulator, compile_shared, build_dir):
    """The output's 30 columns in 4 lanes: 8 transfers a row, the host drops the 2 words past the tile (their
    reads are guarded, so they may be unknown bits in simulation)."""
    out, _ = _gaussian(out=4, blur=2, pure=2, update=2, inp=2, width=30)
    design = compile_shared(out, name="output_tail")
    assert design.program.nest.lanes == (("hw_input", 2), ("hw_output", 4))
    design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)


def test_lanes_of_a_scan_over_a_pure_definition_of_one_lane_get_the_lanes_that_chain_them():
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    f = hl.Func("f")
    f[x, y] = hw_input[x, y]
    r = hl.RDom([hl.Range(1, 6)], "r")
    f[r.x, y] = f[r.x - 1, y] + hw_input[r.x, y]
    f.update().unroll(r.x, 2)
    unroll = f"{_file()}:{_line() - 1}"
    accelerate(f, f, 8, 4, [], hw_input)
    # refused until session 36 (Halide accepts it), then serial with a note; the compiler adds the lanes that chain
    # them (hwlower/scan_lanes.py; tests/flow/test_scan22.py simulates it)
    design = hl.compile(f, name="scan")
    note = (f"f.update(0).unroll(r.x, 2) at {unroll} chains its lanes (each reading the one before it in the same "
            "cycle): the compiler added f.unroll(xi, 2, hl.TailStrategy.RoundUp) and hw_input.unroll(x, 2, "
            "hl.TailStrategy.RoundUp), for the chain to run at 2 pixels per cycle (the scan's pure definition, its "
            "readers and its inputs making as many lanes)")
    assert design.report["notes"] == [note]


def _serial_taps(taps: int):
    """acc(x) sums `taps` taps of a 2-lane stream along x in a serial loop r.x, at 2 lanes; returns (the output,
    where acc's update is unrolled, where the stream is)."""
    x, y = hl.Var("x"), hl.Var("y")
    R = hl.TailStrategy.RoundUp
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, taps)], "r")
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = acc[x, y]
    accelerate(hw_output, hw_output, 8, 8, [acc], hw_input)
    acc.unroll(x, 2, R)
    acc.update().unroll(x, 2, R)
    at = f"{_file()}:{_line() - 1}"
    hw_output.unroll(hl.Var("xi"), 2, R)
    hw_input.unroll(x, 2, R)
    return hw_output, at, f"{_file()}:{_line() - 1}"


def test_a_serial_loop_stepping_across_lanes_reads_them_in_turn():
    """4 taps in a serial r.x over a 2-lane stream: r.x runs 2 steps of 2 iterations, each reading fixed lanes
    (hwlower/lane_steps.py; refused before session 33). Bit-exact: tests/flow/test_serial_taps40.py and
    tests/flow/independent/autorate17h_programs.py."""
    out, _, _ = _serial_taps(4)
    nest = hl.compile(out, name="serial", prove=False).program.nest
    loops = [(lp.var, lp.extent) for loops, op in nest.ops() if op.func == "acc" and op.stage == 1 for lp in loops]
    assert loops[-2:] == [("acc.s1.r$x", 2), ("acc.s1.r$x.lane", 2)], loops


def test_a_serial_loop_stepping_across_lanes_in_odd_steps_runs_on_to_whole_steps():
    """3 taps: r.x runs 2 steps of 2 iterations, the last one past the domain guarded (hwlower/rvar_turns.py;
    refused before session 40, bit-exact in tests/flow/test_serial_taps40.py)."""
    out, _, _ = _serial_taps(3)
    nest = hl.compile(out, name="serial3", prove=False).program.nest
    (loops, op), = [(loops, op) for loops, op in nest.ops() if op.func == "acc" and op.stage == 1]
    assert [(lp.var, lp.extent) for lp in loops][-2:] == [("acc.s1.r$x", 2), ("acc.s1.r$x.lane", 2)], loops
    assert all(port.access.guard for port in op.loads if port.access.buffer == "hw_input"), op.loads


def test_an_input_streaming_rows_read_through_a_window_steps_through_them():
    # Refused as a whole before session 36 (only x streamed lanes), then as a window of 9 ports per word; now the
    # 3x3 window takes each transfer's rows in turn (bit-exact in tests/flow/test_glbrows22.py): 548 cycles for 582,
    # holding 156 words (the schedule's minimum 99) for 67
    out, _ = _gaussian()
    hw_input = next(f for f in _funcs(out) if f.name() == "hw_input")
    hw_input.unroll(hl.Var("y"), 2)
    rep = hl.compile(out, name="e").report
    assert rep["predicted_cycles"] <= 30 * 16 + 2 * 30 + 10, rep
    (buf,) = [b for b in rep["buffers"] if b["name"] == "hw_input"]
    assert buf["words"] <= 8 * buf["min_words"] // 5, buf


def test_output_lanes_run_as_its_innermost_loops():
    # Refused before session 20: a pure output's unrolled loops run innermost, two rows per transfer (bit-exact in
    # tests/flow/test_flow_reorder.py), and the report says so.
    out, _ = _gaussian()
    hw_output = next(f for f in _funcs(out) if f.name() == "hw_output")
    hw_output.unroll(hl.Var("yi"), 2)
    design = hl.compile(out, name="e")
    note = ("hw_output: the unrolled loop over yi runs innermost (each transfer of the output stream holds their "
            "points side by side); the same values")
    assert design.report["notes"] == [note]
    assert design.program.output_lanes == 2


def _funcs(out):
    from mainspring.frontend.pipeline import Pipeline

    pipe = Pipeline(out)
    return [f.handle if f.handle is not None else hl.Func(f) for f in pipe.order]


def test_regression_kit_packs_lanes(tmp_path):
    if shutil.which("iverilog") is None:
        require_tool(False, "iverilog")
    design, _ = _app("gaussian", 4, 30, 8)
    design.save(tmp_path / "g")
    kit = tmp_path / "g" / "regression"
    assert len((kit / "hw_input.hex").read_text().split()[0]) == 16  # 4 lanes of 16 bits per transfer
    ok = subprocess.run(["sh", str(kit / "run.sh")], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
                        check=False)
    assert ok.returncode == 0 and f"PASS {design.name}: {32 * 8 // 4} words match" in ok.stdout, ok.stdout
