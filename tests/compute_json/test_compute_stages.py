"""Pipeline stages and balanced chains (pipeline: compile_kernel, whose last passes are balance_chains and, given
ops_per_stage, assign_stages); kernels pipelined in several stages simulate on Icarus with their outputs
stages - 1 vectors late, equal to the reference."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from mainspring.compute_json import compile_kernel, evaluate_graph, evaluate_kernel, to_coreir_json
from mainspring.compute_json.assign_stages import stage_ops, stage_registers, verify_stages
from mainspring.frontend.types import UInt
from mainspring.verilog import kernel_verilog
from mainspring.verilog.kernel_sim import require_tools, simulate_kernel

from compute_helpers import binary_kernel, binop, const, ops_of, unary_kernel, x_values

U16, U32 = UInt(16), UInt(32)


def _sum_of_products(n: int, t=U16):
    """out = x*1 + x*3 + ... (n terms, added one after another as a reduction's loop adds them)."""
    def make(x):
        total = binop("mul", x, const(t, 1))
        for k in range(1, n):
            total = binop("add", total, binop("mul", x, const(t, 2 * k + 1)))
        return total
    return unary_kernel(t, make)


def _longest_chain(g, op: str) -> int:
    depth: dict[str, int] = {}
    for n in nx.topological_sort(g):
        below = max((depth[u] for u in g.predecessors(n)), default=0)
        depth[n] = below + (g.nodes[n]["op"] == op)
    return max(depth.values())


def test_a_chain_of_adds_becomes_a_tree_of_least_height():
    g = compile_kernel(_sum_of_products(9))
    assert ops_of(g)["add"] == 8
    assert _longest_chain(g, "add") == 4  # ceil(log2(9)), not 8
    x = x_values(U16)
    assert (evaluate_graph(g, {"x": x})["out"] == evaluate_kernel(_sum_of_products(9), {"x": x})["out"]).all()


@pytest.mark.parametrize(("k", "stages"), [(1, 5), (2, 3), (3, 2), (100, 1)])
def test_stages_hold_at_most_k_pe_ops_on_a_path(k, stages):
    # 9 products (one PE op each, stage 0 at K=1) under a 4-level tree of adds.
    g = compile_kernel(_sum_of_products(9), ops_per_stage=k)
    verify_stages(g)
    assert g.graph["stages"] == stages
    json_meta = to_coreir_json(g)["namespaces"]["global"]["modules"]["k"]["metadata"]["mainspring"]
    assert json_meta.get("stages", 1) == stages


def test_a_32_bit_op_counts_as_its_16_bit_pe_ops():
    add32 = compile_kernel(unary_kernel(U32, lambda x: binop("add", x, const(U32, 5))), ops_per_stage=1)
    assert add32.graph["stages"] == 2  # two 16-bit adds, one after the other
    mul32 = compile_kernel(unary_kernel(U32, lambda x: binop("mul", x, x)), ops_per_stage=1)
    assert mul32.graph["stages"] == 4  # four 16x16 partial products
    assert compile_kernel(unary_kernel(U32, lambda x: binop("mul", x, x)), ops_per_stage=4).graph["stages"] == 1
    # Its result is registered once per stage it spans, then used in the next.
    then_add = compile_kernel(unary_kernel(U32, lambda x: binop("add", binop("mul", x, x), const(U32, 1))),
                              ops_per_stage=4)
    assert then_add.graph["stages"] == 2
    assert stage_registers(then_add) == 32


def test_constants_and_wiring_take_no_stage():
    g = compile_kernel(unary_kernel(U16, lambda x: binop("add", binop("div", x, const(U16, 4)), const(U16, 3))),
                       ops_per_stage=1)
    # x / 4 is a shift (one PE op), + 3 another: two stages, the constant read where it is needed.
    assert g.graph["stages"] == 2
    assert all(d["stage"] is None for _, d in g.nodes(data=True) if d["op"] == "const")


@pytest.mark.parametrize("k", [1, 2])
def test_a_pipelined_kernel_simulates_its_function_stages_minus_one_vectors_late(tmp_path, k):
    require_tools("iverilog", "vvp")
    kernel = _sum_of_products(9)
    g = compile_kernel(kernel, ops_per_stage=k)
    text = kernel_verilog(to_coreir_json(g))
    assert f"// k: compute kernel pipelined in {g.graph['stages']} stages." in text
    (tmp_path / "k.v").write_text(text)
    x = x_values(U16)[:3000]
    got = simulate_kernel(kernel, [tmp_path / "k.v"], {"x": x}, tmp_path / "sim")
    assert np.array_equal(got["out"], evaluate_kernel(kernel, {"x": x})["out"])



def _accumulation(n: int, t=U16, late=frozenset({"y"})):
    """out = ((y + x*1) + x*3) + ... (n products), y an accumulator read in the last stage (`late`)."""
    def make(x, y):
        total = y
        for k in range(n):
            total = binop("add", total, binop("mul", x, const(t, 2 * k + 1)))
        return total
    return binary_kernel(t, make), late


@pytest.mark.parametrize("k", [1, 2, 3])
def test_a_late_input_is_added_last_in_the_last_stage(k):
    kernel, late = _accumulation(9)
    g = compile_kernel(kernel, ops_per_stage=k, late=late)
    verify_stages(g)
    last = g.graph["stages"] - 1
    (y,) = [n for n, d in g.nodes(data=True) if d["op"] == "input" and d["port"] == "y"]
    (combine,) = g.successors(y)
    assert g.nodes[y]["stage"] == g.nodes[combine]["stage"] == last
    assert [g.nodes[v]["op"] for v in g.successors(combine)] == ["output"]
    assert stage_ops(g, k) <= k
    # the products' tree alone, then the add of y: no deeper than the kernel without y
    alone = compile_kernel(_sum_of_products(9), ops_per_stage=k).graph["stages"]
    assert g.graph["stages"] <= alone + 1
    x = x_values(U16)
    ys = np.random.default_rng(3).integers(0, 1 << 16, x.size).astype(x.dtype)
    assert (evaluate_graph(g, {"x": x, "y": ys})["out"] == evaluate_kernel(kernel, {"x": x, "y": ys})["out"]).all()


def test_a_late_cone_over_k_pe_ops_keeps_the_kernel_in_one_stage():
    # a 32-bit add is two PE ops in a row: at K = 1 no stage can take the accumulator's step
    kernel, late = _accumulation(3, U32)
    assert compile_kernel(kernel, ops_per_stage=1, late=late).graph["stages"] == 1
    assert compile_kernel(kernel, ops_per_stage=2, late=late).graph["stages"] > 1
    # without a late input it is pipelined as any kernel
    assert compile_kernel(kernel, ops_per_stage=1).graph["stages"] > 1


def test_stage_ops_counts_the_pe_ops_between_registers():
    g = compile_kernel(_sum_of_products(9))
    assert stage_ops(g, 1) == 5  # unpipelined: a product under four levels of adds
    assert stage_ops(compile_kernel(_sum_of_products(9), ops_per_stage=2), 2) == 2
    mul32 = compile_kernel(unary_kernel(U32, lambda x: binop("mul", x, x)), ops_per_stage=1)
    assert stage_ops(mul32, 1) == 1  # four stages of one partial product each
