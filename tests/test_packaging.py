"""The install: one import root, no bare stage modules, the exact-counting islpy."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STAGES = ["frontend", "hwlower", "memories", "compute_json", "verilog", "sim", "apps"]


@pytest.mark.parametrize("bare", STAGES)
def test_no_bare_stage_module_is_installed(bare, tmp_path):
    p = subprocess.run([sys.executable, "-c", f"import {bare}"], cwd=tmp_path, capture_output=True, text=True,
                       check=False)
    assert p.returncode != 0 and "ModuleNotFoundError" in p.stderr


@pytest.mark.parametrize("where", ["elsewhere", "repo root"])
def test_stages_import_through_mainspring(where, tmp_path):
    code = ("import mainspring, mainspring.frontend, mainspring.hwlower, mainspring.memories, "
            "mainspring.compute_json, mainspring.verilog, mainspring.sim, mainspring.apps; "
            "assert set(mainspring.__all__) <= set(dir(mainspring))")
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path if where == "elsewhere" else ROOT, check=True)


@pytest.mark.parametrize("stage", STAGES)
def test_mainspring_links_each_stage_folder(stage):
    # What type checkers and editors read (they do not follow the editable install's import hook).
    link = ROOT / "mainspring" / stage
    assert link.is_symlink() and str(link.readlink()) == f"../{stage}", link
    assert (link / "__init__.py").resolve() == ROOT / stage / "__init__.py"


def test_islpy_counts_exactly():
    import islpy

    assert hasattr(islpy.Set, "card"), "plain islpy replaced islpy-barvinok"
