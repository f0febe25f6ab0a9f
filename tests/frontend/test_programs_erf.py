"""erf and the float classifications (`hl.erf`, `hl.is_nan`, `hl.is_inf`, `hl.is_finite`), run with Halide (the
oracle) and with mainspring's reference, compared bit for bit. Halide's erf is an expression of its argument (two
polynomials and a power), so its bits depend on where LLVM contracts products into FMAs, as for user code."""

from __future__ import annotations

import numpy as np
import pytest
from test_programs_floats import _bit_patterns, _inputs, _specials, pointwise, same  # noqa: F401 - a fixture

pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(20261201)


def test_erf_of_float32_is_halides(same):  # noqa: F811
    dense = np.linspace(-6.0, 6.0, 1 << 16, dtype=np.float32)
    around_one = np.linspace(0.99, 1.01, 1 << 12, dtype=np.float32)  # where the two approximations meet
    bits = _bit_patterns(1 << 14, 0, 0x7FFFFFFF)  # NaNs among them
    anything = np.where(RNG.integers(0, 2, bits.size) == 1, -bits, bits)
    specials = np.array([np.nan, np.inf, -np.inf], np.float32)
    same(pointwise("erf"), np.concatenate([dense, around_one, anything, specials,
                                           _specials(np.float32)]))


def p_erf_in_expressions(hl, values):
    # a constant argument folds op by op (no FMA); an expression of x contracts with what surrounds it
    x, f, g = hl.Var("x"), hl.Func("f"), hl.Func("g")
    f[x] = hl.mux(x, [hl.erf(hl.f32(v)) for v in values])
    g[x] = hl.u8(hl.round(127.5 * (hl.erf((hl.f32(x) - 128.0) / 40.0) + 1.0)))
    return np.concatenate([np.asarray(f.realize([len(values)])), np.asarray(g.realize([256]), np.float32)])


def test_erf_of_constants_and_a_tone_curve(same):  # noqa: F811
    curve = same(p_erf_in_expressions, [float(v) for v in np.float32(RNG.standard_normal(16) * 2)])
    assert curve[16] == 0 and curve[-1] == 255


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nan_inf_and_finite_classify_as_halide(same, dtype):  # noqa: F811
    def p_classify(hl, a):
        (A,), x, f = _inputs(hl, [a]), hl.Var("x"), hl.Func("f")
        f[x] = (hl.select(hl.is_nan(A[x]), 1, 0) + hl.select(hl.is_inf(A[x]), 2, 0)
                + hl.select(hl.is_finite(A[x]), 4, 0))
        return np.asarray(f.realize([a.size]))

    values = np.concatenate([np.array([np.nan, -np.nan, np.inf, -np.inf], dtype), _specials(dtype),
                             np.finfo(dtype).max * np.array([1, -1], dtype), RNG.standard_normal(64).astype(dtype)])
    got = same(p_classify, values)
    assert list(got[:4]) == [1, 1, 2, 2] and set(got[4:]) == {4}
