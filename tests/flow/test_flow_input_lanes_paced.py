"""A stream of 4 words per transfer whose reader takes 2 a cycle through 2 taps reads the transfers' halves in
turn (hwlower/lane_steps.py). The host is paced to it by rows (memories/stream_pacing.py
`pace_streams_read_in_turn`): unpaced, it delivered 4 words a cycle and half the frame piled up in memory tiles
(77 words, 67 at least, for this design's 35 and 24, at the same 67 cycles; helper rows21, session 35)."""

import functools

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl

pytestmark = pytest.mark.xdist_group("input_lanes_paced")  # one compile for the module

def _two_taps(m, size=(32, 4)):
    """f(x, y) = hw_input(x, y) + hw_input(x + 1, y) at 2 lanes over the input streamed 4 words a transfer."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, f, hw_output, output = (m.Func(n) for n in ("hw_input", "f", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    f[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = m.u8(f[x, y] >> 1)
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, size[0]).bound(y, 0, size[1])
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *size).hw_accelerate(xi, xo).unroll(xi, 2)
        f.compute_at(hw_output, xo).unroll(x, 2)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 4)
    return output, {"input": inp}, list(size)


@functools.cache
def _design():
    return hl.compile(_two_taps(hl)[0], name="input_lanes_paced")


def test_the_stream_is_paced_so_a_line_not_half_the_frame_is_stored():
    rep = _design().report
    words = sum(b["words"] for b in rep["buffers"])
    assert rep["predicted_cycles"] <= 67 and words <= 35, (rep["predicted_cycles"], words)
    assert "f.s0.x.lane" in [lp.var for loops, _ in _design().program.nest.ops() for lp in loops]


@pytest.mark.parametrize("simulator", ["icarus", "verilator"])
def test_read_in_turn_is_bit_exact_at_the_predicted_cycles(simulator, build_dir, halide):
    check_simulated_and_halide(_design(), _two_taps, simulator, build_dir, halide)
