"""Reads at x % d (d constant) end to end: hwlower strip-mines the reading Func's loop of x into d-long steps
(x = d * xo + xi, as an upsample by d does), where x % d is xi, affine; bit-exact on both simulators."""

import pytest

import mainspring as hl
from mainspring.apps.common import accelerate, random_image

from conftest import SIMULATORS


def _input() -> tuple[hl.ImageParam, hl.Func, hl.Var, hl.Var]:
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    return i, hw_input, x, y


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_pure_read_at_a_modulo(simulator, build_dir, compile_shared):
    """hw_output(x, y) = hw_input(x % 4, y) * 2 + y: each row repeats the input's first 4 columns."""
    _, hw_input, x, y = _input()
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = hw_input[x % 4, y] * 2 + hl.u16(y)
    accelerate(hw_output, hw_output, 16, 8, [], hw_input)
    design = compile_shared(hw_output, name="modulo_read")
    res = design.check({"input": random_image(16, 8, seed=7)}, simulator=simulator, build_dir=build_dir)
    assert res.output.shape == (8, 16)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_quotient_and_modulo_of_a_buffered_func(simulator, build_dir, compile_shared):
    """g(x, y) = f(x / 4, y) + f(x % 4, y) with f buffered: both reads are affine in g's d-long steps."""
    _, hw_input, x, y = _input()
    f = hl.Func("f")
    f[x, y] = hw_input[x, y] + 3
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f[x / 4, y] + f[x % 4, y] * 5
    accelerate(hw_output, hw_output, 16, 6, [f], hw_input)
    design = compile_shared(hw_output, name="modulo_quotient")
    design.check({"input": random_image(16, 6, seed=8)}, simulator=simulator, build_dir=build_dir)


def test_modulo_read_of_an_odd_extent_rounds_up(build_dir):
    """A 15-wide output read at x % 4 runs 4 steps of 4 (as a RoundUp split would); the host keeps 15 columns."""
    _, hw_input, x, y = _input()
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = hw_input[x % 4, y] + hw_input[x, y]
    accelerate(hw_output, hw_output, 15, 5, [], hw_input)
    design = hl.compile(hw_output, name="modulo_odd")
    res = design.check({"input": random_image(16, 5, seed=9)}, simulator="icarus", build_dir=build_dir)
    assert res.output.shape == (5, 15)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_unrolled_reduction_read_at_a_modulo(simulator, build_dir, compile_shared):
    """up(x, y) += hw_input((x + r.x) % 2, y) over r.x in 0..2, unrolled (the refusal's hint when it is serial):
    each tap's (xi + k) % 2 is affine in up's 2-long steps."""
    _, hw_input, x, y = _input()
    r = hl.RDom([hl.Range(0, 3)], "r")
    up, hw_output = hl.Func("up"), hl.Func("hw_output")
    up[x, y] = hl.u16(0)
    up[x, y] += hw_input[(x + r.x) % 2, y] * hl.u16(r.x + 1)
    up.update().unroll(r.x)
    hw_output[x, y] = up[x, y]
    accelerate(hw_output, hw_output, 16, 8, [up], hw_input)
    design = compile_shared(hw_output, name="modulo_unrolled")
    design.check({"input": random_image(16, 8, seed=10)}, simulator=simulator, build_dir=build_dir)
