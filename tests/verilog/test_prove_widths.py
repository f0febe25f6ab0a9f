"""verilog.prove of kernels narrowed by value ranges (kernel_widths, prove_widen, prove_ranges): stage registers
that keep fewer bits are proved to lose nothing under the inputs' ranges, a register narrower than its value is
disproved, an input range the loaded buffer does not guarantee is disproved, and the views are read from the
text, not from its comments."""

import re

import pytest

import mainspring as hl
from mainspring import apps
from mainspring.compute_json import kernel_from_op
from mainspring.verilog.kernel import combinational_view
from mainspring.verilog.kernel_sim import require_tools
from mainspring.verilog.names import kernel_module
from mainspring.verilog.prove import prove_kernel, prove_ops
from mainspring.verilog.prove_cache import ProofCache
from mainspring.verilog.prove_netlist import NetlistError, module_text
from mainspring.verilog.prove_widen import cut, narrowed, widened


@pytest.fixture(autouse=True)
def _need_yosys():
    require_tools("yosys")


@pytest.fixture(scope="module")
def gaussian():
    out, _ = apps.load("gaussian").build(8, 8, 1)
    design = hl.compile(out, name="gaussian")
    (op,) = [op for _, op in design.program.nest.ops() if op.name == "blur_unnormalized_s0"]
    kernel = kernel_from_op(op, name=kernel_module(op.name))
    return design, kernel, module_text(design.verilog, kernel.name)


def test_stage_registers_keep_the_bits_their_values_need(gaussian, tmp_path):
    design, kernel, text = gaussian
    assert "reg [12:0] mul_10_r1;" in text and "reg [12:0] mul_10_r2;" in text  # 24 * a byte: 13 bits
    assert "mul_10_r1 <= mul_10[12:0];" in text
    assert "wire [15:0] mul_10_r2_x = {3'd0, mul_10_r2};  // mul_10_r2 held in 13 bits, whole: mul_10 in [0, 6120]" \
        in text
    assert prove_kernel(kernel, design.verilog, ProofCache(tmp_path)).status == "proved"


def test_the_views_follow_the_registers_in_the_text(gaussian):
    _, _, text = gaussian
    view = combinational_view(text)
    regs = {n.held: n for n in narrowed(view)}
    assert (regs["mul_10_r2"].root, regs["mul_10_r2"].bits, regs["mul_10_r2"].hi) == ("mul_10", 13, 6120)
    assert "wire [15:0] mul_10_r2_x = mul_10;  // widened" in widened(view)
    cut_view = cut(view, list(regs.values()))
    assert "input wire [12:0] mul_10_r2" in cut_view and "assign mul_10_r2 =" not in cut_view
    # A register that takes other bits than it holds is refused, whatever its comment says.
    with pytest.raises(NetlistError, match="takes bits"):
        narrowed(view.replace("assign mul_10_r1 = mul_10[12:0];", "assign mul_10_r1 = mul_10[11:0];"))


def test_a_register_narrower_than_its_value_is_disproved(gaussian, tmp_path):
    design, kernel, text = gaussian
    # mul_10 = 24 * a byte, up to 6120, held in 12 bits and claimed in [0, 4095]: the claim is wrong.
    wrong = re.sub(r"reg \[12:0\] mul_10_r(\d);", r"reg [11:0] mul_10_r\1;", text)
    wrong = wrong.replace("mul_10_r1 <= mul_10[12:0];", "mul_10_r1 <= mul_10[11:0];")
    wrong = wrong.replace("{3'd0, mul_10_r2};  // mul_10_r2 held in 13 bits, whole: mul_10 in [0, 6120]",
                          "{4'd0, mul_10_r2};  // mul_10_r2 held in 12 bits, whole: mul_10 in [0, 4095]")
    assert wrong.count("[11:0]") == 3
    proof = prove_kernel(kernel, design.verilog.replace(text, wrong), ProofCache(tmp_path))
    assert proof.status == "disproved", proof
    # The narrowed module itself is wrong on some inputs (a product above 4095 loses its top bit).
    assert proof.counterexample is not None and proof.counterexample.got != proof.counterexample.expected


def test_an_assumption_the_buffer_does_not_guarantee_is_disproved(gaussian, tmp_path):
    design, kernel, text = gaussian
    narrower = text.replace("hw_input_0 in [0, 255]", "hw_input_0 in [0, 200]")
    proofs = prove_ops(design.program.nest, design.verilog.replace(text, narrower), tmp_path,
                       streams={"hw_input": (0, 255)})
    (bad,) = [p for p in proofs if p.status != "proved"]
    assert bad.module == kernel.name and bad.status == "disproved"
    assert "input hw_input_0 is assumed in [0, 200], but buffer hw_input holds values in [0, 255]" in bad.reason
    # Without the stream's values, its type's range is all the check may take.
    proofs = prove_ops(design.program.nest, design.verilog, tmp_path)
    assert [p.module for p in proofs if p.status == "disproved"] == [kernel.name]
