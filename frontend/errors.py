"""The two kinds of failure a user sees, and where in their program a thing was written.

`HalideError` is the user's mistake (as in Halide's bindings); a plain `assert` is ours. Messages name the
Func, the call and the reason, and say what to do instead.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass


class HalideError(Exception):
    """A mistake in the user's algorithm or schedule."""


class ScheduleError(HalideError):
    """A schedule mainspring cannot implement (or Halide would refuse)."""


class ExprTruthError(HalideError, ValueError):
    """bool() of an expression (Python's `and`, `or`, `if` on an Expr)."""


class MismatchError(AssertionError):
    """Simulated hardware disagrees with the reference: an assertion failure, not a user error."""

    def __init__(self, message: str, mismatches=(), count: int = 0, waveform: str | None = None):
        super().__init__(message)
        self.mismatches = list(mismatches)
        self.count = count
        self.waveform = waveform


@dataclass(frozen=True, slots=True)
class SourceLoc:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


_OWN: tuple[tuple[str, ...], str] | None = None


def is_own_frame(path: str) -> bool:
    # The compiler's own files (not apps/ or tests/): frames there are never the user's line.
    global _OWN  # noqa: PLW0603 - computed once, on first use
    if _OWN is None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        stages = ("frontend", "hwlower", "memories", "compute_json", "verilog", "sim")
        top = root if os.path.basename(root) == "mainspring" else os.path.join(root, "mainspring")
        _OWN = (tuple(os.path.join(root, n) + os.sep for n in stages), top)
    stage_dirs, top = _OWN
    return path.startswith(stage_dirs) or os.path.dirname(path) == top


def user_location() -> SourceLoc:
    """The innermost stack frame outside the compiler: the user's line that made the current call."""
    frame = sys._getframe(1)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        # A dataclass's generated __init__ ("<string>") calls __post_init__: its caller is the user's line.
        generated = frame.f_code.co_filename == "<string>" and frame.f_code.co_name == "__init__"
        if not is_own_frame(path) and not path.startswith("<frozen") and not generated:
            return SourceLoc(_relative(path), frame.f_lineno)
        frame = frame.f_back
    return SourceLoc("<unknown>", 0)


def _relative(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return os.path.basename(path)
    return os.path.basename(path) if rel.startswith("..") else rel


def did_you_mean(name: str, options) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(options), n=1)
    return f"; did you mean {close[0]}?" if close else ""
