"""Where proofs are remembered: one small JSON file per key under a cache directory.

The directory is `MAINSPRING_PROVE_CACHE`, else `build/prove` (beside the simulators' `build/sim`). One file
per entry, written to a temporary name and renamed, so parallel test workers never see half a file and never
need a lock. Keys hash everything the verdict depends on, the prover's version included.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import z3

# Bump when a change to the prover could change a verdict: cached verdicts of older versions are then ignored.
PROVER_VERSION = "14"


def default_cache_dir() -> Path:
    return Path(os.environ.get("MAINSPRING_PROVE_CACHE", Path("build") / "prove"))


def cache_key(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in (PROVER_VERSION, z3.get_version_string(), *parts):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:32]


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
