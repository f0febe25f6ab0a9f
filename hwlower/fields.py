"""Reads of bit fields from words built of them: a Tuple's packed word (frontend/tuples.py) read back where it was
just packed, as an unrolled Tuple update's steps do once folded into one expression (fold.py), is the packed
value itself, so the hardware does not shift, mask and repack the word at every step.

A word is an `or` of terms, each a zero-extended value shifted left by a constant: `cast(W, v)` of a narrower
unsigned (or Bool) v, `v & (2**k - 1)`, or a constant. A field read (`(word >> o) & mask`, `word >> o`,
`word & mask`) that one term fills exactly, with every other term's bits outside the field, is that term.
"""

from __future__ import annotations

from mainspring.frontend import ir
from mainspring.frontend.types import Type


def _width(z: ir.Expr) -> int | None:
    """How many low bits z may have set, if it is a zero-extended value."""
    if isinstance(z, ir.Cast) and z.value.type.is_uint() and z.value.type.bits() < z.type.bits():
        return z.value.type.bits()
    if isinstance(z, ir.BinOp) and z.op == "and" and isinstance(z.b, ir.Const) and _is_mask(z.b.value):
        return int(z.b.value).bit_length()
    if isinstance(z, ir.Const) and z.value >= 0:
        return int(z.value).bit_length()
    return None


def _is_mask(v: float) -> bool:
    v = int(v)
    return v > 0 and v & (v + 1) == 0


def _terms(word: ir.Expr) -> list[tuple[int, int, ir.Expr]] | None:
    """(offset, width, zero-extended value) of each term of an or of shifted terms; None if word is not one."""
    if not word.type.is_uint():
        return None
    out, stack = [], [word]
    while stack:
        n = stack.pop()
        if isinstance(n, ir.BinOp) and n.op == "or":
            stack += [n.a, n.b]
            continue
        off = 0
        if isinstance(n, ir.BinOp) and n.op == "shl" and isinstance(n.b, ir.Const):
            off, n = int(n.b.value), n.a
        w = _width(n)
        if w is None or off + w > word.type.bits():
            return None
        out.append((off, w, n))
    return out


def read_field(word: ir.Expr, offset: int, width: int) -> ir.Expr | None:
    """The term that fills bits [offset, offset + width) of word alone, zero-extended in word's type; None when
    no single term does."""
    terms = _terms(word)
    if terms is None or len(terms) < 2:
        return None
    inside = [(o, w, z) for o, w, z in terms if o < offset + width and offset < o + w and w > 0
              and not (isinstance(z, ir.Const) and (int(z.value) << o >> offset) & ((1 << width) - 1) == 0)]
    if len(inside) != 1:
        return None
    o, w, z = inside[0]
    if o != offset or w > width or isinstance(z, ir.Const):
        return None
    return z


def field_read(e: ir.BinOp) -> ir.Expr | None:
    """e simplified if it reads one field of a packed word: `(word >> o) & mask`, `word >> o` (the top field) or
    `word & mask` (the lowest), an arithmetic `(int(word << t)) >> s` of a signed field, or a zero-extended
    value's redundant mask; None otherwise."""
    a, b = e.a, e.b
    if not isinstance(b, ir.Const):
        return None
    bits = e.type.bits()
    if e.op == "and" and _is_mask(b.value):
        w = int(b.value).bit_length()
        if (_width(a) or bits + 1) <= w and not isinstance(a, ir.Const):
            return a
        if isinstance(a, ir.BinOp) and a.op == "shr" and isinstance(a.b, ir.Const) and a.type.is_uint():
            return read_field(a.a, int(a.b.value), w)
        return read_field(a, 0, w)
    if e.op == "shr" and e.type.is_uint():
        return read_field(a, int(b.value), bits - int(b.value))
    if e.op == "shr" and e.type.is_int() and isinstance(a, ir.Cast) and isinstance(a.value, ir.BinOp):
        return _signed_read(a.value, bits - int(b.value), e.type)
    return None


def _signed_read(shifted: ir.BinOp, width: int, t: Type) -> ir.Expr | None:
    """`int(word << top) >> (bits - width)`: the signed value whose bits fill that field, sign-extended to t."""
    if shifted.op != "shl" or not isinstance(shifted.b, ir.Const) or shifted.type.bits() != t.bits():
        return None
    offset = t.bits() - width - int(shifted.b.value)
    z = read_field(shifted.a, offset, width)
    if not (isinstance(z, ir.Cast) and isinstance(z.value, ir.Cast)):
        return None
    v = z.value.value  # cast(W, cast(UInt(k), v)) of a signed v of k bits
    if not (v.type.is_int() and v.type.bits() == width and z.value.type.bits() == width):
        return None
    return v if v.type == t else ir.Cast(t, v)


def lossless_pair(e: ir.Cast) -> ir.Expr | None:
    """cast(T, cast(U, v)) with v of type T and U holding every value of T: v."""
    inner = e.value
    if not isinstance(inner, ir.Cast) or inner.value.type != e.type:
        return None
    t, u = e.type, inner.type
    if t.is_float() or u.is_float():
        return None
    if t.is_int():
        ok = u.is_int() and u.bits() >= t.bits()
    else:
        ok = u.bits() >= t.bits() if u.is_uint() else u.bits() > t.bits()
    return inner.value if ok else None


def bool_of_zero_extended(e: ir.BinOp) -> ir.Expr | None:
    """`cast(W, b) != 0` of a Bool b: b."""
    if e.op == "ne" and isinstance(e.a, ir.Cast) and e.a.value.type.is_bool() and isinstance(e.b, ir.Const) \
            and e.b.value == 0:
        return e.a.value
    return None
