"""Fixtures of the frontend tests: the Halide oracle and a bit-for-bit comparison of realized outputs.

The oracle is the `halide` PyPI package (the `halide` fixture of tests/conftest.py). Locally a missing package
skips the oracle tests; in CI (CI=true) it fails them, so a broken install cannot pass as green.
"""

from __future__ import annotations

import pytest
from same_output import assert_same_output

import mainspring


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
