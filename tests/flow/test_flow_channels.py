"""Channels: a Func's first dimension unrolled whole (`hw_input.unroll(c)`, `hw_output.unroll(c)`) makes c-word
streams, one pixel's channels per transfer; the extent comes from bounds inference, as in Halide. Tables read at
a Func's value take the range of that Func's values (Halide's function value bounds). Bit-exact on both
simulators."""

import inspect
import os

import numpy as np
import pytest
from compile_once import compiled, grouped, together

import mainspring as hl
from mainspring.apps import h2h_camera_pipeline as cam
from mainspring.apps import h2h_unsharp

SIMULATORS = ("icarus", "verilator")


def _here() -> str:
    f = inspect.currentframe().f_back
    return f"{os.path.relpath(f.f_code.co_filename)}:{f.f_lineno}"


def _channels(width=10, height=4, unroll_input=True, bound_c=False):
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, luma, hw_output, output = (hl.Func(n) for n in ("hw_input", "luma", "hw_output", "output"))
    hw_input[c, x, y] = hl.u16(input_[x, y, c])
    luma[x, y] = (hw_input[0, x, y] + 2 * hw_input[1, x, y] + hw_input[2, x, y]) >> 2
    hw_output[c, x, y] = hw_input[c, x + 1, y] * 3 + luma[x, y]
    output[x, y, c] = hl.u8(hw_output[c, x, y])
    output.bound(x, 0, width).bound(y, 0, height).bound(c, 0, 3)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    hw_output.unroll(c)  # no bound(c, ...): bounds inference gives 3
    luma.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    if unroll_input:
        hw_input.unroll(c)
    if bound_c:
        hw_input.bound(c, 0, 3)
    image = np.random.default_rng(4).integers(0, 256, size=(3, height, width + 1), dtype=np.uint8)
    return output, {"input": image}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_channels_stream_one_pixel_per_transfer(simulator, build_dir, compile_shared):
    out, inputs = _channels()
    design = compile_shared(out, name="channels")
    assert design.program.nest.lanes == (("hw_input", 3), ("hw_output", 3))
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    assert design.report["ideal_cycles"] == 11 * 4  # one transfer of 3 channels per pixel of the input
    assert res.cycles <= design.report["ideal_cycles"] + design.report["first_output_cycle"]


