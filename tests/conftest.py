"""Fixtures for every test folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


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
