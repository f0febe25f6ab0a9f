"""Prove the outputs' equality case by case: one input pinned to each of its few values, or the top bits of one.

A kernel whose input takes few values (a coordinate that picks ROM entries, `coord_c` in [0, 1]) or whose input's
top bits are a field of their own (a packed Tuple: the count in bits 16 and up of `sum_count`, the divisor of a
mean) is hard for z3 as a whole: the netlist and the reference read those values through different lookups and
comparisons, and bit-blasting them leaves two multipliers or dividers that only agree case by case. With the value
(or the field) pinned, `simplify` folds the lookups to constants and both sides are often the same polynomial, or
the same division by a constant. The cases cover every value the input can take (its whole range, or every value
of the top bits, the low bits left free), so the outputs are equal when each case is: a proof, as sound as the
check each case gets (`decide`: a proof or no answer, never a guess).

Why: conv_layer_mobile's CoreIR branch (probe20's `mobile_coreir_branch_as_written`, nine u16 taps times a
coefficient table read at `coord_c`) and a Tuple reduction's mean (`tuple_sum_and_count_where`: u16 sum divided by
max(count, 1), both in one u32) spent their whole 30 budget seconds with no answer on every fresh clone; each is
two cases or 512, each case one term on both sides (`prove_exact`), in well under a second.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

import z3

from .prove_budget import now, spent, units

MOST = 512  # cases tried at most: a case is a substitution and a rewrite, a millisecond or a few
FIELD_BITS = 9  # top bits of an input split at most (2**9 cases)


def split_proves(given: list, inputs: dict[str, z3.BitVecRef], ranges: dict[str, tuple[int, int]], ours: list,
                 theirs: list, decide: Callable[..., bool], deadline: float, most: int = MOST) -> bool:
    """True when for every case (`_splits`) `decide(given, ours, theirs, ways_cases=n)`, each pinned to that case
    (n: how many cases the way has), proves the outputs equal. False at the first case it does not prove, when no
    input has few values or fields, or when `prove_budget.now()` passes `deadline`. `most`: the most cases a way
    may have."""
    terms = [*given, *ours, *theirs]
    for count, cases in _splits(inputs, ranges, terms, most):
        check = functools.partial(decide, ways_cases=count)
        if all(_case(pairs, want, terms, len(given), len(ours), check, deadline) for pairs, want in cases):
            return True
    return False


def _case(pairs: list, want: tuple | None, terms: list, n_given: int, n_ours: int,
          decide: Callable[..., bool], deadline: float) -> bool:
    if now() > deadline:
        return False
    if want is not None and not z3.simplify(z3.substitute(want[0], *pairs)).eq(want[1]):
        return False  # the leaf's value does not give the input's: the cases would not cover its range
    pinned = [z3.simplify(z3.substitute(t, *pairs)) for t in terms]
    given, rest = pinned[:n_given], pinned[n_given:]
    if any(z3.is_false(c) for c in given):
        return True  # no input of this case meets the assumptions: nothing to prove there
    return decide(given, rest[:n_ours], rest[n_ours:])


def _splits(inputs: dict[str, z3.BitVecRef], ranges: dict[str, tuple[int, int]], terms: list,
            most: int) -> Iterator[tuple[int, Iterator]]:
    """Each way to split, fewest cases first: how many cases, and the cases, each (the substitutions that pin it,
    None or (the input, the value the substitutions must fold it to))."""
    leaves = {port: leaf for port in sorted(inputs) if (leaf := _leaf(inputs[port])) is not None}
    lows = _selected(terms, {leaf.get_id() for leaf in leaves.values()})
    ways = []
    for port, leaf in leaves.items():
        iv = ranges.get(port)
        if iv is not None and 1 < iv[1] - iv[0] + 1 <= most and _injective(inputs[port], leaf):
            ways.append((iv[1] - iv[0] + 1, port, "values"))
        fits = [low for low in lows.get(leaf.get_id(), ()) if 1 << (leaf.size() - low) <= min(most, 1 << FIELD_BITS)]
        if fits:
            ways.append((1 << (leaf.size() - min(fits)), port, "field"))
    for count, port, kind in sorted(ways):
        leaf = leaves[port]
        if kind == "values":
            yield count, _value_cases(inputs[port], leaf, ranges[port])
        else:
            yield count, _field_cases(leaf, count.bit_length() - 1)


def _leaf(term: z3.BitVecRef) -> z3.BitVecRef | None:
    """The one free variable (a constant or Yosys's function of the state) an input's term is built from."""
    seen: dict[int, z3.ExprRef] = {}
    stack = [term]
    while stack:
        t = stack.pop()
        if t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            seen[t.get_id()] = t
        else:
            stack.extend(t.children())
    leaves = list(seen.values())
    return leaves[0] if len(leaves) == 1 and z3.is_bv(leaves[0]) else None


def _injective(term: z3.BitVecRef, leaf: z3.BitVecRef) -> bool:
    """Whether the input's value gives its leaf's (an extension or the leaf itself): then the leaf's value pinned
    for each value of the input's range is the only one that gives it, and the cases cover every leaf value the
    range admits. Decided by z3 (a tiny check: no answer is a no)."""
    if term.eq(leaf):
        return True
    other = z3.FreshConst(leaf.sort(), "ms_split")
    solver = z3.SolverFor("QF_BV")
    solver.set("rlimit", units(0.05))
    solver.add(z3.substitute(term, (leaf, other)) == term, other != leaf)
    verdict = solver.check()
    spent(solver)
    return verdict == z3.unsat


def _selected(terms: list, leaves: set[int]) -> dict[int, set[int]]:
    """For each leaf (by id), the lowest bits above 0 at which the terms select bits of it."""
    lows: dict[int, set[int]] = {}
    seen: set[int] = set()
    stack = list(terms)
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_app_of(t, z3.Z3_OP_EXTRACT) and t.arg(0).get_id() in leaves and t.params()[1] > 0:
            lows.setdefault(t.arg(0).get_id(), set()).add(t.params()[1])
        stack.extend(t.children())
    return lows


def _value_cases(term: z3.BitVecRef, leaf: z3.BitVecRef, iv: tuple[int, int]) -> Iterator:
    """The leaf at each value that gives the input each value of its range (checked as the case is tried)."""
    w, n = term.size(), leaf.size()
    for v in range(iv[0], iv[1] + 1):
        yield [(leaf, z3.BitVecVal(v % (1 << n), n))], (term, z3.BitVecVal(v % (1 << w), w))


def _field_cases(leaf: z3.BitVecRef, bits: int) -> Iterator:
    """Every value of the leaf's top `bits` bits, the others a fresh variable: together every value of the leaf."""
    n = leaf.size()
    low = z3.FreshConst(z3.BitVecSort(n - bits), "ms_split")
    for v in range(1 << bits):
        yield [(leaf, z3.Concat(z3.BitVecVal(v, bits), low))], None
