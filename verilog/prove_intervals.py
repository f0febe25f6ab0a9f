"""Bound a bit-vector term by interval arithmetic, before asking z3.

An interval [lo, hi] of integers (unbounded: lo may be negative) stands for the w-bit patterns `v mod 2**w` of
its values: the sums, differences and products of such patterns are the patterns of the integers' sums,
differences and products, so those need no case of their own for wrapping. Operators that read a pattern as a
number (extensions, unsigned division, shifts right, masks) first place the interval in the window of numbers
the pattern denotes (unsigned [0, 2**w) or signed [-2**(w-1), 2**(w-1))); an interval that straddles two windows
becomes the whole window. A choice is the hull of its branches. Anything else is the whole window: the bound is
always sound, never tight by accident.

Why: harris schedule 1 inlines its whole pipeline into one kernel whose 300-odd narrowed stage registers must
each be proved to hold their value's interval; z3 gets no answer over all of them in 30 s, while each stage is a
few adds, subtractions and multiplies of registers whose intervals are given.
"""

from __future__ import annotations

import z3

Interval = tuple[int, int]


def bound(term: z3.BitVecRef, leaves: dict[int, Interval], memo: dict[int, Interval] | None = None) -> Interval:
    """An interval whose patterns include every value `term` takes when each leaf (by z3 id) lies in its interval
    (a leaf not listed: any value). `memo`: the bounds of terms met before under the same leaves, shared between
    calls (the stages of a kernel share their operands)."""
    memo = memo if memo is not None else {}
    memo.update(leaves)
    stack = [(term, False)]
    while stack:  # iterative post-order: stage terms nest deeper than Python's recursion allows
        t, ready = stack.pop()
        if t.get_id() in memo:
            continue
        if ready:
            memo[t.get_id()] = _apply(t, [memo.get(c.get_id(), (0, 0)) for c in t.children()])
        else:
            stack.append((t, True))
            stack.extend((c, False) for c in t.children() if z3.is_bv(c) and c.get_id() not in memo)
    return memo[term.get_id()]


def leaf_intervals(term: z3.BitVecRef, iv: Interval) -> dict[int, Interval]:
    """Intervals (by z3 id) of an input `term` whose values lie in `iv`, and of its parts when Yosys gives it as a
    concatenation: the part at bit `low` holds the values' floor(v / 2**low), modulo its width."""
    out = {term.get_id(): iv}
    if z3.is_app_of(term, z3.Z3_OP_CONCAT):
        low = term.size()
        for part in term.children():
            low -= part.size()
            out[part.get_id()] = (iv[0] >> low, iv[1] >> low)
    return out


def within(iv: Interval, w: int, lo: int, hi: int) -> bool:
    """Whether every pattern of `iv` (w bits), read as signed when lo < 0, lies in [lo, hi]."""
    a, b = window(iv, w, lo < 0)
    return lo <= a and b <= hi


def _whole(w: int, signed: bool = False) -> Interval:
    return (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)


def window(iv: Interval, w: int, signed: bool) -> Interval:
    """The interval's patterns as numbers of one window, or the whole window."""
    lo, hi = iv
    if hi - lo >= 1 << w:
        return _whole(w, signed)
    base = -(1 << (w - 1)) if signed else 0
    shift = ((lo - base) >> w) << w  # the multiple of 2**w that brings lo into the window
    lo, hi = lo - shift, hi - shift
    return (lo, hi) if hi < base + (1 << w) else _whole(w, signed)


def _apply(t: z3.ExprRef, a: list[Interval]) -> Interval:
    kind, w = t.decl().kind(), t.size()
    if z3.is_bv_value(t):
        return (t.as_long(), t.as_long())
    if kind == z3.Z3_OP_BADD:
        return (sum(x[0] for x in a), sum(x[1] for x in a))
    if kind == z3.Z3_OP_BSUB:
        return (a[0][0] - a[1][1], a[0][1] - a[1][0])
    if kind == z3.Z3_OP_BNEG:
        return (-a[0][1], -a[0][0])
    if kind == z3.Z3_OP_BMUL and t.num_args() == 2 and t.arg(0).get_id() == t.arg(1).get_id():
        ends = sorted((a[0][0] ** 2, a[0][1] ** 2))  # a square
        return (0 if a[0][0] <= 0 <= a[0][1] else ends[0], ends[1])
    if kind == z3.Z3_OP_BMUL:
        out = a[0]
        for x in a[1:]:
            corners = [p * q for p in out for q in x]
            out = (min(corners), max(corners))
        return out
    if kind == z3.Z3_OP_ITE:
        return _choice(t, a, w)
    if kind == z3.Z3_OP_EXTRACT:
        # bits hi..lo of v mod 2**w are floor(v / 2**lo) mod 2**(hi - lo + 1), for any v: monotone in v
        return (a[0][0] >> t.params()[1], a[0][1] >> t.params()[1])
    if kind in (z3.Z3_OP_ZERO_EXT, z3.Z3_OP_SIGN_EXT):
        return window(a[0], t.arg(0).size(), kind == z3.Z3_OP_SIGN_EXT)
    if kind == z3.Z3_OP_CONCAT:
        return _concat(t.children(), a)
    return _unsigned(t, kind, w, a)


