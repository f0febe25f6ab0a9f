"""Reductions in automatic schedules (mainspring/autoschedule_reduce.py): over channels x taps too large to unroll
whole, the channels (and the output's planes) are unrolled with the taps serial in place, and a stream of channels
carries one per transfer when the taps' steps take longer; within MAX_UNROLLED points everything unrolls; a budget
cuts the planes, then the channels. Every design simulated bit-exact."""

import pytest

import mainspring as hl

from conftest import SIMULATORS


def _conv(taps: int, channels: int, planes: int, cast: bool = False):
    """A layer of `planes` output channels over `channels` input channels and taps x taps windows, seed 002's style
    (`hw_input(c, x, y)` a stream of a pixel's channels; `cast`: the stream copied into a buffered i16 Func)."""
    x, y, c, k = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("k")
    inp = hl.ImageParam(hl.Int(16) if not cast else hl.UInt(8), 3, "input")
    wts = hl.ImageParam(hl.Int(16), 4, "weights")
    hw_input, hw_w, acc, hw_output, output = (hl.Func(n) for n in ("hw_input", "hw_w", "acc", "hw_output", "output"))
    hw_input[c, x, y] = inp[c, x, y]
    hw_w[c, k, x, y] = wts[c, k, x, y]
    pixels = hw_input
    if cast:
        pixels = hl.Func("pixels")
        pixels[c, x, y] = hl.i16(hw_input[c, x, y])
    r = hl.RDom([hl.Range(0, taps), hl.Range(0, taps), hl.Range(0, channels)], "r")
    acc[x, y, k] = hl.i16(0)
    acc[x, y, k] += hw_w[r.z, k, r.x, r.y] * pixels[r.z, x + r.x, y + r.y]
    hw_output[x, y, k] = hl.max(acc[x, y, k], 0)
    output[x, y, k] = hw_output[x, y, k]
    return output


def _schedule(out, size, planes, **extra) -> str:
    out.set_estimates([(0, size[0]), (0, size[1]), (0, planes)])
    params = hl.AutoschedulerParams("Mainspring", {k: str(v) for k, v in extra.items()})
    return hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), params).schedule_source


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_channels_by_taps_over_the_limit_unroll_the_channels_with_the_taps_serial(simulator, compile_shared, build_dir):
    # 5 x 5 taps x 3 channels = 75 points: the 3 channels and the 2 output planes unrolled (6 products a step), the
    # 25 taps serial, and the image a channel per transfer (25 steps a pixel outlast its 3 channels).
    out = _conv(5, 3, 2)
    source = _schedule(out, (6, 4), 2)
    assert 'funcs["acc"].update(0).unroll("r$z").unroll(vars["k"])' in source
    assert 'funcs["acc"].unroll(vars["k"])' in source
    assert "75 points a pixel, over 64: its channels unrolled, 25 steps of its taps" in source
    assert 'funcs["hw_input"].unroll' not in source
    design = compile_shared(out, name="auto_channels_taps")
    rep = design.report
    assert rep["ideal_cycles"] == 6 * 4 * 25  # a step of the taps a cycle, every plane at once
    res = design.check(design.example_inputs(3), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= 1.3 * rep["ideal_cycles"]


def test_a_pe_budget_cuts_the_planes_then_the_channels(build_dir):
    # Under max_pes the names unrolled are cut from the end: the output planes (one sweep per plane), then the
    # channels (every point serial).
    figures = []
    for max_pes, unrolls in ((12, '.update(0).unroll("r$z")\n'), (6, None)):  # (7 PEs with the channels)
        out = _conv(5, 3, 2)
        source = _schedule(out, (6, 4), 2, max_pes=max_pes)
        assert (unrolls in source) if unrolls else ".update(0).unroll" not in source
        design = hl.compile(out, name=f"auto_channels_taps_{max_pes}")
        assert design.report["pes"] <= max_pes
        figures.append(design.report["ideal_cycles"])
        res = design.check(design.example_inputs(4), simulator="icarus", build_dir=build_dir)
        assert res.cycles == res.predicted_cycles
    assert figures == [2 * 6 * 4 * 25, 2 * 6 * 4 * 75]


def test_taps_alone_over_the_limit_stay_serial():
    # 9 x 9 taps of one channel: no channels to unroll (an RVar of extent 1 is none), so every point is serial.
    source = _schedule(_conv(9, 1, 1), (6, 4), 1)
    assert ".update(0).unroll" not in source and "steps of its taps" not in source


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_within_the_limit_a_streams_channels_unroll_whole_in_the_funcs_that_read_them(simulator, compile_shared,
                                                                                      build_dir):
    # 3 x 3 taps x 4 channels = 36 points, unrolled whole: a pixel per cycle, so the stream carries a pixel's 4
    # channels per transfer and the buffered Func that reads it (pixels(c, x, y)) computes them together.
    out = _conv(3, 4, 1, cast=True)
    source = _schedule(out, (6, 4), 1)
    assert 'funcs["acc"].update(0).unroll("r$x").unroll("r$y").unroll("r$z")' in source
    assert 'funcs["hw_input"].unroll(vars["c"])' in source and 'funcs["pixels"].unroll(vars["c"])' in source
    design = compile_shared(out, name="auto_channels_whole")
    res = design.check(design.example_inputs(5), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _planes():
    """A CPU-style stage of 3 planes over a 2-D image (`scaled(k, x, y)`, each plane the pixel times a constant
    weight), read by the output at each plane: 3 firings per pixel where the image streams 1 word."""
    x, y, k = hl.Var("x"), hl.Var("y"), hl.Var("k")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    w, scaled, out = hl.Func("w"), hl.Func("scaled"), hl.Func("out")
    w[k] = hl.u16(k * 2 + 1)
    scaled[k, x, y] = hl.u16(inp[x, y]) * w[k] + hl.u16(k)
    out[x, y] = scaled[0, x, y] + scaled[1, x + 1, y] + scaled[2, x, y + 1]
    out.set_estimates([(0, 16), (0, 8)])
    return out


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("lanes", [1, 2])
def test_a_plane_whose_lanes_read_nothing_new_is_unrolled(lanes, simulator, compile_shared, build_dir):
    # autoschedule_planes.py: scaled's lanes of k share their one read of the image, so its 3 planes fire together
    # (serial over k, 465 cycles at one lane, ideal 459: its firings).
    out = _planes()
    params = hl.AutoschedulerParams("Mainspring", {"lanes": str(lanes)})
    src = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), params).schedule_source
    assert 'funcs["scaled"].unroll(vars["k"])' in src
    design = compile_shared(out, name=f"auto_planes_{lanes}")
    rep = design.report
    assert rep["ideal_cycles"] == -(-17 // lanes) * 9  # the image's transfers
    assert rep["predicted_cycles"] <= rep["ideal_cycles"] + rep["first_output_cycle"]
    # hwlower/lane_constants.py: each lane's w(k) and k are its constants, so a lane is a multiply and an add
    # (20 PEs a lane before, computing k * 2 + 1 from the lane's counter), the output's two adds besides.
    assert rep["pes"] <= 8 * lanes and rep["mem_tiles"] <= 2 * lanes
    res = design.check(design.example_inputs(4), simulator=simulator, build_dir=build_dir, bubbles=0.1,
                       backpressure=0.1)
    assert res.cycles >= res.predicted_cycles


def test_a_pe_budget_cuts_the_output_lanes_and_keeps_the_planes_unrolled():
    # The planes' lanes cost no more PEs than the serial design (8: their constants folded), so a budget under
    # two output lanes' 16 takes one output lane with the planes still unrolled, at a third of the serial cycles.
    out = _planes()
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "2", "max_pes": "12"})
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), params)
    assert result.lanes == 1 and 'funcs["scaled"].unroll(vars["k"])' in result.schedule_source
    rep = hl.compile(out, name="auto_planes_budget").report
    assert rep["pes"] <= 8 and rep["predicted_cycles"] <= 160


