"""Run CoreIR itself on our JSON: load it with the Python bindings, render it with the `coreir` command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def coreir_command() -> str | None:
    """The `coreir` command of this interpreter's environment (the `coreir` PyPI package), else on PATH."""
    beside = Path(sys.executable).parent / "coreir"
    return str(beside) if beside.exists() else shutil.which("coreir")


def load_with_coreir(json_path: str | os.PathLike[str]) -> str:
    """Load a CoreIR JSON file with CoreIR's Python bindings (commonlib loaded); return the top module's name.
    CoreIR rejects malformed JSON (unknown generators, type mismatches, double drivers) here."""
    import coreir

    context = coreir.Context()
    context.load_library("commonlib")
    return context.load_from_file(str(json_path)).name


def render_with_coreir(json_path: str | os.PathLike[str], verilog_path: str | os.PathLike[str]) -> Path:
    """CoreIR's own Verilog for a JSON file (`coreir -l commonlib -i JSON -o V`)."""
    command = coreir_command()
    if command is None:
        raise FileNotFoundError("the coreir command is missing (pip install coreir==2.0.156)")
    done = subprocess.run([command, "-l", "commonlib", "-i", str(json_path), "-o", str(verilog_path)],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"coreir failed on {json_path}:\n{done.stdout}{done.stderr}")
    return Path(verilog_path)
