"""verilog.prove_split: outputs proved equal case by case, an input pinned to each of its few values (a coordinate
picking table entries) or the top bits of one to each of theirs (a count packed above a sum); a case the check does
not prove leaves the whole unproved, and so does a way of splitting whose cases would not cover the input."""

import z3

from mainspring.verilog.prove_split import split_proves


def _decide(given, ours, theirs, ways_cases) -> bool:
    """A case's check: z3 proves the outputs equal under `given` (as the prover's quick try would)."""
    solver = z3.Solver()
    solver.add(*given, z3.Or([a != b for a, b in zip(ours, theirs)]))
    return solver.check() == z3.unsat


def _no_split(given, ours, theirs, ways_cases) -> bool:
    """A check that proves nothing: what the whole goal gets here, so only the split can prove it."""
    return all(a.eq(b) for a, b in zip(ours, theirs))


def _table(c, x, coeffs):
    """x times the table entry at c, the table as a chain of choices on c's bits (Yosys's lookup)."""
    entry = z3.BitVecVal(coeffs[-1], 16)
    for i in reversed(range(len(coeffs) - 1)):
        entry = z3.If(c == i, z3.BitVecVal(coeffs[i], 16), entry)
    return entry * x


def _coordinate(theirs_coeffs):
    c, x = z3.BitVec("c", 32), z3.BitVec("x", 16)
    given = [z3.ULE(c, 2)]
    ours = z3.If(z3.Extract(1, 1, c) == 1, 7 * x, z3.If(z3.Extract(0, 0, c) == 1, x * 5, x + x + x))
    return given, {"c": c, "x": x}, [ours], [_table(c, x, theirs_coeffs)]


def test_a_table_read_at_a_coordinate_of_three_values_is_proved_case_by_case():
    given, inputs, ours, theirs = _coordinate([3, 5, 7])
    checked = []

    def decide(g, a, b, ways_cases):
        checked.append([str(t) for t in a])
        assert ways_cases == 3
        return _no_split(g, a, b, ways_cases)  # each case's sides one term: no solver needed

    assert split_proves(given, inputs, {"c": (0, 2), "x": (0, 65535)}, ours, theirs, decide, deadline=1e9)
    assert checked == [["3*x"], ["5*x"], ["7*x"]]  # each case one coordinate, its table entry folded


def test_a_wrong_table_entry_is_not_proved():
    given, inputs, ours, theirs = _coordinate([3, 5, 6])
    assert not split_proves(given, inputs, {"c": (0, 2), "x": (0, 65535)}, ours, theirs, _decide, deadline=1e9)


def test_a_coordinate_whose_cases_would_not_cover_its_range_is_not_split():
    """The input is `c + 1` of a free 32-bit c: pinning c to the input's values would miss every case."""
    c, x = z3.BitVec("c", 32), z3.BitVec("x", 16)
    port = c + 1
    ours, theirs = [z3.If(port == 1, 5 * x, 3 * x)], [z3.If(port == 0, 3 * x, 5 * x)]
    assert not split_proves([z3.ULE(port, 1)], {"c": port}, {"c": (0, 1)}, ours, theirs, _no_split, deadline=1e9)


def _mean(floor: int):
    """A u16 sum over max(count, floor), both packed in one 25-bit word, the count in bits 16 and up: the netlist's
    spelling (a test of bits 17 and up) against the reference's (a comparison)."""
    s = z3.BitVec("s", 25)
    count = z3.Extract(24, 16, s)
    ours = z3.UDiv(z3.Extract(15, 0, s), z3.If(z3.Extract(24, 17, s) == 0, z3.BitVecVal(1, 16), z3.ZeroExt(7, count)))
    theirs = z3.UDiv(z3.Extract(15, 0, s), z3.If(z3.ULE(z3.ZeroExt(7, count), floor - 1), z3.BitVecVal(floor, 16),
                                                 z3.ZeroExt(7, count)))
    return {"s": s}, [ours], [theirs]


def test_a_division_by_a_count_packed_above_the_sum_is_proved_for_each_count():
    inputs, ours, theirs = _mean(floor=1)
    assert split_proves([], inputs, {}, ours, theirs, _no_split, deadline=1e9)


def test_a_division_by_another_count_is_not_proved():
    inputs, ours, theirs = _mean(floor=2)  # max(count, 2) is not max(count, 1) at count 1
    assert not split_proves([], inputs, {}, ours, theirs, _decide, deadline=1e9)


def test_no_split_past_its_most_cases():
    inputs, ours, theirs = _mean(floor=1)
    assert not split_proves([], inputs, {}, ours, theirs, _no_split, deadline=1e9, most=256)


def test_an_input_that_does_not_give_its_leaf_is_not_split_by_its_values():
    """The port is the leaf's low 2 bits (a leaf of 8): pinning the leaf to 0..3 would leave out leaf values 4..255,
    which give the same port values, so that way would not cover the range."""
    leaf, x = z3.BitVec("leaf", 8), z3.BitVec("x", 16)
    port = z3.Extract(1, 0, leaf)
    ours = [z3.If(leaf == 7, x, 2 * x)]  # differs from theirs only at leaf 7 (port 3)
    theirs = [2 * x]
    assert not split_proves([], {"p": port}, {"p": (0, 3)}, ours, theirs, _no_split, deadline=1e9)
