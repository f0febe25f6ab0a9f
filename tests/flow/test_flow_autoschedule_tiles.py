"""Automatic schedules' tiles and streams (mainspring/autoschedule_tiles.py, issue 11's last slice): GLB streams
wider than a bank port, frames that do not fit the memory tiles split into GLB or host tiles, streams of a
pixel's channels at several pixels per transfer; every schedule compiled and simulated bit-exact."""

import sys
from pathlib import Path

import pytest

import mainspring as hl

from conftest import SIMULATORS

CASES = Path(__file__).parent / "fuzz_cases"


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_glb_stream_wider_than_a_bank_port_keeps_the_lanes_asked_for(simulator, compile_shared, build_dir,
                                                                       monkeypatch):
    # Seed 267 of fuzz --auto: a 2x downsample's producer at twice the output's 3 lanes streams 6 words per cycle
    # through the GLB, whose bank port moves 4 (CGRA.glb_lanes). The autoscheduler used to cap the stream at 4
    # (the output at 2 lanes); the GLB buffer now takes 2 banks side by side.
    monkeypatch.syspath_prepend(str(CASES))
    case = __import__("auto_glb_stream_within_a_bank_port")
    a = case.algorithm(hl)
    result = case.schedule(hl, a)
    assert result.lanes == 3 and result.note == ""
    design = compile_shared(a["output"], name="auto_glb_wide")
    glb = design.report["glb"]
    assert glb["lanes"] == 6 > hl.CGRA().glb_lanes
    res = design.check(design.example_inputs(267), simulator=simulator, build_dir=build_dir, bubbles=0.2,
                       backpressure=0.2, seed=267)
    assert res.cycles >= res.predicted_cycles
    sys.modules.pop("auto_glb_stream_within_a_bank_port", None)


def _auto(out, size, target, **extra):
    out.set_estimates([(0, size[0]), (0, size[1])])
    params = hl.AutoschedulerParams("Mainspring", {k: str(v) for k, v in extra.items()})
    return hl.Pipeline(out).apply_autoscheduler(target, params)