def test_unrolled_output_channels_with_a_serial_input_run_at_the_streams_rate(build_dir):
    # The input streams one word per transfer: the output's three channels wait for three transfers.
    out, inputs = _channels(unroll_input=False)
    design = hl.compile(out, name="channels_serial")
    assert design.program.nest.lanes == (("hw_input", 1), ("hw_output", 3))
    assert design.report["ideal_cycles"] == 3 * 11 * 4
    res = design.check(inputs, simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= design.report["ideal_cycles"] + design.report["first_output_cycle"]


def test_unroll_of_an_inline_wrapper_is_refused_as_halide_does():
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[c, x, y] = hl.u16(input_[x, y, c])
    hw_output[c, x, y] = hw_input[c, x, y] * 2
    output[x, y, c] = hl.u8(hw_output[c, x, y])
    output.bound(x, 0, 4).bound(y, 0, 4).bound(c, 0, 3)
    hw_input.in_().unroll(c); where = _here()  # noqa: E702 - _here() is this line
    with pytest.raises(hl.HalideError) as err:
        output.realize([4, 4, 3])
    assert str(err.value) == (
        f"{where}: Cannot unroll dimension c of Func \"hw_input_global_wrapper\" (hw_input.in_().unroll(c)) "
        "because the Func is scheduled inline: it has no loops of its own, its values are computed inside the "
        "Funcs that read it (hw_output). Unroll hw_input.unroll(c) (the Func it wraps) instead, or give it loops "
        "of its own: hw_input.in_().compute_at(<consumer>, <var>)"
    )


@together("channels_unsharp_small")
def test_a_table_read_at_a_funcs_value_takes_the_range_of_its_values():
    # rom_div_lookup(max(gray, 1)) with gray = u16(... >> 8): Halide sizes the table [1, 255], not uint16's range.
    from mainspring.frontend.bounds import infer_boxes
    from mainspring.frontend.pipeline import Pipeline

    out, _ = h2h_unsharp.build(16, 8)
    boxes, _ = infer_boxes(Pipeline(out), [(0, 15), (0, 7), (0, 2)], lambda p: None)
    assert boxes["rom_div_lookup"] == [(1, 255)]
    design, _ = compiled("unsharp_small", h2h_unsharp.build, 16, 8)
    assert design.report["rom_words"] == 255 and design.report["kernels_unproved"] == []


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@together("channels_unsharp_small")
def test_unsharp_small(simulator, build_dir):
    design, inputs = compiled("unsharp_small", h2h_unsharp.build, 16, 8)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= design.report["ideal_cycles"] + design.report["first_output_cycle"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@together("channels_unsharp_glb")
def test_unsharp_glb_schedule_with_the_array_output_stored_in_the_glb(simulator, build_dir):
    # The generator's schedule 1: hw_output.store_in(GLB) with hw_accelerate on hw_output.in_() (the GLB holds
    # the array output's tile either way), the channels unrolled in both GLB copies; 2x1 host tiles of 2x2
    # memory tiles.
    design, inputs = compiled("unsharp_glb", h2h_unsharp.build, 32, 16, schedule=1, tile=(8, 8), tiles=2)
    assert design.program.glb is not None and len(design.program.tiles) == 2
    assert len(design.program.glb.mem_tiles) == 4
    assert design.program.nest.lanes == (("hw_input_global_wrapper", 3), ("hw_output", 3))
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


# Schedule 4 is bit-exact on both simulators in tests/flow/independent/test_unsharp.py (sched4_single_buffer, the
# reference generator ported apart, 10x10); here the app's own build at 12x10 and its cycles on Icarus alone
# (the compile, ~40 s in CI, is most of either run; Verilator's simulation added ~30 s).
OTHER_SCHEDULES = [pytest.param(schedule, sim, marks=pytest.mark.xdist_group(f"channels_unsharp_schedule_{schedule}"))
                   for schedule in (2, 4, 5) for sim in SIMULATORS if schedule != 4 or sim == "icarus"]


@pytest.mark.parametrize(("schedule", "simulator"), OTHER_SCHEDULES, indirect=["simulator"])
def test_unsharp_other_schedules(schedule, simulator, build_dir):
    # 2: schedule 1's calls with 8x6 memory tiles, 2x2 per GLB tile; 4: everything inline but the division ROM;
    # 5: blur, ratio and gray buffered, the rest inline.
    kw = {"tile": (8, 6), "tiles": 2} if schedule == 2 else {}
    size = (32, 24) if schedule == 2 else (12, 10)
    design, inputs = compiled(f"unsharp_s{schedule}", h2h_unsharp.build, *size, schedule=schedule, **kw)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _channels_and_pixels(k: int, width=12, height=4):
    """Seed 002's channels with k pixels of x per transfer: `hw_input.unroll(c).unroll(x, k)` streams 3k
    consecutive words of the box (c fastest), as the reference's "big parrot with unroll" schedules do."""
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    up = hl.TailStrategy.RoundUp
    input_ = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[c, x, y] = hl.u16(input_[x, y, c])
    blur[x, y] = hw_input[0, x, y] + hw_input[1, x + 1, y] + hw_input[2, x, y + 1]
    hw_output[c, x, y] = blur[x, y] * hw_input[c, x, y]
    output[x, y, c] = hl.u8(hw_output[c, x, y])
    output.bound(x, 0, width).bound(y, 0, height).bound(c, 0, 3)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
    hw_output.unroll(c).unroll(xi, k)
    blur.compute_at(hw_output, xo).unroll(x, k)
    hw_input.unroll(c).unroll(x, k, up)  # the window reads x + 1: 13 columns, rounded up to whole transfers
    hw_input.stream_to_accelerator()
    image = np.random.default_rng(5).integers(0, 256, size=(3, height + 1, width + k), dtype=np.uint8)
    return output, {"input": image}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("k", grouped("channels_and_pixels", [2, 3]))
def test_channels_and_pixels_per_transfer(k, simulator, build_dir):
    design, inputs = compiled(f"channels_x{k}", _channels_and_pixels, k)
    assert design.program.nest.lanes == (("hw_input", 3 * k), ("hw_output", 3 * k))
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= design.report["ideal_cycles"] + design.report["first_output_cycle"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@together("channels_unsharp_big_parrot")
def test_unsharp_big_parrot_with_unroll(simulator, build_dir):
    # The generator's schedule 3: 2x2 host tiles of one GLB tile of one memory tile, 3 pixels per cycle with
    # their channels: 9-word transfers, over 3 GLB banks side by side (a bank port moves 4 words).
    design, inputs = compiled("unsharp_s3", h2h_unsharp.build, 24, 16, schedule=3, tile=(12, 8), unroll=3)
    assert design.program.nest.lanes == (("hw_input_global_wrapper", 9), ("hw_output", 9))
    assert len(design.program.tiles) == 4
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@together("channels_camera_glb")
def test_camera_pipeline_glb_schedule(simulator, build_dir):
    # The generator's schedule 1: 2x1 host tiles of 2x2 memory tiles of 8x8. The demosaic reads x % 2 and y % 2
    # and the channel c as values: the same in every tile (even origins; c is not tiled), so they are allowed.
    design, inputs = compiled("camera_glb", cam.build, 32, 16, schedule=1, tile=(8, 8), tiles=2, target=cam.TARGET)
    assert len(design.program.tiles) == 2 and len(design.program.glb.mem_tiles) == 4
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _parity(tile_width: int):
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = inp[x, y]
    hw_output[x, y] = hl.select(x % 2 == 0, hw_input[x, y], hw_input[x, y] + 1)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 12).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, tile_width, 4).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@together("channels_camera_big_parrot")
def test_camera_pipeline_big_parrot_with_unroll(simulator, build_dir):
    # The generator's schedule 3 (2 pixels per cycle; its half-resolution planes at the output's pace, see the
    # app): 2x2 host tiles of 16x8.
    design, inputs = compiled("camera_s3", cam.build, 32, 16, schedule=3, tile=(16, 8), unroll=2, target=cam.TARGET)
    assert design.program.nest.lanes == (("hw_input_global_wrapper", 2), ("hw_output", 6))
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_a_coordinate_read_modulo_m_counts_no_tiles_when_their_origins_agree_modulo_m(build_dir):
    # x % 2 in host tiles of 4 (origins 0, 4, 8: the same parity) needs no tile counter; in tiles of 3 it does.
    inputs = {"input": np.arange(48, dtype=np.uint16).reshape(4, 12)}
    for width, counted in ((4, False), (3, True)):
        design = hl.compile(_parity(width), name=f"parity{width}")
        assert ("tile_count" in design.verilog) == counted
        design.check(inputs, simulator="icarus", build_dir=build_dir)


def test_unroll_by_a_factor_of_an_inline_wrapper_names_the_call():
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, output = hl.Func("hw_input"), hl.Func("output")
    hw_input[x, y] = hl.u16(input_[x, y])
    output[x, y] = hw_input[x, y] * 2
    hw_input.in_().unroll(x, 2); where = _here()  # noqa: E702 - _here() is this line
    with pytest.raises(hl.HalideError) as err:
        output.realize([4, 4])
    assert str(err.value).startswith(
        f"{where}: Cannot unroll dimension x.ui of Func \"hw_input_global_wrapper\" (hw_input.in_().unroll(x, 2)) "
        "because the Func is scheduled inline")
    assert "Unroll hw_input.unroll(x, 2) (the Func it wraps) instead" in str(err.value)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@together("channels_camera_small")
def test_camera_pipeline_small(simulator, build_dir):
    # Half-resolution Bayer planes (a 29-row plane computes 30, as RoundUp would), interleaved back by x % 2 and
    # y % 2, three channel lanes, a 1024-entry curve ROM computed in float; the raw input streams at full rate.
    design, inputs = compiled("camera_small", cam.build, 8, 8, target=cam.TARGET)
    assert design.program.nest.lanes == (("hw_input", 1), ("hw_output", 3))
    assert design.report["rom_words"] == 2 * 1024  # 3 channel lanes read the curve: 2 tiles of 2 read ports
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= design.report["ideal_cycles"] + design.report["first_output_cycle"]


@pytest.mark.parametrize("simulator", SIMULATORS)
def test_a_stream_of_channels_is_paced_to_a_reader_that_fires_once_per_channel(simulator, tmp_path, compile_shared):
    """The image streams a pixel's three channels per transfer; the output computes its three planes of the pixel
    one after another (`reorder(c, xi, yi, ...)`, c serial), reading the transfer's words each firing. The stream
    goes at the output's pace, one transfer every 3 cycles (memories/schedule.py paced only streams without
    lanes: at one transfer a cycle it ran ahead, and its buffer held two thirds of the frame, 1,033 words at 32x16)."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    image = hl.ImageParam(hl.UInt(8), 3, "input")
    out = hl.Func("out")
    r, g, b = (hl.u16(image[x, y, k]) for k in range(3))
    out[x, y, c] = hl.u8(hl.select(c == 0, (r + 2 * g + b) >> 2, c == 1, 128 + (b >> 1), 128 + (r >> 1)))
    out.bound(x, 0, 32).bound(y, 0, 16).bound(c, 0, 3)
    out.compute_root().tile(x, y, xo, yo, xi, yi, 32, 16).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
    stream = image.in_()
    stream.compute_root().stream_to_accelerator()
    sx, sy, sc = stream.args()
    stream.reorder(sc, sx, sy).unroll(sc)
    design = compile_shared(out, name="paced_channels")
    words = {b["name"]: b["words"] for b in design.report["buffers"]}
    assert sum(words.values()) <= 12, words
    res = design.check(design.example_inputs(), simulator=simulator, build_dir=str(tmp_path))
    assert res.cycles <= 1.05 * design.report["ideal_cycles"] == 1.05 * 32 * 16 * 3
