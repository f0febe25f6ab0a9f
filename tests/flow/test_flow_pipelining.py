"""Pipelined kernels end to end (passes: the whole compile driver with hl.CGRA(pe_ops_per_stage=K), then sim):
bit-exact on both simulators at the predicted cycles, each kernel's latency its stage count, the schedule longer
than the unpipelined one by exactly the latency added on the path, and the timing flow's logic levels."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from serial_reductions import UNPIPELINED, serial_reduction

import mainspring as hl
from mainspring import apps
from mainspring.bench import logic_levels
from mainspring.compiler import compile  # noqa: A004 - mainspring's compile
from mainspring.design import library_path
from mainspring.sim import require_tool

SIMULATORS = ("icarus", "verilator")


def _design(name: str, k: int | None, size: int = 12):
    out, inputs = apps.load(name).build(size, size)
    target = hl.CGRA() if k is None else hl.CGRA(pe_ops_per_stage=k)
    return compile(out, name=name, target=target), inputs


def _stages(design, op: str) -> int:
    body = design.compute_doc["namespaces"]["global"]["modules"][f"k_{op}"]
    return body["metadata"]["mainspring"].get("stages", 1)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("k", [1, 2, None])
@pytest.mark.parametrize("name", ["gaussian", "harris"])
def test_pipelined_designs_are_bit_exact_at_the_predicted_cycles(name, k, simulator, build_dir):
    design, inputs = _design(name, k)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles == design.report["predicted_cycles"]
    stalled = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=3)
    assert np.array_equal(stalled.output, res.output)


def test_the_default_is_one_pe_op_per_stage():
    assert hl.CGRA().pe_ops_per_stage == 1


@pytest.mark.parametrize("k", [1, 2])
def test_a_kernels_latency_is_its_stage_count(k):
    design, _ = _design("harris", k)
    latency = design.report["kernel_latency"]
    for op, cycles in latency.items():
        if cycles:  # (0: an op that only moves a value has no kernel stage)
            assert cycles == _stages(design, op), op
    assert max(latency.values()) > 1
    assert latency == {s.op: s.latency for s in design.plan.ops if not s.host}


def test_cycles_grow_by_the_latency_added_on_the_path():
    # gaussian is one chain (input, blur_unnormalized, blur, output): every added stage delays the output once.
    flat, _ = _design("gaussian", UNPIPELINED)
    piped, _ = _design("gaussian", 1)
    added = sum(piped.report["kernel_latency"].values()) - sum(flat.report["kernel_latency"].values())
    assert added == 4  # 9 products under a 4-level tree of adds: 5 stages instead of 1
    assert piped.report["predicted_cycles"] - flat.report["predicted_cycles"] == added
    # Storage stays at its minimum: the delays are the kernels' own registers, not buffers.
    for d in (flat, piped):
        assert all(b["words"] == b["min_words"] for b in d.report["buffers"])


def test_the_timing_flow_reproduces_the_hand_written_baselines_levels():
    require_tool(shutil.which("yosys") is not None, "yosys")
    baseline = str(Path(__file__).resolve().parents[1] / "verilog" / "baseline" / "gaussian3x3_w16.v")
    assert logic_levels([baseline], "gaussian3x3_w16") == 38


def test_gaussian_meets_its_logic_level_goal(tmp_path):
    require_tool(shutil.which("yosys") is not None, "yosys")
    design, _ = _design("gaussian", None, 62)  # the 64x64 input of issue 12
    (tmp_path / "gaussian.v").write_text(design.verilog)
    levels = logic_levels([str(tmp_path / "gaussian.v"), str(library_path())], "gaussian")
    assert levels is not None and levels <= 25
    unpiped, _ = _design("gaussian", UNPIPELINED, 62)
    (tmp_path / "flat.v").write_text(unpiped.verilog)
    assert logic_levels([str(tmp_path / "flat.v"), str(library_path())], "gaussian") > 30


def test_pipelined_verilog_is_byte_identical_across_compiles():
    a, _ = _design("harris", 1)
    b, _ = _design("harris", 1)
    assert a.verilog == b.verilog
    assert re.search(r"// k_cim_s0: compute kernel pipelined in \d+ stages\.", a.verilog)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("kind", ["weights", "polynomial", "disk"])
def test_a_serial_reduction_keeps_one_step_per_cycle(kind, simulator, build_dir):
    """Each step of a serial reduction reads the previous step's sum: its kernel is retimed (the operand pipelined,
    the sum read and added in the last stage), so the steps run one per cycle and the run takes its unpipelined
    cycles plus the stages added (pipelined whole, each step would wait for the last: 7 to 12 times the ideal)."""
    design = compile(serial_reduction(kind), name=f"serial_{kind}")
    flat = compile(serial_reduction(kind), name=f"serial_{kind}", target=hl.CGRA(pe_ops_per_stage=UNPIPELINED))
    rep = design.report
    assert _stages(design, "acc_s1") > 1 and _stages(flat, "acc_s1") == 1
    added = rep["kernel_latency"]["acc_s1"] - flat.report["kernel_latency"]["acc_s1"]
    assert rep["ideal_cycles"] == 8 * 6 * 25 and rep["predicted_cycles"] == flat.report["predicted_cycles"] + added
    from mainspring.apps.common import random_image

    image = {"input": random_image(12, 10, seed=2)}
    res = design.check(image, simulator=simulator, build_dir=build_dir)
    assert res.cycles == rep["predicted_cycles"]
    stalled = design.check(image, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=5)
    assert np.array_equal(stalled.output, res.output)


def test_the_reference_accumulation_runs_near_its_ideal():
    out, _ = apps.load("h2h_accumulation").build(30, 30)
    rep = compile(out, name="h2h_accumulation").report
    # the ideal plus about one input frame, which arrives a word per cycle (pipelined steps: 10x the ideal)
    assert rep["predicted_cycles"] <= 1.2 * rep["ideal_cycles"], (rep["predicted_cycles"], rep["ideal_cycles"])
