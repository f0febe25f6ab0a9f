"""verilog.prove_exact on a shifted product of atoms (found by probe23, session 36): the top bit of an unsigned
product (`count_leading_zeros` of a u32 product reads it) crashed the rewrite, which took the product's monomial
for a lone atom; and a product whose first atom was a floor was rewritten as that floor shifted further, a
different function (z3 found where they differ). Each rewritten term must be the original's function."""

import pytest
import z3

from mainspring.verilog.prove_exact import Exact

X, Y, Z = (z3.Function(n, z3.IntSort(), z3.BitVecSort(4)) for n in "xyz")
x, y, z = X(0), Y(0), Z(0)


def _terms():
    ux, uy, uz = (z3.ZeroExt(4, v) for v in (x, y, z))
    floor = z3.ZeroExt(2, z3.Extract(7, 2, ux + uy))  # floor((x + y) / 4), made before z's atom
    return [
        z3.Extract(7, 7, ux * uy),  # the top bit of a product of two atoms
        z3.Extract(7, 7, ux * ux),  # of a square (one atom twice in the monomial)
        z3.Extract(7, 1, floor * uz),  # a floor times an atom, shifted: not the floor shifted further
        z3.Extract(7, 3, floor * 3),  # a floor times a constant, shifted
        z3.Extract(7, 1, floor),  # a floor alone, shifted further (the rewrite that does hold)
    ]


@pytest.mark.parametrize("index", range(len(_terms())))
def test_a_shifted_product_is_rewritten_into_the_same_function(index):
    t = _terms()[index]
    rewritten = Exact().term(t)
    solver = z3.Solver()
    solver.add(rewritten != t)
    assert solver.check() == z3.unsat, (t, rewritten)
