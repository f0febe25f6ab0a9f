"""The oracle fixture skips when `halide` is missing, except in CI (CI=true), where it fails."""

from __future__ import annotations

import importlib

import pytest


def _without_halide(monkeypatch):
    real = importlib.import_module

    def fake(name, *args, **kwargs):
        if name == "halide":
            raise ImportError("No module named 'halide'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib, "import_module", fake)


def test_missing_oracle_skips_locally(monkeypatch, halide_loader):
    _without_halide(monkeypatch)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        halide_loader()


def test_missing_oracle_fails_in_ci(monkeypatch, halide_loader):
    _without_halide(monkeypatch)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="required in CI"):
        halide_loader()
