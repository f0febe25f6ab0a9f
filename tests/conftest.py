"""Fixtures for every test folder."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

from mainspring.sim import in_ci


def require_halide():
    """The `halide` module (the oracle: Halide 21's Python package), or skip (locally) / fail (in CI) when it is
    not installed."""
    try:
        return importlib.import_module("halide")
    except ImportError as e:
        if in_ci():
            pytest.fail(f"the Halide oracle is required in CI but `import halide` failed: {e}", pytrace=False)
        pytest.skip("the Halide oracle is not installed (pip install halide==21.0.0)")


@pytest.fixture(scope="session")
def halide():
    return require_halide()


@pytest.fixture
def halide_loader():
    """The oracle loader itself, for testing its CI behaviour."""
    return require_halide


@pytest.fixture
def golden():
    """`golden(path, text)`: assert `text` equals the golden file at `path`; with MAINSPRING_UPDATE_GOLDEN=1, write
    it first (then review the diff before committing)."""
    def check(path: Path, text: str) -> None:
        path = Path(path)
        if os.environ.get("MAINSPRING_UPDATE_GOLDEN"):
            path.write_text(text, encoding="utf-8", newline="\n")
        assert path.exists(), f"no golden file {path}; run with MAINSPRING_UPDATE_GOLDEN=1 to create it"
        assert text == path.read_text(encoding="utf-8"), \
            f"{path.name} changed; review the diff, then regenerate with MAINSPRING_UPDATE_GOLDEN=1"

    return check