def _plain_blur():
    """A blur written for a CPU (no copy Funcs): the output is accelerated itself."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
    blur_x[x, y] = (hl.u16(inp[x, y]) + inp[x + 1, y] + inp[x + 2, y]) / 3
    blur_y[x, y] = hl.u8((blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 3)
    return blur_y


SMALL = hl.CGRA(mem_tile_words=16, num_mem_tiles=4)  # a 96-pixel row takes 6 tiles: the frame must be tiled


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("style", "lanes"), [("copies", 1), ("copies", 2), ("cpu", 1)])
def test_a_frame_over_the_memory_tiles_is_tiled(style, lanes, simulator, compile_shared, build_dir):
    # use_glb "auto": gaussian (copy Funcs) in GLB tiles whose transfers overlap compute, a CPU-style blur in host
    # tiles; within the target's memory tiles, near the one-tile cycles, bit-exact.
    from mainspring.apps import gaussian

    out = gaussian.algorithm().output if style == "copies" else _plain_blur()
    source = _auto(out, (96, 24), SMALL, lanes=lanes).schedule_source
    assert ("glb.store_in(hl.MemoryType.GLB)" in source) == (style == "copies")
    assert "over the budget of 4" in source
    design = compile_shared(out, name=f"auto_tiled_{style}", target=SMALL)
    rep = design.report
    assert rep["tiles"] > 1 and rep["mem_tiles"] <= 4
    if style == "copies":
        assert rep["transfers_overlap_compute"]
    one_tile = -(-98 // lanes) * 26  # the frame's input with its halo, as one tile
    assert rep["predicted_cycles"] <= one_tile * 1.15
    res = design.check(design.example_inputs(5), simulator=simulator, build_dir=build_dir, bubbles=0.1,
                       backpressure=0.1)
    assert res.cycles >= res.predicted_cycles


def _coordinates(style):
    """A blur whose output reads its coordinates as values (`select(x < 4, ...)` and a ramp in y), with copy Funcs
    of the image and the output (seed 002's style) or written for a CPU."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    blur_x, last = hl.Func("blur_x"), hl.Func("hw_output" if style == "copies" else "output")
    src = inp
    if style == "copies":
        src = hl.Func("hw_input")
        src[x, y] = hl.u16(inp[x, y])
    blur_x[x, y] = hl.u16(src[x, y]) + src[x + 1, y] + src[x + 2, y]
    last[x, y] = hl.select(x < 4, blur_x[x, y] + blur_x[x, y + 1], blur_x[x, y + 2] + hl.u16(y))
    if style == "cpu":
        return last
    output = hl.Func("output")
    output[x, y] = last[x, y]
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("style", "lanes"), [("copies", 1), ("copies", 2), ("cpu", 1)])
def test_a_frame_over_the_memory_tiles_that_reads_coordinates_is_tiled(style, lanes, simulator, compile_shared,
                                                                       build_dir):
    # The array's runs count their coordinates (hwlower/tile_coordinates.py): such a frame is split as any other,
    # into GLB tiles with copy Funcs and host tiles without, where it used to be refused; bit-exact.
    out = _coordinates(style)
    result = _auto(out, (96, 12), SMALL, lanes=lanes)
    source = result.schedule_source
    kind = "GLB tiles" if style == "copies" else "host tiles"
    assert result.lanes == lanes and f"{kind} of 32 x 12 over 96 x 12" in source
    design = compile_shared(out, name=f"auto_coords_{style}_{lanes}", target=SMALL)
    rep = design.report
    assert rep["tiles"] == 3 and rep["mem_tiles"] <= 4 and rep["pes"] <= 7 * lanes
    assert rep["ideal_cycles"] == 3 * -(-34 // lanes) * 14  # each tile's input with its halo, k pixels a cycle
    assert rep["predicted_cycles"] <= rep["ideal_cycles"] + 3 * (rep["first_output_cycle"] + 6)
    res = design.check(design.example_inputs(11), simulator=simulator, build_dir=build_dir, bubbles=0.1,
                       backpressure=0.1)
    assert res.cycles >= res.predicted_cycles


def test_a_frame_that_fits_stays_one_tile():
    from mainspring.apps import gaussian

    out = gaussian.algorithm().output
    source = _auto(out, (96, 24), hl.CGRA(mem_tile_words=16, num_mem_tiles=16)).schedule_source
    assert "one accelerator tile of 96 x 24" in source and "GLB" not in source
    assert hl.compile(out, name="auto_fits", target=hl.CGRA(mem_tile_words=16, num_mem_tiles=16)).report["tiles"] == 1


def test_use_glb_false_tiles_on_the_host():
    from mainspring.apps import gaussian

    out = gaussian.algorithm().output
    source = _auto(out, (96, 24), SMALL, use_glb="false").schedule_source
    assert "host tiles of" in source and "GLB" not in source
    rep = hl.compile(out, name="auto_host", target=SMALL).report
    assert rep["tiles"] > 1 and rep["mem_tiles"] <= 4


@pytest.mark.slow
def test_a_mid_size_frame_against_a_small_target_simulates_bit_exact(build_dir):
    from mainspring.apps import gaussian

    target = hl.CGRA(mem_tile_words=128, num_mem_tiles=4)
    out = gaussian.algorithm().output
    _auto(out, (512, 256), target)
    design = hl.compile(out, name="auto_mid", target=target, prove=False)
    rep = design.report
    assert rep["tiles"] > 1 and rep["mem_tiles"] <= 4 and rep["transfers_overlap_compute"]
    assert rep["predicted_cycles"] <= 514 * 258 * 1.05
    res = design.check(design.example_inputs(6), simulator="verilator", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_a_full_hd_gaussian_with_no_schedule_compiles_in_tiles():
    # 1920x1080 against one memory tile: as one tile its two 1920-word lines take 2; GLB tiles within 1% of the
    # one-tile cycles (compile only: a full-frame simulation is too slow for the suite).
    from mainspring.apps import gaussian

    target = hl.CGRA(num_mem_tiles=1)
    out = gaussian.algorithm().output
    _auto(out, (1920, 1080), target)
    rep = hl.compile(out, name="auto_hd", target=target, prove=False).report
    assert rep["tiles"] > 1 and rep["mem_tiles"] == 1 and rep["transfers_overlap_compute"]
    assert rep["predicted_cycles"] <= 1922 * 1082 * 1.01


@pytest.mark.parametrize("app", ["gaussian", "cascade", "harris"])
@pytest.mark.parametrize("words", [2048, 128, 64])
def test_the_memory_tile_model_against_the_compiler(app, words, monkeypatch):
    # The model that decides whether a frame fits (autoschedule_memory.mem_tiles) gives the compiler's figure for
    # the apps' automatic one-tile designs (BENCHMARKS.md: unsharp within 3 tiles).
    from mainspring import apps
    from mainspring import autoschedule as auto
    from mainspring.autoschedule_memory import mem_tiles

    plans = []
    real = auto._plan

    def record(*a, **k):
        got = real(*a, **k)
        plans.append((a[0], got))
        return got

    monkeypatch.setattr(auto, "_plan", record)
    out, _ = apps.build(apps.load(app), 64, 8, auto=True)
    pipe, plan = plans[-1]
    target = hl.CGRA(mem_tile_words=words, num_mem_tiles=1 << 20, num_pes=1 << 20)
    assert mem_tiles(pipe, plan, target, (64, 8)) == hl.compile(out, name=app, target=target,
                                                                 prove=False).report["mem_tiles"]


def _channels():
    """Seed 002's style with a stream of a pixel's channels (hw_input(c, x, y)), gray and a 2x2 stencil."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    inp = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, gray, hw_output, output = (hl.Func(n) for n in ("hw_input", "gray", "hw_output", "output"))
    hw_input[c, x, y] = hl.u16(inp[x, y, c])
    gray[x, y] = (hw_input[0, x, y] * 77 + hw_input[1, x, y] * 150 + hw_input[2, x, y] * 29) >> 8
    hw_output[x, y] = hl.u8((gray[x, y] + gray[x + 1, y] + gray[x, y + 1] + hw_input[1, x + 1, y + 1]) >> 2)
    output[x, y] = hw_output[x, y]
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("lanes", [2, 3])
def test_a_stream_of_channels_at_several_pixels_per_transfer(lanes, simulator, compile_shared, build_dir):
    # hw_input(c, x, y) with lanes: its channels unrolled whole and x by the lanes (3 channels of k pixels per
    # transfer), where it used to fall back to one lane.
    out = _channels()
    result = _auto(out, (24, 8), hl.CGRA(), lanes=lanes)
    assert result.lanes == lanes and result.note == ""
    src = result.schedule_source
    assert 'funcs["hw_input"].unroll(vars["c"])' in src and f'funcs["hw_input"].unroll(vars["x"], {lanes}, up)' in src
    design = compile_shared(out, name=f"auto_channels_{lanes}")
    rep = design.report
    assert rep["ideal_cycles"] == -(-26 // lanes) * 9  # the input, 26x9 with its halo, k pixels per transfer
    assert rep["predicted_cycles"] <= rep["ideal_cycles"] + rep["first_output_cycle"]
    res = design.check(design.example_inputs(8), simulator=simulator, build_dir=build_dir, bubbles=0.2,
                       backpressure=0.2)
    assert res.cycles >= res.predicted_cycles


def test_lanes_come_down_where_their_tiles_would_be_slower(monkeypatch):
    # harris at 2 lanes in 8 memory tiles: its 2-lane delay lines fit only tiles 2 pixels wide (halo 3x the frame);
    # at 1 lane, GLB tiles of 640 x 540 run within 2% of the one-tile cycles, so the cycle model takes 1 lane.
    from mainspring import apps
    from mainspring.apps import harris

    target = hl.CGRA(num_mem_tiles=8)
    results = []

    def schedule(out, width, height, lanes=1):
        results.append(_auto(out, (width, height), target, lanes=lanes))

    monkeypatch.setattr(harris, "autoschedule", schedule)
    out, _ = apps.build(harris, 1920, 1080, auto=True, lanes=2)
    (result,) = results
    assert result.lanes == 1 and "2 pixels per cycle is slower here" in result.note
    assert "GLB tiles of 640 x 540" in result.schedule_source
    rep = hl.compile(out, name="harris_tiled", target=target, prove=False).report
    assert rep["mem_tiles"] <= 8 and rep["predicted_cycles"] <= 1926 * 1086 * 1.02


@pytest.mark.parametrize("simulator", ["icarus", "verilator"], indirect=True)
@pytest.mark.parametrize(("app", "size"), [("h2h_conv_3_3", (30, 16)), ("h2h_down_sample", (16, 12)),
                                           ("h2h_up_sample", (30, 16)), ("h2h_pointwise", (30, 16))])
def test_the_generators_algorithms_scheduled_automatically(app, size, simulator, compile_shared, build_dir):
    """The reference system's simpler generators without their schedules: cycles within 5% of the hand
    schedule's, PEs and memory tiles at most its (BENCHMARKS.md), bit-exact."""
    from mainspring import apps

    mod = apps.load(app)
    hand, auto = (compile_shared(apps.build(mod, *size, auto=a)[0], name=app).report for a in (False, True))
    assert auto["predicted_cycles"] <= 1.05 * hand["predicted_cycles"]
    assert auto["pes"] <= hand["pes"] and auto["mem_tiles"] <= hand["mem_tiles"]
    out, inputs = apps.build(mod, *size, auto=True)
    design = compile_shared(out, name=f"{app}_auto")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _two_images():
    """fuzz --auto case 121313's live stages: taps over two rows of one image and a tap two rows down another."""
    x, y = hl.Var("x"), hl.Var("y")
    inp, other = hl.ImageParam(hl.Int(16), 2, "input"), hl.ImageParam(hl.Int(16), 2, "other")
    f2, f3 = hl.Func("f2"), hl.Func("f3")
    f2[x, y] = hl.min(hl.u16(inp[x + 1, y]) * hl.u16(inp[x + 2, y]), hl.u16(inp[x + 1, y + 1]))
    f3[x, y] = f2[x, y] + hl.u16(other[x + 1, y + 2])
    return f3


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_one_tile_the_model_counts_within_max_mem_tiles_but_compiled_over_is_tiled(simulator, compile_shared,
                                                                                   build_dir):
    # Against 3-word memory tiles the model counts the one-tile design at 2 memory tiles, the compiler at 5: with
    # max_mem_tiles="4" no candidate fitted (refused: "no schedule of 'f3' fits"); the compiled excess now narrows
    # the tiles the model picks (autoschedule_tiles._counted_under).
    target = hl.CGRA(mem_tile_words=3)
    out = _two_images()
    source = _auto(out, (9, 3), target, max_mem_tiles=4).schedule_source
    assert "host tiles of 5 x 3 over 9 x 3" in source and "about 5 memory tiles, over the budget of 4" in source
    design = compile_shared(out, name="auto_counted_under", target=target)
    rep = design.report
    assert rep["tiles"] == 2 and rep["mem_tiles"] <= 4
    res = design.check(design.example_inputs(13), simulator=simulator, build_dir=build_dir, bubbles=0.1,
                       backpressure=0.1)
    assert res.cycles >= res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_fuzz_auto_forces_tiling_on_a_target_of_small_memory_tiles(simulator, build_dir):
    # mainspring/fuzz_auto.py: a case forced to tile gets memory tiles of a third of its frame's width (7 // 3
    # words) and max_mem_tiles one under its one-tile design's (4 memory tiles): the autoscheduler splits the
    # frame into host tiles that fit, and the design runs bit-exact.
    from mainspring import fuzz_auto

    case = fuzz_auto.resolve_budget(fuzz_auto.generate(125023))
    assert (case.tile_words, case.max_mem_tiles, case.budget) == (2, 3, None)
    assert "hl.CGRA(mem_tile_words=2)" in fuzz_auto.source(case)
    got = fuzz_auto.run_case(case, simulator=simulator, build_dir=build_dir)
    assert got.kind == "ok", f"{got.kind}: {got.detail}"
    rep = fuzz_auto._figures(case)
    assert rep["tiles"] == 2 and rep["mem_tiles"] <= 3  # as one tile: 4


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_lanes_a_narrow_frame_cannot_use_come_down(simulator, build_dir, compile_shared):
    # fuzz --auto 139835's algorithm: 3 pixels per cycle over a frame 2 wide take one transfer a row, as 2 lanes
    # do (the input, 3 wide with the x + 1 tap, in rows of whole lanes: 6 or 4 pixels, two transfers either way):
    # 2 lanes, for the same cycles, two thirds of the PEs and 7 words of storage for 13.
    def algorithm():
        x, y = hl.Var("x"), hl.Var("y")
        inp = hl.ImageParam(hl.UInt(8), 2, "input")
        hw_input, f0, hw_output, output = (hl.Func(n) for n in ("hw_input", "f0", "hw_output", "output"))
        hw_input[x, y] = hl.u16(inp[x, y])
        f0[x, y] = hl.max(hw_input[x + 1, y + 2], hw_input[x, y])
        hw_output[x, y] = f0[x, y]
        output[x, y] = hw_output[x, y]
        return output

    out = algorithm()
    result = _auto(out, (2, 1), hl.CGRA(), lanes=3)
    assert result.lanes == 2 and "3 pixels per cycle over a frame 2 wide take as many transfers a row as 2" in \
        result.note
    design = compile_shared(out, name="auto_narrow_lanes")
    rep = design.report
    assert rep["pes"] == 2 and sum(b["words"] for b in rep["buffers"]) == 9 and rep["predicted_cycles"] == 7
    design.check(design.example_inputs(5), simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2,
                 seed=5)
    wide = algorithm()  # a frame whose rows 3 lanes shorten keeps them
    assert _auto(wide, (6, 2), hl.CGRA(), lanes=3).lanes == 3
