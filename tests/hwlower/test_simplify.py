"""hwlower/simplify.py: an integer product with a constant 0 factor is 0 (Halide's simplifier folds it too), so
the read it multiplies disappears; a float product is kept (0 * inf and 0 * NaN are NaN)."""

from __future__ import annotations

from mainspring.frontend import ir
from mainspring.frontend.types import Float, Int, UInt
from mainspring.hwlower.simplify import simplify

U16, I32, F32 = UInt(16), Int(32), Float(32)


def test_an_integer_product_with_a_zero_factor_is_zero():
    for t in (U16, I32):
        v = ir.Var(t, "v")
        for e in (ir.BinOp(t, "mul", ir.Const(t, 0), v), ir.BinOp(t, "mul", v, ir.Const(t, 0))):
            got = simplify(ir.BinOp(t, "add", e, v))
            assert ir.structural_key(got) == ir.structural_key(v), got


def test_a_float_product_with_a_zero_factor_is_kept():
    v = ir.Var(F32, "v")
    e = ir.BinOp(F32, "mul", ir.Const(F32, 0.0), v)
    assert ir.structural_key(simplify(e)) == ir.structural_key(e)


def test_a_product_with_a_nonzero_factor_is_kept():
    v = ir.Var(U16, "v")
    e = ir.BinOp(U16, "mul", ir.Const(U16, 2), v)
    assert ir.structural_key(simplify(e)) == ir.structural_key(e)
