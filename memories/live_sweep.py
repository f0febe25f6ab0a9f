"""The most values live at once, swept in NumPy: each value's write time and last-read time evaluated over boxes.

capacity.py's maps `written` and `last` (values V -> times T, both functions) are piecewise quasi-affine: a few
pieces, each a polyhedron (with floor divisions) and an affine expression (with floors). Evaluating them over
the bounding box of each piece in NumPy gives every write and every last read in a fraction of a second on a
1080p frame's millions of values, where enumerating isl points one Python call at a time takes a minute and
barvinok's parametric count may take many (the flat cycles of a paced group). The result is the same sweep as
capacity.point_sweep: only the multiset of event times matters, not which value each belongs to.
"""

from __future__ import annotations

import islpy as isl
import numpy as np

# Past this many grid points over all pieces (bounding boxes, not values) the sweep is left to barvinok.
GRID_LIMIT = 60_000_000


def sweep_max_live(written: isl.Map, last: isl.Map, width: int) -> int | None:
    """max over times of (values written by then) - (values last read before then), or None when the pieces'
    boxes are too large or unbounded (then the caller counts with barvinok)."""
    events = []
    for m, kind in ((written, 0), (last, 1)):
        times = _times(m, width)
        if times is None:
            return None
        events.append((times, np.full(times.shape[0], kind, dtype=np.int64)))
    times = np.concatenate([events[0][0], events[1][0]])
    kinds = np.concatenate([events[0][1], events[1][1]])
    if times.shape[0] == 0:
        return 0
    key = _scalar_key(times)
    if key is not None:  # one sort of one int64 array: a few times faster than lexsort's columns
        steps = 1 - 2 * (np.sort(2 * key + kinds) & 1)
    else:
        # At one time writes count before last reads end (kind 0 first): lexsort's last key is the primary one.
        steps = 1 - 2 * kinds[np.lexsort((kinds, *reversed(list(times.T))))]
    return max(0, int(np.cumsum(steps).max()))


def _scalar_key(times: np.ndarray) -> np.ndarray | None:
    """The time vectors as integers in the same (lexicographic) order: each digit shifted to start at 0 and
    weighted by the product of the later digits' ranges; None if that overflows 62 bits."""
    lows, spans = times.min(axis=0), times.max(axis=0) - times.min(axis=0) + 1
    total = 1
    for span in spans.tolist():
        total *= span
    if total >= 1 << 61:
        return None
    key = np.zeros(times.shape[0], dtype=np.int64)
    for k in range(times.shape[1]):
        key = key * int(spans[k]) + (times[:, k] - lows[k])
    return key


def _times(m: isl.Map, width: int) -> np.ndarray | None:
    """Every time in the range of the function `m` (values V[width dims] -> T), one row per value."""
    pma = isl.PwMultiAff.from_map(m)
    pieces: list[tuple[isl.Set, isl.MultiAff]] = []
    pma.foreach_piece(lambda s, ma: pieces.append((s, ma)))
    budget = GRID_LIMIT
    rows = []
    for dom, ma in pieces:
        grid = _box(dom)
        if grid is None or grid.shape[0] > budget:
            return None
        budget -= grid.shape[0]
        inside = _inside(dom.compute_divs(), grid)  # existentials as explicit floor divisions
        if inside is None:
            return None
        pts = grid[inside]
        n_out = ma.dim(isl.dim_type.out)
        cols = [_aff_values(ma.get_aff(i), pts) for i in range(n_out)]
        rows.append(np.stack(cols, axis=1) if cols else np.zeros((pts.shape[0], 0), dtype=np.int64))
    assert width == m.dim(isl.dim_type.in_), (width, m)
    if not rows:
        return np.zeros((0, m.dim(isl.dim_type.out)), dtype=np.int64)
    return np.concatenate(rows)


def _box(dom: isl.Set) -> np.ndarray | None:
    """All integer points of dom's bounding box, one row each (None if unbounded)."""
    lows: list[int] = []
    highs: list[int] = []
    for i in range(dom.dim(isl.dim_type.set)):
        low, high = dom.dim_min_val(i), dom.dim_max_val(i)
        if not (low.is_int() and high.is_int()):
            return None  # infinite (or an empty piece's NaN)
        lows.append(_int(low))
        highs.append(_int(high))
    if any(h < lo for lo, h in zip(lows, highs)):
        return np.zeros((0, len(lows)), dtype=np.int64)
    size = 1
    for lo, h in zip(lows, highs):
        size *= h - lo + 1
    if size > GRID_LIMIT:
        return None
    axes = [np.arange(lo, h + 1, dtype=np.int64) for lo, h in zip(lows, highs)]
    return np.stack([a.ravel() for a in np.meshgrid(*axes, indexing="ij")], axis=1) if axes else \
        np.zeros((1, 0), dtype=np.int64)


def _inside(dom: isl.Set, pts: np.ndarray) -> np.ndarray | None:
    """Which rows of pts are in dom (a union of basic sets with floor divisions), or None if a division is not
    known as an expression."""
    mask = np.zeros(pts.shape[0], dtype=bool)
    for bs in dom.get_basic_sets():
        try:
            divs = _divs(bs, pts)
        except isl.Error:  # an existential isl could not write as a floor division (compute_divs usually can)
            return None
        ok = np.ones(pts.shape[0], dtype=bool)
        for c in bs.get_constraints():
            v = _int(c.get_constant_val()) + np.zeros(pts.shape[0], dtype=np.int64)
            for i in range(pts.shape[1]):
                v = v + _int(c.get_coefficient_val(isl.dim_type.set, i)) * pts[:, i]
            for j, d in enumerate(divs):
                v = v + _int(c.get_coefficient_val(isl.dim_type.div, j)) * d
            ok &= (v == 0) if c.is_equality() else (v >= 0)
        mask |= ok
    return mask


def _divs(obj: isl.BasicSet | isl.Aff, pts: np.ndarray) -> list[np.ndarray]:
    """The values of a basic set's or an aff's floor divisions at pts (each may use the ones before it)."""
    divs: list[np.ndarray] = []
    for j in range(obj.dim(isl.dim_type.div)):
        num, den = _numerator(obj.get_div(j), pts, divs)
        divs.append(num // den)  # NumPy's // floors, as isl's divisions do
    return divs


def _aff_values(aff: isl.Aff, pts: np.ndarray) -> np.ndarray:
    num, den = _numerator(aff, pts, _divs(aff, pts))
    assert np.all(num % den == 0), f"a time is an integer: {aff}"
    return num // den


def _numerator(aff: isl.Aff, pts: np.ndarray, divs: list[np.ndarray]) -> tuple[np.ndarray, int]:
    """(numerator values, denominator) of aff at pts: aff = numerator / denominator."""
    den = aff.get_denominator_val()
    num = _int(aff.get_constant_val().mul(den)) + np.zeros(pts.shape[0], dtype=np.int64)
    for i in range(aff.dim(isl.dim_type.in_)):
        num = num + _int(aff.get_coefficient_val(isl.dim_type.in_, i).mul(den)) * pts[:, i]
    for j, d in enumerate(divs):
        c = _int(aff.get_coefficient_val(isl.dim_type.div, j).mul(den))
        if c:
            num = num + c * d
    return num, _int(den)


def _int(v: isl.Val) -> int:
    assert v.is_int(), v
    out = v.to_python()
    assert isinstance(out, int), v
    return out
