"""The three-level memory hierarchy of seed 002 (host, GLB, memory tiles) end to end, on both simulators:
the host loop over GLB tiles, double and single buffering, memory tiles inside a GLB tile, tiles streaming
through the GLB (the array follows the host's load, the host's read-back follows the array), measured cycles
against the model, the GLB's pacing checks, and the user errors of the hierarchy (passes: the whole compile
driver and simulation)."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps import gaussian_glb
from mainspring.apps.common import random_image
from mainspring.apps.gaussian import algorithm

from conftest import SIMULATORS

GOLDEN = Path(__file__).resolve().parent / "golden"


def _check(design, inputs, simulator, build_dir, **kw):
    res = design.check(inputs, simulator=simulator, build_dir=build_dir, **kw)
    report = design.report
    assert res.tile_cycles is not None and len(res.tile_cycles) == report["tiles"]
    if not kw:  # nothing stalls: the GLB model predicts every GLB tile, cycle for cycle
        assert res.tile_cycles == report["predicted_tile_cycles"]
    return res


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_seed_listing_one_glb_tile(simulator, compile_shared, build_dir):
    out, inputs = gaussian_glb.build(62, 62, glb_tile=(62, 62))
    design = compile_shared(out, name="glb_one")
    res = _check(design, inputs, simulator, build_dir)
    r = design.report
    assert r["tiles"] == 1 and r["mem_tiles_per_glb_tile"] == 1
    assert res.cycles == r["predicted_cycles"]
    assert res.tile_cycles == [r["tile_cycles"]]  # the array never waits: the host keeps ahead of it
    streamed = 64 * 64  # words from the GLB into the array
    assert 0 < r["tile_cycles"] - streamed <= 5 + _staged(r)
    assert r["halo_overhead"] == 0.0
    # The tile streams through the GLB: the array takes each input word 2 cycles after the host writes it (the
    # GLB's read register), writes the last output 6 cycles after the last input (the pipeline's depth: 2 with
    # unpipelined kernels, then the 3x3 sum's 4 added stages), and the host takes it back 2 cycles later. Before
    # reads followed writes within a tile, the host loaded the whole tile, then the array ran, then the host read
    # it back: 12,040 cycles, about 3x.
    assert r["ideal_cycles"] == streamed and res.cycles == streamed + 6 + 4
    assert r["glb"]["streamed"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_several_glb_tiles_with_memory_tiles(simulator, compile_shared, build_dir):
    out, inputs = gaussian_glb.build(124, 124, glb_tile=(62, 62), mem_tile=(31, 62))
    design = compile_shared(out, name="glb_mem")
    res = _check(design, inputs, simulator, build_dir)
    r = design.report
    assert (r["tiles"], r["mem_tiles_per_glb_tile"]) == (4, 2)
    assert r["transfers_overlap_compute"] and r["glb"]["double_buffered"]
    assert res.cycles == r["predicted_cycles"]
    # The host loads each GLB tile in the order the memory tiles read it (the halo column they share once), so
    # even the first GLB tile runs at the array's pace; the later ones were loaded while the array worked on
    # the one before (two copies). Before, memory tile 0 waited for the host's rows of 64 words, of which it
    # reads 33: the first GLB tile took 6,189 cycles.
    # (Each memory tile's run is 4 cycles longer than with unpipelined kernels: the 3x3 sum's added stages.)
    assert res.tile_cycles == [r["tile_cycles"]] * 4 and r["tile_cycles"] == 2 * (33 * 64 + 2 + 4)
    assert r["ideal_cycles"] == 4 * 2 * 33 * 64  # the array's stream over its memory tiles, halo included
    assert res.cycles == 4 * r["tile_cycles"] + 2 + 2  # the GLB's read registers on the way in and out
    assert r["halo_overhead"] == round(4 * 64 * 64 / (126 * 126) - 1, 6)
    assert r["array_halo_overhead"] == round(2 * 33 / 64 - 1, 6)


# ---- tiles stream through the GLB (issue 12) ----

@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("size", "lanes"), [((94, 30), 1), ((124, 30), 2)])
def test_one_glb_tile_runs_at_the_hosts_pace(simulator, compile_shared, build_dir, size, lanes):
    """One GLB tile (nothing to double-buffer against): the array starts on the first rows while the host is
    still loading, and the host reads rows back as they are finished, so the run is the host's transfers (the
    ideal) plus the depth: 2 cycles through the GLB's read register into the array, the pipeline, 2 back out.
    Before, it was the load, then the array, then the read-back: about 3x the ideal."""
    out, inputs = gaussian_glb.build(*size, glb_tile=size, lanes=lanes)
    design = compile_shared(out, name=f"glb_stream_k{lanes}")
    res = _check(design, inputs, simulator, build_dir)
    r = design.report
    words = (size[0] + 2) * (size[1] + 2)
    assert r["tiles"] == 1 and r["ideal_cycles"] == words // lanes
    assert res.cycles == r["predicted_cycles"] == r["ideal_cycles"] + 6 + 4  # 4: the 3x3 sum's added stages
    assert res.tile_cycles == [r["tile_cycles"]]  # the host keeps ahead: the array never waits


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_memory_tiles_of_one_glb_tile_follow_the_host(simulator, compile_shared, build_dir):
    """h2h_three_level_memory at 124x124: one GLB tile of 2x2 memory tiles of 64x64 input words. The host loads
    the GLB tile in the order the memory tiles read it, skipping the halo an earlier memory tile already brought
    (each word loaded once), and reads the output back in the order the array writes it, memory tile by memory
    tile; so the array never waits and the read-back follows it. Before the loads and read-back rows ran across
    memory tiles: 23,970 cycles, 1.5x (memory tile 0 waited for input rows 0..63, the read-back of the last band
    for the last memory tile); before tiles streamed through the GLB, 47,642 cycles, 3.0x."""
    from mainspring.apps import h2h_three_level_memory

    out, inputs = h2h_three_level_memory.build(124, 124)
    design = compile_shared(out, name="glb_three_level")
    res = _check(design, inputs, simulator, build_dir)
    r = design.report
    # The ideal is the array's stream, 4 x 64 x 64 words (the host loads 126 x 126 = 15,876, reads 124 x 124).
    assert (r["tiles"], r["mem_tiles_per_glb_tile"], r["ideal_cycles"]) == (1, 4, 4 * 64 * 64)
    assert r["host_transfer_cycles"] == 126 * 126 + 124 * 124
    # The array's four memory tiles, 4 x 4100 cycles (its 4096 firings and its depth of 4 each), never waiting,
    # plus the GLB's read registers on the way in and out.
    assert res.tile_cycles == [r["tile_cycles"]] == [4 * 4100]
    assert res.cycles == r["predicted_cycles"] == 4 * 4100 + 2 + 2
    glb = design.memory_json["glb"]["buffers"]
    load, array = glb["input_gb"]["host_controller"], glb["input_gb"]["array_controller"]
    assert (load["extent"], load["data_stride"]) == (array["extent"], array["data_stride"]) == \
        ([64, 64, 2, 2], [1, 126, 62, 7812])
    # Skipped: x below 2 in memory tiles right of the first, y below 2 in those under it.
    assert load["skip_when"] == [{"dim": 0, "grid_dim": 2, "below": 2}, {"dim": 1, "grid_dim": 3, "below": 2}]
    assert glb["hw_output"]["host_controller"] == glb["hw_output"]["array_controller"]
    # Read n of either buffer waits for its writer's step n (the writer is never behind the read's index).
    for b in ("input_gb", "hw_output"):
        wait, ctrl = glb[b]["read_wait_controller"], glb[b]["array_controller"]
        assert (wait["data_starting_addr"], wait["data_stride"]) == (0, ctrl["cycle_stride"])


def _rerendered(design, waits):
    """`design` with the GLB buffers' wait controllers replaced by `waits(buffer)`: its RTL and predicted
    cycles rebuilt from the changed plan (what a different pacing would give)."""
    from dataclasses import replace

    from mainspring.report_glb import predict
    from mainspring.verilog.glb import glb_design_verilog

    glb = replace(design.glb_plan, buffers=tuple(replace(b, wait=waits(b)) for b in design.glb_plan.buffers))
    design.verilog = glb_design_verilog(design.name, design.plan, glb, design.compute_doc)
    run = predict(glb, design.plan)
    design.report = dict(design.report, predicted_cycles=run.cycles, predicted_tile_cycles=run.tile_cycles)
    return design


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_reads_that_wait_for_the_whole_tile(simulator, compile_shared, build_dir):
    """The pacing when a reader cannot follow its writer (`pace` finds no affine wait): every read waits for
    the full copy, as before tiles streamed. Still exact against the model, and the three stages add up."""
    from mainspring.memories.glb import GlbController

    out, inputs = gaussian_glb.build(60, 40, glb_tile=(30, 20), mem_tile=(15, 20))
    streamed = compile_shared(out, name="glb_paced")
    design = _rerendered(hl.compile(out, name="glb_unpaced"), lambda b: GlbController(
        b.wait.extent, b.writer.transfers - 1, (0,) * len(b.wait.extent)))
    assert "N_MODE(0)" in design.verilog and "N_MODE(0)" not in streamed.verilog
    res = _check(design, inputs, simulator, build_dir)
    assert res.cycles == design.report["predicted_cycles"] > streamed.report["predicted_cycles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_read_before_its_write_stops_the_simulation(simulator, build_dir, compile_shared):
    """The simulation's own check of the GLB pacing (ms_glb_buffer, simulation only): a buffer whose reads wait
    for too little (here the host's read-back waits for the array's step 0 only) stops with an error naming
    the read, rather than streaming stale words."""
    from mainspring.memories.glb import GlbController
    from mainspring.sim.errors import SimulationError

    out, inputs = gaussian_glb.build(30, 20, glb_tile=(30, 20))
    design = _rerendered(compile_shared(out, name="glb_early"), lambda b: b.wait if b.role == "input" else
                         GlbController(b.wait.extent, 0, (0,) * len(b.wait.extent)))
    with pytest.raises(SimulationError) as err:
        design.simulate(inputs, simulator=simulator, build_dir=build_dir)
    assert re.search(r"u_glb_hw_output_global_wrapper: ERROR: tile 0 reads entry \d+ before it is written",
                     str(err.value)), str(err.value)


def test_pacing_is_checked_against_the_controllers():
    """verify_glb's pacing check, independently of `pace`: a wait controller that lets a read go before the
    writer's step that writes the entry is refused at compile time."""
    from dataclasses import replace

    from mainspring.memories.glb import GlbController, check_pacing, pace

    out, _ = gaussian_glb.build(60, 40, glb_tile=(30, 20), mem_tile=(15, 20))
    design = hl.compile(out, name="glb_checked")
    out_buf = design.glb_plan.buffer("hw_output_global_wrapper")
    early = replace(out_buf, wait=replace(out_buf.wait, data_start=0, data_stride=(0,) * len(out_buf.wait.extent)))
    with pytest.raises(AssertionError, match=r"GLB hw_output_global_wrapper \(array -> host\): read 1 of a tile"):
        check_pacing(early)
    # A writer whose order no affine wait follows within MAX_DIM dimensions (bit-reversed): whole-tile waits.
    writer = GlbController((2,) * 9, 0, tuple(1 << (8 - k) for k in range(9)))
    reader = GlbController((512,), 0, (1,))
    assert pace(reader, writer) == (reader, GlbController((512,), 511, (0,)))
    # Memory tiles written one after the other, read back in rows across them: the rows split at the tiles.
    tiles = GlbController((4, 2, 2), 0, (1, 8, 4))  # 2 memory tiles of 4x2 in an 8x2 tile
    rows = GlbController((8, 2), 0, (1, 8))
    assert pace(rows, tiles) == (GlbController((4, 2, 2), 0, (1, 4, 8)), GlbController((4, 2, 2), 0, (1, 8, 4)))


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_last_glb_tile_shifts_inward(simulator, compile_shared, build_dir):
    out, inputs = gaussian_glb.build(70, 45, glb_tile=(32, 20))
    design = compile_shared(out, name="glb_shift")
    assert design.report["tiles"] == 3 * 3
    assert [t[0][0] for t in design.memory_json["glb"]["host_loop"][:3]] == [0, 32, 38]
    _check(design, inputs, simulator, build_dir)


