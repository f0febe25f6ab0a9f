"""Lanes along a dimension an upsample divides that are neither a multiple nor a divisor of its step (2 lanes over
x / 3, 3 over x / 2, 4 over x / 3): the serial loop runs in runs of d / gcd(L, d) iterations in which each lane
selects its word among the run's few (hwlower/lane_quotients.py), the producer's row paced at a firing a cycle
(memories/schedule.py `_keep_up`). Refused until session 34 (`lanes_past_an_upsample_step`, whose refusal is now
of lanes selecting among more than 8 words). Bit-exact on both simulators, at the predicted cycles; the
autoscheduler reaches 2 lanes over x / 3 (it fell to 1 lane: "2/3 pixels per cycle, not a whole number")."""

import functools

import pytest
from test_flow_upsample_lanes import _checked

import mainspring as hl
from mainspring.apps.common import accelerate, random_image

from conftest import SIMULATORS


# One compile per design and worker: a test's two simulators share it (their runs are one xdist group).
@functools.cache
def _upsample(lanes: int, d: int, buffered: bool, width: int = 24, stencil: bool = False, linear: bool = False):
    """A width x 4 output of `up`, reading f at (x / d, y) (and at x / d + 1 with `linear`) at `lanes` pixels a
    cycle; f = 3 * input (+ its right neighbour with `stencil`) at one lane; `buffered`: up a Func of its own at the
    output's xo, else inlined."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, f, up, hw_output = hl.Func("hw_input"), hl.Func("f"), hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    f[x, y] = hw_input[x, y] * 3 + (hw_input[x + 1, y] if stencil else 1)
    up[x, y] = (f[x / d, y] * 2 + f[x / d + 1, y]) / 3 if linear else f[x / d, y] + x
    hw_output[x, y] = up[x, y] * 2
    accelerate(hw_output, hw_output, width, 4, [f, up] if buffered else [f], hw_input)
    if buffered:
        up.unroll(x, lanes)
    hw_output.unroll(hl.Var("xi"), lanes)
    tag = ("b" if buffered else "") + ("s" if stencil else "") + ("l" if linear else "")
    design = hl.compile(hw_output, name=f"uneven{lanes}_{d}{tag}")
    return design, {"input": random_image(width // d + 3, 4, seed=lanes + d)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("lanes", "d", "buffered", "stencil"), [
    pytest.param(*p, marks=pytest.mark.xdist_group("uneven_" + "_".join(map(str, p)))) for p in
    [(2, 3, True, False), (2, 3, False, True), (3, 2, True, True)]])
def test_lanes_neither_a_multiple_nor_a_divisor_of_the_step(simulator, build_dir, lanes, d, buffered, stencil):
    # Each run of 3 cycles (2 over x / 3) reads f's 2 words and each lane selects its own: 24 x 4 at 2 lanes is
    # 48 cycles ideal (f at 2/3 of a pixel a cycle); 3 lanes over x / 2 read 1.5 pixels of f a cycle, which f at
    # one lane bounds (13 a row with its stencil: 52 cycles, 67 measured, 7 of them the kernels' stages).
    design, inputs = _upsample(lanes, d, buffered, stencil=stencil)
    _checked(design, inputs, simulator, build_dir, 8)
    assert design.report["ideal_cycles"] == 4 * max(24 // lanes, 24 // d + stencil)
    f = next(b for b in design.plan.buffers if b.name == "f")
    assert f.words <= f.min_words + 3, (f.words, f.min_words)
    assert "up.s0.x.strip_i" in str(design.program.nest) or "hw_output.s0.xi.strip_i" in str(design.program.nest)


# (lanes, d, width, the most predicted cycles measured in session 34, its ideal)
MORE = [(4, 3, 24, 46, 32), (2, 5, 30, 72, 60), (6, 4, 24, 36, 24), (4, 6, 24, 35, 24), (5, 3, 30, 55, 40)]


@pytest.mark.parametrize(("lanes", "d", "width", "cycles", "ideal"), MORE)
def test_more_lanes_and_steps_compile_near_the_ideal(lanes, d, width, cycles, ideal):
    # Compile-only: each lane selects among lanes / gcd(lanes, d) words, at most 8 (5 over x / 3: 5).
    design, _ = _upsample(lanes, d, True, width=width)
    rep = design.report
    assert rep["predicted_cycles"] <= cycles and rep["ideal_cycles"] == ideal, rep


@pytest.mark.xdist_group("uneven_linear")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_linear_upsample_by_3_at_2_lanes(simulator, build_dir):
    # f(x / 3) and f(x / 3 + 1): each its own select between 2 words, f read at 3 of them per run of 3 cycles.
    design, inputs = _upsample(2, 3, True, linear=True)
    _checked(design, inputs, simulator, build_dir, 8)
    assert design.report["ideal_cycles"] == 48


def test_an_extent_short_of_whole_runs_names_the_run():
    """up at 2 lanes over x / 3 runs its loop in runs of 3 iterations (6 pixels): 26 pixels are 13 iterations."""
    with pytest.raises(hl.HalideError, match=r"in steps of 6 \(3 iterations of 2 lanes\), but 'up' runs it 14 "
                                             r"times; make its extent a multiple of 3 \(bound the output to a "
                                             r"multiple of 6\)"):
        _upsample(2, 3, True, width=26)
    _upsample(2, 3, True, width=24)  # the fix


def test_lanes_selecting_among_more_than_8_words_are_refused():
    # 10 lanes over x / 3 compile since session 35 (each lane selects among 4 words: test_flow_uneven_lanes20.py)
    with pytest.raises(hl.HalideError, match=r"its 17 lanes along x \(up.unroll\(x, 17\)\) are neither whole steps "
                                             r"of the upsample's 2.*select among up to 10 words per run of 2 cycles"):
        _upsample(17, 2, True, width=34)


def _up3(m, w, h):
    """A horizontal pair sum of the input read back at (x / 3, y / 3) (u16), unscheduled."""
    x, y = m.Var("x"), m.Var("y")
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    f, up = m.Func("f"), m.Func("up")
    f[x, y] = m.u16(inp[x, y]) + inp[x + 1, y]
    up[x, y] = f[x / 3, y / 3] * 2 + x
    up.set_estimates([(0, w), (0, h)])
    return up


# Icarus only: its hardware is 2 lanes selecting over x / 3, which the tests above run on Verilator as well.
@pytest.mark.parametrize("simulator", ["icarus"], indirect=True)
def test_the_autoscheduler_reaches_two_lanes_over_x_over_3(simulator, build_dir):
    # Before: 1 lane ("'f' would make 2/3 pixels per cycle, not a whole number"), 150 cycles for 144.
    up = _up3(hl, 24, 6)
    result = hl.Pipeline(up).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": "2"}))
    assert (result.lanes, result.note) == (2, ""), result.note
    design = hl.compile(up, name="uneven_auto_up3")
    rep = design.report
    assert rep["ideal_cycles"] == 72 and rep["predicted_cycles"] <= 82, rep
    f = next(b for b in design.plan.buffers if b.name == "f")
    assert f.words <= f.min_words + 3, (f.words, f.min_words)
    _checked(design, {"inp": random_image(10, 2, seed=5)}, simulator, build_dir, 6)
