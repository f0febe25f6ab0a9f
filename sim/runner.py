"""Build a design's test bench once, then run it on any number of frames.

`build` compiles the DUT with a generated `mainspring_tb` top (bench.py) through cocotb's runner, caching the
result under `build_dir` by a hash of everything that goes into it (sources, interface, capacity, simulator
and its version). `Bench.run` writes the frame to hex files, starts the simulator with plusargs (through
cocotb, or directly when the run is short: `Bench.direct`), and turns the files the bench writes back into a
`SimResult` or a `SimulationError`. A Verilator build costs ~15 s (~3 s once vlcache holds its runtime), an
Icarus build ~0.1 s; every run re-uses the build.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import math
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from . import hexio, vlcache
from .bench import CLOCK_NS, OUTPUT_KEY, TB_TOP, Interface, Port, input_key, param_plusarg, render_testbench
from .errors import BuildError, SimulationError, SimulationTimeout, StreamProtocolError
from .progress import PROGRESS_FILE, Progress
from .spec import OutputSpec, SimResult, StreamSpec, check_identifier
from .toolchain import check_simulator, prepare_environment, tool_version, wave_format

DEFAULT_BUILD_DIR = Path("build") / "sim"
BENCH_SOURCE = Path(__file__).with_name("ms_bench.v")
ENTRY_SOURCE = Path(__file__).with_name("_cocotb_entry.py")
MAIN_SOURCE = vlcache.MAIN_SOURCE
ENTRY_MODULE = "mainspring_sim_entry"
TIMESCALE = ("1ns", "1ps")  # the unit of the bench clock's delays (bench.CLOCK_NS); Icarus needs one anyway
DRAIN_CYCLES = 64           # cycles watched for extra output words after the last expected one
_HARNESS_VERSION = "4"      # bump when a change here must invalidate every cached build
# Verilator's memory is compact (bytes per word), so one build covers a 1920x1080 frame and every smaller
# one; an Icarus build is cheap but its memories cost ~40 bytes a word, so size them to the frame.
_MIN_DEPTH_LOG2 = {"verilator": 21, "icarus": 10}
# Runs expected to take at most this many cycles (~2 s on Icarus; cocotb's timer would wake once, at the end)
# start the simulator without cocotb (Bench.direct); longer ones go through cocotb, which reports their progress.
DIRECT_CYCLES = 1 << 16
# `run` builds a Verilator bench for a run expected to take at most this many cycles without C++ optimisation
# (`build(quick=True)`): the compile of a small design's model is most of a short run's cost, and -O0 saves ~0.3 s
# of its ~0.8 s of CPU at -O2, while a few thousand cycles run a few ms slower. The same model, the same words.
QUICK_CYCLES = 1 << 12


@dataclasses.dataclass(frozen=True)
class PreparedRun:
    """A run's folder with its input files written, and what starts it."""

    directory: Path
    plusargs: tuple[str, ...]
    limit: int            # the bench's timeout, in cycles
    expected_cycles: int  # the longest stream's transfers (or the caller's cycles, if more), stretched by the stalls


