"""Shared pieces of the simulation harness tests: the hand-written adder DUTs and their streams."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mainspring.sim import OutputSpec, StreamSpec

FIXTURES = Path(__file__).parent / "fixtures"
ADDERS = [FIXTURES / "adders.v"]
FAULTY = [FIXTURES / "adders.v", FIXTURES / "faulty.v"]
LATENCY = 2  # the adders' pipeline depth: N transfers take N + 2 cycles without stalls


def adder_streams(n: int, lanes: int = 1, seed: int = 0):
    """Random 16-bit operands for n transfers, their specs, and the expected sums."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 1 << 16, n * lanes)
    b = rng.integers(0, 1 << 16, n * lanes)
    inputs = {"a": StreamSpec(a, width=16, lanes=lanes), "b": StreamSpec(b, width=16, lanes=lanes)}
    output = OutputSpec("out", width=16, count=n * lanes, lanes=lanes)
    return inputs, output, (a + b) % (1 << 16)
