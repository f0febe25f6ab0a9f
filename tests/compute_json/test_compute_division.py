"""Division by constants is exact over the whole type (pipeline: compile_kernel; magic.py alone for the plans).

8-bit: every divisor, every numerator. 16-bit: every numerator, for 1200 divisors (the plans) and a sample
through the compiled graph. 32-bit: random, extreme and near-multiple numerators.
"""

import numpy as np
import pytest

from mainspring.compute_json import compile_kernel
from mainspring.compute_json.examples import division_kernel, near_multiples, special_constants
from mainspring.compute_json.magic import apply_unsigned_division, unsigned_division
from mainspring.frontend.types import Int, UInt

from compute_helpers import assert_graph_matches, x_values


def _non_powers(values):
    return [d for d in values if d > 2 and d & (d - 1)]


def _check_plan(d: int, width: int, max_x: int, x: np.ndarray) -> None:
    plan = unsigned_division(d, width, max_x)
    assert 0 <= plan.multiplier < (1 << width)
    got = apply_unsigned_division(plan, x, width)
    bad = np.nonzero(got != x // d)[0]
    assert not bad.size, f"{width}-bit x <= {max_x} / {d} with {plan}: wrong for x = {x[bad[0]]}"


@pytest.mark.parametrize("width", [8, 16])
@pytest.mark.parametrize("signed_range", [False, True])
def test_plans_are_exact_for_every_numerator(width, signed_range):
    max_x = (1 << (width - (1 if signed_range else 0))) - 1
    x = np.arange(max_x + 1, dtype=np.int64)
    divisors = range(3, max_x // 2 + 1) if width == 8 else range(3, 1100)
    for d in _non_powers(divisors):
        _check_plan(d, width, max_x, x)
    if width == 16:
        for d in _non_powers(np.random.default_rng(5).integers(1100, max_x // 2, 200).tolist()):
            _check_plan(d, width, max_x, x)


def test_plans_are_exact_for_32_bit_numerators():
    rng = np.random.default_rng(7)
    divisors = [3, 5, 7, 10, 641, 6700417, 0x7FFFFFFF, 0x80000001, 0x55555555, (1 << 31) - 3]
    divisors += rng.integers(3, 1 << 31, 200).tolist()
    for _signed_range, max_x in ((False, (1 << 32) - 1), (True, (1 << 31) - 1)):
        for d in _non_powers(divisors):
            if 2 * d > max_x:
                continue
            plan = unsigned_division(d, 32, max_x)
            k = rng.integers(0, max_x // d + 1, 300, dtype=np.int64)
            x = np.concatenate([k * d - 1, k * d, k * d + 1, rng.integers(0, max_x + 1, 300, dtype=np.int64),
                                [0, 1, d - 1, d, max_x - 1, max_x]])
            x = np.clip(x, 0, max_x).astype(object)  # Python ints: x * multiplier needs 64 bits
            got = np.array([apply_unsigned_division(plan, int(v), 32) for v in x], dtype=object)
            assert (got == x // d).all(), (d, plan)


@pytest.mark.parametrize("t", [UInt(8), Int(8)])
def test_every_8_bit_divisor_compiles_exactly(t):
    kernel = division_kernel(t, range(t.min(), t.max() + 1))
    assert_graph_matches(kernel, compile_kernel(kernel), {"x": x_values(t)})


@pytest.mark.parametrize("t", [UInt(16), Int(16), UInt(32), Int(32)])
def test_wide_divisors_compile_exactly(t):
    rng = np.random.default_rng(t.bits())
    divisors = special_constants(t) + rng.integers(t.min(), t.max() + 1, 20).tolist()
    kernel = division_kernel(t, divisors)
    x = x_values(t)
    if t.bits() == 32:
        x = np.concatenate([x, near_multiples(t, divisors, 20000, rng)])
    assert_graph_matches(kernel, compile_kernel(kernel), {"x": x})
