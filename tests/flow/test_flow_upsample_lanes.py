"""Lanes along a dimension an upsample divides (hwlower/strip_mine.py): L pixels per cycle over x / d where L is
a multiple of d (4 over x / 2: the lanes split into L / d steps of d lanes, each step's lanes reading one word)
or a divisor of it (2 over x / 4: the serial loop splits into steps of d / L iterations), read by a buffered Func
or an inlined one, in 1-D and 2-D, at an offset inside the division, and from a buffered low-resolution Func;
bit-exact on both simulators, at the predicted cycles, near the ideal and with the minimal storage. Refused
before (4 lanes over x / 2 were told to unroll by 2). Lanes that are neither (2 over x / 3):
test_flow_upsample_uneven_lanes.py."""

import pytest

import mainspring as hl
from mainspring.apps.common import accelerate, autoschedule, random_image

from conftest import SIMULATORS


def _upsample(lanes: int, d: int, buffered: bool, offset: int = 0, two_d: bool = False, input_lanes: int = 1):
    """A 24x4 output of `up`, hw_input read at ((x + offset) / d, y) (or y / d with `two_d`), `lanes` pixels
    per cycle; `buffered`: up is a Func of its own at the output's xo, else inlined into the output."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    up[x, y] = hw_input[(x + offset) / d, y / d if two_d else y] * 3 + x
    hw_output[x, y] = up[x, y] + 1
    accelerate(hw_output, hw_output, 24, 4, [up] if buffered else [], hw_input)
    if buffered:
        up.unroll(x, lanes)
    hw_output.unroll(hl.Var("xi"), lanes)
    if input_lanes > 1:
        hw_input.unroll(x, input_lanes)
    design = hl.compile(hw_output, name=f"up_lanes{lanes}_{d}")
    return design, {"input": random_image(24 // d + 2, 6, seed=lanes + d)}


def _checked(design, inputs, simulator, build_dir, slack: int):
    """Bit-exact, at the predicted cycles, within `slack` of the ideal past the kernels' added stages."""
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]
    staged = sum(max(0, n - 1) for n in design.report["kernel_latency"].values())
    assert res.cycles <= design.report["ideal_cycles"] + staged + slack, (res.cycles, design.report["ideal_cycles"])
    return res


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "inline"])
@pytest.mark.parametrize(("lanes", "d"), [(4, 2), (6, 3), (8, 2), (2, 4)])
def test_lanes_a_multiple_or_a_divisor_of_the_step(simulator, build_dir, lanes, d, buffered):
    # The input stream (24 / d words a row at one a cycle) bounds the run: a few cycles over it. Each Func holds
    # one firing's lanes; the input its polyhedral minimum (a word more where a stream word serves d / L firings).
    design, inputs = _upsample(lanes, d, buffered)
    _checked(design, inputs, simulator, build_dir, 3)
    assert design.report["ideal_cycles"] == 4 * max(24 // d, 24 // lanes)
    words = {b.name: (b.words, b.min_words) for b in design.plan.buffers}
    assert words["hw_output"] == (lanes, lanes) and words.get("up", (lanes, lanes)) == (lanes, lanes)
    assert words["hw_input"][0] <= words["hw_input"][1] + (1 if lanes < d else 0)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_four_lanes_over_a_2x_upsample_with_a_two_word_input_stream(simulator, build_dir):
    # The common one: 4 pixels per cycle of a 2x upsample, the input 2 words a cycle: 24 cycles ideal.
    design, inputs = _upsample(4, 2, True, input_lanes=2)
    assert design.program.nest.stream_lanes("hw_input") == 2
    _checked(design, inputs, simulator, build_dir, 3)
    assert design.report["ideal_cycles"] == 24


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_four_lanes_over_a_2d_upsample(simulator, build_dir):
    # x / 2 and y / 2: each input row serves two output rows, held in a line of hw_input (12 words at the
    # minimum; 16 allotted).
    design, inputs = _upsample(4, 2, True, two_d=True, input_lanes=2)
    _checked(design, inputs, simulator, build_dir, 4)
    assert design.report["ideal_cycles"] == 24
    words = {b.name: (b.words, b.min_words) for b in design.plan.buffers}
    assert words["hw_input"] == (16, 12) and words["up"] == (4, 4)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "inline"])
