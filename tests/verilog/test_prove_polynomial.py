"""verilog.prove_polynomial: wrap-around sums and products rewritten into one canonical form. Equal polynomials
meet as one z3 term; different ones (a wrong coefficient, a dropped tap, a widening cast) must not, and every
rewritten term is the same function as the original (z3 proves it)."""

import pytest
import z3

from mainspring.verilog.prove_polynomial import Canonical, swept

W = 16
taps = [z3.BitVec(f"t{i}", 8) for i in range(6)]
weights = [3, 0, 7, 250, 1, 64]


def _wide(t):
    return z3.ZeroExt(W - 8, t)


def _left_fold():
    total = z3.BitVecVal(0, W)
    for w, t in zip(weights, taps):
        total = total + z3.BitVecVal(w, W) * _wide(t)
    return total


def _balanced():
    """The same sum regrouped as a tree, the zero-weight tap dropped, a power of two as a shift (bit select)."""
    terms = [z3.BitVecVal(w, W) * _wide(t) for w, t in zip(weights, taps) if w not in (0, 64)]
    terms.append(z3.Concat(z3.Extract(W - 7, 0, _wide(taps[5])), z3.BitVecVal(0, 6)))
    while len(terms) > 1:
        terms = [terms[i] + terms[i + 1] if i + 1 < len(terms) else terms[i] for i in range(0, len(terms), 2)]
    return terms[0]


def _same_function(a, b):
    s = z3.SolverFor("QF_BV")
    s.add(a != b)
    return s.check() == z3.unsat


def test_a_regrouped_sum_meets_as_one_term():
    c = Canonical()
    assert c.term(_left_fold()).eq(c.term(_balanced()))


def _wrong_coefficient():
    return _left_fold() + _wide(taps[2])


def _dropped_tap():
    return _left_fold() - z3.BitVecVal(250, W) * _wide(taps[3])


def _widened_sum():
    """u16(a + b) of u8 taps: the carry is kept, unlike (u8 sum) mod 2**8 read as a u16 addend."""
    return z3.ZeroExt(8, taps[0] + taps[1])


def _widened_each():
    return _wide(taps[0]) + _wide(taps[1])


@pytest.mark.parametrize(("ours", "theirs"), [(_wrong_coefficient, _left_fold), (_dropped_tap, _balanced),
                                              (_widened_sum, _widened_each)])
def test_different_polynomials_do_not_meet(ours, theirs):
    c = Canonical()
    a, b = c.term(ours()), c.term(theirs())
    assert not a.eq(b)
    assert not _same_function(a, b)


@pytest.mark.parametrize("build", [_left_fold, _balanced, _wrong_coefficient, _widened_sum, _widened_each,
                                   lambda: z3.SignExt(8, taps[0] * taps[1]) * (_wide(taps[2]) - 5),
                                   lambda: z3.LShR(_left_fold(), 8) * 3
                                   + z3.Extract(15, 0, z3.ZeroExt(16, _balanced()))])
def test_the_rewritten_term_is_the_same_function(build):
    t = build()
    assert _same_function(Canonical().term(t), t)


def test_sweeping_replaces_only_subterms_proved_equal():
    x = z3.BitVec("x", 8)
    table_a = z3.If(x == 0, z3.BitVecVal(1, W), z3.BitVecVal(2, W))
    table_b = z3.ZeroExt(8, z3.If(x != 0, z3.BitVecVal(2, 8), z3.BitVecVal(1, 8)))
    wrong = z3.ZeroExt(8, z3.If(x != 0, z3.BitVecVal(3, 8), z3.BitVecVal(1, 8)))
    y = _wide(taps[0])

    def proves(goal):
        s = z3.SolverFor("QF_BV")
        s.add(*goal)
        return s.check() == z3.unsat

    [got] = swept([], [table_a * y], [table_b * y], proves)
    assert got.eq(table_b * y)
    [kept] = swept([], [table_a * y], [wrong * y], proves)
    assert kept.eq(table_a * y)


def test_choices_whose_branches_meet_crosswise_are_swept_crosswise():
    """`c ? x : 0` on one side, `!c ? 0 : x` (spelt `c' ? 0 : x'`) on the other: the branches are compared
    crosswise and the conditions as each other's negation, so the sides meet as one term."""
    x = z3.BitVec("x", 8)
    y = _wide(taps[0])
    table_a = z3.If(x == 0, z3.BitVecVal(1, W), z3.BitVecVal(2, W))
    table_b = z3.ZeroExt(8, z3.If(x != 0, z3.BitVecVal(2, 8), z3.BitVecVal(1, 8)))
    ours = z3.If(z3.Or(z3.Extract(0, 0, y) == 1, z3.Extract(7, 1, y) != 0), table_a * y, z3.BitVecVal(0, W))
    theirs = z3.If(y == 0, z3.BitVecVal(0, W), table_b * y)

    def proves(goal):
        s = z3.SolverFor("QF_BV")
        s.add(*goal)
        return s.check() == z3.unsat

    [got] = swept([], [ours], [theirs], proves)
    assert z3.simplify(got).eq(z3.simplify(theirs))
    assert _same_function(got, ours)


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
@pytest.mark.parametrize("biggest", [False, True], ids=["min", "max"])
def test_a_chain_and_a_tree_of_min_or_max_meet_as_one_term(biggest, signed):
    """min(min(min(a, b), c), d) and min(min(d, b), min(c, a)), written with <, <=, > or a negated test: one term,
    the same function; a max among mins does not join them."""
    a, b, c, d = taps[:4]
    less = [lambda p, q: p < q, lambda p, q: p <= q] if signed else [z3.ULT, z3.ULE]
    greater = [lambda p, q: p > q, lambda p, q: p >= q] if signed else [z3.UGT, z3.UGE]

    def pick(p, q, form):
        if form == 0:
            return z3.If(less[0](p, q), q if biggest else p, p if biggest else q)
        if form == 1:
            return z3.If(greater[1](p, q), p if biggest else q, q if biggest else p)
        return z3.If(z3.Not(less[1](p, q)), p if biggest else q, q if biggest else p)

    chain = pick(pick(pick(a, b, 0), c, 1), d, 2)
    tree = pick(pick(d, b, 2), pick(c, a, 0), 1)
    canonical = Canonical()
    assert canonical.term(chain).eq(canonical.term(tree))
    assert _same_function(canonical.term(chain), chain) and _same_function(chain, tree)
    other = z3.If(z3.ULE(a, b) if not signed else a <= b, a if biggest else b, b if biggest else a)  # the other kind
    mixed = pick(pick(other, c, 0), d, 1)
    assert _same_function(Canonical().term(mixed), mixed)
    assert not Canonical().term(mixed).eq(Canonical().term(pick(pick(pick(a, b, 0), c, 0), d, 0)))