def test_glb_under_stalls(build_dir):
    out, inputs = gaussian_glb.build(60, 40, glb_tile=(30, 20), mem_tile=(15, 20))
    design = hl.compile(out, name="glb_stall")
    res = _check(design, inputs, "verilator", build_dir, bubbles=0.3, backpressure=0.3, seed=5)
    assert res.cycles > design.report["predicted_cycles"]


def test_single_buffering_when_two_copies_do_not_fit(build_dir):
    out, inputs = gaussian_glb.build(60, 40, glb_tile=(30, 20))
    double = hl.compile(out, name="glb_double")
    single = hl.compile(out, name="glb_single", target=hl.CGRA(glb_words=3 * 1024, glb_banks=3))
    assert single.report["glb"]["double_buffered"] is False and not single.report["transfers_overlap_compute"]
    assert single.memory_json["glb"]["buffers"]["hw_input_global_wrapper"]["copies"] == 1
    res = _check(single, inputs, "verilator", build_dir)
    # With one copy the host loads tile t+1 only once the array has read tile t's last word, and the array
    # writes tile t+1 only once the host has read tile t back; since both follow their writer within a tile
    # (a couple of cycles behind), that costs at most a cycle per tile here, where the array's schedule (a
    # cycle longer than the host's load per tile) is the bound anyway.
    tiles = single.report["tiles"]
    assert res.cycles == single.report["predicted_cycles"]
    assert double.report["predicted_cycles"] <= res.cycles <= double.report["predicted_cycles"] + tiles


