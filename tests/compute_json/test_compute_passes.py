"""compute_json passes one at a time (pipeline: lower_kernel, then the pass each test names)."""

import io

import numpy as np
import pytest

from mainspring.compute_json import (
    compile_kernel,
    count_ops,
    divide_by_constants,
    eliminate_common_subexpressions,
    fold_constants,
    lower_dividers,
    lower_kernel,
    shifts_for_powers_of_two,
    verify,
)
from mainspring.compute_json.graph import add_const, add_node, new_graph
from mainspring.frontend import ir
from mainspring.frontend.errors import HalideError
from mainspring.frontend.types import Bool, Int, UInt

from compute_helpers import assert_graph_matches, binary_kernel, binop, const, ops_of, unary_kernel, x_values

I8, U8, I16, U16, I32, U32 = Int(8), UInt(8), Int(16), UInt(16), Int(32), UInt(32)


def _output_const(g, port="out"):
    (src,) = [s for s, _ in g.in_edges(port)]
    assert g.nodes[src]["op"] == "const", g.nodes[src]
    return g.nodes[src]["value"]


@pytest.mark.parametrize(("t", "make", "pattern"), [
    (I8, lambda x: binop("div", const(I8, -128), const(I8, -1)), 0x80),  # 128 wraps to -128
    (I8, lambda x: binop("mod", const(I8, -7), const(I8, 3)), 2),  # Euclidean: never negative
    (I8, lambda x: binop("div", const(I8, -7), const(I8, -3)), 3),
    (I8, lambda x: binop("div", const(I8, 5), const(I8, 0)), 0),
    (U8, lambda x: binop("add", const(U8, 200), const(U8, 100)), 44),
    (I8, lambda x: binop("shl", const(I8, -128), const(I8, -1)), 0xC0),  # negative amount: shift right
    (U8, lambda x: binop("shr", const(U8, 0x80), const(I8, -1)), 0),  # ... and left, out of the byte
    (I8, lambda x: ir.UnOp(U8, "abs", const(I8, -128)), 128),
    (I16, lambda x: binop("absd", const(I16, 32767), const(I16, -32768)), 0xFFFF),
    (I8, lambda x: ir.Cast(Bool(), const(I8, 2)), 0),  # a cast to Bool keeps bit 0
])
def test_fold_constants_folds_to_the_reference_value(t, make, pattern):
    k = unary_kernel(t, make)
    g = fold_constants(lower_kernel(k))
    assert _output_const(g) == pattern
    assert_graph_matches(k, g, {"x": np.array([0])})


@pytest.mark.parametrize("make", [
    lambda x: binop("add", x, const(I16, 0)), lambda x: binop("add", const(I16, 0), x),
    lambda x: binop("mul", const(I16, 1), x), lambda x: binop("and", x, const(I16, -1)),
    lambda x: binop("or", x, const(I16, 0)), lambda x: binop("xor", x, const(I16, 0)),
    lambda x: binop("shr", x, const(I16, 0)), lambda x: ir.Select(I16, binop("lt", const(I16, 1), const(I16, 2)),
                                                                   x, const(I16, 5)),
])
def test_fold_constants_drops_identities(make):
    g = fold_constants(lower_kernel(unary_kernel(I16, make)))
    assert [s for s, _ in g.in_edges("out")] == ["x"]


@pytest.mark.parametrize("make", [lambda x: binop("mul", x, const(I16, 0)), lambda x: binop("and", const(I16, 0), x)])
def test_fold_constants_absorbs(make):
    assert _output_const(fold_constants(lower_kernel(unary_kernel(I16, make)))) == 0