class Bench:
    """A compiled test bench: one DUT interface on one simulator. `run` it any number of times."""

    def __init__(self, interface: Interface, simulator: str, directory: Path, depth_log2: int,
                 waves: bool, build_seconds: float, sources: tuple[Path, ...] = ()):
        self.interface = interface
        self.sources = sources  # what the simulator compiled: the bench blocks, the design, the bench top
        self.simulator = simulator
        self.directory = directory
        self.depth_log2 = depth_log2
        self.waves = waves
        self.build_seconds = build_seconds  # 0.0 when an earlier build was reused

    @property
    def _waves_name(self) -> str:
        return f"waves.{wave_format(self.simulator)}"

    @property
    def capacity(self) -> int:
        """The most transfers a stream can hold in one run."""
        return 1 << self.depth_log2

    def run(self, inputs: Mapping[str, StreamSpec], output: OutputSpec,
            params: Mapping[str, tuple[int, int]] | None = None, *, bubbles: float = 0.0,
            backpressure: float = 0.0, seed: int = 1, timeout_cycles: int | None = None,
            keep_files: bool = False, drain_cycles: int = DRAIN_CYCLES, progress: bool = True,
            direct: bool | None = None, cycles: int | None = None) -> SimResult:
        """Stream `inputs` through the design and collect `output.count` words.

        After the last expected output word the bench runs `drain_cycles` more, watching for extra output
        words, while the design takes the input words it reads after its last output.

        `bubbles` is the probability that an input slot stays empty in a cycle, `backpressure` that the
        output's ready is low; both are drawn in HDL from generators seeded by `seed`. The run fails with
        SimulationTimeout after `timeout_cycles` (default: 20x the expected cycles plus 10,000). With
        `progress`, a run longer than a few seconds reports the cycles done on stderr (see progress.py). `direct`
        starts the simulator without cocotb (True) or through it (False); by default, short runs go direct.
        `cycles`: the run's own estimate where the caller has one (a design's predicted cycles): a serial
        reduction or a sweep over planes takes more cycles than its streams' transfers, which is what a run is
        expected to take otherwise (for the progress report and the choice of a direct run).
        """
        run = self.prepare(inputs, output, params, bubbles=bubbles, backpressure=backpressure, seed=seed,
                           timeout_cycles=timeout_cycles, drain_cycles=drain_cycles, cycles=cycles)
        started = time.perf_counter()
        direct = self.direct(run) if direct is None else direct and not self.waves
        if direct:
            self._simulate_direct(run.directory, list(run.plusargs))
        else:
            with Progress(run.directory / PROGRESS_FILE, f"{self.interface.top} on {self.simulator}",
                          run.expected_cycles, enabled=progress):
                self._simulate(run.directory, list(run.plusargs))
        seconds = time.perf_counter() - started
        result = self.collect(run.directory, inputs, output, run.limit, seconds, cocotb=not direct)
        if not (keep_files or self.waves):
            shutil.rmtree(run.directory, ignore_errors=True)
            return result
        return dataclasses.replace(result, files=run.directory)

    def prepare(self, inputs: Mapping[str, StreamSpec], output: OutputSpec,
                params: Mapping[str, tuple[int, int]] | None = None, *, bubbles: float = 0.0,
                backpressure: float = 0.0, seed: int = 1, timeout_cycles: int | None = None,
                drain_cycles: int = DRAIN_CYCLES, cycles: int | None = None) -> PreparedRun:
        """Write the hex files of one run into a fresh folder and give its plusargs (see `run`)."""
        _check_same_interface(self.interface, _interface_of(self.interface.top, inputs, output, params,
                                                            self.interface.marks))
        plusargs, limit, expected = self._settings(inputs, output, bubbles, backpressure, seed, timeout_cycles,
                                                   cycles)
        plusargs = [a for a in plusargs if not a.startswith("+ms_drain=")] + [f"+ms_drain={int(drain_cycles)}"]
        plusargs += [f"+{param_plusarg(n)}={v:x}" for n, v in _param_values(params or {}).items()]
        run_dir = Path(tempfile.mkdtemp(prefix="run-", dir=self.directory / "runs"))
        for index, (name, spec) in enumerate(inputs.items()):
            hexio.write_hex(run_dir / f"in_{name}.hex", spec.words, spec.width, spec.lanes)
            plusargs += [f"+{input_key(index)}=in_{name}.hex",
                         f"+{input_key(index)}_count={len(spec.words) // spec.lanes}"]
        return PreparedRun(run_dir, tuple(plusargs), limit, expected)

    def _settings(self, inputs, output, bubbles, backpressure, seed, timeout_cycles, cycles=None):
        for what, p in (("bubbles", bubbles), ("backpressure", backpressure)):
            if not 0.0 <= p < 1.0:
                raise ValueError(f"{what} is a probability per cycle in [0, 1), not {p!r}")
        if not 0 <= int(seed) < 1 << 32:
            raise ValueError(f"seed must fit in 32 bits, not {seed!r}")
        transfers = [len(s.words) // s.lanes for s in inputs.values()] + [output.count // output.lanes]
        if max(transfers) > self.capacity:
            raise ValueError(
                f"{max(transfers)} transfers exceed this bench's capacity of {self.capacity}; "
                f"build with capacity >= {max(transfers)}"
            )
        expected = math.ceil(max(*transfers, cycles or 0) / ((1.0 - bubbles) * (1.0 - backpressure)))
        if timeout_cycles is None:
            timeout_cycles = 20 * expected + 10_000
        plusargs = [
            f"+ms_seed={int(seed)}",
            f"+ms_bubbles={_threshold(bubbles)}",
            f"+ms_backpressure={_threshold(backpressure)}",
            f"+ms_timeout={int(timeout_cycles)}",
            f"+ms_drain={DRAIN_CYCLES}",
            "+ms_results=results.txt",
            f"+{OUTPUT_KEY}=out_{output.name}.hex",
            f"+{OUTPUT_KEY}_count={output.count // output.lanes}",
        ]
        return plusargs, int(timeout_cycles), expected

    def direct(self, run: PreparedRun) -> bool:
        """Whether `run` starts the simulator itself rather than through cocotb: a run too short to report
        progress (cocotb's start, ~0.3 s of CPU, was most of such a run), without waves."""
        return not self.waves and run.expected_cycles <= DIRECT_CYCLES

    def _simulate_direct(self, run_dir: Path, plusargs: list[str]) -> None:
        """The simulator alone on the bench: its clock stops at ms_done, and with nothing left to simulate the
        simulator exits (the bench's own +ms_timeout ends a design that never finishes)."""
        prepare_environment()
        if self.simulator == "verilator":
            command = [str(self.directory / TB_TOP), *plusargs, "+ms_direct"]
        else:
            command = [shutil.which("vvp") or "vvp", "-n", str(self.directory / "sim.vvp"), *plusargs]
        with (run_dir / "sim.log").open("w") as log:
            done = subprocess.run(command, cwd=run_dir, stdout=log, stderr=subprocess.STDOUT, check=False)
        if done.returncode != 0:
            raise SimulationError(f"{self.interface.top} on {self.simulator}: the simulator failed "
                                  f"({done.returncode}); files kept in {run_dir}\n{_tail(run_dir / 'sim.log')}",
                                  run_dir)

    def _simulate(self, run_dir: Path, plusargs: list[str]) -> None:
        prepare_environment()
        # The entry module runs as a top-level module copied next to the run: importing it through
        # `mainspring.sim` would load the whole compiler (numpy, networkx) in every simulator process.
        shutil.copyfile(ENTRY_SOURCE, run_dir / f"{ENTRY_MODULE}.py")
        test_args = []
        if self.waves:
            if self.simulator == "verilator":
                test_args = ["--trace-file", self._waves_name]
            else:
                plusargs = plusargs + [f"+dumpfile_path={self._waves_name}"]
        # The runner raises (or, under pytest, exits) when the simulator fails; the files it left
        # say why, and collect reports it.
        with contextlib.suppress(RuntimeError, SystemExit):
            _runner(self.simulator, python_path=run_dir).test(
                test_module=ENTRY_MODULE, hdl_toplevel=TB_TOP, hdl_toplevel_lang="verilog",
                build_dir=self.directory, test_dir=run_dir, plusargs=plusargs, test_args=test_args,
                waves=self.waves, timescale=TIMESCALE, results_xml=str(run_dir / "cocotb_results.xml"),
                log_file=run_dir / "sim.log",
                # cocotb rewrites the asserts of every module the simulator imports, by default: seconds
                # per run for nothing here.
                extra_env={"COCOTB_REWRITE_ASSERTION_FILES": ""},
            )

    def collect(self, run_dir, inputs, output, limit, seconds, cocotb: bool = True) -> SimResult:
        """The result of a finished run from the files the bench wrote in `run_dir`, or its error (`cocotb`:
        the run went through cocotb, whose test must have passed too)."""
        what = f"{self.interface.top} on {self.simulator}"
        report = _read_report(run_dir, what, cocotb)
        words = hexio.read_hex(run_dir / f"out_{output.name}.hex", output.width, output.lanes,
                               f"{what}: output stream '{output.name}'", output.care)
        if output.signed:
            words = hexio.sign_extend(words, output.width)
        accepted = {name: report["input"][name] * inputs[name].lanes for name in inputs}
        offered = {name: len(spec.words) for name, spec in inputs.items()}
        taken = report["output"][output.name] * output.lanes
        if report["status"] == "timeout":
            raise _timeout_error(what, run_dir, output, taken, accepted, offered, limit, words)
        _check_counts(what, run_dir, output, taken, accepted, offered)
        waveform = run_dir / self._waves_name if self.waves else None
        return SimResult(
            words=words, cycles=report["cycles"], waveform=waveform, simulator=self.simulator,
            run_cycles=report["elapsed"], sim_seconds=seconds, build_seconds=0.0, accepted=accepted,
            marks=_read_marks(run_dir, self.interface.marks, report.get("first", 0)),
        )


def build(sources: Sequence[str | Path], top: str, inputs: Mapping[str, StreamSpec], output: OutputSpec,
          params: Mapping[str, tuple[int, int]] | None = None, *, simulator: str = "verilator",
          build_dir: str | Path | None = None, waves: bool = False, capacity: int | None = None,
          marks: Sequence[str] = (), quick: bool = False) -> Bench:
    """Compile `top` from `sources` inside a test bench for its interface, or reuse an identical build.

    Only the shapes of `inputs`, `output` and `params` matter here (names, widths, lanes; word counts
    size the memories unless `capacity`, in transfers, is given). Safe to call from parallel processes:
    a file lock serialises builds of the same bench. `quick`: Verilator compiles the model without C++
    optimisation (`build_args`), for benches that run a few short frames.
    """
    from filelock import FileLock

    check_simulator(simulator)
    prepare_environment()
    interface = _interface_of(top, inputs, output, params, tuple(marks))
    transfers = _transfers(inputs, output)
    depth_log2 = max(_MIN_DEPTH_LOG2[simulator], math.ceil(math.log2(max(capacity or transfers, 1))))
    testbench = render_testbench(interface, depth_log2)
    paths = [Path(s).resolve() for s in sources]
    for path in paths:
        if not path.is_file():
            raise FileNotFoundError(f"Verilog source {path} does not exist")
    quick = quick and simulator == "verilator"
    key = _build_key(simulator, waves, testbench, paths, quick)
    directory = Path(build_dir or DEFAULT_BUILD_DIR).resolve() / f"{top}-{simulator}-{key[:16]}"
    directory.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(directory) + ".lock"):
        stamp = directory / "built.json"
        seconds = 0.0
        if not stamp.exists():
            seconds = _compile(simulator, directory, testbench, paths, waves, interface, quick)
            stamp.write_text(json.dumps({"top": top, "simulator": simulator, "seconds": seconds}) + "\n")
    (directory / "runs").mkdir(exist_ok=True)
    return Bench(interface, simulator, directory, depth_log2, waves, seconds,
                 (BENCH_SOURCE, *paths, directory / f"{TB_TOP}.v"))


