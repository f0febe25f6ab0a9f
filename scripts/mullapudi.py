"""Issue 11's side-by-side table: real Halide's Mullapudi2016 CPU schedule and mainspring's automatic hardware
schedule of the same unscheduled algorithms (the apps whose build() takes `auto`), at 1920x1080 estimates.

    .venv/bin/python scripts/mullapudi.py [APP ...]

Each app module runs twice: once as written (mainspring), once with `hl` bound to the halide PyPI package (its
language is Halide's Python binding, so the same source builds a Halide pipeline), its `autoschedule` hook
replaced by Halide's Mullapudi2016 plugin with a host target. Prints a Markdown table: the Funcs each schedule
computes at the output's tile loop (Mullapudi's groups; mainspring's buffers in the accelerator tile), the ones
computed at the root, the tile, and each scheduler's time on this machine.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import time
import types
from pathlib import Path

import halide

from mainspring import apps
from mainspring.frontend.pipeline import Pipeline

APPS = ["gaussian", "cascade", "harris", "h2h_unsharp", "h2h_camera_pipeline"]
WIDTH, HEIGHT = 1920, 1080
# Halide's defaults for a CPU with 8 cores and a 1 MiB last-level cache; balance is its load/compute cost ratio.
MULLAPUDI = {"parallelism": "8", "last_level_cache_size": "1048576", "balance": "40"}


@functools.cache
def _load_mullapudi() -> None:
    halide.load_plugin(str(Path(halide.__file__).parent / "lib64" / "libautoschedule_mullapudi2016.so"))


class _HalideWithParams:
    """The halide module as an app's `hl`: it records every ImageParam (Mullapudi needs their estimates), and its
    Pipeline's apply_autoscheduler runs Mullapudi2016 for a host CPU whatever target and parameters the app names
    (mainspring's hl.CGRA and "Mainspring" parameters)."""

    def __init__(self, images: dict) -> None:
        self.params: list = []
        self.images = images
        self.found: list[tuple[str, float]] = []

    def __getattr__(self, name: str):
        return getattr(halide, name)

    def ImageParam(self, *args):  # noqa: N802 (Halide's names)
        p = halide.ImageParam(*args)
        self.params.append(p)
        return p

    def CGRA(self, *args, **kwargs):  # noqa: N802
        return None

    def AutoschedulerParams(self, *args, **kwargs):  # noqa: N802
        return None

    def Pipeline(self, output):  # noqa: N802
        return types.SimpleNamespace(apply_autoscheduler=lambda target, params: self._schedule(output))

    def _schedule(self, output):
        for p in self.params:  # numpy shapes list Halide's dimensions last to first
            p.set_estimates([(0, e) for e in self.images[p.name()].shape[::-1]])
        _load_mullapudi()
        t = time.perf_counter()
        params = halide.AutoschedulerParams("Mullapudi2016", MULLAPUDI)
        result = halide.Pipeline(output).apply_autoscheduler(halide.Target("x86-64-linux"), params)
        self.found.append((result.schedule_source, time.perf_counter() - t))
        return result


def _module_on_halide(name: str, hl: _HalideWithParams) -> types.ModuleType:
    path = Path(apps.__file__).parent / f"{name}.py"
    source = path.read_text().replace("import mainspring as hl", "hl = _hl")
    assert "hl = _hl" in source, f"{path} does not import mainspring as hl"
    mod = types.ModuleType(f"mainspring.apps._on_halide_{name}")
    mod.__package__ = "mainspring.apps"  # its relative imports (.common, .lanes) still resolve
    mod.__file__ = str(path)
    mod.__dict__["_hl"] = hl
    exec(compile(source, str(path), "exec"), mod.__dict__)

    def autoschedule(output, width, height, lanes=1, **extra):  # apps/common.py's hook, on Halide
        output.set_estimates([(0, width), (0, height)])
        return hl.Pipeline(output).apply_autoscheduler(None, None).schedule_source

    mod.autoschedule = autoschedule
    # mainspring's bounds of the input, for the input's size: here the image mainspring's build made.
    mod.input_extent = lambda output, image: hl.images[image].shape[::-1][:2]
    return mod


def schedules(name: str) -> tuple[tuple[str, float], tuple[str, float]]:
    """((mainspring's schedule source, its seconds), (Mullapudi2016's, its seconds)) at 1920x1080."""
    found: list[tuple[str, float]] = []
    original = Pipeline.apply_autoscheduler

    def timed(self, target, params):
        t = time.perf_counter()
        result = original(self, target, params)
        found.append((result.schedule_source, time.perf_counter() - t))
        return result

    Pipeline.apply_autoscheduler = timed
    try:
        _, images = apps.load(name).build(WIDTH, HEIGHT, auto=True)
    finally:
        Pipeline.apply_autoscheduler = original
    hl = _HalideWithParams(images)
    _module_on_halide(name, hl).build(WIDTH, HEIGHT, auto=True)
    assert len(found) == len(hl.found) == 1, (name, len(found), len(hl.found))
    return found[0], hl.found[0]


def halide_groups(src: str) -> tuple[list[str], list[str], str]:
    """(Funcs computed at the output's tile loop, Funcs computed at the root but the output, the output's tile)."""
    at = re.findall(r"^    (\w+)\n\s+\.compute_at\(\w+, x_o\)", src, re.MULTILINE)
    root = re.findall(r"^    (\w+)\n\s+\.compute_root\(\)", src, re.MULTILINE)
    output = src[re.search(r"^    output(_\d+)?\n", src, re.MULTILINE).start():]  # Halide renames a reused name
    tx = re.search(r"\.split\(x, x_o, x_i, (\d+)\)", output)
    ty = re.search(r"\.split\(y, y_o, y_i, (\d+)\)", output)
    tile = f"{tx[1] if tx else 'row'}x{ty[1] if ty else 1}" if tx or ty else "none (root)"
    return at, [f for f in root if not re.fullmatch(r"output(_\d+)?", f)], tile


def mainspring_groups(src: str) -> tuple[list[str], str]:
    """(Funcs computed at the accelerator's tile loop, the accelerator's tile)."""
    at = re.findall(r'funcs\["(\w+)"\]\.compute_at\(funcs\["\w+"\], xo\)', src)
    tile = re.search(r"\.tile\([^)]*, (\d+), (\d+)\)\.hw_accelerate", src)
    return at, f"{tile[1]}x{tile[2]}" if tile else "?"


def main(names: list[str]) -> None:
    if names[:1] == ["--row"]:
        names = names[1:]
    else:
        print("| app | Mullapudi2016 (CPU): at the tile loop; root; tile | its time | "
              "mainspring: buffered in the accelerator tile; tile | its time |")
        print("|---|---|---|---|---|", flush=True)
    for name in names:
        if len(names) > 1:  # one process per app: Halide renames a Func whose name an earlier app's took
            subprocess.run([sys.executable, __file__, "--row", name], check=True)
            continue
        (msrc, ms), (hsrc, hs) = schedules(name)
        at, root, tile = halide_groups(hsrc)
        mat, mtile = mainspring_groups(msrc)
        print(f"| {name} | {', '.join(at) or '-'}; root: {', '.join(root) or '-'}; {tile} | {hs:.2f} s | "
              f"{', '.join(mat) or '-'}; {mtile} | {ms:.3f} s |")


if __name__ == "__main__":
    main(sys.argv[1:] or APPS)