@pytest.mark.parametrize(("t", "make", "pattern"), [
    (U8, lambda x: binop("lt", ir.Cast(U16, x), const(U16, 300)), 1),  # a zext is below 256
    (U8, lambda x: binop("gt", binop("and", x, const(U8, 15)), const(U8, 20)), 0),
    (I8, lambda x: binop("ge", ir.Cast(I16, binop("and", x, const(I8, 7))), const(I16, 0)), 1),  # sext of >= 0
    (I16, lambda x: binop("xor", x, x), 0), (I16, lambda x: binop("sub", x, x), 0),
    (I16, lambda x: binop("lt", x, x), 0), (I16, lambda x: binop("eq", x, x), 1),
    (U16, lambda x: binop("shr", x, const(U16, 20)), 0), (U16, lambda x: binop("shl", x, const(U16, 16)), 0),
    (U16, lambda x: binop("shl", const(U16, 0), x), 0),
])
def test_fold_constants_uses_ranges_and_repeated_operands(t, make, pattern):
    k = unary_kernel(t, make)
    g = fold_constants(lower_kernel(k))
    assert _output_const(g) == pattern
    assert_graph_matches(k, g, {"x": x_values(t)})


def test_fold_constants_picks_the_min_the_ranges_decide():
    k = unary_kernel(U8, lambda x: binop("min", ir.Cast(U16, x), const(U16, 1000)))
    g = fold_constants(lower_kernel(k))
    assert set(ops_of(g)) == {"zext"}
    assert_graph_matches(k, g, {"x": x_values(U8)})


def test_cse_merges_commuted_operands_and_equal_constants_only():
    k = binary_kernel(I16, lambda x, y: binop("add", binop("mul", binop("add", x, y), const(I16, 3)),
                                              binop("mul", binop("add", y, x), const(I16, 3))))
    g = eliminate_common_subexpressions(lower_kernel(k))
    assert ops_of(g) == {"add": 2, "mul": 1, "const": 1}
    narrow = unary_kernel(U16, lambda x: binop("add", x, ir.Cast(U16, binop("add", const(U8, 3), const(U8, 3)))))
    g = eliminate_common_subexpressions(lower_kernel(narrow))
    assert ops_of(g)["const"] == 1  # the two u8 3s merge
    assert_graph_matches(narrow, g, {"x": x_values(U16)})


@pytest.mark.parametrize(("t", "op", "k", "expect"), [
    (U16, "mul", 8, {"shl"}), (I8, "mul", -128, {"shl"}),  # -128 is 2**7 modulo 256
    (U8, "div", 16, {"lshr"}), (I16, "div", 4, {"ashr"}), (I16, "div", -4, {"ashr", "neg"}),
    (I8, "div", -128, {"ashr", "neg"}), (I8, "div", -1, {"neg"}), (I8, "div", 1, set()),
    (I16, "mod", -8, {"and"}), (U32, "mod", 1 << 31, {"and"}), (I8, "mod", -128, {"and"}),
    (I32, "div", 0, set()), (U8, "mod", 0, set()),
])
def test_shifts_for_powers_of_two(t, op, k, expect):
    kernel = unary_kernel(t, lambda x: binop(op, x, const(t, k)))
    g = shifts_for_powers_of_two(lower_kernel(kernel))
    assert set(ops_of(g)) - {"const"} == expect
    assert_graph_matches(kernel, g, {"x": x_values(t)})


@pytest.mark.parametrize(("t", "op", "k", "expect"), [
    (U16, "div", 7, {"umulhi", "lshr", "sub", "add"}),  # 7 needs a 17-bit multiplier: the add-back form
    (U16, "div", 10, {"umulhi", "lshr"}),  # 10 = 2 * 5: pre-shift, then a 16-bit multiplier
    (I16, "div", 10, {"umulhi", "xor", "ashr", "lshr"}),  # floor division through the sign mask
    (I16, "div", -10, {"umulhi", "xor", "ashr", "lshr", "neg"}),
    (I16, "mod", -10, {"umulhi", "xor", "ashr", "lshr", "mul", "sub"}),
    (U8, "div", 200, {"uge", "zext"}), (I8, "div", 100, {"uge", "zext", "xor", "ashr"}),
    (U32, "div", 7, {"umulhi", "lshr", "sub", "add"}), (I32, "mod", 1000, None),
])
def test_divide_by_constants(t, op, k, expect):
    kernel = unary_kernel(t, lambda x: binop(op, x, const(t, k)))
    g = divide_by_constants(lower_kernel(kernel))
    ops = set(ops_of(g)) - {"const"}
    assert not ops & {"udiv", "umod", "sdiv", "smod"}
    if expect is not None:
        assert ops == expect
    assert_graph_matches(kernel, g, {"x": x_values(t)})


