"""Fixtures of the simulation harness tests.

Builds are cached under build/sim-tests by content hash, so only the first session pays for Verilator
builds; parallel pytest-xdist workers share the cache through file locks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mainspring.sim import require_simulator

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def build_dir() -> Path:
    return REPO / "build" / "sim-tests"


@pytest.fixture(params=["verilator", "icarus"])
def simulator(request) -> str:
    """Each simulator in turn: skipped when missing locally, a failure when missing in CI."""
    require_simulator(request.param)
    return request.param
