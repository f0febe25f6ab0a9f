"""`mainspring sweep`: compile (and simulate) every point of a design-space grid on Dask.distributed.

The grid is apps x input sizes x lanes x GLB tiles (apps whose build() takes `glb_tile`) x memory-tile sizes
(`hl.CGRA(mem_tile_words=...)`). Each point is one task: a worker builds the app for the point's input size,
compiles it, counts Yosys cells (at the sizes `mainspring bench` counts them) and, unless the simulator is
`none`, simulates it and compares the output with the reference bit for bit. A point that fails is a row with
its error; the others go on. Rows come out in grid order, whichever worker finished first, so a sweep gives the
same table on a LocalCluster and on a cluster of machines (`--cluster tcp://host:8786`) except for the timing
column `compile_s`. Simulator builds are cached by content under the build directory (Verilator's too): workers
that share a filesystem share them.

Writes DIR/sweep.csv (COLUMNS) and DIR/pareto.svg (PEs against cycles per app, each input size's Pareto front
marked).
"""

from __future__ import annotations

import csv
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

COLUMNS = ("app", "size", "lanes", "tile", "mem_tile_words", "simulator", "compile_s", "cycles", "predicted_cycles",
           "ideal_cycles", "pes", "mem_tiles", "words", "min_words", "cells", "bit_exact", "error")
TIMING = ("compile_s",)  # the columns that differ from run to run
SIMULATORS = ("verilator", "icarus", "none")


@dataclass(frozen=True)
class Point:
    """One design of the grid. `tile`: the GLB output tile (None: the app's default, or an app without a GLB
    tile parameter); `mem_tile_words`: None for the app's target as it is."""

    app: str
    size: tuple[int, int]  # the input size, as `mainspring bench` takes it
    lanes: int
    tile: tuple[int, int] | None
    mem_tile_words: int | None
    simulator: str

    def label(self) -> str:
        parts = [self.app, _wxh(self.size), f"lanes {self.lanes}"]
        if self.tile is not None:
            parts.append(f"GLB tile {_wxh(self.tile)}")
        if self.mem_tile_words is not None:
            parts.append(f"memory tile {self.mem_tile_words} words")
        return ", ".join(parts)


def _wxh(size: tuple[int, int] | None) -> str:
    return "" if size is None else f"{size[0]}x{size[1]}"


# ---- the command line's lists ----

def parse_ints(option: str, spec: str) -> list[int]:
    """A comma-separated list of positive integers (`--lanes 1,2,4`, `--mem-tile-words 512,2048`)."""
    from .frontend.errors import HalideError

    out = []
    for raw in spec.split(","):
        part = raw.strip()
        if not part.isdigit() or int(part) < 1:
            raise HalideError(f"{option} {spec}: '{part}' is not a positive integer; give a comma-separated list, "
                              f"e.g. {option} {'1,2,4' if option == '--lanes' else '512,2048'}")
        out.append(int(part))
    return out


def parse_tiles(spec: str) -> list[tuple[int, int]]:
    """`--glb-tiles`: comma-separated GLB output tiles, N (square) or WxH."""
    from .bench import parse_pairs

    return parse_pairs("--glb-tiles", spec, "a tile size", "240x216,120x108")


def takes_glb_tile(app: str) -> bool:
    """Whether the app's build() takes a GLB tile (`glb_tile`), so that `--glb-tiles` applies to it. An unknown
    app is refused here (HalideError), before any worker starts."""
    import inspect

    from . import apps

    return "glb_tile" in inspect.signature(apps.load(app).build).parameters


def grid(app_names: Sequence[str], sizes: Sequence[tuple[int, int]], lanes: Sequence[int],
         tiles: Sequence[tuple[int, int]] | None, mem_tile_words: Sequence[int] | None,
         simulator: str) -> list[Point]:
    """Every point, apps outermost, then sizes, lanes, GLB tiles (only for apps that take one) and memory-tile
    sizes. Unknown apps are refused here, before any worker starts."""
    from .frontend.errors import HalideError

    if simulator not in SIMULATORS:
        raise HalideError(f"--simulator {simulator}: use one of {', '.join(SIMULATORS)}")
    points = []
    for app in app_names:
        app_tiles: Sequence[tuple[int, int] | None] = tiles if takes_glb_tile(app) and tiles else [None]
        for size in sizes:
            for k in lanes:
                for tile in app_tiles:
                    for words in mem_tile_words or [None]:
                        points.append(Point(app, tuple(size), k, tile, words, simulator))
    return points


