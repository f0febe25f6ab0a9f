"""verilog.prove_cache kept outside the clone (the suite's, ccache's model): its place, and keys that hold the
prover's code and the tools' versions, so a verdict is reused only by the prover that reached it."""

import os
from pathlib import Path

from mainspring.verilog import prove_cache


def test_the_shared_cache_is_under_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert prove_cache.shared_cache_dir() == tmp_path / "mainspring" / "prove"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert prove_cache.shared_cache_dir() == Path.home() / ".cache" / "mainspring" / "prove"


def test_the_suite_proves_into_the_shared_cache():
    """tests/conftest.py sets it unless the caller chose a folder (e.g. `build/prove`, the clone's own)."""
    assert os.environ["MAINSPRING_PROVE_CACHE"]
    assert prove_cache.default_cache_dir() == Path(os.environ["MAINSPRING_PROVE_CACHE"])


def test_a_key_changes_with_the_provers_code(monkeypatch):
    key = prove_cache.cache_key("kernel", "module text", "expression")
    assert key == prove_cache.cache_key("kernel", "module text", "expression")
    monkeypatch.setattr(prove_cache, "_sources", lambda: "another prover")
    assert prove_cache.cache_key("kernel", "module text", "expression") != key
    monkeypatch.undo()
    assert prove_cache.cache_key("kernel", "module text", "expression") == key
    monkeypatch.setattr(prove_cache, "yosys_version", lambda: "Yosys 0.1")
    assert prove_cache.cache_key("kernel", "module text", "expression") != key


def test_the_digest_reads_modules_that_exist():
    """A renamed module in SOURCES would be hashed as empty: every one must be there."""
    root = Path(prove_cache.__file__).resolve().parent
    assert all((root.parent / s).is_file() for s in prove_cache.SOURCES), prove_cache.SOURCES
