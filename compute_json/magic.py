"""Multiply-high constants for exact division by a constant (Granlund and Montgomery, PLDI 1994; the method
Halide's `IntegerDivisionTable` tabulates, here computed for any divisor).

For a w-bit unsigned numerator x <= X and a divisor d, with k = w + s and m = ceil(2**k / d), e = m*d - 2**k:
x*m / 2**k = x/d + x*e / (d * 2**k), so floor(x*m / 2**k) == floor(x/d) whenever x*e < 2**k for all x <= X
(the extra term then stays below 1/d, which cannot reach the next multiple of 1/d). floor(x*m / 2**k) is
`umulhi(x, m) >> s` when m < 2**w; otherwise m < 2**(w+1) and, with m' = m - 2**w and t = umulhi(x, m'),
it is `(((x - t) >> 1) + t) >> (s - 1)`: the average of x and t without overflow, then the rest of the shift.
An even divisor d = 2**p * d' divides x >> p by d' (a smaller numerator often gives a w-bit multiplier).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class UnsignedDivision:
    """How to compute floor(x / divisor) for w-bit x <= max_numerator with shifts and one multiply-high."""

    pre_shift: int  # x >> pre_shift first
    multiplier: int  # < 2**width; with `add_back`, the true multiplier is 2**width + multiplier
    add_back: bool
    post_shift: int  # s: the total shift after the multiply-high


def unsigned_division(divisor: int, width: int, max_numerator: int) -> UnsignedDivision:
    """The cheapest exact plan for a divisor that is not a power of two, 2 < divisor <= max_numerator."""
    assert 2 < divisor <= max_numerator < (1 << width) and divisor & (divisor - 1), (divisor, max_numerator)
    pre_shift = (divisor & -divisor).bit_length() - 1
    odd, limit = divisor >> pre_shift, max_numerator >> pre_shift
    for s in range(width + 1):
        k = width + s
        m = -(-(1 << k) // odd)
        if (m * odd - (1 << k)) * limit < (1 << k):
            # m only grows with s, so the first exact s also gives the smallest multiplier.
            if m < (1 << width):
                return UnsignedDivision(pre_shift, m, False, s)
            assert m < (1 << (width + 1)) and s >= 1, (divisor, width, m, s)
            return UnsignedDivision(pre_shift, m - (1 << width), True, s)
    raise AssertionError(f"no multiply-high constant for {divisor} at {width} bits")  # s = ceil(log2 d) works


def apply_unsigned_division(plan: UnsignedDivision, x: int, width: int) -> int:
    """The quotient the plan computes, step by step as the hardware does (w-bit values throughout)."""
    x = x >> plan.pre_shift  # not >>=: that would change a caller's array
    t = (x * plan.multiplier) >> width
    if not plan.add_back:
        return t >> plan.post_shift
    return (((x - t) >> 1) + t) >> (plan.post_shift - 1)
