"""An RDom whose bounds read a scalar Param with a range (issue 8, frontend/param_domains.py): `RDom(0, p)` with
`p.set_range(1, 4)` (or Halide's Param(type, name, value, min, max)) runs over the widest domain, 4, each step
guarded by `r.x < p`; the Param stays the design's configuration input. For each value in the range the design
is bit-exact on both simulators and its reference equals Halide 21's realize; a value outside the range is
refused with Halide's message, and a Param without a range stays refused (catalogue rdom_of_param_extent)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS

W, H = 8, 6
IMAGE = (np.arange((W + 8) * H).reshape(H, W + 8) * 37 % 241).astype(np.uint8)


def _algorithm(m, kind: str, p):
    """hw_output(x, y) = x + the sum of hw_input over a window along x whose bounds read p: `extent` RDom(0, p),
    `min` RDom(p, 3); `unrolled`: RDom(0, p) with its update unrolled."""
    x, y = m.Var("x"), m.Var("y")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    r = m.RDom([m.Range(p, 3)] if kind == "min" else [m.Range(0, p)], "r")
    hw_input, hw_output, output = (m.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    hw_output[x, y] = m.cast(m.UInt(16), x)
    hw_output[x, y] += hw_input[x + r.x, y] * m.cast(m.UInt(16), r.x + 1)
    output[x, y] = hw_output[x, y]
    return inp, x, y, r, hw_input, hw_output, output


RANGES = {"extent": (1, 4), "min": (0, 3), "unrolled": (0, 3)}


def _param(m, kind: str):
    lo, hi = RANGES[kind]
    if kind == "unrolled" and m is hl:  # Halide's C++ form, which mainspring takes too
        return m.Param(m.Int(32), "p", lo, lo, hi)
    p = m.Param(m.Int(32), "p")
    p.set_range(lo, hi)
    return p


@functools.cache
def _design(kind: str) -> hl.Design:
    p = _param(hl, kind)
    _, x, y, r, hw_input, hw_output, output = _algorithm(hl, kind, p)
    xo, yo, xi, yi = hl.vars("xo yo xi yi")
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    if kind == "unrolled":
        hw_output.update().unroll(r.x)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name=f"param_rdom_{kind}")


def _halide(halide, kind: str, value: int) -> np.ndarray:
    p = _param(halide, kind)
    inp, *_, output = _algorithm(halide, kind, p)
    p.set(value)
    inp.set(halide.Buffer(IMAGE))
    return np.asarray(output.realize([W, H]))


CASES = [(k, v) for k, (lo, hi) in RANGES.items() for v in sorted({lo, (lo + hi) // 2 + 1, hi})]


@pytest.mark.parametrize(("kind", "value"), CASES)
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_each_value_in_the_range_is_bit_exact(kind, value, simulator, build_dir):
    inputs = {"input": hl.Buffer(IMAGE), "p": value}
    res = _design(kind).check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize(("kind", "value"), CASES)
def test_the_reference_is_halides(kind, value, halide):
    got = _design(kind).reference_output({"input": hl.Buffer(IMAGE), "p": value})
    np.testing.assert_array_equal(got, _halide(halide, kind, value))


def test_the_loop_is_sized_by_the_range_and_the_param_is_an_input():
    design = _design("extent")
    assert "p" in design.program.scalars
    assert design.report["ideal_cycles"] == W * H * 4  # the widest domain: 4 steps a pixel


@pytest.mark.parametrize(("value", "message"), [(5, "Parameter p of value 5 is greater than the maximum 4"),
                                               (0, "Parameter p of value 0 is less than the minimum 1")])
def test_a_value_outside_the_range_is_refused(value, message):
    with pytest.raises(hl.HalideError, match=message):
        _design("extent").reference_output({"input": hl.Buffer(IMAGE), "p": value})


def test_the_user_program_stays_as_written():
    p = _param(hl, "extent")
    inp, x, y, r, hw_input, hw_output, output = _algorithm(hl, "extent", p)
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().hw_accelerate(x, hl.Var.outermost())
    hw_input.compute_root().stream_to_accelerator()
    hl.compile(output, name="param_rdom_kept")
    assert not isinstance(r.x.extent()._ir(), hl.frontend.ir.Const)
    p.set(5)  # Halide's realize takes a value past the range: so does the user's (only the design is sized by it)
    inp.set(hl.Buffer(IMAGE))
    assert int(np.asarray(output.realize([W, H]))[0, 0]) == sum(int(IMAGE[0, k]) * (k + 1) for k in range(5))


def test_the_range_api():
    p = hl.Param(hl.UInt(8), "q", 3, 1, 4)
    assert (p.get(), p.min_value(), p.max_value()) == (3, 1, 4)
    p.set_min_value(0)
    p.set_estimate(2)
    assert (p.min_value(), p.max_value(), p.estimate()) == (0, 4, 2)
    with pytest.raises(hl.HalideError, match=r"q.set_max_value\(300\): 300 is outside the range of uint8"):
        p.set_max_value(300)