def run(sources: Sequence[str | Path], top: str, inputs: Mapping[str, StreamSpec], output: OutputSpec,
        params: Mapping[str, tuple[int, int]] | None = None, *, simulator: str = "verilator",
        bubbles: float = 0.0, backpressure: float = 0.0, seed: int = 1, build_dir: str | Path | None = None,
        waves: bool = False, timeout_cycles: int | None = None, keep_files: bool = False,
        marks: Sequence[str] = (), drain_cycles: int = DRAIN_CYCLES, progress: bool = True,
        cycles: int | None = None) -> SimResult:
    """Build (or reuse) the test bench of `top` and stream one frame through it; see `Bench.run`. `marks`
    names 1-bit outputs of `top` whose high cycles are recorded (`SimResult.marks`)."""
    quick = not waves and max(_transfers(inputs, output), cycles or 0) <= QUICK_CYCLES
    bench = build(sources, top, inputs, output, params, simulator=simulator, build_dir=build_dir, waves=waves,
                  marks=marks, quick=quick)
    result = bench.run(inputs, output, params, bubbles=bubbles, backpressure=backpressure, seed=seed,
                       timeout_cycles=timeout_cycles, keep_files=keep_files, drain_cycles=drain_cycles,
                       progress=progress, cycles=cycles)
    return dataclasses.replace(result, build_seconds=bench.build_seconds)


