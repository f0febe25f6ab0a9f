"""Rewrite wrap-around arithmetic into integer polynomials where interval arithmetic shows nothing wraps.

`prove_polynomial` reads a w-bit term as a polynomial mod 2**w, so a zero or sign extension of a sum is an atom:
it cannot meet the same sum computed wider. Here each bit-vector term t of width w gets an integer polynomial P
over atoms (each atom an integer-valued function of the inputs with a known interval) and an interval holding P's
values, such that t's bits are P mod 2**w. That holds through additions, subtractions, negations and products
(reduction mod 2**w is a ring homomorphism) and through truncations `Extract(h, 0, t)`. Where the interval shows
the value is exact, it carries over what wraps in the other form:
- `ZeroExt(k, a)` is a's unsigned value: P(a) when P(a) lies in [0, 2**n), n a's width; `SignExt(k, a)` is its
  signed value: P(a) when P(a) lies in [-2**(n-1), 2**(n-1)). Else an atom (a's bits read unsigned or signed).
- `Extract(h, l, a)` (l > 0, z3's form of a right shift by a constant) of a value P(a) in [0, 2**n) is
  floor(P(a) / 2**l) mod 2**(h-l+1): an atom written at the fewest bits P(a) needs, so a sum shifted in 16 bits
  meets the same sum shifted in 32.
Everything else is an atom over its operands rewritten (each at its own width), so two atoms spelt alike over equal
polynomials are one z3 term. Each polynomial is rebuilt at its term's width as the sum of its monomials in one
order, the same function mod 2**w as the original: the rewritten term is the original's function.

Why: a kernel narrowed to 16-bit products (automl16's conv_param, `int32(w) * int32(in)` summed over 18 taps
computed as `sext(i16(w) * u16(in))`) or to a 16-bit sum where the expression sums in 32 bits (autoprobe16's
dog: `uint32(rows) * weights >> 8`) is equal to its expression only because nothing overflows, which z3 proves by
bit-blasting two differently grouped adder trees and multipliers: no answer in 30 s. Both sides' polynomials are
one term here.
"""

from __future__ import annotations

import z3

from .prove_polynomial import sum_of_products

MAX_PRODUCT = 256  # monomials a product may expand to before it is kept as an atom
Poly = dict[tuple[int, ...], int]  # monomial (atom keys, sorted, repeated for powers) -> integer coefficient


