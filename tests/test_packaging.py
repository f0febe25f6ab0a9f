"""The install: one import root, no bare stage modules, the exact-counting islpy."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("bare", ["frontend", "hwlower", "memories", "compute_json", "verilog", "sim", "apps"])
def test_no_bare_stage_module_is_installed(bare, tmp_path):
    p = subprocess.run([sys.executable, "-c", f"import {bare}"], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode != 0 and "ModuleNotFoundError" in p.stderr


def test_stages_import_through_mainspring(tmp_path):
    code = ("import mainspring, mainspring.frontend, mainspring.hwlower, mainspring.memories, "
            "mainspring.compute_json, mainspring.verilog, mainspring.sim, mainspring.apps; "
            "assert set(mainspring.__all__) <= set(dir(mainspring))")
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True)


def test_islpy_counts_exactly():
    import islpy

    assert hasattr(islpy.Set, "card"), "plain islpy replaced islpy-barvinok"
