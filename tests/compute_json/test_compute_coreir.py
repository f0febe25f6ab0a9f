"""CoreIR JSON emission (pipeline: compile_kernel, to_coreir_json): golden file, determinism, CoreIR loads it,
and CoreIR's own Verilog of it (coreir -l commonlib) computes Halide's results in Icarus."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mainspring.compute_json import compile_kernel, kernel_json, write_coreir_json
from mainspring.compute_json.coreir_tools import (
    coreir_command,
    load_with_coreir,
    render_with_coreir,
)
from mainspring.compute_json.evaluate import evaluate_kernel
from mainspring.compute_json.examples import (
    TYPES,
    clamp_pick_kernel,
    division_kernel,
    kernel_vectors,
    op_kernel,
    random_kernel,
    special_constants,
    wiring_kernel,
)
from mainspring.frontend.types import Int, UInt
from mainspring.sim import require_tool
from mainspring.verilog.kernel_sim import require_tools, simulate_kernel

GOLDEN = Path(__file__).parent / "golden"


def test_small_kernel_json_golden(golden):
    golden(GOLDEN / "clamp_pick.json", kernel_json(clamp_pick_kernel()))


def test_json_bytes_are_identical_across_runs_and_processes():
    text = kernel_json(op_kernel(Int(16)))
    assert kernel_json(op_kernel(Int(16))) == text
    code = ("import sys; from mainspring.compute_json import kernel_json; "
            "from mainspring.compute_json.examples import op_kernel; from mainspring.frontend.types import Int; "
            "sys.stdout.write(kernel_json(op_kernel(Int(16))))")
    env = dict(os.environ, PYTHONHASHSEED="4242")  # set iteration order differs from this process's
    other = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert other.stdout == text


def test_json_shape():
    doc = json.loads(kernel_json(clamp_pick_kernel()))
    assert doc["top"] == "global.clamp_pick"
    module = doc["namespaces"]["global"]["modules"]["clamp_pick"]
    assert module["type"][0] == "Record"
    assert [f[0] for f in module["type"][1]] == ["a", "b", "c", "clamped", "pick", "less", "half", "low"]
    assert module["metadata"]["mainspring"]["port_types"]["low"] == "uint8"
    consts = [i for i in module["instances"].values() if i["genref"] == "coreir.const"]
    assert {"modargs": {"value": [["BitVector", 16], "16'h00ff"]}, "genref": "coreir.const",
            "genargs": {"width": ["Int", 16]}} in consts


def _kernels():
    kernels = [op_kernel(t) for t in TYPES] + [clamp_pick_kernel(), wiring_kernel(), random_kernel(100)]
    # Division: every path of divide_by_constants shows at 8 bits (all numerators) and at 32 bits.
    kernels += [division_kernel(t, special_constants(t)) for t in (UInt(8), Int(8), UInt(32), Int(32))]
    return kernels


KERNELS = {k.name: k for k in _kernels()}


class _Files:
    """Each kernel's JSON, written on first use (so an xdist worker builds only what it tests)."""

    def __init__(self, root: Path):
        self.root, self.made = root, {}

    def __getitem__(self, name: str) -> tuple:
        if name not in self.made:
            kernel = KERNELS[name]
            path = self.root / f"{name}.json"
            write_coreir_json(compile_kernel(kernel), path)
            self.made[name] = (kernel, path)
        return self.made[name]


@pytest.fixture(scope="module")
def json_files(tmp_path_factory):
    return _Files(tmp_path_factory.mktemp("coreir_json"))


def test_coreir_loads_our_json(json_files):
    # (The coreir command loads every kernel's JSON in the simulation test below.)
    for name in ("clamp_pick", "ops_int32", "div_int8"):
        assert load_with_coreir(json_files[name][1]) == name


def test_only_generators_coreir_renders_are_used(json_files):
    # commonlib min/max abort below or above 16 bits; urem has no Verilog; zext renders as invalid Verilog.
    for _, path in (json_files[name] for name in ("ops_int8", "ops_uint32", "div_int32")):
        doc = json.loads(path.read_text())
        for module in doc["namespaces"]["global"]["modules"].values():
            refs = {i["genref"] for i in module["instances"].values()}
            assert not refs & {"commonlib.umin", "commonlib.smax", "coreir.urem", "coreir.zext", "coreir.sdiv"}


@pytest.mark.parametrize("name", KERNELS)
def test_coreir_verilog_computes_halide_results(json_files, tmp_path, name):
    require_tools("iverilog", "vvp")
    require_tool(coreir_command() is not None, "the coreir command")
    kernel, path = json_files[name]
    verilog = render_with_coreir(path, tmp_path / f"{name}_coreir.v")
    vectors = kernel_vectors(kernel, 1500, seed=11)
    if [p for p, _ in kernel.inputs] == ["x"] and kernel.inputs[0][1].bits() <= 8:
        t = kernel.inputs[0][1]
        vectors = {"x": np.arange(t.min(), t.max() + 1)}  # every numerator
    got = simulate_kernel(kernel, [verilog], vectors, tmp_path / "sim")
    want = evaluate_kernel(kernel, vectors)
    bad = [port for port in want if not np.array_equal(got[port], want[port])]
    assert not bad, f"CoreIR's Verilog of {name} differs from Halide on {bad}"