def test_mobiles_pointwise_stage_unrolls_its_output_channels_with_the_input_channels_serial(monkeypatch):
    # mobile's pw_conv(k, x, y, c) reads dw_conv(x, y, c): its k lanes share the read (unrolled), its c lanes would
    # each read another plane of dw_conv (serial); pw_conv_reduction's r_pw reads pw_conv at c, a plane pw_conv
    # makes one per firing, so it stays serial and its k, which pw_conv makes together, is unrolled: the hand
    # schedule's shape (it was 610 cycles at 8x6 with pw_conv serial over k). Its r_pw goes outside its pure Vars,
    # a sweep of the frame per input channel plane, as the generator orders it (autoschedule_planes.py: 461 cycles
    # and 571 words in Halide's default order, each pixel's channels summed in a row, until session 25): the hand
    # design, figure for figure. That is the budget's cut at the hand design's 15 PEs (STREAMS_APART): without a
    # budget the input's planes arrive together and every stage unrolls them (test_flow_autoschedule_apps.py).
    from mainspring import apps
    from mainspring import autoschedule as auto

    sources = []
    real = auto._source
    mod = apps.load("h2h_conv_layer_mobile")
    monkeypatch.setattr(auto, "_source", lambda *a: sources.append(real(*a)) or sources[-1])
    out, _ = mod.build(8, 6, auto=True, max_pes="15")
    src = sources[-1]
    assert 'funcs["pw_conv"].update(0).unroll(vars["k"])' in src
    assert 'funcs["pw_conv_reduction"].update(0).unroll(vars["k"])' in src
    assert 'funcs["pw_conv_reduction"].update(0).reorder(vars["k"], vars["x"], vars["y"], "r_pw$x")' in src
    assert 'unroll("r_pw$x")' not in src and 'unroll(vars["c"])' not in src
    hand, _ = apps.build(mod, 8, 6)
    figures = [hl.compile(f, name="mobile", prove=False).report for f in (out, hand)]
    assert [(r["predicted_cycles"], r["pes"], r["mem_tiles"]) for r in figures] == [(414, 15, 4), (414, 15, 4)]
    # 184 until quality22: the reductions' init constants, wires read as they are made, counted as words
    assert [sum(b["words"] for b in r["buffers"]) for r in figures] == [181, 181]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_histograms_stream_of_channels_carries_a_pixel_whole(simulator, compile_shared, build_dir):
    """A table updated over the pixels (`hist(bin(f0(r.x, r.y))) = ...`, f0 a 2x downsample of a 2-channel
    stream) steps once per pixel, not taps per pixel: its stream carries a pixel's channels in one transfer
    (fuzz --auto 130319, saved in fuzz_cases: one channel per transfer, 96 ideal cycles for 48)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent / "fuzz_cases" / "auto_histogram_of_a_channel_stream.py"
    spec = importlib.util.spec_from_file_location("auto_histogram_case", path)
    case = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(case)
    a = case.algorithm(hl)
    source = case.schedule(hl, a).schedule_source
    assert 'funcs["hw_input"].unroll(vars["c"])' in source
    design = compile_shared(a["output"], name="histogram_of_channels")
    assert design.report["ideal_cycles"] == 48
    res = design.check(design.example_inputs(3), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 48 * 1.05 + design.report["first_output_cycle"]
