"""Rewrite wrap-around arithmetic into one canonical polynomial form, so both sides of a proof share its sums.

A bit-vector term of width w built from additions, subtractions, negations and multiplications (by constants or
not), multiplications by powers of two written as `Concat(Extract(..), 0)`, and truncations `Extract(h, 0, ..)`
is a polynomial over its other subterms (its atoms, each read as its unsigned value) with coefficients mod
2**w: truncation to fewer bits is reduction mod a smaller power of two, a ring homomorphism, so it keeps the
polynomial. `ZeroExt(k, a)` is a's unsigned value: the atom a itself. Everything else (right shifts, high bit
selects, sign extension, comparisons, selects, lookups) is an atom, rebuilt from its operands' canonical forms,
so two atoms spelt alike over equal forms are the same z3 term. A choice that is the min or max of its branches
(`a <= b ? b : a`) is written over its operands, nested ones of its kind gathered, in one order: min and max are
associative and commutative, and a reduction's chain meets the netlist's tree (opening's 3x3 minimum: 22 s -> 2 s).
Each polynomial is rebuilt as the sum of its monomials in one order; the rewritten term is the same function as the
original.

Why: unsharp's output kernel (schedule 4) sums 49 weighted taps in u16. The reference keeps `(uint16)0 * tap`
terms and the compute JSON regroups the additions (`balance_chains`), so z3 was left proving a regrouped sum of
products mod 2**16 bit by bit and found no answer in 30 s. Rewritten, both sides hold the same sum as one z3
term, which `prove_cut` then cuts. What is left differing in form (there the reciprocal table read: 8 bits
zero-extended in the netlist, 16 in the reference, inside products) is met by `swept`: each pair of maximal
differing subterms proved equal by z3 alone is replaced by one of them.
"""

from __future__ import annotations

from collections.abc import Callable

import z3

MAX_PRODUCT = 256  # monomials a product may expand to before it is kept as an atom
Poly = dict[tuple[int, ...], int]  # monomial (atom ids, sorted, repeated for powers) -> coefficient mod 2**w

_ARITHMETIC = {z3.Z3_OP_BADD, z3.Z3_OP_BSUB, z3.Z3_OP_BNEG, z3.Z3_OP_BMUL, z3.Z3_OP_CONCAT, z3.Z3_OP_EXTRACT,
               z3.Z3_OP_BNUM, z3.Z3_OP_ZERO_EXT}


