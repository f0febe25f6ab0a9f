"""Fixtures of the frontend tests: the Halide oracle and a bit-for-bit comparison of realized outputs.

The oracle is the `halide` PyPI package (the `halide` fixture of tests/conftest.py). Locally a missing package
skips the oracle tests; in CI (CI=true) it fails them, so a broken install cannot pass as green.
"""

from __future__ import annotations

import numpy as np
import pytest

import mainspring


def assert_same_output(expected, got, what: str = "output"):
    """Same dtype, same shape, same values (outputs may be arrays or tuples/lists of arrays)."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), f"{what}: {len(expected)} outputs expected"
        for i, (e, g) in enumerate(zip(expected, got)):
            assert_same_output(e, g, f"{what}[{i}]")
        return
    e, g = np.asarray(expected), np.asarray(got)
    assert g.dtype == e.dtype, f"{what}: dtype {g.dtype}, Halide gives {e.dtype}"
    assert g.shape == e.shape, f"{what}: shape {g.shape}, Halide gives {e.shape}"
    if not np.array_equal(e, g):
        bad = np.argwhere(e != g)
        first = tuple(int(i) for i in bad[0])
        raise AssertionError(
            f"{what}: {len(bad)} of {e.size} values differ; first at index {first} (numpy order): "
            f"mainspring {g[first]}, Halide {e[first]}"
        )


@pytest.fixture(scope="session")
def same_as_halide(halide):
    """`same_as_halide(program, *args)` runs `program(module, *args)` with Halide and with mainspring and
    asserts the results are equal bit for bit; it returns the Halide result."""

    def run(program, *args):
        expected = program(halide, *args)
        got = program(mainspring, *args)
        assert_same_output(expected, got, program.__name__)
        return expected

    return run