def test_four_lanes_over_an_upsample_read_at_an_offset(simulator, build_dir, buffered):
    # (x + 1) / 2 on x = 4 * xo + 2 * a + b is 2 * xo + a + b: the pair's quotient steps with its inner lane.
    design, inputs = _upsample(4, 2, buffered, offset=1)
    _checked(design, inputs, simulator, build_dir, 3)
    assert design.program.nest.buffer("hw_input").box[0] == (0, 13)


def _of_a_low_resolution_func(lanes: int, d: int, buffered: bool):
    """hw_output (lanes along x) reads low at x / d and x / d + 1, low a 2-tap filter of the input, buffered at
    the output's xo with lanes / d lanes (a line of low) or inlined."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, low, hw_output = hl.Func("hw_input"), hl.Func("low"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    low[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 3
    hw_output[x, y] = low[x / d, y] * 2 + low[x / d + 1, y]
    accelerate(hw_output, hw_output, 24, 4, [low] if buffered else [], hw_input)
    hw_output.unroll(hl.Var("xi"), lanes)
    if buffered:
        low.unroll(x, lanes // d)
    hw_input.unroll(x, 2)
    return hl.compile(hw_output, name=f"low_lanes{lanes}_{d}"), {"input": random_image(24 // d + 3, 6, seed=d)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "inline"])
@pytest.mark.parametrize(("lanes", "d"), [(4, 2), (6, 3)])
def test_lanes_over_an_upsample_of_a_buffered_or_inlined_func(simulator, build_dir, lanes, d, buffered):
    design, inputs = _of_a_low_resolution_func(lanes, d, buffered)
    _checked(design, inputs, simulator, build_dir, 5)
    if buffered:  # low at lanes / d pixels a cycle, holding its polyhedral minimum
        low = next(b for b in design.plan.buffers if b.name == "low")
        assert design.program.nest.op_lanes("low_s0") == lanes // d and low.words == low.min_words


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("width", [4, 6, 3])
def test_a_row_unrolled_whole_over_an_upsample(simulator, build_dir, width, compile_shared):
    # x unrolled whole (a row per cycle): up's lanes split into steps of 2. At width 3, up's row rounds up to 4
    # (whole steps); the output's 3 lanes read it at x, which needs no split.
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    up[x, y] = hw_input[x / 2, y] * 2
    hw_output[x, y] = up[x, y] + 1
    accelerate(hw_output, hw_output, width, 4, [up], hw_input)
    up.unroll(x)
    hw_output.unroll(hl.Var("xi"))
    design = compile_shared(hw_output, name=f"up_whole{width}")
    _checked(design, {"input": random_image(width // 2 + 2, 6, seed=width)}, simulator, build_dir, 3)
    assert design.program.nest.op_lanes("hw_output_s0") == width


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("two_d", [False, True], ids=["x", "xy"])
def test_the_automatic_schedule_at_four_lanes_over_a_2x_upsample(simulator, build_dir, two_d, compile_shared):
    # The autoscheduler inlines the upsample and streams the input at 2 words a transfer under 4 output lanes:
    # refused before (x / 2 on 4 lanes was not affine), now at the input stream's rate.
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, out = hl.Func("hw_input"), hl.Func("up"), hl.Func("out")
    hw_input[x, y] = hl.u16(i[x, y])
    up[x, y] = hw_input[x / 2, y / 2 if two_d else y] * 3
    out[x, y] = up[x, y] + 1
    autoschedule(out, 24, 4, lanes=4)
    design = compile_shared(out, name="auto_up_lanes4")
    assert design.program.nest.stream_lanes("out") == 4 and design.program.nest.stream_lanes("hw_input") == 2
    _checked(design, {"input": random_image(14, 4, seed=2)}, simulator, build_dir, 3)
    assert design.report["ideal_cycles"] == 24
