"""Upsampling (indices divided by a constant) end to end: hwlower strip-mines the loops (x = 2 * xo + xi) so
every access is affine, the array streams one output pixel per cycle while reading the input at a quarter of
the rate, on both simulators (passes: lower, schedule, the whole flow)."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps import upsample
from mainspring.apps.common import accelerate, random_image
from mainspring.memories.ir import Steady

from conftest import SIMULATORS


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_upsample_app(simulator, compile_shared, build_dir):
    out, inputs = upsample.build(32, 20)
    design = compile_shared(out, name="upsample_32")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]
    assert design.report["ideal_cycles"] == 32 * 20  # the output stream bounds the run
    # The input is paced at one word per two cycles; its rows, 17 words since the blend reads x / 2 + 1, span 34
    # cycles and run into the next output row's time, so a row of 32 outputs takes 32 cycles (34 when the rows
    # were widened to fit the stream's); only a line of the input is stored.
    staged = sum(max(0, n - 1) for n in design.report["kernel_latency"].values())  # the kernels' added stages
    assert res.cycles - 20 * 32 <= 5 + staged
    assert design.report["buffers"][0]["min_words"] <= 17 + 2


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_upsample_then_stencil(simulator, compile_shared, build_dir):
    """A 3x3 box filter over the upsampled image, then a downsample of the result by 2 again."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    up = hl.Func("up")
    up[x, y] = hw_input[x / 2, y / 2]
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    box = hl.Func("box")
    box[x, y] = hl.sum(up[x + r.x, y + r.y])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = box[x, y] / 9
    accelerate(hw_output, hw_output, 28, 14, [up, box], hw_input)
    design = compile_shared(hw_output, name="upsample_box")
    design.check({"input": random_image(15, 8, seed=3)}, simulator=simulator, build_dir=build_dir)


