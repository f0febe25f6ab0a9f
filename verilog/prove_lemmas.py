"""Lemmas: division by a constant, lowered to shifts or a multiply-high sequence, equals Halide's division.

Solvers stall on wide division: z3 finds no answer in minutes for "the 32-bit multiply-high sequence for x / 7
equals bvudiv(x, 7)", because it bit-blasts a 64-bit multiplier against a 32-bit divider. So a kernel proof
does not ask that. For each (width, divisor, signedness, div or mod) the lowering is built once as a term,
`division_term`, and proved equal to Halide's Euclidean division for every input of the width by
`prove_division_lemma`; the kernel's reference then uses the proved term in place of the division (a rewrite
by a proved equality), and meets the kernel's netlist, which computes the same sequence, term for term.

The lemma is proved in linear integer arithmetic, where it is easy (milliseconds at 32 bits): the sequence is
written once over an abstract set of operations (`_sequence`) and instantiated twice, over bit vectors (what
kernels use) and over integers (what the lemma proves), each operation modelling wrap-around and truncation
exactly on values in [0, 2**w). Halide's x / d and x % d are SMT-LIB's integer div and mod: both are
Euclidean. The shape of the sequence follows `compute_json.divide_by_constants` (so that the terms meet),
and its multipliers come from `compute_json.magic`: any mistake there makes the lemma fail, not the proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import z3

from mainspring.compute_json.magic import unsigned_division

from .prove_budget import spent, units
from .prove_cache import ProofCache, cache_key


class _BitVectors:
    """The sequence's operations on w-bit vectors (the form kernels meet in their netlists)."""

    def __init__(self, width: int):
        self.w = width

    def const(self, v: int):
        return z3.BitVecVal(v % (1 << self.w), self.w)

    def add(self, a, b):
        return a + b

    def sub(self, a, b):
        return a - b

    def mul(self, a, c: int):
        return a * self.const(c)

    def neg(self, a):
        return -a

    # Shifts by constants as bit selects, the form Yosys gives them: a term z3 rewrites differently from the
    # netlist's would leave two different circuits for it to compare bit by bit.
    def lshr(self, a, c: int):
        return z3.ZeroExt(c, z3.Extract(self.w - 1, c, a)) if c else a

    def ashr(self, a, c: int):
        return z3.SignExt(c, z3.Extract(self.w - 1, c, a)) if c else a

    def low_bits(self, a, c: int):
        return z3.ZeroExt(self.w - c, z3.Extract(c - 1, 0, a)) if c else self.const(0)

    def umulhi(self, a, m: int):
        w = self.w
        return z3.Extract(2 * w - 1, w, z3.ZeroExt(w, a) * z3.BitVecVal(m, 2 * w))

    def xor_sign(self, a, x):
        """a ^ (x >> (w-1)), the shift arithmetic: a, or ~a when x is negative."""
        return a ^ z3.SignExt(self.w - 1, z3.Extract(self.w - 1, self.w - 1, x))

    def uge(self, a, c: int):
        return z3.If(z3.UGE(a, c), self.const(1), self.const(0))


