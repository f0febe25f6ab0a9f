"""The error catalogue (issue 9): every user mistake mainspring refuses, as a small program, its pinned message
and the same program with the fix the message suggests, which must compile (Halide's `test/error`, with the
fix beside each error).

A case is a pair of functions: the mistake (registered with `@case(...)`) and its fix (`@<mistake>.fix`). Both
end with what the user runs (`hl.compile`, `realize`, `design.check`, the command line). In the mistake, the
line the message points at ends with the comment `# <-` (a second location with `# <-2`); the pinned message
writes that location `{at}` (and `{at2}`), so moving code does not break the pins. A line of a shared helper
that messages point at ends with `# <-NAME` and is written `{NAME}`.

`gaps` lists what a message lacks (`func`: the Func's name, `location`: the user's file:line, `fix`: a fix that
works); tests/errors/test_catalogue.py checks the list is exactly right, so a gap is a finding on record and a
fixed message is noticed. `docs/errors.md` is generated from this module by scripts/errors_doc.py.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np

import mainspring as hl

ROOT = Path(__file__).resolve().parents[2]
SIM_BUILD = ROOT / "build" / "test-sim"

# The stages, in the order a program meets them, with the folders whose raise sites each one covers.
STAGES = {
    "algorithm": ("frontend/",),
    "schedule": ("frontend/",),
    "hardware": ("hwlower/",),
    "memories": ("memories/", "mainspring/compiler.py", "mainspring/target.py"),
    "simulation": ("frontend/evaluate.py", "frontend/requirements.py", "mainspring/design.py"),
    "autoschedule": ("mainspring/autoschedule",),
    "command line": ("mainspring/", "apps/"),
}


@dataclass(frozen=True)
class Case:
    id: str
    stage: str
    title: str
    mistake: Callable[[], object]
    message: str
    fix: Callable[[], object] | None
    func: str | None = None         # the Func the message must name (None: the mistake is about no Func)
    regex: bool = False             # `message` is a regular expression (for numbers that vary with the design)
    error: type = hl.HalideError
    simulate: bool = False          # the fix's design is also checked bit-exactly on Icarus
    gaps: tuple[str, ...] = ()      # what the message lacks: "func", "location", "fix"
    note: str = ""                  # why a gap is a finding (shown in docs/errors.md and in the report)


_ENTRIES: list[dict] = []


class _Registration:
    def __init__(self, fields: dict):
        self.fields = fields

    def fix(self, fn: Callable[[], object]) -> Callable[[], object]:
        self.fields["fix"] = fn
        return fn


def case(stage: str, title: str, message: str, **kw) -> Callable:
    """Register the decorated function as the mistake of a case; `.fix` on the result registers its fix."""
    assert stage in STAGES, stage

    def register(mistake: Callable[[], object]) -> _Registration:
        fields = dict(id=mistake.__name__, stage=stage, title=title, mistake=mistake, message=message, fix=None,
                      **kw)
        _ENTRIES.append(fields)
        return _Registration(fields)

    return register


# The modules holding the cases, in the order of the stages (each registers its cases when imported).
CASE_MODULES = ("errors_algorithm", "errors_tuples", "errors_generators", "errors_expressions", "errors_schedule",
                "errors_compute_at", "errors_reorder", "errors_factors", "errors_halide_calls", "errors_hardware",
                "errors_index_rotation", "errors_lanes", "errors_rams", "errors_glb_lanes",
                "errors_glb_blocks", "errors_glb22", "errors_glbin22", "errors_glb_input_at", "errors_probe25",
                "errors_probe39", "errors_tiles", "errors_rows", "errors_blocks", "errors_tables",
                "errors_running", "errors_autoschedule")


_MARK = re.compile(r"# <-(\w*)\s*$")


def locations(c: Case) -> dict[str, str]:
    """The placeholders of `c`'s message and the file:line each stands for (paths as user_location writes
    them: relative to the working directory)."""
    out = {}
    lines, first = inspect.getsourcelines(c.mistake)
    for i, text in enumerate(lines):
        m = _MARK.search(text)
        if m and m.group(1) in ("", "2"):
            out["{at" + m.group(1) + "}"] = _loc(inspect.getsourcefile(c.mistake), first + i)
    for path in {__file__, inspect.getsourcefile(c.mistake)}:
        for i, text in enumerate(Path(path).read_text().splitlines(), 1):
            m = _MARK.search(text)
            if m and m.group(1) not in ("", "2"):
                out["{" + m.group(1) + "}"] = _loc(path, i)
    return out


def _loc(path: str, line: int) -> str:
    return f"{os.path.relpath(path)}:{line}"


def app_dir() -> Path:
    """Where the command-line cases write their app files: one folder per xdist worker, so that two workers never
    overwrite each other's file between its write and the command reading it."""
    return SIM_BUILD.parent / "errors" / os.environ.get("PYTEST_XDIST_WORKER", "local")


def normalise(message: str, c: Case) -> str:
    """The message with its user locations written as the case's placeholders (and the worker's folder of app
    files as build/errors)."""
    for key, loc in sorted(locations(c).items(), key=lambda kv: -len(kv[1])):
        message = re.sub(re.escape(loc) + r"(?!\d)", key, message)
    return message.replace(os.path.relpath(app_dir()), os.path.relpath(app_dir().parent))


def cases() -> list[Case]:
    import importlib

    for name in CASE_MODULES:
        importlib.import_module(name)
    return [Case(**fields) for fields in _ENTRIES]


