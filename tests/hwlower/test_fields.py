"""hwlower/fields.py through simplify: a field read of a word packed in the same expression is the packed value
(unsigned, signed sign-extended, Bool), also through the casts the read adds; a read of a word that is no packing,
or of a field two terms share, stays as it is. Values checked with the reference's semantics too."""

from __future__ import annotations

import numpy as np

from mainspring.frontend import ir, semantics
from mainspring.frontend.tuples import extract, layout_for, pack
from mainspring.frontend.types import BOOL, Int, UInt
from mainspring.hwlower.simplify import simplify

U8, I8, U16 = UInt(8), Int(8), UInt(16)
A, B, C = ir.Var(U8, "a"), ir.Var(I8, "b"), ir.Var(BOOL, "c")


def _layout():
    return layout_for("t", [U8, I8, BOOL], "here")


def test_each_field_of_a_packed_word_reads_back_as_its_value():
    layout = _layout()
    word = pack(layout, [A, B, C])
    for i, v in enumerate((A, B, C)):
        assert simplify(extract(layout, word, i)) is v


def test_a_read_of_an_opaque_word_keeps_its_shift_and_mask():
    layout = _layout()
    opaque = ir.Var(layout.word, "w")
    for i in range(3):
        e = extract(layout, opaque, i)
        assert ir.structural_key(simplify(e)) == ir.structural_key(e)


def test_a_field_two_terms_share_is_not_taken_for_one_of_them():
    # a u16 term at 0 and a u8 term at 8 overlap: reading bits 8..15 is neither alone
    w = UInt(32)
    word = ir.BinOp(w, "or", ir.Cast(w, ir.Var(U16, "p")), ir.BinOp(w, "shl", ir.Cast(w, A), ir.Const(w, 8)))
    read = ir.BinOp(w, "and", ir.BinOp(w, "shr", word, ir.Const(w, 8)), ir.Const(w, 255))
    assert ir.structural_key(simplify(read)) == ir.structural_key(read)
    p, a = 0x1F34, 0x56
    assert int(semantics.binop("and", w, w, (p | (a << 8)) >> 8, 255)) == (p >> 8 | a) & 255 != a


def test_signed_reads_sign_extend():
    layout = _layout()
    word = pack(layout, [ir.Const(U8, 3), B, ir.Const(BOOL, 1)])
    got = simplify(ir.Cast(Int(32), extract(layout, word, 1)))
    assert isinstance(got, ir.Cast) and got.value is B and got.type == Int(32)
    values = np.array([-128, -1, 0, 5, 127], np.int8)
    packed = (3 | (values.astype(np.uint8).astype(np.uint32) << 8) | (1 << 16)).astype(np.uint32)
    back = ((packed << np.uint32(16)).astype(np.int32) >> 24).astype(np.int8)  # as extract reads it
    assert np.array_equal(back, values)