def _runner(simulator: str, python_path: Path | None = None, touch_before_make: Sequence[Path] = (),
            pch_args: Sequence[str] = (), pch_first: bool = False):
    """cocotb's runner for `simulator`; optionally with `python_path` first on the simulator's PYTHONPATH,
    touching files after `verilator` and before `make`, passing `pch_args` (vlcache.prepare_pch) to `make`, and
    precompiling Verilator's header before `make` (`pch_first`; see vlcache)."""
    from cocotb_tools.runner import get_runner

    base = type(get_runner(simulator))

    class _Runner(base):
        def _set_env_test(self) -> None:
            super()._set_env_test()
            if python_path is not None:
                self.env["PYTHONPATH"] = os.pathsep.join([str(python_path), self.env.get("PYTHONPATH", "")])

        def _build_command(self):
            commands = super()._build_command()
            if simulator == "verilator":
                commands[0] = _verilator_command(commands[0])
            if pch_args:
                commands[-1] = [*commands[-1], *pch_args]
            if pch_first:
                commands.insert(1, [*commands[-1], vlcache.PCH_HEADER + ".gch"])
            if touch_before_make:
                commands.insert(1, ["touch", *map(str, touch_before_make)])
            return commands

    return _Runner()


def _verilator_command(command: list) -> list:
    """cocotb's `verilator` command with our main (ms_verilator_main.cpp) in place of cocotb's, and only the
    signals Python reads made public (the bench marks them) instead of every signal (`--public-flat-rw`)."""
    cocotb_main = [arg for arg in command if str(arg).endswith(os.sep + "verilator.cpp")]
    if len(cocotb_main) != 1 or "--public-flat-rw" not in command:
        raise BuildError(f"cocotb's Verilator command is not the one mainspring knows (cocotb {_cocotb_version()}): "
                         f"{' '.join(map(str, command))}")
    return [str(MAIN_SOURCE) if arg is cocotb_main[0] else arg for arg in command if arg != "--public-flat-rw"]