# ---- helpers the programs share -----------------------------------------------------------------------------

def io_funcs(t=None):
    """x, y, the ImageParam `input`, hw_input (a copy of it, of type t: uint16 by default) and an undefined
    hw_output, for a case to define and accelerate (`accelerated`)."""
    t = t or hl.UInt(16)
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(t, 2, "input")
    hw_input, hw_output = hl.Func("hw_input"), hl.Func("hw_output")
    hw_input[x, y] = input_[x, y]
    return x, y, input_, hw_input, hw_output



def pipeline(width: int = 8, height: int = 8, wide: bool = True, input_vars: tuple[str, str] = ("x", "y")):
    """input -> hw_input -> mid (two taps along x) -> hw_output (two taps along y) -> output, bounded to
    width x height; 16-bit values (`wide`) or 8-bit; hw_input defined over Vars named `input_vars` (`ix`, `iy`)."""
    v = [hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi")]
    x, y = v[0], v[1]
    ix, iy = (hl.Var(n) for n in input_vars)
    t = hl.UInt(16) if wide else hl.UInt(8)
    input_ = hl.ImageParam(t, 2, "input")
    hw_input, mid, hw_output, output = hl.Func("hw_input"), hl.Func("mid"), hl.Func("hw_output"), hl.Func("output")
    hw_input[ix, iy] = input_[ix, iy]
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)  # <-bound_pipeline
    return SimpleNamespace(x=x, y=y, xo=v[2], yo=v[3], xi=v[4], yi=v[5], input=input_, hw_input=hw_input, mid=mid,
                           hw_output=hw_output, output=output, width=width, height=height, ix=ix, iy=iy)


def accelerate(p, tile: tuple[int, int] | None = None):
    """hw_output is the accelerator's output, one tile (or host tiles of `tile`), looping xi inside, xo outside."""
    w, h = tile or (p.width, p.height)
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, w, h).hw_accelerate(p.xi, p.xo)  # <-accelerate


def buffer(p, *funcs):
    """A memory inside the accelerator for each Func (mid by default), at the accelerator's loop xo."""
    for f in funcs or (p.mid,):
        f.compute_at(p.hw_output, p.xo)  # <-buffer


def stream(p):
    """hw_input is computed on the host and streamed into the accelerator."""
    p.hw_input.compute_root().stream_to_accelerator()  # <-stream


def reduction(extent, unrolled: bool = True):
    """hw_output sums `extent` taps of hw_input along x in an update over RDom r."""
    p = pipeline()
    r = hl.RDom([hl.Range(0, extent)], "r")
    acc = hl.Func("acc")
    acc[p.x, p.y] = hl.u16(0)
    acc[p.x, p.y] += p.hw_input[p.x + r.x, p.y]  # <-reduction
    if unrolled:
        acc.update().unroll(r.x)
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = acc[p.x, p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    p.r = r
    accelerate(p)
    stream(p)
    return p, acc


def glb_levels(p, glb_input: bool = True, mem_tile=(8, 8), array_at=None):
    """Seed 002's three levels on the pipeline: hw_output.in_() is the GLB output tile (16x16), hw_output is
    computed once per GLB tile in memory tiles of `mem_tile`, hw_input.in_() is the GLB input tile."""
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    out = p.hw_output.in_()
    out.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 16, 16).hw_accelerate(p.xi, p.xo)  # <-glb_tile
    out.store_in(hl.MemoryType.GLB)  # <-glb_output
    p.hw_output.tile(p.x, p.y, xio, yio, xii, yii, *mem_tile)
    p.hw_output.compute_at(out, p.xo if array_at is None else array_at)  # <-array
    p.mid.compute_at(p.hw_output, xio)
    p.hw_input.in_().in_().compute_at(p.hw_output, xio)  # <-glb_inner
    if glb_input:
        p.hw_input.in_().compute_at(out, p.xo).store_in(hl.MemoryType.GLB)
    p.hw_input.compute_root().accelerator_input()
    return p


def scheduled(width: int = 8, height: int = 8, wide: bool = True):
    """The pipeline with the whole working schedule: accelerate, buffer mid, stream hw_input."""
    p = pipeline(width, height, wide)
    accelerate(p)
    buffer(p)
    stream(p)
    return p


def accelerated(hw_output: hl.Func, hw_input: hl.Func, inner=(), size=(8, 8)) -> hl.Design:
    """The host's output (a copy of hw_output) and seed 002's schedule on any pipeline (as
    mainspring.apps.common.accelerate), compiled."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *size).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


def image(width: int, height: int, dtype=np.uint16) -> np.ndarray:
    return (np.arange(width * height) % 251).astype(dtype).reshape(height, width)


class CommandFailed(Exception):
    """The command line exited with a failure status; the message is what it printed on stderr."""


def command(*args: str) -> str:
    """Run `mainspring ARGS...` in-process; its stdout, or CommandFailed with its stderr."""
    from mainspring.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(args))
        except SystemExit as e:  # argparse's own refusals exit
            status = e.code
    if status != 0:
        lines = [ln for ln in err.getvalue().splitlines() if not ln.startswith("[mainspring ")]
        raise CommandFailed("\n".join(lines))
    return out.getvalue()


def scratch() -> str:
    """A fresh output directory for `mainspring compile -o`."""
    return tempfile.mkdtemp(prefix="errors-")