class Exact:
    """Rewrites terms; one instance for both sides of a proof, so that their atoms are the same terms."""

    def __init__(self) -> None:
        self.atoms: dict[int, tuple[z3.BitVecRef, bool, int, int]] = {}  # key -> (term, signed, lo, hi)
        self.keys: dict[tuple[int, bool], int] = {}  # (term id, signed) -> key
        self.order: dict[int, tuple[int, int, bool]] = {}  # key -> sort key: z3's structural hash first
        self.terms: dict[int, z3.ExprRef] = {}  # memo by original term id
        self.polys: dict[int, tuple[Poly, int, int]] = {}  # term id -> (P, lo, hi)
        # every term met, kept alive: z3 gives a freed term's id to the next one made, which would hit the memos
        self.alive: list[z3.ExprRef] = []
        # key of an atom x[n-1] -> (key of x's unsigned atom, n, x's signed value as a polynomial)
        self.sign_bits: dict[int, tuple[int, int, Poly]] = {}
        self.floors: dict[int, tuple[Poly, int, int, int]] = {}  # key of floor(Q / 2**l) -> (Q, its lo, hi, l)

    def term(self, t: z3.ExprRef) -> z3.ExprRef:
        """`t` rewritten: the same function of the same variables."""
        got = self.terms.get(t.get_id())
        if got is None:
            if z3.is_bv(t) and t.decl().kind() in _RULES:
                got = self.rebuild(self.poly(t)[0], t.size())
            elif t.num_args() == 0:
                got = t
            elif z3.is_eq(t) and z3.is_bv(t.arg(0)):
                got = self._equality(t.arg(0), t.arg(1))
            elif z3.is_app_of(t, z3.Z3_OP_ITE) and z3.is_not(t.arg(0)):  # `!c ? a : b` as `c ? b : a`
                got = z3.If(self.term(t.arg(0).arg(0)), self.term(t.arg(2)), self.term(t.arg(1)))
            else:
                got = t.decl()(*[self.term(c) for c in t.children()])
            self.terms[t.get_id()] = got
            self.alive.append(t)
        return got

    def _equality(self, a: z3.BitVecRef, b: z3.BitVecRef) -> z3.BoolRef:
        """`a == b` as `a - b == 0` (they agree mod 2**w), the difference's sign chosen by its first monomial: so
        `x - 3*q == 0` meets `x == 3*q`, and either meets it with the sides swapped."""
        w = a.size()
        d = _reduce(_sum([self.poly(a)[0], _scale(self.poly(b)[0], -1)]), w)
        first = min(d, key=lambda m: (len(m), tuple(self.order[k] for k in m)), default=None)
        if first is not None and d[first] < 0:
            d = _reduce(_scale(d, -1), w)
        return self.rebuild(d, w) == z3.BitVecVal(0, w)

    def poly(self, t: z3.BitVecRef) -> tuple[Poly, int, int]:
        """(P, lo, hi): t's bits are P mod 2**width, and P's value lies in [lo, hi]."""
        got = self.polys.get(t.get_id())
        if got is None:
            kind = t.decl().kind()
            if kind in _RULES:
                p, lo, hi = _RULES[kind](self, t)
                reduced = self._signed_values(_reduce(p, t.size()))
                a, b = self.interval(reduced)
                # P changed by multiples of 2**w is as good: each coefficient its least magnitude (so a sign
                # extension's 0xff00 is -256), and the derived bounds kept only when P is unchanged
                got = (p, max(lo, a), min(hi, b)) if reduced == p else (reduced, a, b)
            else:
                got = self._unsigned(self.term(t))
            self.polys[t.get_id()] = got
            self.alive.append(t)
        return got

    def _signed_values(self, poly: Poly) -> Poly:
        """`poly` with each pair d*m*U(x) - d*2**n*m*x[n-1] (Yosys's sign extension by repeated top bits, spread
        over a sum by z3's `simplify`) written d*m*S, S x's signed value: the same value, and where x's polynomial
        lies in its signed range S is that polynomial, else an atom (whose interval knows its range)."""
        if not self.sign_bits or not any(k in self.sign_bits for mono in poly for k in mono):
            return poly
        out = dict(poly)
        for mono, c in poly.items():
            for top in set(mono) & self.sign_bits.keys():
                x, n, signed = self.sign_bits[top]
                if mono not in out or c % (1 << n):
                    continue
                d, rest = -(c >> n), list(mono)
                rest.remove(top)
                plain = tuple(sorted([*rest, x]))
                if out.get(plain) != d:
                    continue
                del out[mono], out[plain]
                out = _sum([out, _product({tuple(sorted(rest)): d}, signed)])
                break
        return out

    def interval(self, poly: Poly) -> tuple[int, int]:
        """Bounds on P's value from its atoms' intervals, monomial by monomial: they depend on P alone."""
        lo = hi = 0
        for mono, coeff in poly.items():
            a = b = coeff
            for k in mono:
                x, y = self.atoms[k][2:]
                ends = (a * x, a * y, b * x, b * y)
                a, b = min(ends), max(ends)
            lo, hi = lo + a, hi + b
        return lo, hi

    def rebuild(self, poly: Poly, w: int) -> z3.BitVecRef:
        terms = []
        for mono in sorted(poly, key=lambda m: (len(m), tuple(self.order[k] for k in m))):
            if (coeff := poly[mono] % (1 << w)) != 0:
                terms.append((coeff, [self._fit(k, w) for k in mono]))
        return sum_of_products(terms, w)

    def _fit(self, key: int, w: int) -> z3.BitVecRef:
        """The atom's value mod 2**w, as a w-bit term."""
        atom, signed = self.atoms[key][:2]
        n = atom.size()
        if n >= w:
            return atom if n == w else z3.Extract(w - 1, 0, atom)
        return (z3.SignExt if signed else z3.ZeroExt)(w - n, atom)

    def _atom(self, t: z3.BitVecRef, signed: bool, lo: int, hi: int) -> tuple[Poly, int, int]:
        key = self.keys.get((t.get_id(), signed))
        if key is None:
            key = self.keys[(t.get_id(), signed)] = len(self.atoms)
            self.atoms[key] = (t, signed, lo, hi)
            self.order[key] = (t.hash(), t.get_id(), signed)
        return {(key,): 1}, lo, hi

    def _unsigned(self, t: z3.BitVecRef) -> tuple[Poly, int, int]:
        return self._atom(t, False, 0, (1 << t.size()) - 1)

    def _signed(self, t: z3.BitVecRef) -> tuple[Poly, int, int]:
        if t.size() == 1:  # a bit read signed is minus the bit: one atom for both readings
            return _scale(self._unsigned(t)[0], -1), -1, 0
        half = 1 << (t.size() - 1)
        return self._atom(t, True, -half, half - 1)

    def _value(self, t: z3.BitVecRef, signed: bool) -> tuple[Poly, int, int]:
        """t's unsigned or signed value: its polynomial when exact, else an atom."""
        p, lo, hi = self.poly(t)
        n = t.size()
        first = -(1 << (n - 1)) if signed else 0
        if first <= lo and hi < first + (1 << n):
            return p, lo, hi
        rebuilt = self.rebuild(p, n)
        return self._signed(rebuilt) if signed else self._unsigned(rebuilt)


