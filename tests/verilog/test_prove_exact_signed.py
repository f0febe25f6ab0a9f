"""verilog.prove_exact on right shifts of values that may be negative (session 36): an arithmetic shift of a signed
difference is floor(P / 2**l) at any width, one atom for the same P, and Yosys's copies of a shifted value's top bit
read as its sign; every rewritten term is proved by z3 to be the same function as the original, its polynomial
gives its value within its bounds, and harris's narrowed central differences meet their 32-bit expression."""

import pytest
import z3

from mainspring.verilog.prove_exact import Exact

X, Y, Z = (z3.Function(n, z3.IntSort(), z3.BitVecSort(4)) for n in "xyz")
x, y, z = X(0), Y(0), Z(0)  # inputs as Yosys gives them


def _copies(bit, t, n):
    """`{{n{bit}}, t}`: Yosys's sign extension of a shifted value, by the source's top bit."""
    for _ in range(n):
        t = z3.Concat(bit, t)
    return t


def _terms():
    ux, uy, uz = (z3.ZeroExt(4, v) for v in (x, y, z))
    d, e = ux - uy, ux - uy - uz
    return [
        d >> 2, z3.Extract(7, 2, d), z3.Extract(5, 2, d), z3.Extract(7, 1, e), z3.Extract(6, 3, e),
        _copies(z3.Extract(7, 7, d), z3.Extract(7, 2, d), 2), _copies(z3.Extract(7, 7, e), z3.Extract(7, 3, e), 3),
        z3.SignExt(8, (d >> 2) * (d >> 2)), z3.SignExt(8, (d >> 1) * (e >> 3) + (e >> 2)),
        z3.ZeroExt(8, z3.Extract(7, 2, d)), (d >> 2) - (e >> 2), z3.Extract(7, 2, d + 0x80),
    ]


@pytest.mark.parametrize("index", range(len(_terms())))
def test_a_shifted_signed_value_is_rewritten_to_the_same_function(index):
    t = _terms()[index]
    exact = Exact()
    rewritten = exact.term(t)
    solver = z3.Solver()
    solver.add(rewritten != t)
    assert solver.check() == z3.unsat, (t, rewritten)
    p, lo, hi = exact.poly(t)
    for v in range(1 << 12):  # every point: 4,096
        env = [(x, z3.BitVecVal(v & 15, 4)), (y, z3.BitVecVal(v >> 4 & 15, 4)), (z, z3.BitVecVal(v >> 8, 4))]
        value = _value(exact, p, env)
        assert lo <= value <= hi and value % (1 << t.size()) == z3.simplify(z3.substitute(t, *env)).as_long(), v


def _value(exact, poly, env):
    total = 0
    for mono, coeff in poly.items():
        term = coeff
        for k in mono:
            atom, signed = exact.atoms[k][:2]
            v = z3.simplify(z3.substitute(atom, *env)).as_long()
            term *= v - (1 << atom.size()) if signed and v >> (atom.size() - 1) else v
        total += term
    return total


def _difference(a, b, w):
    return (z3.ZeroExt(w - 8, a) - z3.ZeroExt(w - 8, b)) >> 2


def test_narrowed_central_differences_meet_their_32_bit_expression():
    """harris_lite's sums of products of (a - b) >> 2: 16-bit differences, shifts and products, seven products
    summed in 16 bits and sign-extended (their monomials' bounds would pass 2**15: the products' own bounds do
    not), against the same in 32 bits."""
    a = [z3.BitVec(f"a{i}", 8) for i in range(14)]
    pairs = [(a[2 * i], a[2 * i + 1]) for i in range(7)]
    narrow = z3.SignExt(16, sum(_difference(p, q, 16) * _difference(p, q, 16) for p, q in pairs))
    wide = sum(_difference(p, q, 32) * _difference(p, q, 32) for p, q in pairs)
    exact = Exact()
    assert exact.term(narrow).eq(exact.term(wide))


def test_a_shift_by_another_amount_is_another_atom():
    a, b = z3.BitVec("a", 8), z3.BitVec("b", 8)
    exact = Exact()
    narrow = z3.SignExt(16, _difference(a, b, 16))
    wide = (z3.ZeroExt(24, a) - z3.ZeroExt(24, b)) >> 3
    assert not exact.term(narrow).eq(exact.term(wide))