class _Integers:
    """The same operations on integers that hold the bit patterns, in [0, 2**w), with exact wrap-around."""

    def __init__(self, width: int):
        self.w, self.m = width, 1 << width

    def const(self, v: int):
        return z3.IntVal(v % self.m)

    def add(self, a, b):
        return (a + b) % self.m

    def sub(self, a, b):
        return (a - b) % self.m

    def mul(self, a, c: int):
        return (a * c) % self.m

    def neg(self, a):
        return (-a) % self.m

    def lshr(self, a, c: int):
        return a / (1 << c)  # a >= 0: SMT-LIB's div is floor division

    def ashr(self, a, c: int):
        signed = z3.If(a >= self.m // 2, a - self.m, a)
        return (signed / (1 << c)) % self.m

    def low_bits(self, a, c: int):
        return a % (1 << c)

    def umulhi(self, a, m: int):
        return (a * m) / self.m  # a, m < 2**w: the product never wraps at 2w bits

    def xor_sign(self, a, x):
        return z3.If(x >= self.m // 2, self.m - 1 - a, a)

    def uge(self, a, c: int):
        return z3.If(a >= c, z3.IntVal(1), z3.IntVal(0))


def _sequence(ops, x, divisor: int, signed: bool, op: str):
    """x op divisor (op: "div" or "mod"; `divisor` the value, not 0) as `compute_json` lowers it: a shift or a
    mask for ± a power of two (`shifts_for_powers_of_two`), else (`divide_by_constants`) floor division of the
    magnitude-like x ^ sign by multiply-high and a multiply-back remainder; x / -d is -(x / d)."""
    d = abs(divisor)
    if d & (d - 1) == 0:
        k = d.bit_length() - 1
        if op == "mod":  # Euclidean remainders are never negative: the low bits, for either sign of x and d
            return ops.low_bits(x, k)
        q = ops.ashr(x, k) if signed else ops.lshr(x, k)
        return ops.neg(q) if divisor < 0 else q
    if signed:
        q = ops.xor_sign(_unsigned_quotient(ops, ops.xor_sign(x, x), d, (1 << (ops.w - 1)) - 1), x)
    else:
        q = _unsigned_quotient(ops, x, d, (1 << ops.w) - 1)
    if op == "mod":
        return ops.sub(x, ops.mul(q, d))
    return ops.neg(q) if divisor < 0 else q


def _unsigned_quotient(ops, x, d: int, max_x: int):
    if d > max_x:
        return ops.const(0)
    if 2 * d > max_x:
        return ops.uge(x, d)
    plan = unsigned_division(d, ops.w, max_x)
    x = ops.lshr(x, plan.pre_shift)
    high = ops.umulhi(x, plan.multiplier)
    if not plan.add_back:
        return ops.lshr(high, plan.post_shift)
    return ops.lshr(ops.add(ops.lshr(ops.sub(x, high), 1), high), plan.post_shift - 1)


def needs_lemma(divisor: int) -> bool:
    """Whether a division by this constant value is replaced by its lowering (all but x / 0, which is 0)."""
    return divisor != 0


def division_term(x: z3.BitVecRef, divisor: int, signed: bool, op: str) -> z3.BitVecRef:
    """The lowering of `x op divisor` on bit vectors; equal to Halide's result once its lemma is proved."""
    return _sequence(_BitVectors(x.size()), x, divisor, signed, op)


@dataclass(frozen=True, slots=True)
class Lemma:
    width: int
    divisor: int  # the value of the divisor of the type
    signed: bool
    op: str  # "div" or "mod"

    def __str__(self) -> str:
        return f"{'int' if self.signed else 'uint'}{self.width} x {'/' if self.op == 'div' else '%'} {self.divisor}"


@dataclass(frozen=True, slots=True)
class LemmaResult:
    lemma: Lemma
    status: str  # "proved", "disproved" or "unproved"
    seconds: float
    detail: str = ""  # the counterexample (disproved) or why the solver stopped (unproved)
    cached: bool = False


def prove_division_lemma(lemma: Lemma, cache: ProofCache | None = None, timeout: float = 30.0) -> LemmaResult:
    """Prove that the lowering of `lemma` equals Halide's Euclidean division for every x of its width."""
    cache = cache or ProofCache(None)
    term = division_term(z3.BitVec("x", lemma.width), lemma.divisor, lemma.signed, lemma.op)
    key = cache_key("division-lemma", str(lemma), term.sexpr())
    hit = cache.get("lemmas", key)
    if hit is not None:
        return LemmaResult(lemma, hit["status"], hit["seconds"], hit.get("detail", ""), cached=True)
    start = time.perf_counter()
    w, signed = lemma.width, lemma.signed
    p = z3.Int("x")
    value = z3.If(p >= 1 << (w - 1), p - (1 << w), p) if signed else p
    halide = value / lemma.divisor if lemma.op == "div" else value % lemma.divisor
    solver = z3.Solver()
    solver.set("rlimit", units(timeout))  # budget seconds (`prove_budget`), not wall time
    solver.add(p >= 0, p < 1 << w, _sequence(_Integers(w), p, lemma.divisor, signed, lemma.op) != halide % (1 << w))
    verdict = solver.check()
    spent(solver)
    seconds = round(time.perf_counter() - start, 3)
    if verdict == z3.unsat:
        result = LemmaResult(lemma, "proved", seconds)
    elif verdict == z3.sat:
        x = solver.model().eval(p).as_long()
        x = x - (1 << w) if signed and x >= 1 << (w - 1) else x
        result = LemmaResult(lemma, "disproved", seconds, f"the lowering is wrong for x = {x}")
    else:
        return LemmaResult(lemma, "unproved", seconds, f"z3: {solver.reason_unknown()}")
    cache.put("lemmas", key, {"status": result.status, "seconds": seconds, "detail": result.detail})
    return result