_LESS = {z3.Z3_OP_SLT: True, z3.Z3_OP_SLEQ: True, z3.Z3_OP_ULT: True, z3.Z3_OP_ULEQ: True,
         z3.Z3_OP_SGT: False, z3.Z3_OP_SGEQ: False, z3.Z3_OP_UGT: False, z3.Z3_OP_UGEQ: False}
_SIGNED = (z3.Z3_OP_SLT, z3.Z3_OP_SLEQ, z3.Z3_OP_SGT, z3.Z3_OP_SGEQ)


def _choice(t: z3.ExprRef, a: list[Interval], w: int) -> Interval:
    """The hull of the branches; a min or max (the choice of the lesser or greater of the two compared terms)
    is bounded by the branches' lower and upper ends alike."""
    cond, yes, no = t.children()
    kind = cond.decl().kind()
    if kind in _LESS and {yes.get_id(), no.get_id()} == {c.get_id() for c in cond.children()} and \
            yes.get_id() != no.get_id():
        signed = kind in _SIGNED
        p, q = window(a[1], w, signed), window(a[2], w, signed)
        lesser = _LESS[kind] == (yes.get_id() == cond.arg(0).get_id())
        return (min(p[0], q[0]), min(p[1], q[1])) if lesser else (max(p[0], q[0]), max(p[1], q[1]))
    return (min(a[1][0], a[2][0]), max(a[1][1], a[2][1]))


def _concat(parts: list, a: list[Interval]) -> Interval:
    """From the last part up: a part that repeats the top bit of the parts below it extends them as signed (how
    Yosys writes a sign extension); another is placed above them, read as unsigned."""
    cur, width, top = a[-1], parts[-1].size(), _top(parts[-1])
    for c, x in zip(reversed(parts[:-1]), reversed(a[:-1])):
        if c.size() == 1 and _top(c) == top:
            cur = window(cur, width, True)
        else:
            low = window(cur, width, False)
            cur, top = ((x[0] << width) + low[0], (x[1] << width) + low[1]), _top(c)
        width += c.size()
    return cur


def _top(t: z3.ExprRef) -> tuple[int, int]:
    """The term's top bit, as (the id of the term it is read from, its position there)."""
    while z3.is_app_of(t, z3.Z3_OP_CONCAT):
        t = t.arg(0)
    if z3.is_app_of(t, z3.Z3_OP_EXTRACT):
        return t.arg(0).get_id(), t.params()[0]
    return t.get_id(), t.size() - 1


def _unsigned(t: z3.ExprRef, kind: int, w: int, a: list[Interval]) -> Interval:
    """Operators on patterns read as unsigned numbers, with a constant operand."""
    x = [window(v, w, False) for v in a]
    if kind == z3.Z3_OP_BAND and len(x) == 2:
        return (0, min(x[0][1], x[1][1]))
    if kind in (z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I) and x[1][0] > 0:
        return (x[0][0] // x[1][1], x[0][1] // x[1][0])
    if kind in (z3.Z3_OP_BLSHR, z3.Z3_OP_BASHR) and a[1][0] == a[1][1] and a[1][0] < w:
        signed = kind == z3.Z3_OP_BASHR
        lo, hi = window(a[0], w, signed)
        return (lo >> a[1][0], hi >> a[1][0])
    if kind == z3.Z3_OP_BSHL and a[1][0] == a[1][1] and 0 <= a[1][0] < w:
        return (a[0][0] << a[1][0], a[0][1] << a[1][0])
    return _whole(w)