def test_upsample_of_an_odd_extent_rounds_up_as_roundup_would(build_dir):
    # up is needed over 31 columns but runs in steps of 2: bounds inference computes 32 (and reads one more
    # column of hw_input), as Halide's RoundUp tail would; the output is bit-exact.
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    up = hl.Func("up")
    up[x, y] = hw_input[x / 2, y / 2]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = up[x, y] + up[x + 1, y]
    accelerate(hw_output, hw_output, 30, 16, [up], hw_input)  # up is needed 31 wide
    design = hl.compile(hw_output, name="upsample_odd")
    assert design.program.nest.buffer("up").box[0] == (0, 32)
    design.check({"input": random_image(17, 8, seed=4)}, simulator="icarus", build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_upsample_output_of_an_odd_extent(simulator, compile_shared, build_dir):
    """A 31-wide output of a 2x upsample runs its loop in 16 steps of 2 (as a RoundUp split would); the host keeps
    the 31 columns of the tile (Halide accepts any extent)."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = hw_input[x / 2, y / 2] * 3 + hw_input[x / 2 + 1, y / 2]
    accelerate(hw_output, hw_output, 31, 15, [], hw_input)
    design = compile_shared(hw_output, name="upsample_odd_extent")
    res = design.check({"input": random_image(17, 9, seed=5)}, simulator=simulator, build_dir=build_dir)
    assert res.output.shape == (15, 31) and design.report["ideal_cycles"] == 32 * 16


def _offset_upsample(offset: int):
    """hw_input[(x + offset) / 2, y / 2]: an offset inside the division."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = hw_input[(x + offset) / 2, y / 2] * 3
    accelerate(hw_output, hw_output, 16, 8, [], hw_input)
    return hw_output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_even_offset_inside_the_division_is_affine(simulator, compile_shared, build_dir):
    # (x + 2) / 2 = xo + 1 on the strip-mined loop x = 2 * xo + xi: affine, bit-exact.
    design = compile_shared(_offset_upsample(2), name="upsample_offset2")
    design.check({"input": random_image(9, 4, seed=5)}, simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_odd_offset_inside_the_division_steps_with_the_inner_loop(simulator, compile_shared, build_dir):
    # (x + 1) / 2 = xo + xi on x = 2 * xo + xi (the quotient steps with xi: two points lie on a line). A bound
    # that forgot xi's last value once made this compile and simulate wrong, at (13, 0): every pixel is checked.
    design = compile_shared(_offset_upsample(1), name="upsample_offset1")
    design.check({"input": random_image(9, 4, seed=5)}, simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_quotient_that_does_not_step_evenly_selects_its_word(simulator, build_dir):
    # (x + 1) / 3 over steps of 3 (an upsample by 3): xi = 0, 1, 2 give xo, xo, xo + 1, not a line. Refused until
    # session 34; each step now selects between hw_input(xo) and hw_input(xo + 1) (hwlower/lane_quotients.py).
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output = hl.Func("hw_input"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    hw_output[x, y] = hw_input[(x + 1) / 3, y]
    accelerate(hw_output, hw_output, 12, 4, [], hw_input)
    design = hl.compile(hw_output, name="upsample3_offset1")
    res = design.check({"input": random_image(6, 4, seed=5)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] <= 53 and design.report["ideal_cycles"] == 48


def _bilinear(width: int, height: int, separable: bool = True, y_too: bool = True):
    """The reference's up_sample blend (3/4 of hw_input at x / 2, 1/4 at x / 2 - 1 + 2 * (x % 2)) along x, and
    along y too; with `separable`, the x pass upx is a buffered Func of its own (computed at the output's xo)."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x + 1, y + 1])
    upx, hw_output = hl.Func("upx"), hl.Func("hw_output")
    upx[x, y] = hw_input[x / 2 - 1 + 2 * (x % 2), y] / 4 + 3 * hw_input[x / 2, y] / 4
    if y_too:
        hw_output[x, y] = upx[x, y / 2 - 1 + 2 * (y % 2)] / 4 + 3 * upx[x, y / 2] / 4
    else:
        hw_output[x, y] = upx[x, y]
    accelerate(hw_output, hw_output, width, height, [upx] if separable else [], hw_input)
    rows = height // 2 + 2 if y_too else height + 1
    return hl.compile(hw_output, name="bilinear"), {"input": random_image(width // 2 + 2, rows, seed=6)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_separable_upsample_paces_its_input_through_the_x_pass(simulator, build_dir):
    # upx(x, y) is strip-mined along x only: its y loop steps the output's outer y digit (memories.schedule._digits)
    # and the input stream is paced to it, one word per two cycles, one row per two output rows. upx holds two of
    # its 20-word rows, the stream a few words. (Its loops aligned with the output's outermost digits before, and
    # upx fired twice in one cycle.) Their first two rows come back to back, 23 cycles a row, and the rest paced
    # (memories/stream_prologue.py): paced throughout, the first output waited for upx's third row, three output
    # rows (351 cycles); now one, at the same storage.
    design, inputs = _bilinear(20, 14)
    upx, stream = design.plan.op("upx_s0"), design.plan.op("host.hw_input")
    assert (upx.rates, upx.then) == ((23, 2, 1), Steady(2, 50, (40, 2, 1)))
    assert (stream.rates, stream.then) == ((23, 2), Steady(2, 46, (40, 2)))
    words = {b.name: (b.words, b.min_words) for b in design.plan.buffers}
    assert words["hw_input"] == (5, 3) and words["upx"] == (2 * 20 + 3, 2 * 20)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] == 14 * 20 + 20 + 17


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_upsample_along_x_only_streams_each_row_at_full_rate(simulator, build_dir):
    # The stream's rows (W / 2 + 2 words) paced at two cycles a word would not fit a row of W cycles, which has no
    # inner y digit to run into: each row streams one word per cycle instead (memories.schedule._faster), once
    # per output row, and the output rows stay W cycles long (widened to fit the paced rows, they would take
    # W + 4).
    design, inputs = _bilinear(24, 10, separable=False, y_too=False)
    assert design.plan.op("host.hw_input").rates == (24, 1)
    (buf,) = [b for b in design.plan.buffers if b.name == "hw_input"]
    assert (buf.words, buf.min_words) == (11, 8)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] == 24 * 10 + 3 + 2  # 2: the blend's pipeline stages


def test_a_dimension_read_at_two_resolutions_is_strip_mined_whole(build_dir):
    # u reads f at x / 2 directly and at x through g = f + 1: no one resolution per dimension fits both paths, so
    # f, g and u all run x in steps of 2 (tests/hwlower checks the loops); the design is bit-exact.
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    f, g, u = hl.Func("f"), hl.Func("g"), hl.Func("u")
    f[x, y] = hw_input[x, y] * 2
    g[x, y] = f[x, y] + 1
    u[x, y] = f[x / 2, y] + g[x, y]
    accelerate(u, u, 8, 4, [f, g], hw_input)
    design = hl.compile(u, name="upsample_two_paths")
    design.check({"input": random_image(8, 4, seed=6)}, simulator="icarus", build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("auto", [False, True])
def test_an_inlined_downsample_read_by_an_upsample(simulator, compile_shared, build_dir, auto):
    """down(x, y) = in(2x, 2y) + in(2x + 1, 2y + 1) read at up(x, y) = down(x / 2, y / 2), down inlined: the
    input is read at 2 * (x / 2) and 2 * (x / 2) + 1, the same resolution in steps of 2 (the automatic
    schedule inlines it too)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, down, up, hw_output = (hl.Func(n) for n in ("hw_input", "down", "up", "hw_output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    down[x, y] = (hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y + 1]) / 2
    up[x, y] = down[x / 2, y / 2]
    hw_output[x, y] = hl.u8(up[x, y])
    if auto:
        hw_output.set_estimates([(0, 16), (0, 12)])
        hl.Pipeline(hw_output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    else:
        accelerate(hw_output, hw_output, 16, 12, [], hw_input)
    design = compile_shared(hw_output, name=f"down_up_{int(auto)}")
    res = design.check({"input": random_image(16, 12, seed=5)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] <= 1.15 * design.report["ideal_cycles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_transposed_convolution_with_its_taps_unrolled(simulator, compile_shared, build_dir):
    """up(x, y) = sum of hw_input((x + r.x) / 2, (y + r.y) / 2) * w(r): each tap's quotient steps with the
    strip-mined loop ((x + 1) / 2 = xo + xi), so the 2x2 taps read the input's line buffer at affine addresses."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    up[x, y] = hl.u16(0)
    up[x, y] += hw_input[(x + r.x) / 2, (y + r.y) / 2] * hl.u16(r.x + 2 * r.y + 1)
    up.update().unroll(r.x).unroll(r.y)
    hw_output[x, y] = hl.u8(up[x, y] >> 3)
    accelerate(hw_output, hw_output, 16, 12, [up], hw_input)
    design = compile_shared(hw_output, name="transposed_conv")
    res = design.check({"input": random_image(9, 7, seed=7)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] <= 1.15 * design.report["ideal_cycles"]


def _down_blur_up(width: int, height: int, tile: int):
    """A 2x downsample, a blur at half resolution and a 2x upsample added to the input, in host tiles of
    `tile` (ShiftInwards: over 15 x 13 the last tiles start at x = 9 and y = 7, odd origins)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    down, blur = hl.Func("down"), hl.Func("blur")
    down[x, y] = hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y + 1]
    blur[x, y] = down[x, y] + down[x + 1, y] + down[x, y + 1]
    hw_output[x, y] = blur[x / 2, y / 2] + hw_input[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, tile, tile).hw_accelerate(xi, xo)
    down.compute_at(hw_output, xo)
    blur.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output, {"input": random_image(width + 4, height + 4, seed=7, dtype=np.uint16)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_last_tile_shifted_to_an_odd_origin_moves_back_outward(simulator, compile_shared, build_dir):
    """Every tile runs the first tile's hardware: a tile at an odd origin would read one more half-resolution
    column than the tile at 0, so the last tiles move back outward to even origins (x = 10, y = 8), computing a
    column and a row past the output that the host drops, and keep what the tiles before them did not write."""
    out, inputs = _down_blur_up(15, 13, 6)
    design = compile_shared(out, name="down_blur_up_tiles")
    origins = sorted({(t.output_box[0][0], t.output_box[1][0]) for t in design.program.tiles})
    assert origins == [(x, y) for x in (0, 6, 10) for y in (0, 6, 8)]
    assert all(t.boxes["hw_output"][0][0] % 2 == 0 and t.boxes["hw_output"][1][0] % 2 == 0
               for t in design.program.tiles)
    design.check(inputs, simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_inline_upsample_read_by_a_serial_reduction_is_buffered(simulator, compile_shared, build_dir):
    """`blend` (an upsample, inline) read by a serial 2x2 reduction at x + r.x: inlined, the read would be
    hw_input((x + r.x) / 2, ...), affine in no loop order; buffered at the accelerator's loop (the same values)
    the reduction reads it at x + r.x (fuzz seed 127111, refused before)."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input, blend, acc, hw_output = hl.Func("hw_input"), hl.Func("blend"), hl.Func("acc"), hl.Func("hw_output")
    hw_input[x, y] = i[x, y]
    blend[x, y] = hl.i16((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    acc[x, y] = hl.i16(0)
    acc[x, y] += blend[x + r.x, y + r.y] * hl.i16(2)
    hw_output[x, y] = acc[x, y]
    accelerate(hw_output, hw_output, 8, 6, [acc], hw_input)
    design = compile_shared(hw_output, name="upsample_serial_reduction")
    assert "blend" in [b["name"] for b in design.report["buffers"]]
    design.check({"input": random_image(6, 5, seed=11, dtype=np.int16)}, simulator=simulator, build_dir=build_dir)


def _transposed_convolution(extent: int, divisor: int, lanes: int):
    """up(x, y) = sum over r (extent x extent, serial) of hw_input((x + r.x) / divisor, (y + r.y) / divisor) *
    (r.x + 2 * r.y + 1), 8x6 pixels at `lanes` per cycle."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, extent), hl.Range(0, extent)], "r")
    up[x, y] = hl.u16(0)
    up[x, y] += hw_input[(x + r.x) / divisor, (y + r.y) / divisor] * hl.u16(r.x + 2 * r.y + 1)
    hw_output[x, y] = hl.u8(up[x, y] >> 3)
    accelerate(hw_output, hw_output, 8, 6, [up], hw_input)
    if lanes > 1:
        R = hl.TailStrategy.RoundUp
        up.unroll(x, lanes, R)
        up.update().unroll(x, lanes, R)
        hw_output.unroll(hl.Var("xi"), lanes, R)
    return hw_output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("extent", "divisor", "lanes", "slack"),
                         [(2, 2, 1, 1.1), (3, 2, 1, 1.1), (2, 3, 1, 1.1), (3, 3, 2, 1.35)])
def test_a_transposed_convolution_with_serial_taps_reads_through_a_buffered_quotient(simulator, compile_shared,
                                                                                     build_dir, extent,
                                                                                      divisor, lanes, slack):
    """The serial taps' read at ((x + r.x) / d, (y + r.y) / d), affine in no loop order, goes through a Func that
    lowering adds, hw_input_for_up(x, y) = hw_input(x / d, y / d), buffered (its loops strip-mined), which the
    reduction reads at (x + r.x, y + r.y): as an inline upsample written by hand is (the test above). The
    frontend's pipeline, and the reference that checks the design, are the algorithm as written."""
    design = compile_shared(_transposed_convolution(extent, divisor, lanes), name=f"tconv_{extent}{divisor}{lanes}")
    assert "hw_input_for_up" in [b["name"] for b in design.report["buffers"]]
    assert "hw_input_for_up" not in design.pipe.functions
    res = design.check({"input": random_image(8, 8, seed=extent + divisor)}, simulator=simulator,
                       build_dir=build_dir)
    # (at 2 lanes and steps of 3: 424 cycles for 324, as the same algorithm with the upsample written by hand)
    assert res.cycles == design.report["predicted_cycles"] <= slack * design.report["ideal_cycles"]


def test_serial_quotients_of_one_shape_share_a_buffered_func():
    """Two reads at the same quotients share the added Func; a read one row below is another (at (y + r.y) / 2 +
    1: its own shape), and a quotient with a reduction variable outside it stays refused (tests/errors)."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    up[x, y] = hl.u16(0)
    at = ((x + r.x) / 2, (y + r.y) / 2)
    up[x, y] += hw_input[at] * hw_input[at[0], at[1] + 1] + hw_input[at]
    hw_output[x, y] = up[x, y]
    accelerate(hw_output, hw_output, 8, 6, [up], hw_input)
    design = hl.compile(hw_output, name="tconv_shared")
    names = [b["name"] for b in design.report["buffers"]]
    assert [n for n in names if "_for_" in n] == ["hw_input_for_up", "hw_input_for_up_1"]
    design.check({"input": random_image(8, 8, seed=3)}, simulator="icarus")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_reduction_read_at_its_own_variable_divided_reads_through_a_buffered_quotient(simulator, compile_shared,
                                                                                        build_dir):
    """up(x, y) += hw_input(r.x / 2, y) * (x + r.x): the RDom's loop is not strip-mined, so r.x / 2 is read through
    hw_input_for_up(x, y) = hw_input(x / 2, y) at r.x (refused before)."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, 4)], "r")
    up[x, y] = hl.u16(0)
    up[x, y] += hw_input[r.x / 2, y] * hl.u16(x + r.x)
    hw_output[x, y] = up[x, y]
    accelerate(hw_output, hw_output, 8, 6, [up], hw_input)
    design = compile_shared(hw_output, name="rdiv")
    assert "hw_input_for_up" in [b["name"] for b in design.report["buffers"]]
    res = design.check({"input": random_image(4, 6, seed=8)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] <= 1.1 * design.report["ideal_cycles"]


@pytest.mark.parametrize("level", ["host_tiles", "glb"])
def test_serial_taps_read_through_a_buffered_quotient_in_tiles(build_dir, level):
    """The transposed convolution over 16x8 in host tiles of 8x6, or in a GLB tile of 8x8 with memory tiles of 4x4
    (the added Func reads the GLB's copy of the input: hw_input_global_wrapper_for_up): the tiles' boxes come from
    the lowered pipeline, which has the added Func."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output, output = (hl.Func(n) for n in ("hw_input", "up", "hw_output", "output"))
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    up[x, y] = hl.u16(0)
    up[x, y] += hw_input[(x + r.x) / 2, (y + r.y) / 2] * hl.u16(r.x + 2 * r.y + 1)
    hw_output[x, y] = up[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 16).bound(y, 0, 8)
    if level == "glb":
        glb = hw_output.in_()
        glb.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
        xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
        hw_output.tile(x, y, xio, yio, xii, yii, 4, 4).compute_at(glb, xo)
        up.compute_at(hw_output, xio)
        hw_input.in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    else:
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6).hw_accelerate(xi, xo)
        up.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    design = hl.compile(output, name=f"tconv_{level}")
    added = "hw_input_global_wrapper_for_up" if level == "glb" else "hw_input_for_up"
    assert added in [b["name"] for b in design.report["buffers"]]
    design.check({"input": random_image(10, 8, seed=9)}, simulator="icarus", build_dir=build_dir)


@pytest.mark.parametrize("where", ["inline", "root"])
def test_a_constant_func_read_at_a_serial_quotient_gets_no_added_func(where):
    """k((x + r.x) / 2), k a constant Func: coordinate arithmetic (inline) or a ROM (compute_root), as before, not a
    buffer of constants."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output, k = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output"), hl.Func("k")
    hw_input[x, y] = hl.u16(i[x, y])
    k[x] = hl.u16(x * 3 + 1)
    if where == "root":
        k.compute_root()
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    up[x, y] = hl.u16(0)
    up[x, y] += hw_input[x, y] * k[(x + r.x) / 2]
    hw_output[x, y] = up[x, y]
    accelerate(hw_output, hw_output, 8, 6, [up], hw_input)
    design = hl.compile(hw_output, name=f"tconv_const_{where}")
    assert [b["name"] for b in design.report["buffers"]] == ["hw_input", "up", "hw_output"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_upsample_of_a_repeat_edge_inside_is_strip_mined(simulator, compile_shared, build_dir):
    """`up` reads repeat_edge(half) at x / 2 + 1 through an inlined Func: the index reaches bounds inference
    clamped (max(min(x / 2 + 1, 4), 0)); the clamp keeps x / 2's resolution, so up's 9 x 7 box rounds up to whole
    steps, 10 x 8, and the edge (x / 2 + 1 = 5) reads column 4 (refused before; fuzz seed 131124, saved in
    fuzz_cases/upsample_of_an_inlined_repeat_edge.py, is the same through an edge tap)."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, half, shifted = hl.Func("hw_input"), hl.Func("half"), hl.Func("shifted")
    up, hw_output = hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    half[x, y] = hw_input[x, y] * hl.u16(3)
    edge = hl.BoundaryConditions.repeat_edge(half, [(0, 5), (0, 4)])
    shifted[x, y] = edge[x, y] + hl.u16(1)  # inline
    up[x, y] = (shifted[x / 2, y / 2] + shifted[x / 2 + 1, y / 2 + 1]) >> 1
    hw_output[x, y] = up[x, y]
    accelerate(hw_output, hw_output, 9, 7, [half, up], hw_input)
    design = compile_shared(hw_output, name="upsample_repeat_edge")
    design.check({"input": random_image(5, 4, seed=5)}, simulator=simulator, build_dir=build_dir)