class Canonical:
    """Rewrites terms; one instance for both sides of a proof, so that their atoms are the same terms."""

    def __init__(self, extrema: bool = True) -> None:
        self.gather = extrema  # min and max written over their operands in one order (`_extremum`)
        self.atoms: dict[int, z3.BitVecRef] = {}  # atom id -> its (rewritten) term
        self.order: dict[int, tuple[int, int]] = {}  # atom id -> sort key: z3's structural hash first
        self.terms: dict[int, z3.ExprRef] = {}  # memo by original term id
        self.polys: dict[int, Poly] = {}
        self.extrema: dict[int, tuple] = {}  # a rewritten min or max -> ((is max, signed), its operands)
        # every term met, kept alive: z3 gives a freed term's id to the next one made, which would hit the memos
        self.alive: list[z3.ExprRef] = []

    def term(self, t: z3.ExprRef) -> z3.ExprRef:
        """`t` rewritten: the same function of the same variables."""
        got = self.terms.get(t.get_id())
        if got is None:
            if z3.is_bv(t) and _arithmetic(t):
                got = self._rebuild(self._poly(t), t.size())
            elif t.num_args() == 0:
                got = t
            else:
                got = t.decl()(*[self.term(c) for c in t.children()])
                got = self._extremum(got) if self.gather and z3.is_app_of(got, z3.Z3_OP_ITE) else got
            self.terms[t.get_id()] = got
            self.alive.append(t)
        return got

    def _extremum(self, t: z3.ExprRef) -> z3.ExprRef:
        """A choice that is the min or max of its two branches, written with them in one order (z3's hash), so
        that `max(a, b)` and `max(b, a)` meet."""
        cond, yes, no = t.children()
        if z3.is_not(cond):
            cond, yes, no = cond.arg(0), no, yes
        kind = cond.decl().kind()
        if kind not in _ORDERS or cond.num_args() != 2 or yes.eq(no):
            return t
        a, b = cond.children()
        if not ((a.eq(yes) and b.eq(no)) or (a.eq(no) and b.eq(yes))):
            return t
        less, signed = _ORDERS[kind]
        which = (less != a.eq(yes), signed)  # `a < b ? b : a` and `a > b ? a : b` are the max
        # max(a, max(b, c)) and max(max(a, b), c) alike: the operands of nested ones of the same kind, gathered
        parts = {}
        for x in (a, b):
            kind_x, operands = self.extrema.get(x.get_id(), (None, [x]))
            parts |= {e.get_id(): e for e in (operands if kind_x == which else [x])}
        ordered = sorted(parts.values(), key=lambda e: (e.hash(), e.get_id()))
        out = ordered[0]
        for q in ordered[1:]:
            below = (out <= q) if signed else z3.ULE(out, q)
            out = z3.If(below, q, out) if which[0] else z3.If(below, out, q)
        self.extrema[out.get_id()] = (which, ordered)
        return out

    def _poly(self, t: z3.BitVecRef) -> Poly:
        got = self.polys.get(t.get_id())
        if got is None:
            got = self._compute(t) if _arithmetic(t) else self._atom(self.term(t))
            self.polys[t.get_id()] = got
            self.alive.append(t)
        return got

    def _compute(self, t: z3.BitVecRef) -> Poly:
        w, kind, kids = t.size(), t.decl().kind(), t.children()
        if kind == z3.Z3_OP_BNUM:
            return _reduce({(): t.as_long()}, w)
        if kind == z3.Z3_OP_BADD:
            return _reduce(_sum([self._poly(c) for c in kids]), w)
        if kind == z3.Z3_OP_BSUB:
            first, *rest = [self._poly(c) for c in kids]
            return _reduce(_sum([first, *[_scale(p, -1) for p in rest]]), w)
        if kind == z3.Z3_OP_BNEG:
            return _reduce(_scale(self._poly(kids[0]), -1), w)
        if kind == z3.Z3_OP_BMUL:
            out: Poly = {(): 1}
            for c in kids:
                factor = self._poly(c)
                if len(out) * len(factor) > MAX_PRODUCT:  # expanding would blow up: a product of sums stays one
                    return self._atom(t.decl()(*[self.term(c) for c in kids]))
                out = _reduce(_product(out, factor), w)
            return out
        if kind == z3.Z3_OP_EXTRACT:  # low bits only (`_arithmetic`): the value mod 2**(h + 1)
            return _reduce(self._poly(kids[0]), w)
        if kind == z3.Z3_OP_ZERO_EXT:  # the operand's unsigned value, exactly
            return self._atom(self.term(kids[0]))
        return self._concat(kids, w)

    def _concat(self, kids: list, w: int) -> Poly:
        """The top part's value mod 2**its width suffices (shifted up, it fills the top bits); each lower part
        counts with its exact unsigned value, an atom (or a constant)."""
        parts, shift = [], w
        for i, c in enumerate(kids):
            shift -= c.size()
            p = self._poly(c) if i == 0 or z3.is_bv_value(c) else self._atom(self.term(c))
            parts.append(_scale(p, 1 << shift))
        return _reduce(_sum(parts), w)

    def _atom(self, t: z3.BitVecRef) -> Poly:
        key = t.get_id()
        if key not in self.atoms:
            self.atoms[key] = t
            self.order[key] = (t.hash(), len(self.order))
        return {(key,): 1}

    def _rebuild(self, poly: Poly, w: int) -> z3.BitVecRef:
        ordered = lambda ids: tuple(self.order[i] for i in ids)  # noqa: E731
        terms = []
        for mono in sorted(poly, key=lambda m: (len(m), ordered(m))):
            factors = [self._fit(self.atoms[i], w) for i in sorted(mono, key=lambda i: self.order[i])]
            terms.append((poly[mono], factors))
        return sum_of_products(terms, w)

    @staticmethod
    def _fit(atom: z3.BitVecRef, w: int) -> z3.BitVecRef:
        """The atom's unsigned value mod 2**w, as a w-bit term."""
        n = atom.size()
        return atom if n == w else z3.ZeroExt(w - n, atom) if n < w else z3.Extract(w - 1, 0, atom)


MAX_PAIRS = 32  # differing subterm pairs `swept` tries


