"""What a simulation takes and gives back: stream specifications and the result.

A stream carries *words* (elements, one per pixel) of `width` bits, `lanes` words per transfer: lane 0 in the
low bits of `NAME_data`. Word counts are always in words; a run moves `len(words) / lanes` transfers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True, eq=False)
class StreamSpec:
    """An input stream: its words in order (ints, negative values as two's complement) and their format."""

    words: np.ndarray
    width: int
    lanes: int = 1

    def __post_init__(self):
        object.__setattr__(self, "words", _as_word_array(self.words))
        _check_format("input stream", self.width, self.lanes)


@dataclass(frozen=True)
class OutputSpec:
    """The output stream: its port name, word format and how many words the run expects."""

    name: str
    width: int
    count: int
    lanes: int = 1
    signed: bool = False  # return words sign-extended from `width` bits
    # Per word, whether the host keeps it (None: every word). A dropped word (padding past a tile, computed from
    # reads whose values are never used) may have unknown (x/z) bits; it is read as 0.
    care: np.ndarray | None = None

    def __post_init__(self):
        check_identifier("output stream", self.name)
        _check_format(f"output stream '{self.name}'", self.width, self.lanes)
        if self.care is not None and len(self.care) != self.count:
            raise ValueError(f"output stream '{self.name}': care has {len(self.care)} words for {self.count}")
        if self.count <= 0 or self.count % self.lanes:
            raise ValueError(
                f"output stream '{self.name}': count {self.count} must be a positive multiple of lanes "
                f"({self.lanes})"
            )


@dataclass(frozen=True, eq=False)
class SimResult:
    """The output words of one run and how long the design took."""

    words: np.ndarray               # output words in order (int64; uint64 or Python ints when wider)
    cycles: int                     # first input word accepted .. last output word taken, inclusive
    waveform: Path | None           # FST (VCD from a Verilator without lz4) when the run asked for waves
    simulator: str
    run_cycles: int                 # all cycles simulated after reset, for speed figures
    sim_seconds: float              # wall time of the simulator process
    build_seconds: float            # wall time of the build; 0.0 when an earlier build was reused
    accepted: dict[str, int] = field(default_factory=dict)  # input name -> words the design took
    marks: dict[str, list[int]] = field(default_factory=dict)  # mark -> cycles it was high (first input: 0)
    files: Path | None = None       # the run's folder when it was kept (keep_files, waves)


def check_identifier(what: str, name: str) -> None:
    if not isinstance(name, str) or not _IDENT.match(name):
        raise ValueError(f"{what} name {name!r} is not a Verilog identifier (letters, digits, _)")


def _check_format(what: str, width: int, lanes: int) -> None:
    if not isinstance(width, int) or width <= 0:
        raise ValueError(f"{what}: width must be a positive number of bits, not {width!r}")
    if not isinstance(lanes, int) or lanes <= 0:
        raise ValueError(f"{what}: lanes must be a positive integer, not {lanes!r}")


def _as_word_array(words) -> np.ndarray:
    array = np.asarray(words)
    if array.dtype == object or array.size == 0:
        # Python ints wider than 64 bits (or an empty list, whose dtype numpy guesses as float).
        array = np.asarray(words, dtype=object).reshape(-1)
        if not all(isinstance(w, (int, np.integer)) for w in array):
            raise ValueError("stream words must be integers")
        return array
    if not np.issubdtype(array.dtype, np.integer) and array.dtype != np.bool_:
        raise ValueError(f"stream words must be integers, not {array.dtype}")
    return array.reshape(-1)
