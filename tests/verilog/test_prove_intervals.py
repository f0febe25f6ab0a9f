"""verilog.prove_intervals: each bound is proved sound by z3 (no leaf values in their intervals give a value
outside the bound), and is tight enough where the narrowed registers need it (a min, a square, a sign extension
as Yosys writes it)."""

import pytest
import z3

from mainspring.verilog.prove_intervals import bound, leaf_intervals, within

X, Y = z3.Function("x", z3.IntSort(), z3.BitVecSort(9)), z3.Function("y", z3.IntSort(), z3.BitVecSort(9))
x, y = X(0), Y(0)  # inputs as Yosys gives them
IX, IY = (-180, 180), (3, 300)


def _in(term, iv):
    """term's pattern is that of a value in iv."""
    w = term.size()
    if iv[1] - iv[0] + 1 >= 1 << w:
        return z3.BoolVal(True)
    return z3.ULE(term - z3.BitVecVal(iv[0] % (1 << w), w), z3.BitVecVal(iv[1] - iv[0], w))




def _yosys_sext(t, n):
    top = t.size() - 1
    out = t
    for _ in range(n):
        out = z3.Concat(z3.Extract(top, top, t), out)
    return out


def _terms():
    sx, sy = z3.SignExt(7, x), z3.SignExt(7, y)
    ux, uy = z3.ZeroExt(7, x), z3.ZeroExt(7, y)
    ysx = _yosys_sext(x, 7)
    return [x + y, x - y, -x, x * y, sx * sy, ysx * ysx, sx * sx, z3.If(sx < sy, sx, sy), z3.If(sx > sy, sx, sy),
            z3.If(z3.ULT(ux, uy), uy, ux), z3.If(sx <= 100, sx, z3.BitVecVal(100, 16)), ux, sx, ysx,
            z3.Concat(x, z3.BitVecVal(0, 3)), z3.Concat(x, y), z3.Extract(15, 6, sx * sx), z3.Extract(5, 0, x + y),
            z3.Extract(8, 4, x), _yosys_sext(z3.Extract(15, 6, ysx * ysx), 6), ux & 0xF0, z3.UDiv(ux, uy | 1),
            z3.LShR(ux, 2), sx >> 3, ux << 4, z3.If(x == y, sx, uy), z3.URem(ux, uy)]


@pytest.mark.parametrize("k", range(len(_terms())))
def test_every_bound_is_sound(k):
    term = _terms()[k]
    leaves = leaf_intervals(x, IX) | leaf_intervals(y, IY)
    iv = bound(term, leaves)
    solver = z3.Solver()
    solver.add(_in(x, IX), _in(y, IY), z3.Not(_in(term, iv)))
    assert solver.check() == z3.unsat, (term, iv, solver.model())


def test_bounds_are_tight_where_registers_need_them():
    leaves = leaf_intervals(x, IX) | leaf_intervals(y, IY)
    sx = _yosys_sext(x, 7)
    assert bound(z3.If(sx < 100, sx, z3.BitVecVal(100, 16)), leaves) == (-180, 100)
    assert bound(z3.Extract(15, 6, sx * sx), leaves) == (0, 506)  # (x * x) >> 6, a square, not -180 * 180
    assert within(bound(_yosys_sext(z3.Extract(15, 6, sx * sx), 6), leaves), 16, -507, 506)
    assert not within(bound(sx * sx, leaves), 16, 0, 32399)
    # a 16-bit input Yosys splits in two parts, in [0, 510]
    hi, lo = z3.Function("h", z3.IntSort(), z3.BitVecSort(7))(0), z3.Function("l", z3.IntSort(), z3.BitVecSort(9))(0)
    parts = leaf_intervals(z3.Concat(hi, lo), (0, 510))
    assert bound(z3.Concat(hi, lo) + 1, parts) == (1, 511) and parts[hi.get_id()] == (0, 0)
