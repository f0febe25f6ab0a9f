"""verilog.prove_coreir: CoreIR's own Verilog of each compute JSON module (the `coreir` command) is proved equal
to our kernel module; an altered rendering is found different, with a counterexample that really fails."""

import re

import numpy as np
import pytest

import mainspring as hl
from mainspring import apps
from mainspring.cli import main
from mainspring.compute_json import kernel_from_op
from mainspring.compute_json.coreir_tools import coreir_command
from mainspring.compute_json.evaluate import evaluate_kernel
from mainspring.sim import require_tool
from mainspring.verilog.kernel_sim import require_tools, simulate_kernel
from mainspring.verilog.names import kernel_module
from mainspring.verilog.prove_coreir import compare_renderings, coreir_verilog, prove_coreir_design

from prove_programs import divisions


@pytest.fixture(autouse=True)
def _need_tools():
    require_tools("yosys")
    require_tool(coreir_command() is not None, "the coreir command")


def _compile_app(name: str, size=(8, 8)):
    mod = apps.load(name)
    out, _ = apps.build(mod, *size, 1)
    return hl.compile(out, name=mod.NAME)


@pytest.mark.parametrize("app", ["gaussian", "harris", "divisions"])
def test_coreir_renders_every_kernel_equal_to_ours(app, tmp_path):
    design = hl.compile(divisions()[0], name="divisions") if app == "divisions" else _compile_app(app)
    proofs = prove_coreir_design(design, cache_dir=tmp_path)
    modules = list(design.compute_doc["namespaces"]["global"]["modules"])
    assert [p.module for p in proofs] == modules and len(modules) > 1
    assert all(p.status == "equal" for p in proofs), "\n".join(map(str, proofs))
    if app == "divisions":
        refs = {i["genref"] for m in design.compute_doc["namespaces"]["global"]["modules"].values()
                for i in m["instances"].values()}
        assert {"coreir.mul", "coreir.slice", "coreir.concat"} <= refs, refs  # the multiply-high lowering
    again = prove_coreir_design(design, cache_dir=tmp_path)
    assert [(p.status, p.cached) for p in again] == [("equal", True)] * len(proofs)


def test_a_rom_kernel_is_not_checked_with_the_reason(tmp_path):
    (proof,) = prove_coreir_design(_compile_app("h2h_rom"), cache_dir=tmp_path)
    assert proof.status == "not checked" and "mainspring.rom" in proof.reason, proof


def test_an_altered_rendering_is_found_different_with_a_counterexample_that_fails(tmp_path):
    require_tools("iverilog", "vvp")
    design = _compile_app("gaussian")
    (op,) = [op for _, op in design.program.nest.ops() if op.name == "blur_unnormalized_s0"]
    kernel = kernel_from_op(op, name=kernel_module(op.name))
    rendering = coreir_verilog(design.compute_doc, kernel.name)
    assert compare_renderings(kernel.name, rendering, design.verilog).status == "equal"
    # CoreIR's adder made a subtractor: every add of the kernel now subtracts.
    wrong, swaps = re.subn(r"assign out = in0 \+ in1;", "assign out = in0 - in1;", rendering)
    assert swaps == 1
    proof = compare_renderings(kernel.name, wrong, design.verilog)
    assert proof.status == "different", proof
    cex = proof.counterexample
    assert cex.expected != cex.got
    vectors = {p: np.array([v]) for p, v in cex.inputs.items()}
    assert int(evaluate_kernel(kernel, vectors)["out"][0]) == cex.expected["out"]  # ours is Halide's value
    path = tmp_path / "wrong.v"
    path.write_text(wrong)
    got = simulate_kernel(kernel, [path], vectors, tmp_path / "sim")
    assert int(got["out"][0]) == cex.got["out"] != cex.expected["out"]  # CoreIR's altered Verilog really fails


def test_cli_prove_prints_the_coreir_section(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MAINSPRING_PROVE_CACHE", str(tmp_path))
    assert main(["prove", "gaussian", "--size", "8", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    section = lines[lines.index("CoreIR rendering") + 1:-1]
    assert len(section) == 3 and all("CoreIR's Verilog equal to ours" in ln for ln in section), lines
    assert lines[-1].startswith("gaussian: 3 of 3 kernels proved"), lines
    assert "CoreIR's rendering equal to ours for 3 of 3" in lines[-1], lines
