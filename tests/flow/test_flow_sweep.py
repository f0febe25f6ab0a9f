"""`mainspring sweep` on Dask: a small grid (two apps, two input sizes each, Icarus) on a LocalCluster of two worker
processes, the same grid on a scheduler and a worker started as separate processes (`dask scheduler`, `dask
worker`, the way a user starts a cluster) with the same table but for the timing column, and the pieces: the
grid, the Pareto front, a failing point as a row."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mainspring.frontend.errors import HalideError
from mainspring.sim import require_simulator
from mainspring.sweep import (
    COLUMNS,
    TIMING,
    Point,
    grid,
    pareto_front,
    parse_ints,
    parse_tiles,
    read_csv,
    run_point,
    run_sweep,
)

from conftest import ROOT

APPS = ["gaussian", "gaussian_glb"]
SIZES = "16,24"


def _local_sweep(out: Path, build_dir: Path) -> tuple[list[dict], list[str]]:
    """The grid on a LocalCluster of 2 worker processes: (rows, progress lines). Not timed: a loaded machine
    (the suite's other worker, other jobs) made a time bound fail while the sweep was right."""
    lines: list[str] = []
    points = grid(APPS, [(16, 16), (24, 24)], [1], None, None, "icarus")
    rows = run_sweep(points, out, workers=2, build_dir=build_dir, progress=lines.append)
    return rows, lines


def _check_local(out: Path, rows: list[dict], lines: list[str]) -> None:
    table = read_csv(out / "sweep.csv")
    assert list(table[0]) == list(COLUMNS)
    assert [(r["app"], r["size"]) for r in table] == [(a, s) for a in APPS for s in ("16x16", "24x24")]  # grid order
    for r in table:
        assert r["error"] == "", r
        assert r["simulator"] == "icarus" and r["bit_exact"] == "True"
        assert int(r["cycles"]) == int(r["predicted_cycles"]) >= int(r["ideal_cycles"])  # no stalls in the bench
        assert int(r["pes"]) > 0 and int(r["mem_tiles"]) >= 1 and int(r["words"]) >= int(r["min_words"]) > 0
        assert int(r["cells"]) > 0  # Yosys, as `mainspring bench` counts them
        assert r["tile"] == "" and r["lanes"] == "1"
    assert [r["cycles"] for r in rows] == [int(r["cycles"]) for r in table]
    assert any("local Dask cluster of 2" in line for line in lines)
    assert any(line.startswith("sweep 4/4: ") for line in lines)
    svg = (out / "pareto.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "gaussian_glb" in svg and "Pareto" in svg


def _dask(*args: str) -> list[str]:
    exe = Path(sys.executable).with_name("dask")
    return [str(exe), *args] if exe.exists() else [sys.executable, "-m", "dask", *args]


@contextlib.contextmanager
def _process(cmd: list[str], log: Path):
    """A process in its own session, ended (its whole group: the worker's nanny and its worker) on exit."""
    with log.open("w") as fh:
        p = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
    try:
        yield p
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=10)


def test_sweep_on_a_local_cluster_and_on_a_scheduler_and_a_worker_started_apart(tmp_path, build_dir):
    """One test (the second run compares with the first: pytest-xdist would run a shared fixture twice)."""
    require_simulator("icarus")
    out_local = tmp_path / "local"
    rows, lines = _local_sweep(out_local, build_dir)
    _check_local(out_local, rows, lines)
    info = tmp_path / "scheduler.json"
    with _process(_dask("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file",
                        str(info)), tmp_path / "scheduler.log"):
        deadline = time.monotonic() + 60
        while not (info.exists() and info.stat().st_size):
            assert time.monotonic() < deadline, (tmp_path / "scheduler.log").read_text()
            time.sleep(0.2)
        time.sleep(0.2)  # the file is written whole, but be sure
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        with _process(_dask("worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                            "--local-directory", str(tmp_path / "worker")), tmp_path / "worker.log"):
            out = tmp_path / "sweep"
            run = subprocess.run([sys.executable, "-m", "mainspring.cli", "sweep", *APPS, "--sizes", SIZES,
                                  "--simulator", "icarus", "--cluster", address, "-o", str(out)],
                                 capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
                                 env={**os.environ, "MAINSPRING_BUILD_DIR": str(build_dir)})
    assert run.returncode == 0, run.stdout + run.stderr + (tmp_path / "worker.log").read_text()[-3000:]
    assert "4 of 4 points done, 0 failed" in run.stdout
    assert f"connected to the Dask scheduler at {address}" in run.stderr and "sweep 4/4: " in run.stderr

    def untimed(path):
        return [{k: v for k, v in r.items() if k not in TIMING} for r in read_csv(path)]

    assert untimed(out / "sweep.csv") == untimed(out_local / "sweep.csv")  # the same table as on the LocalCluster
    assert (out / "pareto.svg").stat().st_size > 0


# ---- the pieces, without a cluster ----

def test_grid_applies_glb_tiles_to_the_apps_that_take_one():
    points = grid(["gaussian", "gaussian_glb"], [(64, 64)], [1, 2], [(32, 32), (64, 64)], [512], "none")
    assert [(p.app, p.lanes, p.tile, p.mem_tile_words) for p in points] == [
        ("gaussian", 1, None, 512), ("gaussian", 2, None, 512),
        ("gaussian_glb", 1, (32, 32), 512), ("gaussian_glb", 1, (64, 64), 512),
        ("gaussian_glb", 2, (32, 32), 512), ("gaussian_glb", 2, (64, 64), 512)]
    with pytest.raises(HalideError, match=r"unknown app 'gausian'.*did you mean"):
        grid(["gausian"], [(64, 64)], [1], None, None, "none")


def test_list_options_are_checked():
    assert parse_ints("--lanes", "1, 2,4") == [1, 2, 4]
    assert parse_tiles("240x216,64") == [(240, 216), (64, 64)]
    with pytest.raises(HalideError, match=r"--lanes 1,0: '0' is not a positive integer"):
        parse_ints("--lanes", "1,0")
    with pytest.raises(HalideError, match=r"--glb-tiles 24x: '24x' is not a tile size"):
        parse_tiles("24x")


def test_pareto_front():
    assert pareto_front([(18, 4098), (36, 2050), (36, 2100), (72, 1090), (72, 2000), (18, 5000)]) == [
        (18, 4098), (36, 2050), (72, 1090)]
    assert pareto_front([]) == []


def test_a_failing_point_is_a_row_with_its_error():
    row = run_point(Point("brighten", (16, 16), 2, None, None, "none"))
    assert row["app"] == "brighten" and row["lanes"] == 2 and row["pes"] is None
    assert row["error"].startswith("HalideError: --lanes 2: app brighten's build() takes no lanes parameter")


def test_mem_tile_words_reach_the_target():
    small = run_point(Point("gaussian", (64, 64), 1, None, 64, "none"))
    assert small["error"] is None and small["mem_tile_words"] == 64
    big = run_point(Point("gaussian", (64, 64), 1, None, None, "none"))
    assert small["mem_tiles"] > big["mem_tiles"]  # a 122-word delay line spans two 64-word tiles


def test_a_dead_cluster_address_and_an_unknown_simulator_are_explained(tmp_path):
    from mainspring.sweep import run_sweep

    # Dask retries a refused address until the connect timeout (the sweep's 30 s by default), then raises the same
    # OSError as after 2 s: the test waits 2.
    points = grid(["gaussian"], [(16, 16)], [1], None, None, "none")
    with pytest.raises(HalideError, match=r"--cluster tcp://127\.0\.0\.1:9: no Dask scheduler answers there within "
                                          r"2s .*start one with `dask scheduler`"):
        run_sweep(points, tmp_path, cluster="tcp://127.0.0.1:9", progress=lambda msg: None, connect_timeout="2s")
    with pytest.raises(HalideError, match=r"--simulator vcs: use one of"):
        grid(["gaussian"], [(16, 16)], [1], None, None, "vcs")