# ---- one point (runs on a worker) ----

def run_point(point: Point, build_dir: str | None = None) -> dict:
    """The row of one point. Never raises: what fails is the row's `error` (with the figures got so far)."""
    from . import apps
    from .bench import build_for_input, cells_figures, storage_words
    from .compiler import compile  # noqa: A004 - mainspring's compile
    from .frontend.errors import MismatchError
    from .target import CGRA

    row = _base_row(point)
    try:
        mod = apps.load(point.app)
        out, inputs = build_for_input(mod, *point.size, lanes=point.lanes, glb_tile=point.tile)
        target = apps.target(mod)
        if point.mem_tile_words is not None:
            target = replace(target or CGRA(), mem_tile_words=point.mem_tile_words)
        start = time.perf_counter()
        design = compile(out, name=mod.NAME, target=target)
        row["compile_s"] = round(time.perf_counter() - start, 2)
        rep = design.report
        row["words"], row["min_words"] = storage_words(rep)
        row.update(predicted_cycles=rep["predicted_cycles"], ideal_cycles=rep["ideal_cycles"], pes=rep["pes"],
                   mem_tiles=rep["mem_tiles"])
        row["cells"] = cells_figures(design, *point.size).get("cells")
        if point.simulator != "none":
            try:
                res = design.check(inputs, simulator=point.simulator, build_dir=build_dir)
            except MismatchError as e:
                row["bit_exact"] = False
                row["error"] = _one_line(e)
            else:
                row["cycles"] = res.cycles
                row["bit_exact"] = True
    except Exception as e:  # noqa: BLE001 - one point that fails is a row; the sweep goes on
        row["error"] = _one_line(e)
    return row


def _base_row(point: Point) -> dict:
    row: dict = dict.fromkeys(COLUMNS)
    row.update(app=point.app, size=_wxh(point.size), lanes=point.lanes, tile=_wxh(point.tile),
               mem_tile_words=point.mem_tile_words, simulator=point.simulator)
    return row


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return f"{type(e).__name__}: {text}"[:500]


# ---- the whole sweep ----

def run_sweep(points: Sequence[Point], out_dir, cluster: str | None = None, workers: int | None = None,
              build_dir=None, progress: Callable[[str], None] = print, connect_timeout: str = "30s") -> list[dict]:
    """Run every point on Dask (a LocalCluster of `workers` processes, or the scheduler at `cluster`, given
    `connect_timeout` to answer: Dask's duration strings, "30s"), write out_dir/sweep.csv and out_dir/pareto.svg,
    and return the rows in grid order."""
    import logging

    from dask.distributed import Client, LocalCluster, as_completed

    from .frontend.errors import HalideError

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # Absolute, so that workers started elsewhere (another directory, another machine) build in the same place
    # when they share this filesystem.
    build = str(Path(build_dir or os.environ.get("MAINSPRING_BUILD_DIR", "build/sim")).resolve())
    local = None
    if cluster:
        try:
            client = Client(cluster, timeout=connect_timeout)
        except OSError as e:
            raise HalideError(f"--cluster {cluster}: no Dask scheduler answers there within {connect_timeout} ({e}); "
                              "start one with `dask scheduler` and workers with `dask worker ADDRESS`") from None
        progress(f"connected to the Dask scheduler at {cluster}; waiting for a worker")
        try:
            client.wait_for_workers(1, timeout=120)
        except TimeoutError:
            client.close()
            raise HalideError(f"--cluster {cluster}: the scheduler has no worker after 120 s; start one with "
                              f"`dask worker {cluster}`") from None
    else:
        n = workers or max(1, min(len(points), os.cpu_count() or 1))
        local = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                             silence_logs=logging.ERROR)
        client = Client(local)
        progress(f"started a local Dask cluster of {n} worker process(es)")
    rows: list[dict | None] = [None] * len(points)
    try:
        futures = client.map(run_point, list(points), build_dir=build, pure=False)
        where = {f.key: i for i, f in enumerate(futures)}
        progress(f"sweep: {len(points)} point(s)")
        for done, fut in enumerate(as_completed(futures), 1):
            i = where[fut.key]
            try:
                row = fut.result()
            except Exception as e:  # noqa: BLE001 - a worker that died (memory, a crash): the point's row says so
                row = _base_row(points[i])
                row["error"] = _one_line(e)
            rows[i] = row
            progress(f"sweep {done}/{len(points)}: {points[i].label()}: {_summary(row)}")
    finally:
        client.close()
        if local is not None:
            local.close()
    done_rows = [r for r in rows if r is not None]
    write_csv(done_rows, out / "sweep.csv")
    pareto_svg(done_rows, out / "pareto.svg")
    return done_rows


