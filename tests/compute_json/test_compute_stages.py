"""Pipeline stages and balanced chains (pipeline: compile_kernel, whose last passes are balance_chains and, given
ops_per_stage, assign_stages); kernels pipelined in several stages simulate on Icarus with their outputs
stages - 1 vectors late, equal to the reference."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from mainspring.compute_json import compile_kernel, evaluate_graph, evaluate_kernel, to_coreir_json
from mainspring.compute_json.assign_stages import stage_registers, verify_stages
from mainspring.frontend.types import UInt
from mainspring.verilog import kernel_verilog
from mainspring.verilog.kernel_sim import require_tools, simulate_kernel

from compute_helpers import binop, const, ops_of, unary_kernel, x_values

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
