"""Lanes along a dimension read at a chain of divisors that are neither a divisor of the least nor whole steps of
the greatest (3 lanes over x / 2 and x / 4). Nested steps (x = 4 * a + 2 * b + c) cannot make such lanes'
quotients affine, so the consumer's loop runs in runs of the greatest divisor's uneven split (strip_mine.py
`_uneven_chain`: 4 iterations of 3 lanes, 12 pixels) in which each lane selects its words at every divisor
(lane_quotients.py). A run is 6 pixels of the half resolution and 3 of the quarter one, not a whole number of the
nested steps the coarser levels would step by (2 for the half resolution), so they keep one loop each, which the
scheduler runs along the run's cycles (memories/schedule.py `_keep_up`): stepped by 2, their digits missed the
consumer's and the fused schedule failed, the dense one holding a quarter-resolution plane whole (31 words of 24 x 8
against 8)."""

from __future__ import annotations

from mainspring.frontend import ir
from mainspring.frontend.func import Definition
from mainspring.frontend.schedule import ForType, Split


def lanes_along(arg: str, definition: Definition) -> int:
    """The lanes a definition's schedule unrolls dimension `arg` into (through its splits: a tile's xi unrolled
    by 3 is 3 lanes of x); 1 without."""
    derived, k = {arg}, 1
    for dv in definition.schedule.directives:
        if isinstance(dv, Split) and dv.old in derived:
            derived |= {dv.outer, dv.inner}
    for mark in definition.schedule.directives:
        if isinstance(mark, ForType) and mark.kind in ("unroll", "vectorize") and mark.var in derived:
            k *= next((dv.factor for dv in definition.schedule.directives
                       if isinstance(dv, Split) and dv.inner == mark.var and dv.old in derived), 1)
    return k


def uneven(k: int, chain: tuple[int, ...]) -> bool:
    """Whether k lanes over a chain of divisors are neither whole steps of the greatest nor a divisor of it that
    every divisor divides or is a multiple of (strip_mine.py `_chain_factors`), so that runs serve them instead."""
    if k < 2 or len(chain) < 2 or k % chain[-1] == 0:
        return False
    return chain[-1] % k != 0 or any(c % k and k % c for c in chain)


def uneven_chains(defs_of: dict[int, list[Definition]], steps: dict[tuple[int, int], tuple[int, ...]]) -> bool:
    """Whether a Func of a class of dimensions (`steps`: (id of a Function, dimension) -> its chain) reads its
    dimension at a chain of divisors with uneven lanes: then only the finest resolution is stepped."""
    for (fid, i), chain in steps.items():
        defs = defs_of.get(fid)
        if len(chain) > 1 and defs and i < len(defs[0].args) and isinstance(arg := defs[0].args[i], ir.Var) \
                and uneven(lanes_along(arg.name, defs[0]), chain):
            return True
    return False