def test_glb_golden_loops_and_memory_json(golden):
    out, _ = gaussian_glb.build(*gaussian_glb.DEFAULT_SIZE)
    design = hl.compile(out, name="gaussian_glb")
    for suffix in ("loops.txt", "memory.json"):
        golden(GOLDEN / f"gaussian_glb.{suffix}", design.files()[f"gaussian_glb.{suffix}"])
    glb = json.loads(design.files()["gaussian_glb.memory.json"])["glb"]
    ctrl = glb["buffers"]["hw_input_global_wrapper"]["array_controller"]
    assert ctrl["extent"] == [64, 64] and ctrl["data_stride"] == [1, 64]
    from mainspring.memories.glb import glb_from_json

    assert glb_from_json(glb) == design.glb_plan == design.plan.glb  # verilog renders from what it reads back


@pytest.mark.slow
def test_full_hd_through_glb_tiles(build_dir):
    out, inputs = gaussian_glb.build(1920, 1080, glb_tile=(240, 216))
    design = hl.compile(out, name="glb_full_hd")
    r = design.report
    assert r["tiles"] == 40 and r["halo_overhead"] < 0.05
    res = _check(design, inputs, "verilator", build_dir)
    assert res.cycles == r["predicted_cycles"]
    assert res.cycles <= 1.10 * sum(res.tile_cycles)


