"""verilog.prove_exact: every rewritten term is proved by z3 to be the same function as the original (at widths
small enough to decide), a narrowed sum meets its wide expression only where nothing wraps, and the two
kernels of the suite that sat at the 30 s limit (a 16-bit product sign-extended, a 16-bit sum shifted) meet
their expressions as one term."""

import pytest
import z3

from mainspring.verilog.prove_exact import Exact

X, Y, Z = (z3.Function(n, z3.IntSort(), z3.BitVecSort(4)) for n in "xyz")
x, y, z = X(0), Y(0), Z(0)  # inputs as Yosys gives them


def _yosys_sext(t, n):
    top = t.size() - 1
    out = t
    for _ in range(n):
        out = z3.Concat(z3.Extract(top, top, t), out)
    return out


def _terms():
    ux, uy, uz = (z3.ZeroExt(4, v) for v in (x, y, z))
    sx = z3.SignExt(4, x)
    product = _yosys_sext(x, 4) * uy  # in 8 bits: no wrap
    wide = z3.SignExt(8, product)
    return [
        ux + uy, ux - uy, -ux, ux * uy * uz, sx * uy, wide, _yosys_sext(product, 8), z3.ZeroExt(8, ux * uy),
        z3.ZeroExt(4, x + y), z3.SignExt(4, x + y), z3.ZeroExt(8, ux - uy), z3.SignExt(8, ux - uy),
        z3.Extract(7, 2, ux + uy + uz), z3.Extract(3, 1, ux * uy), z3.Extract(7, 7, sx * uy), z3.Extract(7, 3, sx),
        z3.Concat(x, y), z3.Concat(z3.BitVecVal(0, 4), x + y), _yosys_sext(x + y, 4), ux + 0xF0, ux * 0xFF,
        z3.If(z3.ULT(ux, uy), ux + 1, uy - 1), z3.LShR(ux + uy, 1), z3.UDiv(ux * 3, uy | 1),
        z3.Extract(7, 4, ux * 0xAB), z3.ZeroExt(4, z3.Extract(7, 4, ux * uy + uz)) * 3,
        z3.simplify(z3.SignExt(8, _yosys_sext(x, 4) * uy) + z3.SignExt(8, _yosys_sext(y, 4) * uz)),
        ux << 2, z3.LShR(ux * uy, 3), (ux - uy) >> 2, (ux - uy) >> 7, z3.LShR(ux, 8), (ux - uy) >> 8,
        z3.Extract(3, 1, z3.Extract(7, 2, ux * uy + uz)), z3.SignExt(4, z3.Extract(3, 3, x + y)),
        z3.If(ux - uy == uz, ux, uy), z3.If(z3.Not(ux == uy * 2), ux + 1, uz), z3.If(x + y == z, x, z),
    ]


@pytest.mark.parametrize("index", range(len(_terms())))
def test_a_rewritten_term_is_the_same_function(index):
    t = _terms()[index]
    exact = Exact()
    rewritten = exact.term(t)
    solver = z3.Solver()
    solver.add(rewritten != t)
    assert solver.check() == z3.unsat, (t, rewritten)
    # and its polynomial, within its bounds, gives its value
    p, lo, hi = exact.poly(t)
    for v in range(0, 1 << 12, 37):  # a spread of the 4,096 points: the z3 check above is the proof
        env = [(x, z3.BitVecVal(v & 15, 4)), (y, z3.BitVecVal(v >> 4 & 15, 4)), (z, z3.BitVecVal(v >> 8, 4))]
        value = _value(exact, p, env)
        assert lo <= value <= hi and value % (1 << t.size()) == z3.simplify(z3.substitute(t, *env)).as_long()


def _value(exact, poly, env):
    total = 0
    for mono, coeff in poly.items():
        term = coeff
        for key in mono:
            atom, signed = exact.atoms[key][:2]
            v = z3.simplify(z3.substitute(atom, *env)).as_long()
            term *= v - (1 << atom.size()) if signed and v >> (atom.size() - 1) else v
        total += term
    return total


def _meet(a, b):
    exact = Exact()
    return exact.term(z3.simplify(a)).eq(exact.term(z3.simplify(b)))


def test_a_narrowed_product_sign_extended_meets_the_wide_product():
    """automl16 conv_param: `sext32(i16(w) * u16(in))` summed, against `int32(w) * int32(in)` summed."""
    w, i = (z3.BitVec(n, 8) for n in "wi")
    w2, i2 = (z3.BitVec(n, 8) for n in ("w2", "i2"))
    narrow = sum(_yosys_sext(_yosys_sext(a, 8) * z3.ZeroExt(8, b), 16) for a, b in ((w, i), (w2, i2)))
    wide = sum(z3.SignExt(24, a) * z3.ZeroExt(24, b) for a, b in ((w, i), (w2, i2)))
    assert _meet(narrow, wide)


def test_a_narrowed_sum_shifted_meets_the_wide_sum_shifted():
    """autoprobe16 dog: a 16-bit sum of weighted pixels `>> 8`, against the 32-bit sum of the rows `>> 8`."""
    p = [z3.ZeroExt(8, z3.BitVec(f"p{k}", 8)) for k in range(4)]
    narrow = z3.LShR(p[0] + 4 * p[1] + 6 * p[2] + p[3], 8)
    rows = [z3.ZeroExt(16, p[0] + 4 * p[1]), z3.ZeroExt(16, 6 * p[2] + p[3])]
    wide = z3.Extract(15, 0, z3.LShR(rows[0] + rows[1], 8))
    assert _meet(narrow, wide)


def test_a_sum_that_can_wrap_does_not_meet_the_wide_sum():
    """An 8-bit sum of two pixels overflows: zero-extended it is not the 16-bit sum (nor its shift)."""
    a, b = (z3.BitVec(n, 8) for n in "ab")
    assert not _meet(z3.ZeroExt(8, a + b), z3.ZeroExt(8, a) + z3.ZeroExt(8, b))
    assert not _meet(z3.ZeroExt(8, z3.LShR(a + b, 1)), z3.LShR(z3.ZeroExt(8, a) + z3.ZeroExt(8, b), 1))
    # a product of a signed and an unsigned byte needs 16 bits: in 12 it wraps
    w, i = z3.BitVec("w", 8), z3.BitVec("i", 8)
    assert not _meet(z3.SignExt(20, z3.SignExt(4, w) * z3.ZeroExt(4, i)), z3.SignExt(24, w) * z3.ZeroExt(24, i))