def _cocotb_version() -> str:
    import cocotb

    return cocotb.__version__


def _transfers(inputs: Mapping[str, StreamSpec], output: OutputSpec) -> int:
    """The most transfers of one stream in a run."""
    return max([len(s.words) // s.lanes for s in inputs.values()] + [output.count // output.lanes])


def _compile(simulator, directory, testbench, paths, waves, interface, quick=False) -> float:
    """Build the bench in a fresh `directory`; the seconds it took."""
    from filelock import FileLock

    started = time.perf_counter()
    if simulator != "verilator":
        _invoke_build(simulator, directory, testbench, paths, waves, interface)
        return time.perf_counter() - started
    runtime = vlcache.runtime_dir(vlcache.cache_root(directory.parent), waves, build_args(simulator, waves, quick))
    runtime.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(runtime) + ".lock"):
        # The first build for these flags compiles the runtime under the lock; builds started meanwhile
        # wait for it and copy it, rather than all compiling it at once on the same cores.
        if not vlcache.is_stored(runtime):
            _invoke_build(simulator, directory, testbench, paths, waves, interface, quick=quick)
            vlcache.store(runtime, directory)
            return time.perf_counter() - started
    try:
        _invoke_build(simulator, directory, testbench, paths, waves, interface, seed_from=runtime, quick=quick)
    except BuildError:
        log = directory / "build.log"
        if log.exists() and "%Error" in log.read_text(errors="replace"):
            raise  # Verilator rejected the design itself
        # A stale runtime copy must never be what breaks a build: drop it and build from scratch.
        shutil.rmtree(runtime, ignore_errors=True)
        _invoke_build(simulator, directory, testbench, paths, waves, interface, quick=quick)
    return time.perf_counter() - started


def _invoke_build(simulator, directory, testbench, paths, waves, interface, seed_from=None, quick=False) -> None:
    if directory.exists():
        shutil.rmtree(directory)  # a build that died half-way: start clean
    directory.mkdir(parents=True)
    tb_path = directory / f"{TB_TOP}.v"
    tb_path.write_text(testbench)
    seeded = vlcache.seed(seed_from, directory) if seed_from else []
    # Seeded from a stored runtime: its precompiled header too; otherwise this build precompiles its own.
    pch, own_pch = vlcache.prepare_pch(directory, seed_from if seeded else None) if simulator == "verilator" \
        else ([], False)
    try:
        _runner(simulator, touch_before_make=seeded, pch_args=pch, pch_first=own_pch).build(
            sources=[BENCH_SOURCE, *paths, tb_path], hdl_toplevel=TB_TOP, build_dir=directory,
            build_args=build_args(simulator, waves, quick), timescale=TIMESCALE, waves=waves, always=True,
            log_file=directory / "build.log",
        )
    except (RuntimeError, SystemExit) as error:
        raise BuildError(
            f"{simulator} could not build '{interface.top}' ({interface.describe()}) from "
            f"{', '.join(p.name for p in paths)}: {error}\n{_tail(directory / 'build.log')}"
        ) from None


def build_args(simulator: str, waves: bool, quick: bool = False) -> list[str]:
    """The simulator's own build options (the bare harness of bare.py builds with the same); `quick`: the C++ at
    -O0 (a short run's bench, `QUICK_CYCLES`)."""
    if simulator != "verilator":
        return []
    # Verilator stops on lint warnings by default; lint is the Verilog stage's gate, not the harness's.
    args = ["-Wno-fatal", "-Wno-lint", "-Wno-style"]
    # Our main drives the bench's clock (ms_verilator_main.cpp), so the model needs no timing scheduler: without
    # --timing (and the C++20 its coroutines need) a model compiles ~0.3 s faster. Verilator's makefile compiles
    # with -Os; -O2 (later on the command line, so it wins) runs a 1080p frame ~2x faster and compiles as fast
    # (gaussian's model: 3.2 s against 3.5 s).
    args += ["--no-timing", "-CFLAGS", f"-DMS_HALF_PERIOD={CLOCK_NS // 2}", "-CFLAGS", "-O0" if quick else "-O2"]
    # One C++ file however large the design (Verilator splits past 20,000 statements, and each of the ~100 files
    # of a big camera pipeline then paid its own compile, -O2 on run-once code included: 89 s against 18 s as
    # one file, which takes the precompiled header and compiles its slow half at -O0, sim/vlcache.py).
    args += ["--output-split", "0"]
    if waves and wave_format(simulator) == "fst":
        args.append("--trace-fst")  # the runner adds --trace (VCD) otherwise
    return args


def _build_key(simulator: str, waves: bool, testbench: str, paths: list[Path], quick: bool = False) -> str:
    import cocotb

    digest = hashlib.sha256()
    for part in (_HARNESS_VERSION, simulator, tool_version(simulator), cocotb.__version__, str(waves),
                 " ".join(build_args(simulator, waves, quick)), testbench, BENCH_SOURCE.read_text(),
                 MAIN_SOURCE.read_text(), vlcache.MODEL_SOURCE.read_text()):
        digest.update(part.encode() + b"\0")
    for path in paths:
        # Contents and file names, not folders: the same design written to a new temp dir reuses the build.
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _interface_of(top, inputs, output, params, marks=()) -> Interface:
    check_identifier("top module", top)
    if not isinstance(output, OutputSpec):
        raise TypeError(f"output must be an OutputSpec, not {type(output).__name__}")
    ports = []
    for name, spec in inputs.items():
        check_identifier("input stream", name)
        if not isinstance(spec, StreamSpec):
            raise TypeError(f"input stream '{name}' must be a StreamSpec, not {type(spec).__name__}")
        if len(spec.words) % spec.lanes:
            raise ValueError(
                f"input stream '{name}': {len(spec.words)} words do not fill whole transfers of "
                f"{spec.lanes} lanes"
            )
        hexio.check_range(spec.words, spec.width, f"input stream '{name}'")
        ports.append(Port(name, spec.width, spec.lanes))
    for m in marks:
        check_identifier("mark", m)
    names = [p.name for p in ports] + [output.name] + list(params or {}) + list(marks)
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        raise ValueError(f"stream and parameter names must differ; {', '.join(clash)} used twice")
    widths = tuple((name, _param_width(name, value)) for name, value in (params or {}).items())
    return Interface(top, tuple(ports), Port(output.name, output.width, output.lanes), widths, tuple(marks))


def _param_width(name: str, value) -> int:
    check_identifier("parameter", name)
    if not (isinstance(value, tuple) and len(value) == 2):
        raise ValueError(f"parameter '{name}' must be given as (value, width), not {value!r}")
    number, width = value
    if not isinstance(width, int) or width <= 0:
        raise ValueError(f"parameter '{name}': width must be a positive number of bits, not {width!r}")
    if not -(1 << (width - 1)) <= int(number) < 1 << width:
        raise ValueError(f"parameter '{name}' = {number} does not fit in {width} bits")
    return width


def _threshold(probability: float) -> int:
    # The bench compares 16 random bits with this; 65536 would stall forever, so p < 1 stays below it.
    return min(round(probability * 65536), 65535)


def _param_values(params: Mapping[str, tuple[int, int]]) -> dict[str, int]:
    # Two's complement in `width` bits: plusargs carry the raw bit pattern.
    return {name: int(value) & ((1 << width) - 1) for name, (value, width) in params.items()}


def _check_same_interface(built: Interface, asked: Interface) -> None:
    if built != asked:
        raise ValueError(
            f"this bench was built for {built.describe()}, but the run passes {asked.describe()}"
        )


def _read_report(run_dir: Path, what: str, cocotb: bool = True) -> dict:
    from cocotb_tools.check_results import get_results

    path = run_dir / "results.txt"
    if not path.exists():
        raise SimulationError(
            f"{what}: the simulation ended without writing its results (a crash, or a bench that never "
            f"finished); files kept in {run_dir}\n{_tail(run_dir / 'sim.log')}", run_dir,
        )
    report: dict = {"input": {}, "output": {}}
    for line in path.read_text().splitlines():
        key, *values = line.split()
        if key in ("input", "output"):
            report[key][values[0]] = int(values[1])
        else:
            report[key] = values[0] if key == "status" else int(values[0])
    if not cocotb:
        return report
    try:
        failed = get_results(run_dir / "cocotb_results.xml")[1]
    except RuntimeError:
        failed = 1
    if failed:
        raise SimulationError(f"{what}: the cocotb test failed; files kept in {run_dir}\n"
                              f"{_tail(run_dir / 'sim.log')}", run_dir)
    return report


def _read_marks(run_dir: Path, marks, first: int) -> dict[str, list[int]]:
    """Cycles (counted from the first input word, which is cycle 0) in which each mark was high."""
    out: dict[str, list[int]] = {m: [] for m in marks}
    path = run_dir / "marks.txt"
    if marks and path.exists():
        for line in path.read_text().splitlines():
            name, at = line.split()
            out[name].append(int(at) - first)
    return out


def _timeout_error(what, run_dir, output, taken, accepted, offered, limit, words) -> SimulationTimeout:
    ins = ", ".join(f"'{n}' {accepted[n]} of {offered[n]}" for n in offered) or "none"
    return SimulationTimeout(
        f"{what} timed out after {limit} cycles: the output stream '{output.name}' delivered "
        f"{taken} of {output.count} words (input words accepted: {ins}). The design hung, or lost words "
        f"(if it is only slow, pass a larger timeout_cycles to simulate() or check()); files kept in {run_dir}",
        run_dir,
        taken=taken, expected=output.count, accepted={n: (accepted[n], offered[n]) for n in offered},
        limit=limit, words=words,
    )


def _check_counts(what, run_dir, output, taken, accepted, offered) -> None:
    if taken > output.count:
        raise StreamProtocolError(
            f"{what}: the output stream '{output.name}' delivered {taken - output.count} words beyond the "
            f"expected {output.count} (within {DRAIN_CYCLES} cycles after the last expected word); "
            f"files kept in {run_dir}", run_dir,
        )
    short = [f"'{n}' accepted {accepted[n]} of {offered[n]} words" for n in offered if accepted[n] < offered[n]]
    if short:
        raise StreamProtocolError(
            f"{what}: the output completed but input streams were not fully consumed: {'; '.join(short)}; "
            f"files kept in {run_dir}", run_dir,
        )


def _tail(log: Path, lines: int = 30) -> str:
    if not log.exists():
        return f"(no log at {log})"
    text = log.read_text(errors="replace").splitlines()
    return f"last lines of {log}:\n" + "\n".join(text[-lines:])
