"""Retimed serial accumulations end to end (passes: the compile driver's kernel_graphs with late ports, the
memories' read offsets and their checker, the kernels' Verilog, then sim): every kernel meets the K-op limit, the
accumulator is read in the kernel's last stage, cycles grow by the stages added only, and the designs are
bit-exact on both simulators."""

from __future__ import annotations

import dataclasses
import functools
import shutil

import pytest
from serial_reductions import UNPIPELINED, serial_reduction

import mainspring as hl
from mainspring import apps
from mainspring.bench import logic_levels
from mainspring.compiler import (
    compile,  # noqa: A004 - mainspring's compile
    kernel_graphs,
)
from mainspring.compute_json.assign_stages import stage_ops
from mainspring.design import library_path
from mainspring.memories import MemoryCheckError
from mainspring.memories.checker import check_plan
from mainspring.sim import require_tool

SIMULATORS = ("icarus", "verilator")
# Apps whose reductions run over a serial loop, at sizes that keep the runs short (None: the app's own).
SERIAL_APPS = {"h2h_accumulation": 12, "h2h_conv_layer_mobile": None, "h2h_resnet_layer_gen": 10}
# Apps updating a RAM at computed coordinates (a histogram): their address kernels are pipelined.
RAM_APPS = {"histogram": 16, "h2h_histogram": 16}
APPS = SERIAL_APPS | RAM_APPS


def _together(names):
    """An app's tests share its designs (`_app` caches them): one xdist group per app keeps them on one worker."""
    return [pytest.param(n, marks=pytest.mark.xdist_group(f"retiming_{n}")) for n in names]


@functools.lru_cache(maxsize=20)  # five apps, four designs each: k = 1, 2, the default and UNPIPELINED
def _app(name: str, k: int | None = None):
    size = APPS[name]
    out, inputs = apps.load(name).build(size, size) if size else apps.load(name).build()
    target = hl.CGRA() if k is None else hl.CGRA(pe_ops_per_stage=k)
    return compile(out, name=name, target=target), inputs


def _serial_design(kind: str, k: int | None = None):
    target = hl.CGRA() if k is None else hl.CGRA(pe_ops_per_stage=k)
    return compile(serial_reduction(kind), name=f"serial_{kind}", target=target)


def _kernel_ops(design) -> dict[str, int]:
    """Each kernel's most PE ops on a path between registers."""
    k = design.target.pe_ops_per_stage
    return {f"k_{op.name}" + ("" if value else "_at"): stage_ops(g, k, design.target.word_bits)
            for op, g, value in kernel_graphs(design.program, design.target)}


@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("name", [*_together(APPS), "serial_weights", "serial_polynomial", "serial_disk"])
def test_every_kernel_meets_the_k_op_limit(name, k):
    design = _serial_design(name[7:], k) if name.startswith("serial_") else _app(name, k)[0]
    ops = _kernel_ops(design)
    assert max(ops.values()) <= k, ops
    if (name, k) == ("histogram", 2):
        return  # its kernels are two ops deep since their 32-bit ops compute at 16 bits (narrow_32_bit_ops)
    unpiped = _serial_design(name[7:], UNPIPELINED) if name.startswith("serial_") else _app(name, UNPIPELINED)[0]
    assert max(stage_ops(g, UNPIPELINED) for _, g, _ in kernel_graphs(unpiped.program, unpiped.target)) > k


@pytest.mark.parametrize("name", _together(["h2h_accumulation", "h2h_resnet_layer_gen"]))
def test_the_accumulator_is_read_in_the_last_stage(name):
    design, _ = _app(name)
    (op, g), = [(op, g) for op, g, _ in kernel_graphs(design.program, design.target) if g.graph.get("late")]
    stages = g.graph["stages"]
    assert stages > 1
    late = [n for n, d in g.nodes(data=True) if d["op"] == "input" and d["port"] in g.graph["late"]]
    assert late and all(g.nodes[n]["stage"] == stages - 1 for n in late)
    # its one combine: the accumulator feeds one add, which feeds the output (a 9-term sum adds it at its root)
    for n in late:
        (user,) = g.successors(n)
        assert g.nodes[user]["op"] == "add" and [g.nodes[v]["op"] for v in g.successors(user)] == ["output"]
    sched = design.plan.op(op.name)
    assert dict(sched.read_offsets) == dict.fromkeys(g.graph["late"], stages - 1)
    assert sched.latency == stages - 1 + design.target.pe_latency
    meta = design.compute_doc["namespaces"]["global"]["modules"][f"k_{op.name}"]["metadata"]["mainspring"]
    assert meta["input_stage"] == dict.fromkeys(g.graph["late"], stages - 1)


@pytest.mark.parametrize("name", _together(APPS))
def test_cycles_grow_by_the_stages_added_only(name):
    piped, _ = _app(name)
    flat, _ = _app(name, UNPIPELINED)
    lat, flat_lat = piped.report["kernel_latency"], flat.report["kernel_latency"]
    added = sum(lat.values()) - sum(flat_lat.values())
    assert 0 <= piped.report["predicted_cycles"] - flat.report["predicted_cycles"] <= added
    assert piped.report["ideal_cycles"] == flat.report["ideal_cycles"]
    # Storage stays where it was: the accumulator's value still lives no cycle between a step and the next.
    words = {b["name"]: (b["words"], b["min_words"]) for b in flat.report["buffers"]}
    assert {b["name"]: (b["words"], b["min_words"]) for b in piped.report["buffers"]} == words


def test_a_ram_update_writes_its_address_kernels_depth_after_it_fires():
    design, _ = _app("histogram")
    (address,) = [g for op, g, value in kernel_graphs(design.program, design.target) if op.scatter and not value]
    (value,) = [g for op, g, v in kernel_graphs(design.program, design.target) if op.scatter and v]
    assert address.graph["stages"] > 1 and value.graph.get("stages", 1) == 1
    (wp,) = design.plan.buffer("hist").write_ports
    op = design.plan.op(wp.op)
    assert op.latency == address.graph["stages"]
    assert wp.controller.cycle_starting_addr == op.delay + op.latency


def test_the_checker_rejects_the_accumulator_read_as_the_op_fires():
    design, _ = _app("h2h_accumulation")
    check_plan(design.program.nest, design.plan)
    ops = tuple(dataclasses.replace(s, read_offsets=()) for s in design.plan.ops)
    with pytest.raises(MemoryCheckError, match="conv_0"):
        check_plan(design.program.nest, dataclasses.replace(design.plan, ops=ops))


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("name", _together(APPS))
def test_retimed_apps_are_bit_exact_at_the_predicted_cycles(name, simulator, build_dir):
    design, inputs = _app(name)
    assert max(_kernel_ops(design).values()) <= design.target.pe_ops_per_stage
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles == design.report["predicted_cycles"]


def test_a_retimed_kernel_loses_logic_levels(tmp_path):
    # issue 12's timing flow on the accumulation's kernel alone (the design's longest path is elsewhere: the
    # memory tiles' address controllers)
    require_tool(shutil.which("yosys") is not None, "yosys")
    levels = {}
    for k in (None, UNPIPELINED):
        design = _serial_design("polynomial", k)
        path = tmp_path / f"acc_{k}.v"
        path.write_text(design.verilog)
        levels[k] = logic_levels([str(path), str(library_path())], "k_acc_s1")
    assert levels[None] is not None and levels[UNPIPELINED] is not None
    assert levels[None] < levels[UNPIPELINED] - 10, levels
