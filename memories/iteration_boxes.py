"""Iteration sets as boxes: each box of a statement's time dims becomes one affine port controller.

isl sets of the iterations a flow reads (a loop-carried value read everywhere but in the first iteration, a serial
reduction's coupled steps) cut into disjoint boxes, and the least box (with a stride per dim) containing a set.
"""

from __future__ import annotations

import islpy as isl

from .errors import MemoryMappingError
from .ir import Dim
from .isl_text import isl_set
from .polyhedral import point_values
from .timing import bounds


def boxes(s: isl.Set, dims: tuple[Dim, ...], what: str) -> list[tuple[Dim, ...]]:
    """`s` as disjoint boxes of the statement's time dims (each becomes one affine controller).

    The sets met in practice are boxes or lexicographic intervals of one (a loop-carried value read everywhere
    but in the first iteration): an interval splits into at most 2n - 1 boxes."""
    s = s.coalesce()
    out = _as_boxes(s, dims)
    if out is None:
        out = []
        for basic in s.make_disjoint().get_basic_sets():
            piece = isl.Set.from_basic_set(basic)
            got = _as_boxes(piece, dims) or _split_coupled(piece, dims)
            if got is None:
                got = _strided_box(piece, dims)
            if got is None:
                raise MemoryMappingError(f"{what} reads a set of iterations that is not a union of boxes ({piece}); "
                                         "a port controller is an affine loop nest over a box")
            out += got
    return sorted(out, key=lambda b: tuple(d.min for d in b))


def _strided_box(s: isl.Set, dims: tuple[Dim, ...]) -> list[tuple[Dim, ...]] | None:
    """`s` as one box with a step per dim, where it is one: a banked buffer's bank read in every step-th
    iteration only (f0 in 2x2 blocks read by rows of hw_output: bank 0's rows are the even ones)."""
    box = strided_hull(s, dims)
    return [box] if box_set(s.get_tuple_name(), box).is_equal(s) else None


_MAX_SPLIT = 16  # values of one dim a set is cut along: each piece is a controller of its own


def _split_coupled(s: isl.Set, dims: tuple[Dim, ...], depth: int = 0) -> list[tuple[Dim, ...]] | None:
    """Boxes covering a basic set whose constraints couple dims (a serial reduction's reads without its first
    step per pixel: { r.y, r.x : -r.y < r.x }): cut along the outermost coupled dim, value by value, or where
    that fails (too many values: a clamped read's edge, { x, r.x : 0 <= x + r.x < W } over a wide row) along the
    coupled dim of fewest values (the reduction's)."""
    if s.is_empty():
        return []
    got = _as_boxes(s, dims)
    if got is not None or depth > 3:
        return got
    coupled = set()
    for basic in s.get_basic_sets():
        for c in basic.get_constraints():
            used = [k for k in range(len(dims)) if not c.get_coefficient_val(isl.dim_type.set, k).is_zero()]
            if len(used) > 1:
                coupled.update(used)
    if not coupled:
        return None
    span = {k: s.dim_max_val(k).to_python() - s.dim_min_val(k).to_python() + 1 for k in coupled}
    outermost, fewest = min(coupled), min(sorted(coupled), key=lambda k: span[k])
    got = _cut(s, dims, outermost, depth)
    return got if got is not None or fewest == outermost else _cut(s, dims, fewest, depth)


def _cut(s: isl.Set, dims: tuple[Dim, ...], k: int, depth: int) -> list[tuple[Dim, ...]] | None:
    """Boxes covering s cut along dim k, value by value (None: too many values, or a piece is no union of
    boxes)."""
    lo, hi = s.dim_min_val(k).to_python(), s.dim_max_val(k).to_python()
    if hi - lo + 1 > _MAX_SPLIT:
        return _peel(s, dims, k, lo, hi, depth)
    out: list[tuple[Dim, ...]] = []
    for v in range(lo, hi + 1):
        piece = s.intersect(_at(s, len(dims), k, v))
        got = _split_coupled(piece.coalesce(), dims, depth + 1)
        if got is None:
            return None
        out += got
    return out


