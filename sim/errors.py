"""How a simulation fails.

`SimulationError` and its subclasses mean the design under test broke the stream contract (an assertion
failure about the hardware, like `MismatchError`); `BuildError` and `SimulatorUnavailable` mean the tools could
not run at all. A mistaken call (bad widths, words that do not fit) raises `ValueError`.
"""

from __future__ import annotations

from pathlib import Path


class SimulationError(AssertionError):
    """The design misbehaved in simulation (unknown bits, a crash of the simulation)."""

    def __init__(self, message: str, run_dir: Path | None = None):
        super().__init__(message)
        self.run_dir = run_dir


class SimulationTimeout(SimulationError):
    """The output stream did not complete within the cycle limit: the design hung, or lost words."""

    def __init__(self, message: str, run_dir: Path | None, *, taken: int, expected: int,
                 accepted: dict[str, tuple[int, int]], limit: int, words=None):
        super().__init__(message, run_dir)
        self.taken = taken          # output words taken before the limit
        self.expected = expected    # output words the run expected
        self.accepted = accepted    # input name -> (words accepted, words offered)
        self.limit = limit          # the cycle limit that was hit
        self.words = words          # the output words taken, in order


class StreamProtocolError(SimulationError):
    """The design sent words beyond the expected count, or left input words unconsumed."""


class BuildError(RuntimeError):
    """The simulator could not compile the design and its test bench."""


class SimulatorUnavailable(RuntimeError):
    """The requested simulator is not installed on this machine."""
