"""The trigonometric and hyperbolic functions (`hl.sin`, ..., `hl.atan2`, `hl.hypot`), run with Halide (the oracle)
and with mainspring's reference, compared bit for bit: Float(32) calls are the C library's float functions
(sinf, ...), Float(64) its double ones, and a constant argument folds in double precision, then rounds."""

from __future__ import annotations

import numpy as np
import pytest
from test_programs_floats import MS, _inputs, _specials, pointwise, same  # noqa: F401 - `same` is a fixture

pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(20261130)
UNARY = ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh")


def _values(dtype) -> np.ndarray:
    wide = np.linspace(-100.0, 100.0, 1 << 14)
    unit = np.linspace(-1.25, 1.25, 1 << 12)  # the inverse functions' domains and past them (NaN)
    return np.concatenate([wide, unit, RNG.standard_normal(1 << 12) * 5, _specials(np.float64)]).astype(dtype)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_functions_are_the_c_librarys(same, name, dtype):  # noqa: F811
    same(pointwise(name), _values(dtype))


def p_atan2_and_hypot(hl, a, b):
    x, c = hl.Var("x"), hl.Var("c")
    A, B = _inputs(hl, [a, b])
    f = hl.Func("f")
    f[x, c] = hl.mux(c, [hl.atan2(A[x], B[x]), hl.hypot(A[x], B[x]), hl.atan2(A[x], 2), hl.f32(hl.atan2(
        hl.f64(A[x]), B[x])), hl.atan2(A[x], hl.f64(B[x]))])
    return np.asarray(f.realize([a.size, 5]))


def test_atan2_and_hypot(same):  # noqa: F811
    a, b = (_values(np.float32) for _ in range(2))
    same(p_atan2_and_hypot, a, np.roll(b, 77))


def p_constants_fold(hl, values):
    x, f = hl.Var("x"), hl.Func("f")
    calls = [getattr(hl, name)(hl.f32(v / 20 if name in ("asin", "acos", "atanh") else v))
             for name in UNARY for v in values]
    calls += [hl.atan2(hl.f32(v), hl.f32(1.5)) for v in values] + [hl.f32(hl.cos(hl.f64(v))) for v in values]
    f[x] = hl.mux(x, calls)
    return np.asarray(f.realize([len(calls)]))


def test_constant_arguments_fold_in_double_like_halide(same):  # noqa: F811
    same(p_constants_fold, [float(v) for v in np.float32(RNG.standard_normal(12) * 6)])


def p_gabor_table(hl):
    """A Gabor filter's integer weights from exp and cos of the coordinates, as a weight table is written."""
    x, y, k = hl.Var("x"), hl.Var("y"), hl.Func("k")
    fx, fy = hl.f32(x - 3), hl.f32(y - 3)
    theta = 0.6
    u = fx * hl.cos(hl.f32(theta)) + fy * hl.sin(hl.f32(theta))
    k[x, y] = hl.i16(hl.round(256.0 * hl.exp(-(fx * fx + fy * fy) / 8.0) * hl.cos(u * 1.3)))
    return np.asarray(k.realize([7, 7]))


def test_a_gabor_weight_table(same):  # noqa: F811
    weights = same(p_gabor_table)
    assert weights[3, 3] == 256 and weights.min() < 0


def test_bounds_of_a_cast_of_a_sine_size_a_table():
    # an index computed from sin is bounded as Halide bounds it: [-1, 1] * 100 + 100 within [0, 200]
    hl = MS
    x, lut, f = hl.Var("x"), hl.Func("lut"), hl.Func("f")
    lut[x] = x * 2
    f[x] = lut[hl.i32(hl.sin(hl.f32(x)) * 100.0 + 100.0)]
    got = np.asarray(f.realize([50]))
    want = (np.sin(np.arange(50, dtype=np.float32)).astype(np.float32) * np.float32(100) + np.float32(100))
    assert np.array_equal(got, want.astype(np.int32) * 2)


def p_sums_of_two_products(hl, a, b):
    # LLVM contracts the right product of a sum of two into the FMA (hypot's x * x + y * y), a product by a
    # constant wherever it is, and the left product of a difference: fma(c, d, a * b), fma(a, b, -(c * d)). One
    # Func each: a product shared between outputs of one Func would be a common subexpression, contracted
    # otherwise; and no shared factor, which Halide's simplifier factors out (a*b - b*b: not modelled).
    x = hl.Var("x")
    A, B = _inputs(hl, [a, b])
    outs = []
    for k, value in enumerate([A[x] * A[x] + B[x] * B[x], B[x] * 1.5 + A[x] * A[x], A[x] * A[x] + B[x] * 1.5,
                               A[x] * 3.0 + B[x] * B[x], A[x] * 3.0 - B[x] * B[x], B[x] * B[x] - A[x] * 3.0]):
        f = hl.Func(f"f{k}")
        f[x] = value
        outs.append(np.asarray(f.realize([a.size])).copy())
    return np.stack(outs)


def test_sums_of_two_products_contract_as_llvm_does(same):  # noqa: F811
    a, b = (_values(np.float32) for _ in range(2))
    same(p_sums_of_two_products, a, np.roll(b, 31))