@pytest.mark.parametrize("t", [I8, U8])
@pytest.mark.parametrize("op", ["div", "mod"])
def test_lower_dividers_leaves_only_unsigned_division(t, op):
    kernel = binary_kernel(t, lambda x, y: binop(op, x, y))
    g = lower_dividers(lower_kernel(kernel))
    verify(g, lowered=True)
    assert ops_of(g)["udiv"] == 1
    grid = np.meshgrid(x_values(t), x_values(t))
    assert_graph_matches(kernel, g, {"x": grid[0].ravel(), "y": grid[1].ravel()})


def test_signed_shift_amounts_become_a_mux_and_fold_when_constant():
    kernel = binary_kernel(I8, lambda x, y: binop("shl", x, y))
    g = lower_kernel(kernel)
    assert {"mux", "slt", "neg", "shl", "ashr"} <= set(ops_of(g))
    fixed = unary_kernel(I8, lambda x: binop("shl", x, const(I8, -3)))
    assert set(ops_of(compile_kernel(fixed))) == {"ashr", "const"}


def test_verify_rejects_bad_graphs():
    g = new_graph("bad")
    a = add_const(g, 16, 1)
    b = add_const(g, 8, 1)
    add_node(g, "add", 16, (a, b))
    with pytest.raises(AssertionError, match="add"):
        verify(g)
    g = new_graph("bad")
    add_node(g, "const", 8, value=300)
    with pytest.raises(AssertionError):
        verify(g)


def test_compile_kernel_dumps_after_a_step():
    out = io.StringIO()
    compile_kernel(unary_kernel(U16, lambda x: binop("div", x, const(U16, 4))), dump_after="shifts_for_powers_of_two",
                   out=out)
    assert "// after shifts_for_powers_of_two" in out.getvalue() and "lshr" in out.getvalue()
    with pytest.raises(HalideError, match="unknown compute_json step; the steps are lower_kernel, fold_constants"):
        compile_kernel(unary_kernel(U16, lambda x: x), dump_after="fold")


def test_count_ops_in_16_bit_words():
    add32 = count_ops(compile_kernel(unary_kernel(U32, lambda x: binop("add", x, const(U32, 5)))))
    assert (add32.pe_ops, add32.const_words, add32.dividers) == (2, 2, 0)
    mul = count_ops(compile_kernel(binary_kernel(U16, lambda x, y: binop("mul", x, y))))
    assert mul.pe_ops == 1
    assert count_ops(compile_kernel(binary_kernel(U32, lambda x, y: binop("mul", x, y)))).pe_ops == 4
    div = count_ops(compile_kernel(binary_kernel(U16, lambda x, y: binop("div", x, y))))
    assert div.dividers == 1 and div.by_op == {}
    assert "PE ops" in str(div)
    # On 32-bit PEs (hl.CGRA(word_bits=32)) a 32-bit multiply is one PE op and a constant one word.
    add32_on_32 = count_ops(compile_kernel(unary_kernel(U32, lambda x: binop("add", x, const(U32, 5)))), 32)
    assert (add32_on_32.pe_ops, add32_on_32.const_words) == (1, 1)
    assert count_ops(compile_kernel(binary_kernel(U32, lambda x, y: binop("mul", x, y))), 32).pe_ops == 1
