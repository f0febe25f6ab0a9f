"""Progress of a long simulation on stderr, from the count the simulator writes as it runs.

The cocotb side (_cocotb_entry.py) wakes every 65,536 cycles on a timer and writes the cycles simulated so far
to PROGRESS_FILE in the run's folder. While the simulator runs, `Progress` polls that file from a thread of
the parent and, once the run has lasted AFTER_SECONDS, prints `cycles done / expected` every EVERY_SECONDS:

    [mainspring sim] gaussian on icarus: 1,245,184 of ~2,079,604 cycles (60%), 41 s
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import TextIO

PROGRESS_FILE = "progress.txt"
AFTER_SECONDS = 3.0   # short runs stay quiet
EVERY_SECONDS = 2.0


class Progress:
    """A context manager: report the count in `path` while the block runs (when `enabled`)."""

    def __init__(self, path: Path, what: str, expected: int, *, enabled: bool = True, stream: TextIO | None = None,
                 after: float | None = None, every: float | None = None):
        self.path = path
        self.what = what
        self.expected = expected
        self.enabled = enabled
        self.stream = stream  # None: sys.stderr at the time of printing (pytest swaps it)
        self.after = AFTER_SECONDS if after is None else after
        self.every = EVERY_SECONDS if every is None else every
        self.lines = 0  # progress lines printed
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = 0.0

    def __enter__(self) -> Progress:
        self._started = time.perf_counter()
        if self.enabled:
            self._thread = threading.Thread(target=self._poll, name="mainspring-sim-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _poll(self) -> None:
        if self._stop.wait(self.after):
            return
        while True:
            self.report()
            if self._stop.wait(self.every):
                return

    def report(self) -> None:
        """Print one progress line, if the simulator has written a count yet."""
        done = read_count(self.path)
        if done is None or is_finished(self.path):  # the run is over: the simulator's time is not cycles run
            return
        seconds = time.perf_counter() - self._started
        share = f" ({100 * done // self.expected}%)" if self.expected > 0 else ""
        stream = self.stream or sys.stderr
        print(f"[mainspring sim] {self.what}: {done:,} of ~{self.expected:,} cycles{share}, {seconds:.0f} s",
              file=stream, flush=True)
        self.lines += 1


def read_count(path: Path) -> int | None:
    """The count in a progress file, or None before the first one (the simulator replaces it whole)."""
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def is_finished(path: Path) -> bool:
    """Whether the simulator wrote its last count, once the bench was done."""
    try:
        return path.read_text().split()[1:2] == ["done"]
    except OSError:
        return False