def _peel(s: isl.Set, dims: tuple[Dim, ...], k: int, lo: int, hi: int, depth: int) -> list[tuple[Dim, ...]] | None:
    """Boxes covering s cut along dim k at its first value, or at its last, from the rest (None where neither
    gives boxes): a reduction's reads without its first step in each of its planes, { c, r.y, r.x : -r.y < r.x }
    (a sum per channel of a frame of 32 rows), are the first row less its first step, then the rows after."""
    for v in (lo, hi):
        one = s.intersect(_at(s, len(dims), k, v))
        first = _split_coupled(one.coalesce(), dims, depth + 1)
        rest = _split_coupled(s.subtract(one).coalesce(), dims, depth + 1) if first is not None else None
        if rest is not None:
            return first + rest  # type: ignore[operator]
    return None


def _at(s: isl.Set, n: int, k: int, v: int) -> isl.Set:
    """{ t : t_k = v } in s's space of n dims."""
    return isl_set(f"{{ {s.get_tuple_name()}[{', '.join(f't{j}' for j in range(n))}] : t{k} = {v} }}")


def _as_boxes(s: isl.Set, dims: tuple[Dim, ...]) -> list[tuple[Dim, ...]] | None:
    whole = hull(s, dims)
    if box_set(s.get_tuple_name(), whole).is_equal(s):
        return [whole]
    lo, hi = point_values(s.lexmin()), point_values(s.lexmax())
    pieces = _lex_interval(lo, hi, whole)
    union = box_set(s.get_tuple_name(), pieces[0])
    for b in pieces[1:]:
        union = union.union(box_set(s.get_tuple_name(), b))
    return pieces if union.is_equal(s) else None


def _lex_interval(lo: list[int], hi: list[int], box: tuple[Dim, ...]) -> list[tuple[Dim, ...]]:
    """Disjoint boxes covering { t in box : lo <=lex t <=lex hi }."""
    if not box:
        return [()]
    d = box[0]
    first, last = [b.min for b in box[1:]], [b.min + b.extent - 1 for b in box[1:]]
    if lo[0] == hi[0]:
        return [(Dim(d.var, lo[0], 1),) + rest for rest in _lex_interval(lo[1:], hi[1:], box[1:])]
    # A partial first or last row of the interval is its own set of boxes; full rows merge into one box.
    start = lo[0] if lo[1:] == first else lo[0] + 1
    stop = hi[0] if hi[1:] == last else hi[0] - 1
    out = []
    if start != lo[0]:
        out += [(Dim(d.var, lo[0], 1),) + r for r in _lex_interval(lo[1:], last, box[1:])]
    if start <= stop:
        out.append((Dim(d.var, start, stop - start + 1),) + box[1:])
    if stop != hi[0]:
        out += [(Dim(d.var, hi[0], 1),) + r for r in _lex_interval(first, hi[1:], box[1:])]
    return out


def strided_hull(s: isl.Set, dims: tuple[Dim, ...]) -> tuple[Dim, ...]:
    """The least box of `dims` with a step per dim (the set's stride along it) that contains `s`."""
    out = []
    n = len(dims)
    for k, (d, h) in enumerate(zip(dims, hull(s, dims))):
        # isl's stride of a dim is given the others: project them out to have the dim's own
        alone = s.project_out(isl.dim_type.set, k + 1, n - k - 1).project_out(isl.dim_type.set, 0, k).coalesce()
        step = max(alone.get_stride(0).to_python(), 1) if h.extent > 1 else 1
        out.append(Dim(d.var, h.min, (h.extent - 1) // step + 1, d.strip, step))
    return tuple(out)


def hull(s: isl.Set, dims: tuple[Dim, ...]) -> tuple[Dim, ...]:
    lo = [s.dim_min_val(k).to_python() for k in range(len(dims))]
    hi = [s.dim_max_val(k).to_python() for k in range(len(dims))]
    return tuple(Dim(d.var, a, b - a + 1) for d, a, b in zip(dims, lo, hi))


def box_set(name: str, box: tuple[Dim, ...]) -> isl.Set:
    """{ name[t] : t in box }."""
    ts = ", ".join(f"t{k}" for k in range(len(box)))
    return isl_set(f"{{ {name}[{ts}] : {bounds(box)} }}")
