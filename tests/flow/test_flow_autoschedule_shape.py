"""An automatic schedule keeps the output's shape when its lanes do not divide the width: the accelerated output's
own loop guards the last transfer (GuardWithIf) where RoundUp would run past its bound, which Halide refuses and
which used to give a 38-column image for 37 (and 66 for 64 at 3 lanes under a PE budget). Both simulators."""

import pytest
from newcomer_algorithms import sobel

import mainspring as hl

from conftest import SIMULATORS


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_two_lanes_over_an_odd_width_keep_it(simulator, build_dir, compile_shared):
    out, _, _ = sobel(hl, 37, 9)
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": "2"}))
    assert "unroll(xi, 2, hl.TailStrategy.GuardWithIf)" in result.schedule_source
    design = compile_shared(out, name="odd_lanes")
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.output.shape == (9, 37)
    assert design.report["predicted_cycles"] <= 1.1 * design.report["ideal_cycles"]


def test_a_dividing_width_keeps_round_up_tails():
    out, _, _ = sobel(hl, 36, 9)
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": "2"}))
    assert "GuardWithIf" not in result.schedule_source and "unroll(xi, 2, up)" in result.schedule_source


def test_a_round_up_split_past_a_bound_is_refused_as_halide_refuses_it(halide):
    for m in (hl, halide):
        x, xo, xi = m.Var("x"), m.Var("xo"), m.Var("xi")
        f = m.Func("f")
        f[x] = x * 2
        f.bound(x, 0, 10).split(x, xo, xi, 4, m.TailStrategy.RoundUp)
        with pytest.raises(Exception,  # (each module raises its own HalideError)
                           match=r"Bounds given for f(\$\d+)? in x \(from 0 to 9\) do not cover required region "
                                 r"\(from 0 to 11\)"):
            f.realize([10])