# ---- the hierarchy's user errors ----

def _three_level(variant=None, size=(62, 62), glb=(62, 62), mem=(62, 62)):
    """Seed 002's listing, with one call changed by `variant`."""
    a = algorithm()
    x, y, hw_input, hw_output, output = a.x, a.y, a.hw_input, a.hw_output, a.output
    glb_out = hw_output.in_()
    if variant == "glb_output_computes":
        glb_out = hl.Func("glb_out")
        glb_out[x, y] = hw_output[x, y] + 1
        output = hl.Func("output")
        output[x, y] = hl.u8(glb_out[x, y])
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in ("xo", "yo", "xi", "yi", "xio", "yio", "xii", "yii"))
    glb_out.compute_root().tile(x, y, xo, yo, xi, yi, *glb).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, *mem)
    if variant == "array_output_at_yo":
        hw_output.compute_at(glb_out, yo)
    else:
        hw_output.compute_at(glb_out, xo)
    a.blur_unnormalized.update().unroll(a.win.x, 3).unroll(a.win.y, 3)
    a.blur_unnormalized.compute_at(hw_output, xio)
    a.blur.compute_at(hw_output, xio)
    if variant == "mem_copy_outside":
        hw_input.in_().in_().compute_at(glb_out, xo)
    else:
        hw_input.in_().in_().compute_at(hw_output, xio)
    if variant == "glb_input_in_array":
        hw_input.in_().compute_at(hw_output, xio)
    else:
        hw_input.in_().compute_at(glb_out, xo)
    hw_input.in_().store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return output, {"input": random_image(size[0] + 2, size[1] + 2)}


