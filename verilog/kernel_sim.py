"""Run a kernel module on many input vectors in one Icarus simulation.

The test bench reads one `$readmemh` file per input port, applies vector i, waits 1 time unit and stores every
output into a memory (a kernel pipelined in d stages gets a clock edge after each vector, with `en` high, and
its outputs are stored d - 1 vectors later), and writes each output memory with `$writememh` at the end: one
iverilog build and one vvp run for any number of vectors (65536 vectors of a 40-output kernel take about a second).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np

from mainspring.compute_json.evaluate import from_pattern, pattern
from mainspring.sim.toolchain import in_ci

from .prove_netlist import module_text

X_VALUE = -(1 << 62)  # what a result with x or z bits reads as (no value of any port type)


class SimulationFailed(AssertionError):
    """iverilog or vvp failed: the generated Verilog is at fault, not the user."""


def require_tools(*names: str) -> None:
    """For tests: skip when a tool is missing on a developer's machine, fail under CI (env CI set), where a
    silently skipped simulation would pass while checking nothing."""
    import pytest

    missing = [n for n in names if shutil.which(n) is None]
    if not missing:
        return
    message = f"{', '.join(missing)} not on PATH (apt-get install iverilog)"
    if in_ci():
        pytest.fail(f"required in CI: {message}", pytrace=False)
    pytest.skip(message)


def _testbench(top: str, inputs, outputs, count: int, stages: int) -> str:
    def decl(name: str, width: int) -> str:
        return f"[{width - 1}:0] {name}" if width > 1 else name

    late = stages - 1
    lines = ["`timescale 1ns/1ps", "module tb_kernel;", "    integer tb_i;"]
    if stages > 1:
        lines.append("    reg clk = 1'b0, rst_n = 1'b1, en = 1'b1;")
    for port, w in inputs:
        lines += [f"    reg {decl('tb_in_' + port, w)};", f"    reg {decl('tb_mem_' + port, w)} [0:{count - 1}];"]
    for port, w in outputs:
        lines += [f"    wire {decl('tb_out_' + port, w)};", f"    reg {decl('tb_res_' + port, w)} [0:{count - 1}];"]
    pins = [f".{p}({p})" for p in ("clk", "rst_n", "en") if stages > 1]
    pins += [f".{p}(tb_in_{p})" for p, _ in inputs] + [f".{p}(tb_out_{p})" for p, _ in outputs]
    lines.append(f"    {top} dut ({', '.join(pins)});")
    lines += ["    initial begin"]
    lines += [f'        $readmemh("in_{p}.hex", tb_mem_{p});' for p, _ in inputs]
    lines += [f"        for (tb_i = 0; tb_i < {count + late}; tb_i = tb_i + 1) begin"]
    lines += [f"            if (tb_i < {count}) tb_in_{p} = tb_mem_{p}[tb_i];" for p, _ in inputs]
    lines += ["            #1;"]
    lines += [f"            if (tb_i >= {late}) tb_res_{p}[tb_i - {late}] = tb_out_{p};" for p, _ in outputs]
    if stages > 1:
        lines += ["            clk = 1'b1; #1; clk = 1'b0;"]
    lines += ["        end"]
    lines += [f'        $writememh("out_{p}.hex", tb_res_{p});' for p, _ in outputs]
    lines += ["        $finish;", "    end", "endmodule", ""]
    return "\n".join(lines)


_NIBBLE = np.full(256, 255, dtype=np.int64)  # hex digit -> value; anything else (x, z) -> 255
for _i, _c in enumerate("0123456789abcdef"):
    _NIBBLE[ord(_c)] = _NIBBLE[ord(_c.upper())] = _i


_COMMENT = re.compile(rb"//[^\n]*")


def _read_hex(path: Path, count: int, width: int) -> np.ndarray:
    """The words of a $writememh file (Icarus puts an address comment line before every 16 or so words);
    X_VALUE for a word with x or z digits."""
    digits = -(-width // 4)
    data = b"".join(_COMMENT.sub(b"", path.read_bytes()).split())  # words are fixed-width: just concatenate
    assert len(data) == count * digits, f"{path}: not {count} words of {width} bits"
    nibbles = _NIBBLE[np.frombuffer(data, dtype=np.uint8).reshape(count, digits)]
    value = np.zeros(count, dtype=np.int64)
    for i in range(digits):
        value = (value << 4) | nibbles[:, i]
    return np.where((nibbles == 255).any(axis=1), X_VALUE, value)


def _stages(files: list[str], module: str) -> int:
    """The pipeline stages of `module`, as the comment `verilog.kernel` writes in a pipelined one says."""
    for f in files:
        text = Path(f).read_text()
        if re.search(rf"^module {re.escape(module)} \(", text, re.MULTILINE):
            m = re.search(r"^    // (\d+) stages: ", module_text(text, module), re.MULTILINE)
            return int(m.group(1)) if m else 1
    return 1


def simulate_kernel(kernel, verilog_files, vectors: dict[str, np.ndarray], workdir, top: str | None = None,
                    standard: str = "2005") -> dict[str, np.ndarray]:
    """Simulate the module `top` (default: the kernel's name) from `verilog_files` on input port values
    `vectors` (values of each port's type, all the same length); return output port values, with X_VALUE
    where a result had x or z bits. `standard` is iverilog's -g flag, so the build also checks the dialect."""
    iverilog, vvp = shutil.which("iverilog"), shutil.which("vvp")
    if not iverilog or not vvp:
        raise SimulationFailed("iverilog/vvp not found on PATH (install the Debian package iverilog)")
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    inputs = [(p, t.bits()) for p, t in kernel.inputs]
    outputs = [(p, e.type.bits()) for p, e in kernel.outputs]
    count = len(next(iter(vectors.values())))
    for (port, w), (_, t) in zip(inputs, kernel.inputs):
        digits = -(-w // 4)
        text = "\n".join(f"{v:0{digits}x}" for v in pattern(vectors[port], t).tolist())
        (workdir / f"in_{port}.hex").write_text(text + "\n")
    sources = [str(Path(f).resolve()) for f in verilog_files]
    stages = _stages(sources, top or kernel.name)
    (workdir / "tb_kernel.v").write_text(_testbench(top or kernel.name, inputs, outputs, count, stages))
    build = subprocess.run([iverilog, f"-g{standard}", "-o", "sim.vvp", "-s", "tb_kernel", "tb_kernel.v", *sources],
                           cwd=workdir, capture_output=True, text=True, check=False)
    if build.returncode:
        raise SimulationFailed(f"iverilog failed:\n{build.stdout}{build.stderr}")
    run = subprocess.run([vvp, "-n", "sim.vvp"], cwd=workdir, capture_output=True, text=True, check=False)
    if run.returncode:
        raise SimulationFailed(f"vvp failed:\n{run.stdout}{run.stderr}")
    results = {}
    for port, expr in kernel.outputs:
        raw = _read_hex(workdir / f"out_{port}.hex", count, expr.type.bits())
        results[port] = np.where(raw == X_VALUE, X_VALUE, from_pattern(raw, expr.type))
    return results
