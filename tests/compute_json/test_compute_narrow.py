"""compute_json pass narrow_32_bit_ops (pipeline: compile_kernel, all passes; the pass alone where a test says
so): a 32-bit op whose values fit 16 bits is computed at 16 bits, bit-exact, and only when that saves PE ops."""

import pytest

from mainspring.compute_json import compile_kernel, count_ops, lower_kernel, narrow_32_bit_ops
from mainspring.frontend import ir
from mainspring.frontend.types import Int, UInt

from compute_helpers import assert_graph_matches, binop, const, unary_kernel, x_values

I8, U8, I16, U16, I32, U32 = Int(8), UInt(8), Int(16), UInt(16), Int(32), UInt(32)


def _i32(x):
    return ir.Cast(I32, x)


def _widths(g, op):
    return sorted(d["width"] for _, d in g.nodes(data=True) if d["op"] == op)


# (name, input type, kernel, PE ops at most after narrowing, ops that must stay 32-bit)
CASES = [
    ("u8 times 66 in i32", U8, lambda x: binop("mul", _i32(x), const(I32, 66)), 1, ()),
    ("a product of u8s fits, times 300 does not", U8,
     lambda x: binop("mul", binop("mul", _i32(x), _i32(x)), const(I32, 300)), 5, ("mul",)),
    ("u32 subtraction that wraps", U8, lambda x: binop("sub", ir.Cast(U32, x), const(U32, 200)), 2, ("sub",)),
    ("a signed min of i8 in i32", I8, lambda x: binop("min", _i32(x), const(I32, -3)), 4, ()),
    ("a signed compare of u8 in i32 is unsigned at 16 bits", U8, lambda x: binop("lt", _i32(x), const(I32, 9)),
     1, ()),
    ("an arithmetic shift of a signed product", I8,
     lambda x: binop("shr", binop("mul", _i32(x), const(I32, 100)), const(I32, 3)), 5, ()),
    ("an i16 sum in i32 stays 32-bit: it may need 17 bits", I16,
     lambda x: binop("add", _i32(x), const(I32, 1)), 4, ("add",)),
    ("abs of an i8 difference", I8, lambda x: ir.UnOp(U32, "abs", binop("sub", _i32(x), const(I32, 100))), 5, ()),
    ("a select of two fitting values", U8,
     lambda x: ir.Select(I32, binop("lt", x, const(U8, 7)), binop("mul", _i32(x), const(I32, 3)),
                         binop("add", _i32(x), const(I32, 1000))), 4, ()),
    ("a ReLU of i16 in i32 is zero-extended", I16, lambda x: binop("max", const(I32, 0), _i32(x)), 1, ()),
    ("u16 halves summed in u32 stay 32-bit", U16,
     lambda x: binop("add", ir.Cast(U32, x), ir.Cast(U32, x)), 2, ("add",)),
]


@pytest.mark.parametrize(("name", "t", "make", "most", "wide"), CASES, ids=[c[0] for c in CASES])
def test_a_narrowed_kernel_is_bit_exact_and_no_larger(name, t, make, most, wide):
    k = unary_kernel(t, make)
    whole = compile_kernel(k, pe_bits=32)  # 32-bit PEs: the pass leaves the graph alone
    g = compile_kernel(k)
    assert_graph_matches(k, g, {"x": x_values(t)})
    assert count_ops(g).pe_ops <= min(most, count_ops(whole).pe_ops), (name, count_ops(g))
    for op in wide:
        assert 32 in _widths(g, op), (name, op, _widths(g, op))


def test_the_pass_leaves_a_kernel_on_32_bit_pes_alone():
    g = lower_kernel(unary_kernel(U8, lambda x: binop("mul", _i32(x), const(I32, 66))))
    assert narrow_32_bit_ops(g, pe_bits=32) is g


def test_a_product_that_fits_16_bits_is_one_pe_op():
    """Alone after lower_kernel: `i32(p) * 66` becomes a 16-bit multiply zero-extended for the i32 output."""
    k = unary_kernel(U8, lambda x: binop("mul", _i32(x), const(I32, 66)))
    before = lower_kernel(k)
    g = narrow_32_bit_ops(before)
    assert _widths(before, "mul") == [32] and _widths(g, "mul") == [16]
    assert count_ops(before).pe_ops == 4 and count_ops(g).pe_ops == 1
    assert_graph_matches(k, g, {"x": x_values(U8)})


def test_a_signed_value_read_as_32_bits_stays_32_bits_when_its_sign_extension_costs_more():
    """i32(p) - 200 goes negative: at 16 bits it needs a sign-extension (2 PE ops) for the i32 output, so the
    2-op subtraction is kept."""
    k = unary_kernel(U8, lambda x: binop("sub", _i32(x), const(I32, 200)))
    g = narrow_32_bit_ops(lower_kernel(k))
    assert _widths(g, "sub") == [32] and "sext" not in {d["op"] for _, d in g.nodes(data=True)}


def test_the_narrowed_part_reads_a_sign_extension_only_at_its_boundary():
    """(i32(p) - 200) * 3 + 5 fits 16 bits signed all along: one sign-extension, for the output."""
    k = unary_kernel(U8, lambda x: binop("add", binop("mul", binop("sub", _i32(x), const(I32, 200)),
                                                             const(I32, 3)), const(I32, 5)))
    g = compile_kernel(k)
    assert _widths(g, "sub") == _widths(g, "mul") == _widths(g, "add") == [16]
    assert _widths(g, "sext") == [32]
    assert count_ops(g).pe_ops == 5  # 3 ops, and the output's sign word (2, as count_ops counts a 32-bit sext)
    assert_graph_matches(k, g, {"x": x_values(U8)})
