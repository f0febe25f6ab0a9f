"""Shared pieces of the end-to-end tests: a build directory shared by xdist workers (builds are locked and
reused by content), and the simulators, which must exist in CI."""

import os
from pathlib import Path

import pytest

from mainspring.sim import require_simulator

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "test-sim"
SIMULATORS = ("icarus", "verilator")


@pytest.fixture(scope="session")
def build_dir() -> Path:
    BUILD.mkdir(parents=True, exist_ok=True)
    return BUILD


@pytest.fixture
def simulator(request):
    name = request.param
    require_simulator(name)
    return name


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")
