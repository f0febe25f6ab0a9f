"""Whole kernels through compile_kernel against frontend.semantics, and the Kernel's error messages."""

import numpy as np
import pytest

from mainspring.compute_json import Kernel, compile_kernel, count_ops, format_graph, kernel_from_op, read_port
from mainspring.compute_json.examples import TYPES, kernel_vectors, op_kernel
from mainspring.frontend import ir
from mainspring.frontend.errors import HalideError
from mainspring.frontend.types import Int, UInt

from compute_helpers import assert_graph_matches, binop, ops_of


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_every_op_matches_the_reference(t):
    kernel = op_kernel(t)
    g = compile_kernel(kernel)
    # 8-bit and Bool: every (a, b) pair; wider: extremes, small and random values.
    vectors = kernel_vectors(kernel, 65536 if t.bits() <= 8 else 30000, seed=t.bits())
    assert_graph_matches(kernel, g, vectors)
    assert not set(ops_of(g)) & {"sdiv", "smod", "umod"}


def test_compiling_twice_gives_the_same_graph():
    kernel = op_kernel(Int(16))
    assert format_graph(compile_kernel(kernel)) == format_graph(compile_kernel(kernel))


def test_app_kernels_compile_and_match():
    from mainspring import apps
    from mainspring.frontend.pipeline import Pipeline
    from mainspring.hwlower.lower import lower

    mod = apps.load("gaussian")
    out, _ = mod.build(*mod.DEFAULT_SIZE)
    nest = lower(Pipeline(out), "gaussian").nest
    ops = {op.name: op for _, op in nest.ops()}
    kernel = kernel_from_op(ops["blur_unnormalized_s0"])
    assert [p for p, _ in kernel.inputs] == [p.name for p in ops["blur_unnormalized_s0"].loads]
    g = compile_kernel(kernel)
    assert_graph_matches(kernel, g, kernel_vectors(kernel, 5000))
    assert count_ops(g).by_op == {"add": 8, "mul": 9}  # 9 taps, 3 distinct weights
    assert count_ops(g).const_words == 3
    blur = compile_kernel(kernel_from_op(ops["blur_s0"]))
    assert set(ops_of(blur)) == {"lshr", "const"}  # / 256 is a shift


def _x(t=UInt(8)):
    return read_port("x", t)


def test_kernel_rejects_unknown_ports_with_a_hint():
    with pytest.raises(HalideError, match=r"'xx' is not an input port \(inputs: x\); did you mean x\?"):
        Kernel("k", (("x", UInt(8)),), (("out", binop("add", _x(), read_port("xx", UInt(8)))),))


def test_kernel_rejects_a_port_read_with_another_type():
    with pytest.raises(HalideError, match="input 'x' is declared uint16 but read as uint8"):
        Kernel("k", (("x", UInt(16)),), (("out", _x()),))


@pytest.mark.parametrize(("name", "message"), [
    ("wire", "is a Verilog keyword"), ("a__b", "contains '__'"), ("2x", "is not usable in Verilog"),
])
def test_kernel_rejects_bad_port_names(name, message):
    with pytest.raises(HalideError, match=message):
        Kernel("k", (("x", UInt(8)),), ((name, _x()),))


def test_kernel_rejects_loop_variables_and_duplicate_ports():
    with pytest.raises(HalideError, match="loop variable 'v'"):
        Kernel("k", (), (("out", ir.Var(Int(32), "v")),))
    with pytest.raises(HalideError, match="port 'x' is declared twice"):
        Kernel("k", (("x", UInt(8)),), (("x", _x()),))


def test_generated_names_avoid_port_names():
    # A port named like a generated node keeps its name; the op gets another.
    x = read_port("add_1", UInt(8))
    kernel = Kernel("k", (("add_1", UInt(8)),), (("out", binop("add", x, x)),))
    g = compile_kernel(kernel)
    assert g.nodes["add_1"]["op"] == "input"
    assert_graph_matches(kernel, g, {"add_1": np.arange(256)})