def _error(variant=None, target=None, **kw) -> str:
    out, _ = _three_level(variant, **kw)
    with pytest.raises(hl.HalideError) as err:
        hl.compile(out, name="glb", target=target)
    return str(err.value)


def _after_loc(msg: str) -> str:
    return msg.split(": ", 1)[1]


def test_error_glb_tile_larger_than_glb():
    msg = _error(size=(124, 124), target=hl.CGRA(glb_words=4096, glb_banks=4))
    assert msg == (
        "Func 'hw_output_global_wrapper': one GLB tile needs 8 GLB banks of 1024 words "
        "(hw_input_global_wrapper 4096 words, hw_output_global_wrapper 3844 words) but the GLB has 4: make the "
        "GLB tile smaller (the tile() of the hw_accelerate Func), or compile for a larger GLB, e.g. "
        "hl.CGRA(glb_words=8192)"
    )


def test_error_memory_tile_copy_outside_the_array():
    assert _after_loc(_error("mem_copy_outside")) == (
        "Func 'hw_input_global_wrapper_global_wrapper' is computed at the GLB tile loop "
        "(compute_at(hw_output_global_wrapper, xo)) but is not stored in the GLB: a memory-tile buffer belongs "
        "inside the array; compute it at the array output's memory-tile loop, e.g. "
        "hw_input.in_().in_().compute_at(hw_output, xio), or add hw_input.in_().in_().store_in(MemoryType.GLB) to "
        "make it a GLB input"
    )
    hl.compile(_three_level()[0], name="glb_fix")  # with the suggested compute_at: seed 002's listing, which compiles


def test_error_glb_input_inside_the_array():
    assert _after_loc(_error("glb_input_in_array")) == (
        "Func 'hw_input_global_wrapper' is stored in the GLB but is compute_at(hw_output, xio); a GLB input "
        "tile is loaded once per GLB tile: hw_input.in_().compute_at(hw_output.in_(), xo)"
    )


def test_error_glb_output_that_computes():
    assert _after_loc(_error("glb_output_computes")) == (
        "Func 'glb_out': store_in(MemoryType.GLB) on the hw_accelerate Func makes it the GLB output buffer, "
        "which must copy the array's output point for point; make it a wrapper: "
        "hw_output.in_().store_in(MemoryType.GLB) with hw_accelerate on hw_output.in_()"
    )


def test_error_array_output_not_at_the_glb_tile():
    # Halide's check comes first: the GLB input copy, computed per xo, is read by the array only once per yo
    msg = _after_loc(_error("array_output_at_yo"))
    assert msg.startswith('Func "hw_input_global_wrapper" is computed at the following invalid location:\n'
                          "  hw_input_global_wrapper.compute_at(hw_output_global_wrapper, xo);\n")
    assert msg.endswith("or compute hw_output inside it, e.g. hw_output.compute_at(hw_output_global_wrapper, xo).")


def test_glb_output_is_byte_identical_across_processes(tmp_path):
    import subprocess
    import sys

    code = ("import sys, mainspring as hl; from mainspring.apps import gaussian_glb as g; "
            "o, _ = g.build(64, 48, (32, 24), (16, 24)); d = hl.compile(o, name='g'); d.save(sys.argv[1])")
    for k in (1, 2):
        subprocess.run([sys.executable, "-c", code, str(tmp_path / f"run{k}")], check=True, cwd=tmp_path)
    for f in sorted((tmp_path / "run1").rglob("*")):
        if f.is_file() and f.name != "g.report.json":  # the report holds the compile time
            assert f.read_bytes() == (tmp_path / "run2" / f.relative_to(tmp_path / "run1")).read_bytes(), f.name
    kit = tmp_path / "run1" / "regression"
    ok = subprocess.run(["sh", str(kit / "run.sh")], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
                        check=False)
    assert ok.returncode == 0 and "PASS g" in ok.stdout, ok.stdout + ok.stderr


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("lanes", "size", "tile"), [(2, (124, 124), (62, 62)), (4, (120, 60), (60, 30)),
                                               (4, (124, 62), (62, 31))])
