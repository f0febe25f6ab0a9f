"""Decide a kernel's goal by evaluating it at every input, when its inputs' ranges hold few enough points.

A proof by exhaustion: the goal (z3 terms over the module's inputs) is evaluated with numpy on every combination
of input values in their assumed ranges, in chunks; no point satisfying it means it is unsatisfiable, as z3's
`unsat` would. Only z3's bit-vector operators up to 64 bits are evaluated, each as SMT-LIB defines it (division
by zero included); any other operator, or a term wider, leaves the goal to z3 (`None`).

Why: a kernel dividing a sum of products by a sum of weights read from its three 8-bit inputs (newcomer4's
range_weighted) or multiplying a pixel by two table weights (vignette) is hard for bit-blasting (multipliers and
a divider), but holds 2**24 and 126,000 points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import z3

from .prove_budget import evaluated, now

LIMIT = 1 << 24  # points: 2**24 take a few seconds
CHUNK = 1 << 16  # points a step evaluates at once: its arrays stay in the processor's cache


class Unevaluable(Exception):
    """A term this evaluator does not define."""


def exhausted(goal: list, inputs: dict[str, z3.BitVecRef], ranges: dict[str, tuple[int, int]],
              deadline: float, most: int = LIMIT) -> bool | dict[str, int] | None:
    """True when no input values in `ranges` (port -> [lo, hi], the port's bit pattern as a signed or unsigned
    number) satisfy every term of `goal`; when some do, the first (port -> its bit pattern); None when the space
    is over `most` points, a term is not evaluable or `prove_budget.now()` passes `deadline`. An input over its
    whole type of which the goal reads only some bits (each use an Extract) ranges over those bits, the others 0:
    the goal cannot tell."""
    if set(ranges) != set(inputs) or any(t.size() > 64 for t in inputs.values()):
        return None
    ports = sorted(ranges)
    whole = {p for p in ports if _whole(inputs[p], ranges[p])}
    # the other inputs' ranges alone may hold too many points: left to z3 before the goal is simplified and walked
    if math.prod(_count(ranges[p]) for p in ports if p not in whole) > most:
        return None
    goal = [z3.simplify(g) for g in goal]
    read = _bits_read([inputs[p] for p in whole], goal)
    spaces = {p: _space(ranges[p], read.get(inputs[p].get_id())) if p in whole else ranges[p] for p in ports}
    total = math.prod(_count(spaces[p]) for p in ports)
    if total > most:
        return None
    try:
        ev = _Evaluator([*goal, *inputs.values()], set(_leaves(inputs, {p: np.zeros(1, np.uint64) for p in ports})))
        for start in range(0, total, CHUNK):
            if now() > deadline:
                return None
            evaluated(min(total, start + CHUNK) - start)
            values = {p: v & _mask(inputs[p].size())
                      for p, v in _points(ports, spaces, start, min(total, start + CHUNK)).items()}
            hit = _hits(ev, goal, inputs, values)
            if hit is not None:
                return {p: int(values[p][hit]) for p in ports}
    except (Unevaluable, _NotLeaves):
        return None
    return True


class _NotLeaves(Exception):
    """An input is not made of free leaves this module can set."""


def _hits(ev: _Evaluator, goal: list, inputs: dict, values: dict[str, np.ndarray]) -> int | None:
    """The first point of the chunk where every goal term holds."""
    got = ev.run(_leaves(inputs, values))
    if not all(np.array_equal(got[inputs[p].get_id()], values[p]) for p in inputs):
        raise _NotLeaves  # the leaves do not rebuild the inputs: not a point of the module's input space
    hit = np.ones(len(next(iter(values.values()))) if values else 1, dtype=bool)
    for term in goal:
        hit &= got[term.get_id()]
    return int(np.argmax(hit)) if hit.any() else None


Space = tuple[int, int] | list[int]  # [lo, hi], or the bit positions that vary (the others 0)


def _whole(term: z3.BitVecRef, iv: tuple[int, int]) -> bool:
    """Whether the input is a free leaf over its whole type (then the bits the goal reads bound its space)."""
    w = term.size()
    return iv in ((0, (1 << w) - 1), (-(1 << (w - 1)), (1 << (w - 1)) - 1)) and (
        term.decl().kind() == z3.Z3_OP_UNINTERPRETED)


def _space(iv: tuple[int, int], used: set[int] | None) -> Space:
    return iv if used is None else sorted(used)


def _bits_read(leaves: list[z3.BitVecRef], goal: list) -> dict[int, set[int] | None]:
    """The bits of each leaf (by id) the goal reads, each use an Extract; None for a leaf used otherwise. One walk
    for all the leaves: a kernel of 49 inputs walked its goal once an input."""
    used: dict[int, set[int] | None] = {leaf.get_id(): set() for leaf in leaves}
    seen: set[int] = set()
    stack = list(goal)
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        for c in t.children():
            k = c.get_id()
            if k not in used:
                stack.append(c)
                continue
            bits = used[k]
            if t.decl().kind() != z3.Z3_OP_EXTRACT:
                used[k] = None
            elif bits is not None:
                hi, lo = t.params()
                bits.update(range(lo, hi + 1))
    return used


def _count(space: Space) -> int:
    return max(0, space[1] - space[0] + 1) if isinstance(space, tuple) else 1 << len(space)


def _points(ports: list[str], spaces: dict[str, Space], start: int, stop: int) -> dict[str, np.ndarray]:
    """Points start..stop of the spaces' product (the last port fastest), each as its port's bit pattern."""
    index = np.arange(start, stop, dtype=np.int64)
    out = {}
    for p in reversed(ports):
        space, n = spaces[p], _count(spaces[p])
        k = index % n
        if isinstance(space, tuple):
            out[p] = (k + space[0]).astype(np.uint64)  # negative values wrap: two's complement
        else:
            v, j = np.zeros(len(k), dtype=np.uint64), 0
            for first, width in _runs(space):
                v |= ((k >> j) & ((1 << width) - 1)).astype(np.uint64) << np.uint64(first)
                j += width
            out[p] = v
        index = index // n
    return out


def _runs(bits: list[int]) -> list[tuple[int, int]]:
    """Sorted bit positions as runs (first, width) of consecutive ones."""
    runs: list[tuple[int, int]] = []
    for b in bits:
        if runs and runs[-1][0] + runs[-1][1] == b:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((b, 1))
    return runs


def _leaves(inputs: dict[str, z3.BitVecRef], values: dict[str, np.ndarray]) -> dict[int, np.ndarray]:
    """The free leaves' values: an input is a leaf, a concatenation of leaves, or an extension of one (its
    narrowed variable: `prove.narrowed_inputs`)."""
    env: dict[int, np.ndarray] = {}
    for p, term in inputs.items():
        kind = term.decl().kind()
        parts = term.children() if kind == z3.Z3_OP_CONCAT else [term.arg(0)] if kind in (
            z3.Z3_OP_ZERO_EXT, z3.Z3_OP_SIGN_EXT) else [term]
        low = 0 if kind != z3.Z3_OP_CONCAT else sum(q.size() for q in parts)
        for q in parts:
            if q.decl().kind() != z3.Z3_OP_UNINTERPRETED:
                raise _NotLeaves
            low = low - q.size() if kind == z3.Z3_OP_CONCAT else 0
            env[q.get_id()] = (values[p] >> np.uint64(low)) & _mask(q.size())
    return env


def _mask(w: int) -> np.uint64:
    return np.uint64((1 << w) - 1)


def _signed(x: np.ndarray, w: int) -> np.ndarray:
    s = x.view(np.int64) if w == 64 else x.astype(np.int64)
    return s if w == 64 else np.where((x >> np.uint64(w - 1)) & np.uint64(1) == 1, s - (1 << w), s)


_K = z3  # the operator kinds below are z3's Z3_OP_* constants
_ARITH = {_K.Z3_OP_BADD: np.add, _K.Z3_OP_BMUL: np.multiply, _K.Z3_OP_BAND: np.bitwise_and,
          _K.Z3_OP_BOR: np.bitwise_or, _K.Z3_OP_BXOR: np.bitwise_xor}
_UNSIGNED = {_K.Z3_OP_ULEQ: np.less_equal, _K.Z3_OP_ULT: np.less, _K.Z3_OP_UGEQ: np.greater_equal,
             _K.Z3_OP_UGT: np.greater}
_SIGNED = {_K.Z3_OP_SLEQ: np.less_equal, _K.Z3_OP_SLT: np.less, _K.Z3_OP_SGEQ: np.greater_equal,
           _K.Z3_OP_SGT: np.greater}


@dataclass(frozen=True, slots=True)
class _Node:
    """A term as the evaluator needs it, read from z3 once (z3's API costs more than a numpy step on a chunk)."""

    id: int
    kind: int
    width: int  # 0 for a Boolean
    args: tuple[int, ...]
    info: tuple[int, ...]  # a value's number; an extract's (hi, lo); the operand's width; a concat's part widths
    name: str


def _node(t: z3.ExprRef) -> _Node:
    kind, w = t.decl().kind(), t.size() if z3.is_bv(t) else 0
    if w > 64:
        raise Unevaluable(f"{w} bits")
    if z3.is_bv_value(t):
        info: tuple[int, ...] = (t.as_long(),)
    elif kind == _K.Z3_OP_EXTRACT:
        info = tuple(t.params())
    elif kind == _K.Z3_OP_CONCAT:
        info = tuple(c.size() for c in t.children())
    else:
        info = (t.arg(0).size(),) if t.num_args() and z3.is_bv(t.arg(0)) else ()
    return _Node(t.get_id(), kind, w, tuple(c.get_id() for c in t.children()), info, t.decl().name())


class _Evaluator:
    """Terms' values on chunks of points: bit-vectors as uint64 arrays of their bits, Booleans as bool arrays.
    The terms are read once (`order`: each after its operands), then run on each chunk's leaf values."""

    def __init__(self, roots: list[z3.ExprRef], leaves: set[int]):
        self.order: list[_Node] = []
        seen = set(leaves)
        stack = [(t, False) for t in roots]  # iterative: kernel terms nest deeper than Python's recursion allows
        while stack:
            x, ready = stack.pop()
            if x.get_id() in seen and not ready:
                continue
            if ready:
                self.order.append(_node(x))
                continue
            seen.add(x.get_id())
            stack.append((x, True))
            stack.extend((c, False) for c in x.children() if c.get_id() not in seen)
        # each step's operands used for the last time there (the roots kept): dropped at once, so that a chunk's
        # live arrays stay few and in the processor's cache rather than one per term
        kept, last = {t.get_id() for t in roots}, {}
        for k, n in enumerate(self.order):
            last.update((a, k) for a in n.args)
        self.dead: list[list[int]] = [[] for _ in self.order]
        for a, k in last.items():
            if a not in kept:
                self.dead[k].append(a)

    def run(self, env: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        memo = dict(env)
        for n, dead in zip(self.order, self.dead):
            memo[n.id] = _apply(n, [memo[a] for a in n.args])
            for a in dead:
                del memo[a]
        return memo


def _apply(n: _Node, args: list) -> np.ndarray:
    kind, w = n.kind, n.width
    if kind == _K.Z3_OP_BNUM:
        return np.uint64(n.info[0])
    if kind in (_K.Z3_OP_TRUE, _K.Z3_OP_FALSE):
        return np.bool_(kind == _K.Z3_OP_TRUE)
    if kind in _ARITH:
        out = args[0]
        for a in args[1:]:
            out = _ARITH[kind](out, a)
        # the bitwise ones of w-bit values stay within w bits
        return out & _mask(w) if kind in (_K.Z3_OP_BADD, _K.Z3_OP_BMUL) else out
    if kind in _UNSIGNED:
        return _UNSIGNED[kind](args[0], args[1])
    if kind in _SIGNED:
        return _SIGNED[kind](_signed(args[0], n.info[0]), _signed(args[1], n.info[0]))
    return _other(n, kind, w, args)


def _other(n: _Node, kind: int, w: int, a: list) -> np.ndarray:
    if kind == _K.Z3_OP_BSUB:
        return (a[0] - a[1]) & _mask(w)
    if kind == _K.Z3_OP_BNEG:
        return (np.uint64(0) - a[0]) & _mask(w)
    if kind == _K.Z3_OP_BNOT:
        return ~a[0] & _mask(w)
    if kind in (_K.Z3_OP_BUDIV, _K.Z3_OP_BUDIV_I, _K.Z3_OP_BUREM, _K.Z3_OP_BUREM_I):
        zero = a[1] == 0
        safe = np.where(zero, np.uint64(1), a[1])
        if kind in (_K.Z3_OP_BUDIV, _K.Z3_OP_BUDIV_I):  # SMT-LIB: x / 0 is all ones
            return np.where(zero, _mask(w), a[0] // safe)
        return np.where(zero, a[0], a[0] % safe)  # x % 0 is x
    if kind == _K.Z3_OP_EXTRACT:
        hi, lo = n.info
        return (a[0] >> np.uint64(lo)) & _mask(hi - lo + 1)
    if kind == _K.Z3_OP_CONCAT:
        out = a[0]
        for size, v in zip(n.info[1:], a[1:]):
            out = (out << np.uint64(size)) | v
        return out
    if kind == _K.Z3_OP_ZERO_EXT:
        return a[0]
    if kind == _K.Z3_OP_SIGN_EXT:
        return _signed(a[0], n.info[0]).astype(np.uint64) & _mask(w)
    if kind in (_K.Z3_OP_BSHL, _K.Z3_OP_BLSHR, _K.Z3_OP_BASHR):
        return _shift(kind, a[0], a[1], w)
    return _logic(n, kind, a)


def _logic(n: _Node, kind: int, a: list) -> np.ndarray:
    if kind == _K.Z3_OP_ITE:
        return np.where(a[0], a[1], a[2])
    if kind == _K.Z3_OP_EQ:
        return a[0] == a[1]
    if kind == _K.Z3_OP_DISTINCT and len(a) == 2:
        return a[0] != a[1]
    if kind == _K.Z3_OP_NOT:
        return ~np.asarray(a[0], dtype=bool)
    if kind in (_K.Z3_OP_AND, _K.Z3_OP_OR, _K.Z3_OP_XOR):
        f = {_K.Z3_OP_AND: np.logical_and, _K.Z3_OP_OR: np.logical_or, _K.Z3_OP_XOR: np.logical_xor}[kind]
        out = a[0]
        for v in a[1:]:
            out = f(out, v)
        return out
    if kind == _K.Z3_OP_IMPLIES:
        return np.logical_or(np.logical_not(a[0]), a[1])
    raise Unevaluable(f"operator {n.name}")


def _shift(kind: int, x: np.ndarray, amount: np.ndarray, w: int) -> np.ndarray:
    """SMT-LIB shifts: by w or more, all zeros (or all sign bits); numpy's by 64 or more is undefined."""
    far = amount >= np.uint64(w)
    by = np.where(far, np.uint64(0), amount)
    if kind == _K.Z3_OP_BSHL:
        return np.where(far, np.uint64(0), (x << by) & _mask(w))
    if kind == _K.Z3_OP_BLSHR:
        return np.where(far, np.uint64(0), x >> by)
    s = _signed(x, w)
    return (np.where(far, s >> np.int64(63), s >> by.astype(np.int64))).astype(np.uint64) & _mask(w)
