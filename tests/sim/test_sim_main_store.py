"""mainspring's Verilator main is compiled once per set of build options and stored with Verilator's runtime
(sim/vlcache.py): it reaches the model only through ms_verilator_model.cpp's functions, which every design's own
one-file compile includes."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mainspring.sim import build, require_simulator, require_tool, runner, vlcache
from mainspring.sim.toolchain import prepare_environment

from sim_helpers import ADDERS, adder_streams


def _compiles(log: str, obj: str) -> bool:
    return any(line.rstrip().split(" -o ")[-1].startswith(f"{obj} ") for line in log.splitlines() if " -c " in line)


def _adder_bench(build_dir):
    inputs, output, expected = adder_streams(24, seed=5)
    bench = build(ADDERS, "add2", inputs, output, simulator="verilator", build_dir=build_dir, quick=True)
    result = bench.run(inputs, output, bubbles=0.2, backpressure=0.2, seed=3, progress=False)
    np.testing.assert_array_equal(result.words, expected)
    return bench, (bench.directory / "build.log").read_text()


def test_a_seeded_build_links_the_stored_main_and_compiles_only_the_design(tmp_path):
    require_simulator("verilator")
    _adder_bench(tmp_path / "first")  # stores the runtime and the main, unless an earlier build did
    bench, log = _adder_bench(tmp_path / "second")
    store = vlcache.runtime_dir(vlcache.cache_root(tmp_path / "second"), False,
                                runner.build_args("verilator", False, quick=True))
    assert vlcache.is_stored(store) and (store / "ms_verilator_main.o").is_file()
    assert not _compiles(log, "ms_verilator_main.o") and _compiles(log, "Vtop__ALL.o"), log[-3000:]
    assert "ms_verilator_main.o" in next(line for line in log.splitlines() if " -o mainspring_tb" in line)
    source = (bench.directory / vlcache.ALL_SOURCE).read_text()
    assert f'#include "{vlcache.MODEL_SOURCE.name}"' in source.split('#pragma GCC optimize ("O0")')[0], source


def test_the_runtime_store_is_keyed_by_the_mains_text(tmp_path, monkeypatch):
    # A seeded object is never rebuilt (it is touched newer than its sources), so an edited main needs a new store.
    require_simulator("verilator")
    before = vlcache.runtime_dir(tmp_path, False, ["-Wno-fatal"])
    edited = tmp_path / "ms_verilator_main.cpp"
    edited.write_text(vlcache.MAIN_SOURCE.read_text() + "\n// edited\n")
    monkeypatch.setattr(vlcache, "MAIN_SOURCE", edited)
    assert vlcache.runtime_dir(tmp_path, False, ["-Wno-fatal"]) != before


def test_a_store_whose_path_has_a_space_leaves_the_build_its_own_header(tmp_path):
    # make would split `MS_PCH=/a store/...`: the build precompiles the folder's own header instead.
    build = tmp_path / "build"
    build.mkdir()
    args, own = vlcache.prepare_pch(build, tmp_path / "a store")
    assert own and f"MS_PCH={build.resolve() / vlcache.PCH_HEADER}" in args
    args, own = vlcache.prepare_pch(build, tmp_path / "store")
    assert not own and f"MS_PCH={(tmp_path / 'store').resolve() / vlcache.PCH_HEADER}" in args
    assert (build / vlcache.MODEL_SOURCE.name).read_text() == vlcache.MODEL_SOURCE.read_text()


def test_ccache_finds_a_designs_compile_again(tmp_path, monkeypatch):
    # The model's compile includes the stored precompiled header, which ccache caches only with the sloppiness
    # prepare_environment sets (without it: "could_not_use_precompiled_header", every model compiled anew). The
    # generated C++ names the bench's path, so a hit needs the same build folder: a clone's rebuilt one.
    require_simulator("verilator")
    require_tool(shutil.which("ccache") is not None, "ccache")
    monkeypatch.setenv("CCACHE_DIR", str(tmp_path / "ccache"))
    monkeypatch.delenv("CCACHE_DISABLE", raising=False)
    prepare_environment()
    if Path(os.environ.get("OBJCACHE", "")).name != "ccache":
        pytest.skip("Verilator builds use another OBJCACHE here")

    def hits() -> int:
        stats = subprocess.run(["ccache", "--print-stats"], capture_output=True, text=True, check=True).stdout
        return int(dict(line.split("\t") for line in stats.splitlines()).get("direct_cache_hit", "0"))

    bench, _ = _adder_bench(tmp_path / "build")
    shutil.rmtree(bench.directory)
    before = hits()
    _, log = _adder_bench(tmp_path / "build")
    assert _compiles(log, "Vtop__ALL.o") and hits() == before + 1, log[-3000:]
