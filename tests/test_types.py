"""The typed IRs' contracts, checked by mypy: the packages listed in pyproject's [tool.mypy] must be clean.

mypy runs from the repository root, where it finds `mainspring.<stage>` through the symlinks in mainspring/
(it does not follow the editable install's import hook). Modules outside the checked packages are read for
their types only (`follow_imports = "silent"`)."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# The typed IRs and the stages that hand them on: hwlower (LoopNest, HwProgram), memories (MemoryPlan, GlbPlan),
# compute_json (Kernel).
TYPED_IRS = ("mainspring.hwlower", "mainspring.memories", "mainspring.compute_json")


def test_mypy_is_clean_on_the_checked_packages():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    packages = config["packages"]
    assert set(TYPED_IRS) <= set(packages), packages
    # Each is checked as compute_json is: every function annotated, so the contracts are checked in full.
    strict = [o["module"] for o in config["overrides"] if o.get("disallow_untyped_defs")]
    assert all(any(f"{p}.*" in m for m in strict) for p in TYPED_IRS), strict
    p = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert p.returncode == 0, f"mypy found errors in {', '.join(packages)}:\n{p.stdout}{p.stderr}"
    assert "Success: no issues found" in p.stdout, p.stdout
