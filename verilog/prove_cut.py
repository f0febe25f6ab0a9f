"""Cut the subterms both sides of an equality share, to prove it from what differs between them.

After z3's `simplify`, a term the netlist and the reference both compute is the same z3 term (z3 shares equal
terms: one id). Replacing each maximal shared subterm with a fresh variable, on both sides alike, gives an
equality that implies the original one: if it holds for every value of the fresh variables, it holds for the
values the shared terms take. So `unsat` of the cut disequality is a proof; `sat` may be spurious (a fresh
variable ranges wider than its term), and then the uncut check decides.

Why: a kernel that sums nine table reads at absolute differences (newcomer4's bilateral_2d `k_bden_s0`) has the
same lookups on both sides, but z3 bit-blasts them all and finds no answer in 30 s; with them cut, the sums of
nine free words are equal in 0.04 s.
"""

from __future__ import annotations

import z3


def cut_shared(left: list[z3.BitVecRef], right: list[z3.BitVecRef], keep: frozenset[int] = frozenset()) -> tuple[
        list, list]:
    """(left, right) simplified, with each maximal subterm that both sides contain (not a constant, not an
    input, not of an operator kind in `keep`) replaced by the same fresh variable on both sides."""
    left, right = [z3.simplify(t) for t in left], [z3.simplify(t) for t in right]
    shared = _subterms(left).keys() & _subterms(right).keys()
    tops = _maximal(left, shared, keep) | _maximal(right, shared, keep)
    if not tops:
        return left, right
    pairs = [(t, z3.FreshConst(t.sort(), "ms_cut")) for _, t in sorted(tops.items())]
    return [z3.substitute(t, *pairs) for t in left], [z3.substitute(t, *pairs) for t in right]


def _subterms(roots: list) -> dict[int, z3.ExprRef]:
    seen: dict[int, z3.ExprRef] = {}
    stack = list(roots)
    while stack:
        t = stack.pop()
        if t.get_id() not in seen:
            seen[t.get_id()] = t
            stack.extend(t.children())
    return seen


def _maximal(roots: list, shared, keep: frozenset[int]) -> dict[int, z3.ExprRef]:
    """The shared bit-vector subterms first met going down from `roots`."""
    found: dict[int, z3.ExprRef] = {}
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if t.get_id() in shared and _cuttable(t) and t.decl().kind() not in keep:
            found[t.get_id()] = t
        else:
            stack.extend(t.children())
    return found


def _cuttable(t: z3.ExprRef) -> bool:
    # An input keeps its term: its assumed range is stated over it, and cutting it gains nothing.
    return z3.is_bv(t) and not z3.is_bv_value(t) and t.decl().kind() != z3.Z3_OP_UNINTERPRETED