def test_lanes_through_the_glb(simulator, compile_shared, build_dir, lanes, size, tile):
    """k pixels per cycle from the host through the GLB and the array; at 62 wide with 4 lanes, RoundUp pads
    the array's output tile to 64 and the input tile to 68, and the host drops the padding."""
    out, inputs = gaussian_glb.build(*size, glb_tile=tile, lanes=lanes)
    design = compile_shared(out, name=f"glb_k{lanes}_{tile[0]}")
    res = _check(design, inputs, simulator, build_dir)
    r = design.report
    assert r["glb"]["lanes"] == lanes and r["pes"] == 18 * lanes
    assert res.cycles == r["predicted_cycles"]
    assert res.tile_cycles == [r["tile_cycles"]] * r["tiles"]
    streamed = design.plan.input_words  # one memory tile per GLB tile
    assert 0 < r["tile_cycles"] - -(-streamed // lanes) <= 5 + _staged(r)


def test_padded_lanes_regression_kit_ignores_the_padding(tmp_path):
    import subprocess

    out, _ = gaussian_glb.build(124, 62, glb_tile=(62, 31), lanes=4)
    design = hl.compile(out, name="glb_pad")
    design.save(tmp_path / "kit")
    care = (tmp_path / "kit" / "regression" / "care.hex").read_text().split()
    assert "ffffffffffffffff" in care and "00000000ffffffff" in care  # the last transfer of a row: 2 of 4 lanes
    run = subprocess.run(["sh", str(tmp_path / "kit" / "regression" / "run.sh")], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin"}, check=False)
    assert run.returncode == 0 and "PASS glb_pad" in run.stdout, run.stdout + run.stderr


def _two_inputs_through_glb(column_major_array: bool, column_major_host: bool):
    """Two images and a run-time gain through the three levels: out = (3x3 box of a) * gain + b."""
    x, y = hl.Var("x"), hl.Var("y")
    a_img, b_img = hl.ImageParam(hl.UInt(8), 2, "a"), hl.ImageParam(hl.UInt(8), 2, "b")
    gain = hl.Param(hl.UInt(16), "gain", 2)
    a, b = hl.Func("a_in"), hl.Func("b_in")
    a[x, y] = hl.u16(a_img[x, y])
    b[x, y] = hl.u16(b_img[x, y])
    r = hl.RDom([hl.Range(-1, 3), hl.Range(-1, 3)], "r")
    box = hl.Func("box")
    box[x, y] = hl.sum(a[x + r.x, y + r.y])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = box[x, y] * gain + b[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 40).bound(y, 0, 24)
    xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in ("xo", "yo", "xi", "yi", "xio", "yio", "xii", "yii"))
    glb_out = hw_output.in_()
    glb_out.compute_root().tile(x, y, xo, yo, xi, yi, 20, 12).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
    if column_major_host:
        glb_out.reorder(yi, xi, xo, yo)
    hw_output.tile(x, y, xio, yio, xii, yii, 10, 12).compute_at(glb_out, xo)
    if column_major_array:
        hw_output.reorder(yii, xii, xio, yio)
    box.compute_at(hw_output, xio)
    for f in (a, b):
        f.in_().in_().compute_at(hw_output, xio)
        f.in_().compute_at(glb_out, xo).store_in(hl.MemoryType.GLB)
        f.compute_root().accelerator_input()
    rng = np.random.default_rng(7)
    a_arr = rng.integers(0, 256, size=(26, 42), dtype=np.uint8)
    b_arr = rng.integers(0, 256, size=(24, 40), dtype=np.uint8)
    return output, {"a": hl.Buffer(a_arr).set_min([-1, -1]), "b": b_arr, "gain": 3}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("array_cm", "host_cm"), [(False, False), (True, False), (False, True)])
