"""Fixtures for every test folder."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

from mainspring.sim import in_ci, vlcache
from mainspring.verilog.prove_cache import shared_cache_dir

ROOT = Path(__file__).resolve().parents[1]


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


def pytest_configure(config):
    """Under xdist (`-n 2`), schedule by `xdist_group`: the parametrisations that share a compiled design (one
    compile, checked on both simulators; see tests/flow/independent/porting.py) are marked with one group and
    so run on one worker, where the design is cached. Ungrouped tests are balanced one by one as with `load`;
    plain `load` would send neighbouring tests to different workers, each compiling the design again."""
    # One store of Verilator's runtime objects for the suite's build folders (build/test-sim, build/sim-tests, ...):
    # each is compiled once a run, not once a folder (sim/vlcache.py).
    os.environ.setdefault(vlcache.ROOT_VARIABLE, str(ROOT / "build" / "verilator-runtime"))
    # Kernel proofs kept across clones, as ccache keeps compiles: a fresh clone (CI's) proved every kernel of the
    # suite again, about half of what the probe files cost. Keys hold the prover's code, z3's and Yosys's versions, so a
    # reused verdict is the one the prover would reach; the prover's own tests prove into their tmp_path.
    os.environ.setdefault("MAINSPRING_PROVE_CACHE", str(shared_cache_dir()))
    if getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadgroup"
    # A worker names its tests by group (`nodeid@group`, what the controller schedules by) only if it was told
    # (xdist decides that from the command line, which says `load`).
    if getattr(config, "workerinput", {}).get("mainspring_loadgroup"):
        config.option.loadgroup = True


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    node.workerinput["mainspring_loadgroup"] = node.config.getvalue("dist") == "loadgroup"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """On a worker under `loadgroup`, name each grouped test `nodeid@group`, what the controller schedules by.
    xdist 3.8 does it by assigning `item._nodeid`, which pytest 9.2 no longer reads (it keeps a NodeId in
    `item._id`), so without this every grouped test would be scheduled on its own."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        groups = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                         for m in item.iter_markers("xdist_group")})
        if not groups or item.nodeid.rfind("@") > item.nodeid.rfind("]"):
            continue  # ungrouped, or xdist named it already
        renamed = f"{item.nodeid}@{'_'.join(groups)}"
        try:
            if hasattr(item, "_id"):
                item._id = type(item._id).parse(renamed)
            else:
                item._nodeid = renamed
        except (AttributeError, TypeError):  # another pytest's internals: the tests then run ungrouped
            return