def sum_of_products(terms: list[tuple[int, list[z3.BitVecRef]]], w: int) -> z3.BitVecRef:
    """The w-bit term sum of coeff * factors..., built left to right in the order given (a coefficient of 1 is
    left out where there are factors), 0 for no terms."""
    built = []
    for coeff, given in terms:
        factors = [z3.BitVecVal(coeff, w), *given] if coeff != 1 or not given else given
        term = factors[0]
        for f in factors[1:]:
            term = term * f
        built.append(term)
    if not built:
        return z3.BitVecVal(0, w)
    total = built[0]
    for t in built[1:]:
        total = total + t
    return total


def swept(given: list, ours: list, theirs: list, proves: Callable[[list], bool]) -> list:
    """`ours` with each maximal subterm where it differs in form from `theirs` (going down both alike while their
    operators agree) replaced by the term of `theirs` there, where `proves([*given, a != b])` shows them equal:
    then, under `given`, the result equals `ours`. Two sides alike but for a table read spelt differently inside
    products meet as one term, where z3 would compare the products bit by bit."""
    pairs: dict[tuple[int, int], tuple] = {}
    for a, b in zip(ours, theirs):
        _differences(a, b, pairs, set())
    proved = [(a, b) for a, b in list(pairs.values())[:MAX_PAIRS] if proves([*given, a != b])]
    return [z3.substitute(t, *proved) for t in ours] if proved else ours


def _differences(a: z3.ExprRef, b: z3.ExprRef, out: dict, seen: set) -> None:
    if a.eq(b) or (a.get_id(), b.get_id()) in seen:
        return
    seen.add((a.get_id(), b.get_id()))
    alike = (a.num_args() == b.num_args() > 0 and a.decl().kind() == b.decl().kind()
             and a.decl().params() == b.decl().params() and a.decl().kind() != z3.Z3_OP_UNINTERPRETED)
    if alike and z3.is_app_of(a, z3.Z3_OP_ITE) and _swapped(a, b):
        # z3 writes `c ? x : 0` as `!c ? 0 : x` on one side and not the other: the branches meet crosswise, and
        # the conditions are each other's negation (once one is replaced by the other's, `simplify` makes the
        # choices one term)
        _differences(a.arg(1), b.arg(2), out, seen)
        _differences(a.arg(2), b.arg(1), out, seen)
        if not a.arg(0).eq(b.arg(0)):
            out.setdefault((a.arg(0).get_id(), -b.arg(0).get_id()), (a.arg(0), z3.Not(b.arg(0))))
    elif alike:
        for x, y in zip(a.children(), b.children()):
            _differences(x, y, out, seen)
    elif z3.is_bv(a) and a.sort() == b.sort() and not z3.is_bv_value(a):
        out.setdefault((a.get_id(), b.get_id()), (a, b))


def _swapped(a: z3.ExprRef, b: z3.ExprRef) -> bool:
    """Whether two choices' branches agree crosswise rather than in order (a constant on each side decides)."""
    def score(x, y):
        return sum(p.eq(q) for p, q in x) + sum(z3.is_bv_value(p) and z3.is_bv_value(q) for p, q in y)
    straight = [(a.arg(1), b.arg(1)), (a.arg(2), b.arg(2))]
    crossed = [(a.arg(1), b.arg(2)), (a.arg(2), b.arg(1))]
    return score(crossed, crossed) > score(straight, straight)


# comparison -> (whether it holds when its first operand is the lesser, whether signed)
_ORDERS = {z3.Z3_OP_ULEQ: (True, False), z3.Z3_OP_ULT: (True, False), z3.Z3_OP_UGEQ: (False, False),
           z3.Z3_OP_UGT: (False, False), z3.Z3_OP_SLEQ: (True, True), z3.Z3_OP_SLT: (True, True),
           z3.Z3_OP_SGEQ: (False, True), z3.Z3_OP_SGT: (False, True)}


def _arithmetic(t: z3.BitVecRef) -> bool:
    kind = t.decl().kind()
    if kind not in _ARITHMETIC:
        return False
    if kind == z3.Z3_OP_EXTRACT:
        return t.params()[1] == 0
    return True


def _reduce(p: Poly, w: int) -> Poly:
    m = (1 << w) - 1
    return {k: v & m for k, v in p.items() if v & m}


def _sum(polys: list[Poly]) -> Poly:
    out: Poly = {}
    for p in polys:
        for k, v in p.items():
            out[k] = out.get(k, 0) + v
    return out


def _scale(p: Poly, c: int) -> Poly:
    return {k: v * c for k, v in p.items()}


def _product(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ka, va in a.items():
        for kb, vb in b.items():
            k = tuple(sorted(ka + kb))
            out[k] = out.get(k, 0) + va * vb
    return out