def _number(_: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    # the signed reading: z3 writes `x - 1` as `x + 0xffff`, which would look as if it wrapped
    v, w = t.as_long(), t.size()
    v = v - (1 << w) if v >> (w - 1) else v
    return ({(): v} if v else {}), v, v


def _add(ex: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    parts = [ex.poly(c) for c in t.children()]
    return _sum([p for p, _, _ in parts]), sum(lo for _, lo, _ in parts), sum(hi for _, _, hi in parts)


def _sub(ex: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    (first, lo, hi), *rest = [ex.poly(c) for c in t.children()]
    for p, a, b in rest:
        first, lo, hi = _sum([first, _scale(p, -1)]), lo - b, hi - a
    return first, lo, hi


def _neg(ex: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    p, lo, hi = ex.poly(t.arg(0))
    return _scale(p, -1), -hi, -lo


def _mul(ex: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    out: Poly = {(): 1}
    lo = hi = 1
    for c in t.children():
        p, a, b = ex.poly(c)
        if len(out) * len(p) > MAX_PRODUCT:  # expanding would blow up: the product stays one atom
            return ex._unsigned(t.decl()(*[ex.term(c) for c in t.children()]))
        out = _product(out, p)
        ends = (lo * a, lo * b, hi * a, hi * b)
        lo, hi = min(ends), max(ends)
    return {k: v for k, v in out.items() if v}, lo, hi


def _extract(ex: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    h, low = t.params()
    a, n = t.arg(0), t.arg(0).size()
    if low == 0:
        return ex.poly(a)
    p, lo, hi = ex.poly(a)
    if lo < 0 and not h == low == n - 1 and not hi >> (n - 1):
        return _signed_floor(ex, p, lo, hi, low)
    if lo < 0 or hi >> n:  # not a's unsigned value: its bits from `low` up are an atom
        bits = ex.rebuild(p, n)
        got = ex._unsigned(z3.Extract(h, low, bits))
        if h == low == n - 1:  # a's sign bit: a's signed value is P when P lies in its signed range
            signed = (p, lo, hi) if -(1 << (n - 1)) <= lo and hi < 1 << (n - 1) else ex._signed(bits)
            ex.sign_bits[next(iter(got[0]))[0]] = (next(iter(ex._unsigned(bits)[0]))[0], n, signed[0])
        return got
    x = _lone_atom(p)  # P is one atom (not a product of atoms, nor a multiple): its floors and sign bit carry over
    if x is not None and x in ex.floors:
        q, qlo, qhi, l0 = ex.floors[x]  # floor(floor(Q / 2**l0) / 2**low) = floor(Q / 2**(l0 + low))
        return _floor(ex, q, qlo, qhi, l0 + low)
    got = _floor(ex, p, lo, hi, low)
    top = x is not None and low == n - 1 == ex.atoms[next(iter(got[0]))[0]][0].arg(0).size() - 1
    if top and not ex.atoms[x][1] and ex.atoms[x][0].size() == n:  # the sign bit of an unsigned atom
        ex.sign_bits[next(iter(got[0]))[0]] = (x, n, ex._signed(ex.atoms[x][0])[0])
    return got


def _lone_atom(p: Poly) -> int | None:
    """The key of P's atom if P is that atom alone (coefficient 1), else None."""
    if len(p) != 1:
        return None
    mono, c = next(iter(p.items()))
    return mono[0] if c == 1 and len(mono) == 1 else None


def _floor(ex: Exact, p: Poly, lo: int, hi: int, low: int) -> tuple[Poly, int, int]:
    """floor(P / 2**low) for P in [lo, hi] within [0, 2**n): an atom written at the fewest bits P needs by its own
    interval, so that the same P shifted at any width (or twice) meets it."""
    bits = max(ex.interval(p)[1].bit_length(), low + 1)
    got = ex._atom(z3.Extract(bits - 1, low, ex.rebuild(p, bits)), False, lo >> low, hi >> low)
    ex.floors[next(iter(got[0]))[0]] = (p, lo, hi, low)
    return got


def _signed_floor(ex: Exact, p: Poly, lo: int, hi: int, low: int) -> tuple[Poly, int, int]:
    """floor(P / 2**low) for P in [lo, hi] that may be negative (an arithmetic right shift of a signed difference):
    a's bits from `low` up are that value mod 2**(n - low) whatever P is, since 2**low divides 2**n. Written
    floor(Q / 2**low) - K with Q = P + K * 2**low, K the least that keeps Q's interval (from P alone) at or above
    0: so the same P shifted at any width meets the same atom (harris's central differences, (a - b) >> 2 in 16
    bits on the PEs, in 32 in the expression)."""
    k = -(ex.interval(p)[0] >> low)  # ceil(-lo / 2**low): P's own lowest value, so the same P gives the same K
    q, step = _sum([p, {(): k << low}]), k << low
    got, _, _ = _floor(ex, q, lo + step, hi + step, low)
    return _sum([got, {(): -k}]), lo >> low, hi >> low


def _zero_ext(ex: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    return ex._value(t.arg(0), signed=False)


def _sign_ext(ex: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    return ex._value(t.arg(0), signed=True)


def _concat(ex: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    """The top part's value mod 2**its width suffices (shifted up, it fills the top bits); each lower part counts
    with its unsigned value. Copies of a's top bit above a (Yosys's sign extension) are a's signed value."""
    kids = _flat(t)
    a = kids[-1]
    if len(kids) > 1 and all(_top_bit(b, a) for b in kids[:-1]):
        return ex._value(a, signed=True)
    parts, lo, hi, shift = [], 0, 0, t.size()
    for i, c in enumerate(t.children()):
        shift -= c.size()
        p, a, b = ex.poly(c) if i == 0 else ex._value(c, signed=False)
        parts.append(_scale(p, 1 << shift))
        lo, hi = lo + (a << shift), hi + (b << shift)
    return _sum(parts), lo, hi


def _shift(ex: Exact, t: z3.BitVecRef) -> tuple[Poly, int, int]:
    """A shift by a constant, as the extracts and extensions it is (z3's `simplify` writes it so)."""
    a, by, w = t.arg(0), t.arg(1), t.size()
    if not z3.is_bv_value(by) or by.as_long() == 0:
        return ex._unsigned(t.decl()(*[ex.term(c) for c in t.children()]))
    c = min(by.as_long(), w)
    kind = t.decl().kind()
    if kind == z3.Z3_OP_BSHL:
        p, lo, hi = ex.poly(a)
        return _scale(p, 1 << c), lo << c, hi << c
    if c == w:
        return ex.poly(z3.BitVecVal(0, w)) if kind == z3.Z3_OP_BLSHR else ex.poly(
            z3.SignExt(w - 1, z3.Extract(w - 1, w - 1, a)))
    top = z3.Extract(w - 1, c, a)
    return ex.poly(z3.ZeroExt(c, top) if kind == z3.Z3_OP_BLSHR else z3.SignExt(c, top))


def _top_bit(b: z3.BitVecRef, a: z3.BitVecRef) -> bool:
    """Whether `b` is a's top bit: selected from a, or from what a selects bits of (an arithmetic right shift,
    `{{2{d[15]}}, d[15:2]}`, copies d's top bit, which is a's)."""
    if not z3.is_app_of(b, z3.Z3_OP_EXTRACT) or b.params()[0] != b.params()[1]:
        return False
    if b.arg(0).eq(a):
        return b.params()[0] == a.size() - 1
    return z3.is_app_of(a, z3.Z3_OP_EXTRACT) and a.arg(0).eq(b.arg(0)) and a.params()[0] == b.params()[0]


def _flat(t: z3.BitVecRef) -> list:
    """A concatenation's parts, nested ones spread, MSB first."""
    return [q for c in t.children() for q in (_flat(c) if z3.is_app_of(c, z3.Z3_OP_CONCAT) else [c])]


_RULES = {z3.Z3_OP_BNUM: _number, z3.Z3_OP_BADD: _add, z3.Z3_OP_BSUB: _sub, z3.Z3_OP_BNEG: _neg,
          z3.Z3_OP_BMUL: _mul, z3.Z3_OP_EXTRACT: _extract, z3.Z3_OP_ZERO_EXT: _zero_ext,
          z3.Z3_OP_SIGN_EXT: _sign_ext, z3.Z3_OP_CONCAT: _concat, z3.Z3_OP_BSHL: _shift, z3.Z3_OP_BLSHR: _shift,
          z3.Z3_OP_BASHR: _shift}


def _reduce(p: Poly, w: int) -> Poly:
    half, m = 1 << (w - 1), 1 << w
    out = {k: (v + half) % m - half for k, v in p.items()}
    return {k: v for k, v in out.items() if v}


def _sum(polys: list[Poly]) -> Poly:
    out: Poly = {}
    for p in polys:
        for k, v in p.items():
            out[k] = out.get(k, 0) + v
    return {k: v for k, v in out.items() if v}


def _scale(p: Poly, c: int) -> Poly:
    return {k: v * c for k, v in p.items()}


def _product(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ka, va in a.items():
        for kb, vb in b.items():
            k = tuple(sorted(ka + kb))
            out[k] = out.get(k, 0) + va * vb
    return out
