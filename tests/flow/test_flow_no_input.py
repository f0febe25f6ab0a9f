"""Algorithms that read no input image (a pattern computed from coordinates alone), which Halide accepts: the
accelerator streams nothing in, runs once when reset ends, and streams its output out (verilog/top.py's `done`).
They used to be refused ("has no accelerator input"); a host that tiles such an accelerator is refused with the
fix (one tile over the output), since no input arrives to start the next tile. The autoscheduler accelerates
such an algorithm whole."""

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS

W, H = 12, 8


def _vars():
    return (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))


def _pattern(g, x, y):
    g[x, y] = hl.u16((x * 7 + y * 3) % 11)
    return g


def _stencil():
    x, y, xo, yo, xi, yi = _vars()
    g = _pattern(hl.Func("g"), x, y)
    out = hl.Func("out")
    out[x, y] = g[x, y] + g[x + 1, y] * 2 + g[x, y + 1]
    out.bound(x, 0, W).bound(y, 0, H)
    out.tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    g.compute_at(out, xo)
    return out


def _lanes():
    x, y, xo, yo, xi, yi = _vars()
    out = hl.Func("out")
    out[x, y] = hl.u16(x * y + 3)
    out.bound(x, 0, W).bound(y, 0, H)
    out.tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    out.unroll(xi, 2)
    return out


def _reduction():
    x, y, xo, yo, xi, yi = _vars()
    r = hl.RDom([(0, 3)], "r")
    out = hl.Func("out")
    out[x, y] = hl.u16(0)
    out[x, y] += hl.u16(x + r.x * y)
    out.bound(x, 0, W).bound(y, 0, H)
    out.tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    out.update(0).unroll(r.x)
    return out


def _copied():
    """Seed 002's shape: hw_output computed on the accelerator, the output a host copy of it."""
    x, y, xo, yo, xi, yi = _vars()
    g = _pattern(hl.Func("g"), x, y)
    hw_output, out = hl.Func("hw_output"), hl.Func("out")
    hw_output[x, y] = hl.select(g[x, y] > 5, g[x, y] - 5, g[x, y] + 100)
    out[x, y] = hw_output[x, y]
    out.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    return out


DESIGNS = {"stencil": _stencil, "lanes": _lanes, "reduction": _reduction, "copied": _copied}


def _numpy(name):
    """The expected images computed with NumPy, apart from the reference evaluator."""
    yy, xx = np.mgrid[0:H, 0:W]
    g = lambda x, y: (x * 7 + y * 3) % 11  # noqa: E731
    return {"stencil": g(xx, yy) + 2 * g(xx + 1, yy) + g(xx, yy + 1), "lanes": xx * yy + 3,
            "reduction": 3 * xx + 3 * yy, "copied": np.where(g(xx, yy) > 5, g(xx, yy) - 5, g(xx, yy) + 100)}[name]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("name", list(DESIGNS))
def test_an_algorithm_of_no_input_runs_once_after_reset(name, simulator, compile_shared, build_dir):
    design = compile_shared(DESIGNS[name](), name=f"no_input_{name}")
    res = design.check({}, simulator=simulator, build_dir=build_dir)
    assert np.array_equal(res.output, _numpy(name).astype(np.uint16))
    # the run counts from the first cycle after reset, which is the schedule's cycle 0
    assert res.cycles == design.report["predicted_cycles"]
    # one output word a cycle once the pipeline is full
    assert design.report["predicted_cycles"] == design.report["ideal_cycles"] + design.report["first_output_cycle"]


def test_a_generator_of_no_input():
    x, y, xo, yo, xi, yi = _vars()

    class Ramp(hl.Generator):
        output = hl.OutputBuffer(hl.UInt(16), 2)

        def generate(self):
            hw_output = hl.Func("hw_output")
            hw_output[x, y] = hl.u16(x * 3 + y)
            self.output[x, y] = hw_output[x, y]
            self.output.bound(x, 0, W).bound(y, 0, H)
            hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)

    design = hl.compile(Ramp(), name="no_input_generator")
    yy, xx = np.mgrid[0:H, 0:W]
    assert np.array_equal(design.check({}, simulator="icarus").output, (xx * 3 + yy).astype(np.uint16))


def test_an_unscheduled_algorithm_of_no_input_is_accelerated_whole():
    # the autoscheduler accelerates the output, computing from coordinates alone, in one tile over the estimates
    x, y = hl.Var("x"), hl.Var("y")
    g, out = _pattern(hl.Func("g"), x, y), hl.Func("out")
    out[x, y] = g[x, y] + g[x + 1, y] * 2 + g[x, y + 1]
    out.set_estimates([(0, W), (0, H)])
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    assert f"one accelerator tile of {W} x {H}" in result.schedule_source
    design = hl.compile(out, name="no_input_auto")
    res = design.check({}, simulator="icarus")
    assert np.array_equal(res.output, _numpy("stencil").astype(np.uint16))
    assert design.report["predicted_cycles"] == design.report["ideal_cycles"] + design.report["first_output_cycle"]
