"""A bit-for-bit comparison of realized outputs, in a module of its own: a test importing it `from conftest` got
tests/flow/conftest.py when flow test files were named on the same command line."""

from __future__ import annotations

import numpy as np


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