def _summary(row: dict) -> str:
    if row.get("error"):
        return f"error: {row['error']}"
    cycles = row["cycles"] if row.get("cycles") is not None else f"{row['predicted_cycles']} predicted"
    exact = ", bit-exact" if row.get("bit_exact") else ""
    return f"{row['pes']} PEs, {row['mem_tiles']} memory tile(s), {cycles} cycles{exact}"


def write_csv(rows: Sequence[dict], path) -> Path:
    path = Path(path)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({c: "" if r.get(c) is None else r[c] for c in COLUMNS})
    return path


def read_csv(path) -> list[dict[str, str]]:
    with Path(path).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


# ---- the Pareto picture ----

def pareto_front(points: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (pes, cycles) points no other point beats in both (fewer or as many of each, fewer of one), sorted by
    PEs."""
    front: list[tuple[int, int]] = []
    for p in sorted(set(points)):
        if not front or p[1] < front[-1][1]:
            front.append(p)
    return front


def _cycles(row: dict) -> int | None:
    for key in ("cycles", "predicted_cycles"):
        v = row.get(key)
        if v not in (None, ""):
            return int(v)
    return None


def _config(row: dict) -> str:
    """A point's knobs in a few characters: lanes, GLB tile, memory-tile words."""
    text = f"{row['lanes']} lane{'s' if str(row['lanes']) != '1' else ''}"
    if row.get("tile"):
        text += f", tile {row['tile']}"
    if row.get("mem_tile_words") not in (None, ""):
        text += f", {row['mem_tile_words']} w/tile"
    return text


def pareto_svg(rows: Sequence[dict], path) -> Path:
    """PEs against cycles (measured, else predicted), a panel per app, a colour per input size; each size's
    Pareto front is joined by a line and its points filled (the dominated ones are hollow)."""
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    ok = [r for r in rows if not r.get("error") and r.get("pes") not in (None, "") and _cycles(r) is not None]
    app_names = list(dict.fromkeys(r["app"] for r in rows)) or ["(no points)"]
    cols = min(3, len(app_names))
    nrows = -(-len(app_names) // cols)
    with matplotlib.rc_context({"svg.hashsalt": "mainspring", "svg.fonttype": "none"}):
        fig = Figure(figsize=(5 * cols, 3.8 * nrows), layout="constrained")
        axes = fig.subplots(nrows, cols, squeeze=False)
        for ax in axes.flat[len(app_names):]:
            ax.set_visible(False)
        for ax, app in zip(axes.flat, app_names):
            mine = [r for r in ok if r["app"] == app]
            for k, size in enumerate(dict.fromkeys(r["size"] for r in mine)):
                here = [r for r in mine if r["size"] == size]
                pts = [(int(r["pes"]), _cycles(r)) for r in here]
                front = pareto_front(pts)
                colour = f"C{k % 10}"
                for r, p in zip(here, pts):
                    ax.annotate(_config(r), p, textcoords="offset points", xytext=(4, 4), fontsize=7, color=colour)
                rest = [p for p in pts if p not in front]
                if rest:
                    ax.scatter([p[0] for p in rest], [p[1] for p in rest], facecolors="none", edgecolors=colour, s=36)
                ax.plot([p[0] for p in front], [p[1] for p in front], "-o", color=colour, drawstyle="steps-post",
                        markersize=6, label=f"input {size} (front)")
            failed = sum(1 for r in rows if r["app"] == app and r.get("error"))
            ax.set_title(app + (f" ({failed} failed)" if failed else ""))
            ax.set_xlabel("PEs")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_ylabel("cycles")
            ax.grid(True, alpha=0.3)
            ax.margins(x=0.2, y=0.1)
            if mine:
                ax.legend(fontsize="small")
                spread = max(_cycles(r) or 1 for r in mine) / max(1, min(_cycles(r) or 1 for r in mine))
                if spread > 50:
                    ax.set_yscale("log")
            else:
                ax.text(0.5, 0.5, "no successful point", ha="center", va="center", transform=ax.transAxes)
        fig.suptitle("PEs against cycles: each input size's Pareto front joined, dominated points hollow")
        path = Path(path)
        fig.savefig(path, format="svg", metadata={"Date": None})
    return path
