"""Automatic schedules of resampling pipelines over frames that do not fit the memory tiles
(mainspring/autoschedule_steps.py): tiles in whole steps of every resampling (a 2x upsample's tiles even), GLB
tiles where the algorithm has copy Funcs, host tiles otherwise; kept as one tile before session 16 (the frame was
refused when it did not fit). A budget of max_mem_tiles forces tiles on small frames."""

import pytest

import mainspring as hl
from mainspring import apps

from conftest import SIMULATORS


def _resampled(kind: str, copies: bool = True):
    """An upsample by 2 along x and y ("up"), or a downsample by 2 then an upsample ("down_up"), read by a 2-row
    stencil; with copy Funcs of the image and the output (seed 002's style), or written for a CPU."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    src = hl.Func("hw_input")
    src[x, y] = inp[x, y]
    if kind == "down_up":
        mid = hl.Func("mid")
        mid[x, y] = (src[2 * x, 2 * y] + src[2 * x + 1, 2 * y + 1]) >> 1
        src = mid
    up, hw_output = hl.Func("up"), hl.Func("hw_output")
    up[x, y] = (src[x / 2, y / 2] + src[x / 2 + 1, y / 2 + 1]) >> 1
    hw_output[x, y] = up[x, y] + up[x, y + 1]
    if not copies:
        return hw_output
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return output


def _auto(out, size, **extra):
    out.set_estimates([(0, size[0]), (0, size[1])])
    params = hl.AutoschedulerParams("Mainspring", {k: str(v) for k, v in extra.items()})
    return hl.Pipeline(out).apply_autoscheduler(SMALL, params)


SMALL = hl.CGRA(mem_tile_words=16)  # a 64-pixel row takes 4 memory tiles


def _check(design, simulator, build_dir, seed=3):
    return design.check(design.example_inputs(seed), simulator=simulator, build_dir=build_dir, bubbles=0.2,
                        backpressure=0.2, seed=seed)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("kind", "copies", "size"), [
    ("up", True, (64, 8)), ("down_up", True, (64, 6)), ("up", False, (60, 4)), ("down_up", True, (62, 5)),
])
def test_a_resampled_frame_over_the_memory_tiles_is_tiled_in_whole_steps(kind, copies, size, simulator, build_dir,
                                                                         compile_shared):
    one = _resampled(kind, copies)
    _auto(one, size)
    whole = compile_shared(one, name=f"auto_rs_one_{kind}", target=SMALL, prove=False).report["mem_tiles"]
    out = _resampled(kind, copies)
    source = _auto(out, size, max_mem_tiles=whole - 1).schedule_source
    design = compile_shared(out, name=f"auto_rs_{kind}_{int(copies)}_{size[0]}", target=SMALL)
    rep = design.report
    assert rep["tiles"] > 1 and rep["mem_tiles"] <= whole - 1, (rep["tiles"], rep["mem_tiles"], whole)
    tiles = design.program.glb.mem_tiles if copies else design.program.tiles
    if copies:
        assert "GLB tiles of" in source
    else:
        assert "host tiles of" in source
    # every tile's extent along x a whole number of steps of 2 (the last may shift inward)
    widths = {t.output_box[0][1] - t.output_box[0][0] + 1 for t in tiles}
    assert all(w % 2 == 0 for w in widths) or len(tiles) == 1, widths
    _check(design, simulator, build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_budget_the_line_model_could_not_meet_is_met_in_tiles(simulator, build_dir, compile_shared):
    # A third of the one-tile design's 9 memory tiles: the line model counted the upsample's source low (a delay
    # line where the compiler builds an addressed bank), so every width it chose compiled over the budget, and the
    # frame was refused after 4 narrowings; counted as the compiler counts it (autoschedule_addressed.py), GLB
    # tiles of 8 columns fit at the first width. Since a stream is paced to the readers of its fixed copy too
    # (memories/stream_pacing.py, session 29: it no longer runs ahead of them), tiles of 16 columns fit the 3.
    out = _resampled("up")
    source = _auto(out, (64, 8), max_mem_tiles=3).schedule_source
    design = compile_shared(out, name="auto_rs_up_budget3", target=SMALL)
    rep = design.report
    assert "GLB tiles of 16 x 8" in source and rep["tiles"] == 4 and rep["mem_tiles"] == 3, (source, rep["tiles"])
    _check(design, simulator, build_dir)


def test_the_schedule_source_of_a_resampled_frame_gives_the_same_design_byte_for_byte():
    out = _resampled("down_up")
    source = _auto(out, (64, 6), max_mem_tiles=4).schedule_source
    first = hl.compile(out, name="auto_rs_bytes", target=SMALL)
    assert first.report["tiles"] > 1
    again = _resampled("down_up")
    again.set_estimates([(0, 64), (0, 6)])
    namespace: dict = {}
    exec(source, namespace)
    pipe = hl.Pipeline(again)
    namespace["schedule"](pipe.funcs(), pipe.vars())
    second = hl.compile(again, name="auto_rs_bytes", target=SMALL)
    assert second.verilog == first.verilog and second.memory_text == first.memory_text


@pytest.mark.parametrize(("app", "size", "simulator"), [
    ("h2h_up_sample", (60, 6), "icarus"), ("h2h_up_sample", (60, 6), "verilator"),
    ("upsample", (126, 4), "icarus"), ("upsample", (126, 4), "verilator"),
], indirect=["simulator"])
def test_the_upsample_apps_over_a_memory_tile_budget_run_in_glb_tiles(app, size, simulator, build_dir, monkeypatch,
                                                                      compile_shared):
    """The apps' algorithms with no schedule, for 16-word memory tiles, over a max_mem_tiles budget one under
    their one-tile designs' figure."""
    mod = apps.load(app)
    monkeypatch.setattr(mod, "autoschedule", lambda out, w, h: _auto(out, (w, h)))
    one, _ = mod.build(*size, auto=True)
    whole = compile_shared(one, name=f"{app}_one", target=SMALL, prove=False).report["mem_tiles"]
    monkeypatch.setattr(mod, "autoschedule", lambda out, w, h: _auto(out, (w, h), max_mem_tiles=whole - 1))
    out, inputs = mod.build(*size, auto=True)
    design = compile_shared(out, name=f"{app}_glb", target=SMALL)
    rep = design.report
    assert rep["tiles"] > 1 and rep["mem_tiles"] <= whole - 1 and design.program.glb is not None, rep["tiles"]
    assert all((t.output_box[0][1] - t.output_box[0][0] + 1) % 2 == 0 for t in design.program.glb.mem_tiles)
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)


