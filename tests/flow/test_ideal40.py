"""Helper ideal40, session 40: the report's ideal counts the iterations the program asks for. Where the compiler
itself runs a loop on to whole transfers of a stream it reads in turn (hwlower/lane_steps.py, rvar_turns.py,
frontend/stream_turns.py), the extra iterations compute values nobody reads, and `Loop.asked` keeps them out of
`ideal_cycles`; a rounding the user asks for (`split(..., RoundUp)`, `unroll(x, k, RoundUp)`) is the program's own
work and stays counted (test_serial_taps40.py, test_turns39.py, test_flow_mixed_lanes.py and test_rows40.py pin
the rest)."""

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl
from mainspring.hwlower.ir import Loop
from mainspring.ideal import asked_firings

from conftest import SIMULATORS

R = hl.TailStrategy.RoundUp


def _direct(m, w: int, h: int):
    """input -> hw_input (2 words of x a transfer) -> hw_output (two taps along x, one pixel a firing: it reads the
    transfer's words in turn, its w columns rounded up to whole transfers) -> output, w x h."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, hw_output, output = (m.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    hw_output[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 3
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2, R)
    return output, {"input": inp}, [w, h]


def _user_rounds(m, w: int, h: int, factor: int):
    """input -> hw_input (2 words of x a transfer) -> mid (two taps along x, over w + 1 columns split serially by
    `factor`, RoundUp) -> hw_output (two columns of mid) -> output."""
    x, y, xo, yo, xi, yi, mo, mi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi", "mo", "mi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = (m.Func(n) for n in ("hw_input", "mid", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    mid[x, y] = hw_input[x, y] * 2 + hw_input[x + 1, y]
    hw_output[x, y] = mid[x, y] + mid[x + 1, y] * 5
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        mid.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2, R)
        mid.split(x, mo, mi, factor, R)
    return output, {"input": inp}, [w, h]


def _loops(design, func: str) -> list[tuple[str, int, int]]:
    return [(lp.var.split(".", 2)[-1], lp.extent, lp.asked) for loops, op in design.program.nest.ops()
            if op.func == func for lp in loops]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_the_output_reading_a_stream_in_turn_counts_its_own_columns(simulator, compile_shared, build_dir, halide):
    design = compile_shared(_direct(hl, 7, 4)[0], name="ideal40_direct")
    # its 7 columns run 4 steps of 2 (the host drops the 8th), of which the ideal counts the 7
    assert _loops(design, "hw_output") == [("yi", 4, 0), ("xi", 4, 7), ("xi.lane", 2, 0)]
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (35, 28), rep
    check_simulated_and_halide(design, lambda m: _direct(m, 7, 4), simulator, build_dir, halide)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_users_round_up_stays_counted(simulator, compile_shared, build_dir, halide):
    """mid's 9 columns in 3 steps of 4 (`mid.split(x, mo, mi, 4, RoundUp)`): its 12 x 8 firings are the program's
    work, above the stream's 13 x 8 words in pairs (the unrolled RoundUp of mid's 9 columns to 5 firings of 2
    stays counted likewise: test_turns39.py, 45 for 9 rows of them)."""
    design = compile_shared(_user_rounds(hl, 8, 8, 4)[0], name="ideal40_user_split")
    # (mi takes the stream's words in turn: 4 divides into whole transfers, nothing for the compiler to round)
    assert _loops(design, "mid") == [("y", 8, 0), ("mo", 3, 0), ("mi", 2, 0), ("mi.lane", 2, 0)]
    assert design.report["ideal_cycles"] == 96, design.report
    check_simulated_and_halide(design, lambda m: _user_rounds(m, 8, 8, 4), simulator, build_dir, halide)


def test_asked_firings_span_a_loop_and_its_lanes():
    """9 columns run as 5 steps of 2 lanes in turn (x and x.lane), under 3 rows: 27 firings asked, 30 run; an
    unrolled loop is one firing, and a loop without `asked` counts its extent."""
    lane = Loop("f.x.lane", 0, 2, ())
    x = Loop("f.x", 0, 5, (lane,), asked=9)
    y = Loop("f.y", 0, 3, (x,))
    assert asked_firings((y, x, lane)) == 27
    assert asked_firings((y, Loop("f.x", 0, 5, (lane,)), lane)) == 30
    assert asked_firings((y, Loop("f.c", 0, 4, (), unrolled=True), Loop("f.x", 0, 10, (), asked=9))) == 27
