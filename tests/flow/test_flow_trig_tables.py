"""Weight tables computed with the trigonometric functions (a Gabor filter: exp and cos of the coordinates), folded
to constants in the kernels, bit-exact on both simulators; a sine left for the array to compute is refused."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image

from conftest import SIMULATORS

W, H, K = 16, 12, 5


def _gabor(theta: float = 0.6):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, weight, conv, hw_output, output = (hl.Func(n) for n in ("hw_input", "weight", "conv", "hw_output",
                                                                     "output"))
    hw_input[x, y] = hl.i16(input_[x, y])
    fx, fy = hl.f32(x - K // 2), hl.f32(y - K // 2)
    u = fx * hl.cos(hl.f32(theta)) + fy * hl.sin(hl.f32(theta))
    weight[x, y] = hl.i16(hl.round(32.0 * hl.exp(-(fx * fx + fy * fy) / 4.0) * hl.cos(u * hl.f32(1.3))))
    r = hl.RDom([(0, K), (0, K)], "r")
    conv[x, y] = hl.i16(0)
    conv[x, y] += weight[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = conv[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    conv.compute_at(hw_output, xo)
    conv.update().unroll(r.x).unroll(r.y)
    hw_input.compute_root().stream_to_accelerator()
    return output, weight


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_gabor_filter_with_folded_weights(simulator, compile_shared, build_dir):
    output, weight = _gabor()
    design = compile_shared(output, name="gabor")
    image = random_image(W + K - 1, H + K - 1, seed=5)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    # against NumPy: the weights as the reference computes them, the convolution written out
    w = np.asarray(weight.realize([K, K])).astype(np.int64)
    want = sum(w[j, i] * image[j:j + H, i:i + W].astype(np.int64) for i in range(K) for j in range(K))
    assert np.array_equal(res.output, want.astype(np.int16))
    assert design.report["const_words"] > 0 and w[K // 2, K // 2] == 32


def test_a_sine_on_the_array_is_refused_with_the_fix():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    hw_output[x, y] = hl.u8(hl.sin(hl.f32(hw_input[x, y])) * 100.0 + 100.0)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    with pytest.raises(hl.HalideError, match=r"Func 'hw_output' computes in floating point inside the accelerator"
                                             r".*the PEs are integer units"):
        hl.compile(output, name="sine")


def _erf_curve():
    """An S-shaped tone curve from erf, read at each pixel's value: a ROM whose contents the reference computes."""
    x, y, v, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "v", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, curve, hw_output, output = (hl.Func(n) for n in ("hw_input", "curve", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    curve[v] = _s_curve(v)
    hw_output[x, y] = curve[hw_input[x, y]]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    curve.compute_at(hw_output, xo).unroll(v)  # the reference system's ROM idiom
    hw_input.compute_root().stream_to_accelerator()
    return output


def _s_curve(v):
    return hl.u8(hl.round(127.5 * (hl.erf((hl.f32(v) - 128.0) / 40.0) + 1.0)))


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_erf_tone_curve_is_a_rom(simulator, compile_shared, build_dir):
    output = _erf_curve()
    design = compile_shared(output, name="erf_curve")
    image = random_image(W, H, seed=9)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    v, curve = hl.Var("v"), hl.Func("curve")  # unscheduled: the table alone
    curve[v] = _s_curve(v)
    table = np.asarray(curve.realize([256]))
    assert np.array_equal(res.output, table[image])
    assert table[0] < 3 and table[128] == 128 and table[255] > 252  # the S shape itself, as erf gives it
