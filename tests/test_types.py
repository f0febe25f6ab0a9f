"""The typed IRs' contracts, checked by mypy: the packages listed in pyproject's [tool.mypy] must be clean.

mypy runs from the repository root, where it finds `mainspring.<stage>` through the symlinks in mainspring/
(it does not follow the editable install's import hook). Modules outside the checked packages are read for
their types only (`follow_imports = "silent"`)."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_is_clean_on_the_checked_packages():
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["packages"]
    assert "mainspring.compute_json" in packages
    p = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert p.returncode == 0, f"mypy found errors in {', '.join(packages)}:\n{p.stdout}{p.stderr}"
    assert "Success: no issues found" in p.stdout, p.stdout
