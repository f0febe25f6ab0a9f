"""Halide's fast approximations (`hl.fast_exp`, `fast_log`, `fast_pow`, `fast_sin`, `fast_cos`) and `reinterpret`
between floats and integers, run with Halide (the oracle) and with mainspring's reference, compared bit for bit.
Each fast function is an expression of plain operations in Halide, so its bits depend on the FMA contractions (and,
for fast_log, on LLVM's reassociation of its last sum), which the reference reproduces."""

from __future__ import annotations

import numpy as np
import pytest
from test_programs_floats import _bit_patterns, _inputs, _specials, pointwise, same  # noqa: F401 - a fixture

pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(20261202)
N = 1 << 15


def _normal(scale: float) -> np.ndarray:
    return (RNG.standard_normal(N) * scale).astype(np.float32)


@pytest.mark.parametrize("name", ["fast_exp", "fast_sin", "fast_cos"])
def test_fast_exp_sin_and_cos_are_halides(same, name):  # noqa: F811
    edges = np.array([np.inf, -np.inf, np.nan, 200.0, -200.0, 1e30, -1e30], np.float32)
    same(pointwise(name), np.concatenate([np.linspace(-90.0, 90.0, N, dtype=np.float32), _normal(1000.0), edges,
                                          _specials(np.float32)]))


def test_fast_log_is_halides_over_every_exponent(same):  # noqa: F811
    positive = _bit_patterns(N, 1, 0x7F800000)  # subnormals to the largest float
    same(pointwise("fast_log"), np.concatenate([positive, np.linspace(0.5, 2.0, N, dtype=np.float32),
                                                _specials(np.float32)]))


def p_fast_pow(hl, a, b):
    (A, B), x, f = _inputs(hl, [a, b]), hl.Var("x"), hl.Func("f")
    # a float exponent takes exp(log(x) * y); an integer constant one is repeated multiplication
    f[x] = hl.mux(x % 3, [hl.fast_pow(A[x], B[x]), hl.fast_pow(A[x], 3), hl.fast_pow(A[x], hl.f32(2.5))])
    return np.asarray(f.realize([a.size]))


def test_fast_pow_is_halides(same):  # noqa: F811
    base = np.abs(_normal(5.0))
    base[::41] = 0
    same(p_fast_pow, base, _normal(3.0))


def p_fast_of_constants_and_coordinates(hl, values):
    x, f, g, h = hl.Var("x"), hl.Func("f"), hl.Func("g"), hl.Func("h")
    f[x] = hl.mux(x, [c for v in values for c in (hl.fast_exp(hl.f32(v)), hl.fast_log(hl.f32(abs(v) + 0.1)),
                                                  hl.fast_sin(hl.f32(v)), hl.fast_cos(hl.f32(v)))])
    g[x] = hl.fast_sin(x) + hl.fast_cos(hl.f64(x) * hl.f64(0.1))  # an integer argument; a Float(64) one
    h[x] = hl.u8(hl.fast_exp(-hl.f32(x * x) / 50.0) * 255.0)  # a Gaussian weight table
    return np.concatenate([np.asarray(f.realize([4 * len(values)])), np.asarray(g.realize([64]), np.float32),
                           np.asarray(h.realize([40]), np.float32)])


def test_fast_functions_of_constants_fold_as_halide_folds_them(same):  # noqa: F811
    same(p_fast_of_constants_and_coordinates, [float(v) for v in _normal(4.0)[:16]])


def p_reinterpret(hl, a):
    (A,), x, f = _inputs(hl, [a]), hl.Var("x"), hl.Func("f")
    bits = hl.reinterpret(hl.UInt(32), A[x])
    # the exponent field, and the float made from halved mantissa bits
    halved = (bits & ~(hl.u32(255) << 23)) | (hl.u32(126) << 23)
    f[x] = hl.mux(x % 2, [hl.f32(bits >> 23), hl.reinterpret(hl.Float(32), halved)])
    return np.asarray(f.realize([a.size]))


def test_reinterpret_between_floats_and_integers(same):  # noqa: F811
    same(p_reinterpret, np.concatenate([_bit_patterns(N, 0, 0xFFFFFFFF), _specials(np.float32)]))


def p_strict_float(hl, a, b, c):
    (A, B, C), x = _inputs(hl, [a, b, c]), hl.Var("x")
    outs = []
    for k, value in enumerate([hl.strict_float(A[x] * B[x] + C[x]),  # each operation rounded: no FMA
                               hl.strict_float(A[x] * B[x]) + C[x],  # the product kept from the sum outside
                               A[x] * B[x] + C[x],  # contracted, for contrast
                               hl.strict_float(A[x] * B[x] + C[x] * A[x]) - B[x] * C[x]]):
        f = hl.Func(f"f{k}")
        f[x] = value
        outs.append(np.asarray(f.realize([a.size])).copy())
    return np.stack(outs)


def test_strict_float_keeps_its_operations_from_contraction(same):  # noqa: F811
    got = same(p_strict_float, _normal(1.0), _normal(1.0), _normal(1.0))
    assert not np.array_equal(got[0], got[2])  # the contraction is visible on these values