def test_a_func_read_at_two_rates_along_y_is_tiled_along_x_only(build_dir):
    """hw_input read at y / 2 (through up) and at y + 1 (by hw_output, at x / 2), fuzz 133450's reads: GLB tiles
    cut x only, each the whole height."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, up, hw_output, output = (hl.Func(n) for n in ("hw_input", "up", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    up[x, y] = hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]
    hw_output[x, y] = up[x, y] + up[x, y + 1] + hw_input[x / 2, y + 1]
    output[x, y] = hw_output[x, y]
    source = _auto(output, (64, 6), max_mem_tiles=4).schedule_source
    design = hl.compile(output, name="auto_rs_two_rates", target=SMALL)
    assert "GLB tiles of" in source and design.report["tiles"] > 1
    assert {t.output_box[1] for t in design.program.glb.mem_tiles} == {(0, 5)}
    _check(design, "icarus", build_dir)


def test_glb_tile_over_an_axis_read_at_two_rates_is_refused_with_the_fix():
    def pipeline():
        x, y = hl.Var("x"), hl.Var("y")
        inp = hl.ImageParam(hl.UInt(16), 2, "input")
        hw_input, hw_output, output = (hl.Func(n) for n in ("hw_input", "hw_output", "output"))
        hw_input[x, y] = inp[x, y]
        hw_output[x, y] = hw_input[2 * x, y] + hw_input[x + 1, y]
        output[x, y] = hw_output[x, y]
        output.set_estimates([(0, 16), (0, 4)])
        return output

    with pytest.raises(hl.HalideError, match=r"glb_tile=\"8x2\": Func 'hw_input' is read at 1 and 2 times the "
                                             r"output's x .* use the whole x extent of 16 in glb_tile"):
        hl.Pipeline(pipeline()).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring",
                                                                                      {"glb_tile": "8x2"}))
    out = pipeline()
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"glb_tile": "16x2"}))
    assert hl.compile(out, name="auto_rs_glb_two_rates", prove=False).report["tiles"] == 2


def test_a_plans_rates_are_worked_out_once(monkeypatch):
    # tile_steps, reread_rows, x_rates and axis_rates all read the rates at which each Func is
    # read; each tile size tried asks for them again, so they are kept per plan (autoschedule_steps._MEMO).
    from mainspring import autoschedule_steps as steps

    calls = []
    real = steps._read_rates

    def counted(pipe, plan, signed):
        calls.append((id(pipe), id(plan.accelerated), plan.channel, tuple(map(id, plan.region)),
                      tuple(map(id, plan.streams)), signed))
        return real(pipe, plan, signed)

    monkeypatch.setattr(steps, "_read_rates", counted)
    monkeypatch.setattr(steps, "_MEMO", {})
    out = _resampled("down_up")
    _auto(out, (64, 6), max_mem_tiles=4)
    assert calls and len(calls) == len(set(calls)), len(calls)


def _halved(width: int, height: int):
    """fuzz --auto 159529: an output that reads its image at x / 2, whose box grows to whole steps of 2 (12 columns
    for 11), so that the guarded last transfer of 2 lanes was refused (its loops ran over the 11 columns alone)."""
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.Int(16), 2, "input")
    out = hl.Func("f0")
    out[x, y] = hl.u8((hl.u8(image[x / 2, y / 2]) + hl.u8(image[x / 2 + 1, y / 2])) >> 1)
    out.set_estimates([(0, width), (0, height)])
    return out


@pytest.mark.parametrize(("width", "height", "lanes"), [(11, 1, 2), (15, 3, 2)])
def test_lanes_over_an_odd_width_of_an_upsampling_output_guard_its_last_transfer(width, height, lanes, build_dir):
    out = _halved(width, height)
    got = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": str(lanes)}))
    assert f"unroll(xi, {lanes}, hl.TailStrategy.GuardWithIf)" in got.schedule_source
    design = hl.compile(out, name=f"auto_halved_{width}_{lanes}")
    for simulator in SIMULATORS:
        res = design.check(design.example_inputs(5), simulator=simulator, build_dir=build_dir, bubbles=0.2,
                           backpressure=0.2, seed=5)
        assert res.cycles >= design.report["ideal_cycles"]