def test_two_inputs_a_param_and_reordered_loops(simulator, compile_shared, build_dir, array_cm, host_cm):
    out, inputs = _two_inputs_through_glb(array_cm, host_cm)
    design = compile_shared(out, name=f"glb_two_{int(array_cm)}{int(host_cm)}")
    assert sorted(b for b, d in design.memory_json["glb"]["buffers"].items() if d["role"] == "input") == [
        "a_in_global_wrapper", "b_in_global_wrapper"]
    res = _check(design, inputs, simulator, build_dir)
    assert (design.report["tiles"], design.report["mem_tiles_per_glb_tile"]) == (4, 2)
    assert res.cycles == design.report["predicted_cycles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_memory_tiles_round_up_to_whole_lanes(simulator, compile_shared, build_dir):
    """Memory tiles of 31 columns at 2 lanes (RoundUp) compute 32 columns each; a GLB holding 2 lanes per entry
    can only feed tiles at even words, so the memory tiles are 32 wide (the same values: the array output is
    pure) and the 62-wide GLB tile rounds up to two of them (refused before: 'every tile's rows and memory tiles
    must start at a multiple of 2 words')."""
    out, inputs = gaussian_glb.build(124, 124, glb_tile=(62, 62), mem_tile=(31, 62), lanes=2)
    design = compile_shared(out, name="glb_whole_lanes")
    assert (design.report["tiles"], design.report["mem_tiles_per_glb_tile"]) == (4, 2)
    assert [t.output_box[0] for t in design.program.glb.mem_tiles] == [(0, 31), (32, 63)]
    res = _check(design, inputs, simulator, build_dir)
    assert res.cycles == design.report["predicted_cycles"]


def _host_tail(glb: bool, tail):
    """A 100x50 gaussian through 64x32 host tiles with `tail` on the host loop, with or without a GLB."""
    a = algorithm()
    x, y = a.x, a.y
    a.output.bound(x, 0, 100).bound(y, 0, 50)
    xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in ("xo", "yo", "xi", "yi", "xio", "yio", "xii", "yii"))
    a.blur_unnormalized.update().unroll(a.win.x).unroll(a.win.y)
    if not glb:
        a.hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 64, 32, tail).hw_accelerate(xi, xo)
        for f in (a.blur_unnormalized, a.blur):
            f.compute_at(a.hw_output, xo)
        a.hw_input.compute_root().stream_to_accelerator()
        return a.output
    w = a.hw_output.in_()
    w.compute_root().tile(x, y, xo, yo, xi, yi, 64, 32, tail).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
    a.hw_output.compute_at(w, xo).tile(x, y, xio, yio, xii, yii, 64, 32)
    for f in (a.blur_unnormalized, a.blur, a.hw_input.in_().in_()):
        f.compute_at(a.hw_output, xio)
    a.hw_input.in_().compute_at(w, xo).store_in(hl.MemoryType.GLB)
    a.hw_input.compute_root().accelerator_input()
    return a.output


@pytest.mark.parametrize("glb", [False, True])
def test_round_up_on_the_host_loop(glb, build_dir):
    """RoundUp on the host's tile loop: tiles start at multiples of the tile, the last ones reach past the image
    (the input must cover what they read, as in Halide), and what they compute there is dropped."""
    from mainspring.apps.common import input_extent

    out = _host_tail(glb, hl.TailStrategy.RoundUp)
    assert input_extent(out, "input") == (130, 66)
    design = hl.compile(out, name=f"host_roundup_{int(glb)}")
    assert [t.output_box[0] for t in design.program.tiles] == [(0, 63), (64, 127)] * 2
    res = design.check({"input": random_image(130, 66)}, simulator="icarus", build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]


