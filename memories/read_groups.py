"""The groupings of a buffer's addressed reads into banks of a tile's read ports, tried by `mapping` in turn (the
one storing fewest words in fewest tiles kept).

A bank holds the hull of the elements its reads take, so reads taking neighbouring parts of the buffer belong
together. Ordering the reads by the least element each takes (outermost dimension first) and cutting the order
into groups does that along the innermost dimension, but a group straddling two rows pairs the last tap of one
row with the first of the next: resnet's 3x3 taps of a channel pair in banks of two reads each got taps (2, 0)
and (0, 1) together, a hull of 6 x 5 where neighbours along a row or a column take 5 x 4. The same order walked
as a snake (each dimension reversed where the outer ones' ranks sum to an odd number) keeps every group's reads
adjacent, a row's last tap beside the next row's last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

R = TypeVar("R")
# (min, extent, step) per buffer dimension, outermost first: the elements a read takes
Span = tuple[tuple[int, int, int], ...]


def read_groups(reads: Sequence[R], spans: Sequence[Span], per: int) -> list[list[list[R]]]:
    """Groupings of `reads` (each taking the elements of its span) in groups of `per`, distinct: neighbours in the
    buffer in order of their least elements; those on one grid together first (a pyramid's rows read at 2y + j:
    taps j and j + 2 take the same even (odd) rows an output row apart, a bank of half the rows each, where
    neighbours (j, j + 1) hold every row twice over: autoprobe13's pyr_down, 59 words for 37 at 9x5); and the
    neighbours walked as a snake."""
    least = [tuple(lo for lo, _, _ in s) for s in spans]
    grid = [tuple(lo % step for lo, _, step in s) for s in spans]
    orders = (sorted(range(len(reads)), key=lambda j: (least[j], j)),
              sorted(range(len(reads)), key=lambda j: (grid[j], least[j], j)),
              sorted(range(len(reads)), key=lambda j: (_snake(least, least[j]), j)))
    cuts = [[order[j: j + per] for j in range(0, len(order), per)] for order in orders]
    # each grouping tried costs its banks' layouts and circular sizes (isl): the snake only where its hulls hold
    # fewer elements than the first order's
    if _hull_elements(spans, cuts[2]) >= _hull_elements(spans, cuts[0]):
        cuts.pop()
    out: list[list[list[R]]] = []
    for cut in cuts:
        chunks = [[reads[j] for j in c] for c in cut]
        if chunks not in out:
            out.append(chunks)
    return out


def _hull_elements(spans: Sequence[Span], groups: list[list[int]]) -> int:
    """The elements in the hulls of the groups' spans, summed (a bank holds at least its hull's live part)."""
    total = 0
    for g in groups:
        n = 1
        for k in range(len(spans[g[0]])):
            lo = min(spans[j][k][0] for j in g)
            hi = max(spans[j][k][0] + spans[j][k][2] * (spans[j][k][1] - 1) for j in g)
            n *= (hi - lo) // min(spans[j][k][2] for j in g) + 1
        total += n
    return total


def _snake(points: list[tuple[int, ...]], p: tuple[int, ...]) -> tuple[int, ...]:
    """p's place on the snake through `points`: along each dimension its rank among the points' values there,
    negated where the ranks of the dimensions outside it sum to an odd number."""
    ranks = [sorted({q[k] for q in points}).index(p[k]) for k in range(len(p))]
    return tuple(-r if sum(ranks[:k]) % 2 else r for k, r in enumerate(ranks))
