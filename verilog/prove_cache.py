"""Where proofs are remembered: one small JSON file per key under a cache directory.

The directory is `MAINSPRING_PROVE_CACHE`, else `build/prove` (beside the simulators' `build/sim`). The test suite
sets it to `shared_cache_dir()`, outside the clone (ccache's model), so that a fresh clone (CI's) does not prove
every kernel of the suite again. One file per entry, written to a temporary name and renamed, so parallel test
workers (or suites of several clones) never see half a file and never need a lock. Keys hash everything the
verdict depends on: the prover's version, z3's and Yosys's versions, and the text of the prover's code (this
package's modules and what it reads of compute JSON's and the frontend's), so a verdict is only ever reused by the
same prover on the same kernel, even where a change forgot to bump PROVER_VERSION: a cache saves time and never
changes a verdict.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
from pathlib import Path

import z3

# Bump when a change to the prover could change a verdict: cached verdicts of older versions are then ignored.
PROVER_VERSION = "14"


def default_cache_dir() -> Path:
    return Path(os.environ.get("MAINSPRING_PROVE_CACHE", Path("build") / "prove"))


def shared_cache_dir() -> Path:
    """The proof cache kept across clones: `$XDG_CACHE_HOME/mainspring/prove`, else `~/.cache/mainspring/prove`."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".cache") / "mainspring" / "prove"


def cache_key(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in (PROVER_VERSION, z3.get_version_string(), yosys_version(), _sources(), *parts):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:32]


# The modules a verdict depends on besides this package's own: the kernels' types and widths, the IR's printing
SOURCES = ("compute_json/kernel.py", "compute_json/widths.py", "compute_json/buffer_ranges.py", "frontend/ir.py",
           "frontend/types.py", "hwlower/ir.py")


@functools.cache
def _sources() -> str:
    """A digest of the prover's code: every module of this package, and SOURCES."""
    root = Path(__file__).resolve().parent
    files = sorted(root.glob("*.py")) + [root.parent / s for s in SOURCES]
    digest = hashlib.sha256()
    for f in files:
        text = f.read_bytes() if f.exists() else b""
        digest.update(str(f.relative_to(root.parent)).encode() + b"\0" + text + b"\0")
    return digest.hexdigest()


@functools.cache
def yosys_version() -> str:
    try:
        return subprocess.run(["yosys", "-V"], capture_output=True, text=True, timeout=30, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "yosys unknown"


class ProofCache:
    """Verdicts by key in `directory/kind/key.json`; `directory=None` remembers nothing (always a fresh proof)."""

    def __init__(self, directory: Path | str | None):
        self.directory = Path(directory) if directory is not None else None

    def get(self, kind: str, key: str) -> dict | None:
        if self.directory is None:
            return None
        path = self.directory / kind / f"{key}.json"
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def put(self, kind: str, key: str, entry: dict) -> None:
        if self.directory is None:
            return
        folder = self.directory / kind
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(entry, sort_keys=True, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, folder / f"{key}.json")