@pytest.mark.parametrize("tail", [hl.TailStrategy.GuardWithIf, hl.TailStrategy.PredicateStores])
def test_guarded_tails_on_the_host_loop_shift_inwards(tail, build_dir):
    """GuardWithIf and the predicated tails on the host's tile loop (Halide computes a partial last tile): every
    tile runs the same hardware, so the last one shifts inward and recomputes what the tile before it wrote."""
    out = _host_tail(True, tail)
    design = hl.compile(out, name="glb_guard")
    assert [t.output_box for t in design.program.tiles][-1] == [(36, 99), (18, 49)]
    res = design.check({"input": random_image(102, 52)}, simulator="icarus", build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("style", ["at_glb_loop", "no_mem_copy"])
def test_two_level_styles_of_the_glb_schedule(simulator, compile_shared, build_dir, style):
    """Variants a user may write: every array Func computed at the GLB tile loop (the array runs once per GLB
    tile), or no memory-tile copy (the array line-buffers the GLB input stream itself)."""
    a = algorithm()
    x, y = a.x, a.y
    a.output.bound(x, 0, 60).bound(y, 0, 40)
    xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in ("xo", "yo", "xi", "yi", "xio", "yio", "xii", "yii"))
    w = a.hw_output.in_()
    w.compute_root().tile(x, y, xo, yo, xi, yi, 30, 20).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
    a.hw_output.compute_at(w, xo)
    a.blur_unnormalized.update().unroll(a.win.x).unroll(a.win.y)
    inner = [a.blur_unnormalized, a.blur]
    if style == "at_glb_loop":
        for f in inner + [a.hw_input.in_().in_()]:
            f.compute_at(w, xo)
    else:
        a.hw_output.tile(x, y, xio, yio, xii, yii, 15, 20)
        for f in inner:
            f.compute_at(a.hw_output, xio)
    a.hw_input.in_().compute_at(w, xo).store_in(hl.MemoryType.GLB)
    a.hw_input.compute_root().accelerator_input()
    design = compile_shared(a.output, name=f"glb_{style}")
    assert design.report["mem_tiles_per_glb_tile"] == (1 if style == "at_glb_loop" else 2)
    res = _check(design, {"input": random_image(62, 42)}, simulator, build_dir)
    assert res.cycles == design.report["predicted_cycles"]


def _three_lanes(unroll_glb_input: bool):
    """Seed 002's lanes schedule (3 pixels per cycle, RoundUp) on a GLB design without a memory-tile copy."""
    a = algorithm()
    x, y = a.x, a.y
    a.output.bound(x, 0, 60).bound(y, 0, 40)
    xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in ("xo", "yo", "xi", "yi", "xio", "yio", "xii", "yii"))
    up = hl.TailStrategy.RoundUp
    w = a.hw_output.in_()
    w.compute_root().tile(x, y, xo, yo, xi, yi, 30, 20).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
    a.hw_output.compute_at(w, xo).tile(x, y, xio, yio, xii, yii, 30, 20).unroll(xii, 3, up)
    a.blur_unnormalized.update().unroll(a.win.x).unroll(a.win.y).unroll(x, 3, up)
    for f in (a.blur_unnormalized, a.blur):
        f.unroll(x, 3, up).compute_at(a.hw_output, xio)
    a.hw_input.in_().compute_at(w, xo).store_in(hl.MemoryType.GLB)
    if unroll_glb_input:
        a.hw_input.in_().unroll(x, 3, up)
    a.hw_input.compute_root().accelerator_input().unroll(x, 3, up)
    return a.output


def test_three_lanes_through_the_glb(build_dir):
    from mainspring.apps.common import input_extent

    out = _three_lanes(True)
    design = hl.compile(out, name="glb_k3")
    assert design.report["glb"]["lanes"] == 3 and input_extent(out, "input") == (63, 42)
    res = _check(design, {"input": random_image(63, 42)}, "icarus", build_dir)
    assert res.cycles == design.report["predicted_cycles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_three_lanes_over_a_one_lane_glb_input(simulator, compile_shared, build_dir):
    """The array's copy of the GLB input at one word per cycle, read by 3-lane stages: they fire every third
    cycle (paced to it), each lane reading the same lane of it; the busiest op is the 1-lane copy."""
    from mainspring.apps.common import input_extent

    out = _three_lanes(False)
    design = compile_shared(out, name="glb_k3_paced")
    nest = design.program.nest
    assert nest.stream_lanes("hw_input_global_wrapper") == 1 and nest.op_lanes("blur_s0") == 3
    assert all(b["words"] == b["min_words"] for b in design.report["buffers"])
    res = _check(design, {"input": random_image(*input_extent(out, "input"))}, simulator, build_dir)
    assert res.cycles == design.report["predicted_cycles"]
    assert design.report["tile_cycles"] - design.report["ideal_cycles"] // design.report["tiles"] <= 8 + _staged(
        design.report)


def _staged(report) -> int:
    """The cycles the kernels' pipeline stages beyond their output register add at most (their sum)."""
    return sum(max(0, n - 1) for n in report["kernel_latency"].values())
