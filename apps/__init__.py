"""Real pipelines with their hardware schedules.

The app convention (also for a user's own file passed to `mainspring sim path/to/app.py`): a module with
- `NAME`: the design name;
- `DEFAULT_SIZE`: the default output size (width, height);
- optionally `output_size(in_width, in_height)`: the output size for an input size, where the output is not the
  input less a border (the bench's sizes are input sizes);
- optionally `TARGET`: the `hl.CGRA` the app is built for, where the default array is too small (`target(mod)`);
- `build(width, height) -> (output_func, inputs)`: the algorithm with its hardware schedule, output bounded to
  width x height, and a dict of input arrays keyed by ImageParam name (deterministic pseudo-random data,
  indexed arr[y, x]) covering what the schedule reads.
A user's file may instead hold one `@hl.generator` class and no build(): see `GeneratorApp`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os

__all__ = ["APPS", "SINGLE_LEVEL", "REFERENCE", "load", "build", "target"]

SINGLE_LEVEL = ("brighten", "gaussian", "cascade", "harris")  # the array streams straight from and to the host
# gaussian_glb: seed 002's three levels (host, GLB, memory tiles); upsample: more output than input words
# Ports of the reference system's generators with their own schedules (../shared/h2h/README.md)
REFERENCE = ("h2h_pointwise", "h2h_cascade", "h2h_cascade_glb", "h2h_harris", "h2h_conv_3_3", "h2h_down_sample",
             "h2h_up_sample", "h2h_gaussian", "h2h_rom", "h2h_unsharp", "h2h_camera_pipeline", "h2h_histogram",
             "h2h_three_level_memory")
# Ports that are bit-exact but not yet at the ideal rate or the minimum storage (BENCHMARKS.md): the accumulation's
# serial reduction, conv_layer_mobile's serial reduction over input channels with the output channels unrolled,
# resnet_layer_gen's weight-stationary sweeps (the first sweep waits for the image at a word per cycle).
# histogram: 256 bins, a RAM updated read-modify-write at the computed bin
APPS = SINGLE_LEVEL + ("gaussian_glb", "upsample", "histogram") + REFERENCE + (
    "h2h_accumulation", "h2h_conv_layer_mobile", "h2h_resnet_layer_gen")


def load(name_or_path: str):
    """The app module named `name_or_path` (an app of this folder, or the path of a user's Python file)."""
    from mainspring.frontend.errors import HalideError

    if name_or_path in APPS:
        return importlib.import_module(f"mainspring.apps.{name_or_path}")
    if name_or_path.endswith(".py") and not os.path.isfile(name_or_path):
        raise HalideError(f"app file '{name_or_path}' does not exist; give the path of a Python file with NAME, "
                          f"DEFAULT_SIZE and build(width, height), or one of the apps {', '.join(APPS)}")
    if name_or_path.endswith(".py"):
        spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(name_or_path))[0], name_or_path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        if not hasattr(mod, "build") and (gens := _generators(mod)):
            return _generator_app(name_or_path, gens)
        for attr in ("NAME", "DEFAULT_SIZE", "build"):
            if not hasattr(mod, attr):
                raise HalideError(f"{name_or_path} does not follow the app convention: it has no {attr} "
                                  "(see mainspring.apps)")
        return mod
    from mainspring.frontend.errors import did_you_mean

    raise HalideError(f"unknown app '{name_or_path}': use one of {', '.join(APPS)} or the path of a .py file"
                      f"{did_you_mean(name_or_path, APPS)}")


def _generators(mod) -> list:
    from mainspring.frontend.generator import Generator

    return [v for v in vars(mod).values()
            if isinstance(v, type) and issubclass(v, Generator) and v.__module__ == mod.__name__]


class GeneratorApp:
    """A user's file holding one `@hl.generator` class (and no build()): the app is the Generator, built with
    the command line's GeneratorParams (`-p key=value`); its output's size is the one its generate() bounds, and
    its inputs are the design's example inputs."""

    DEFAULT_SIZE = None

    def __init__(self, cls):
        self.generator = cls
        name = "".join(c if c.isalnum() else "_" for c in cls._halide_registered_name or cls.__name__)
        self.NAME = name if name.isidentifier() else f"gen_{name}"

    def instance(self, params: dict[str, str], auto: bool):
        from mainspring.frontend.errors import HalideError
        from mainspring.frontend.generator import param_names, unknown_param

        for key, value in params.items():
            if key not in param_names(self.generator) and not key.startswith("autoscheduler"):
                raise HalideError(f"-p {key}={value}: {unknown_param(self.generator, key)}")
        if auto:
            params = {"autoscheduler": "Mainspring", **params}
        return self.generator(generator_params=params)


def _generator_app(path: str, gens: list) -> GeneratorApp:
    from mainspring.frontend.errors import HalideError

    if len(gens) > 1:
        raise HalideError(f"{path} holds {len(gens)} Generators ({', '.join(g.__name__ for g in gens)}): the command "
                          "line compiles a file with one; move the others to files of their own")
    return GeneratorApp(gens[0])


def target(mod):
    """The `hl.CGRA` an app is compiled for: its `TARGET`, or None for the default array."""
    return getattr(mod, "TARGET", None)


def offers_auto(mod) -> bool:
    """Whether the app's build() offers its algorithm unscheduled (`auto=True`: `--auto`)."""
    import inspect

    return "auto" in inspect.signature(mod.build).parameters


def build(mod, width: int, height: int, lanes: int = 1, auto: bool = False, glb_tile: tuple[int, int] | None = None):
    """`mod.build(width, height[, lanes=][, auto=True][, glb_tile=])`, checked to return (output_func,
    {input_name: array}). `auto`: the app's algorithm scheduled by the automatic scheduler instead of its hand
    schedule; `glb_tile`: the GLB output tile (W, H) of an app with a GLB level."""
    import inspect

    from mainspring.frontend.errors import HalideError

    params = inspect.signature(mod.build).parameters
    kw: dict = {}
    if lanes != 1:
        if "lanes" not in params:
            raise HalideError(f"--lanes {lanes}: app {mod.NAME}'s build() takes no lanes parameter; unroll its stages "
                              "yourself (see mainspring/apps/lanes.py)")
        kw["lanes"] = lanes
    if auto:
        if not offers_auto(mod):
            raise HalideError(f"--auto: app {mod.NAME}'s build() takes no auto parameter (it offers no unscheduled "
                              "algorithm); give build() an `auto=False` parameter that skips the hand schedule and "
                              "calls apply_autoscheduler, as every app of mainspring.apps does (e.g. "
                              "mainspring/apps/brighten.py)")
        kw["auto"] = True
    if glb_tile is not None:
        if "glb_tile" not in params:
            raise HalideError(f"--glb-tiles {glb_tile[0]}x{glb_tile[1]}: app {mod.NAME}'s build() takes no glb_tile "
                              "parameter (it has no GLB level, or a fixed GLB tile); the app that does: gaussian_glb")
        kw["glb_tile"] = tuple(glb_tile)
    built = mod.build(width, height, **kw)
    if not (isinstance(built, tuple) and len(built) == 2 and isinstance(built[1], dict)):
        raise HalideError(f"app {mod.NAME}: build({width}, {height}) returned {type(built).__name__}, not "
                          "(output_func, {input_name: array}); end build() with e.g. return output, {\"input\": image}")
    return built
