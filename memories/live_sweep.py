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
        box = _box(dom)
        if box is None or box[0].shape[1] > budget:
            return None
        grid, lows, highs = box
        budget -= grid.shape[1]
        inside = _inside(dom.compute_divs(), list(grid), lows, highs)  # existentials as explicit floor divisions
        if inside is None:
            return None
        pts = list(grid[:, inside])
        n_out = ma.dim(isl.dim_type.out)
        cols = [_aff_values(ma.get_aff(i), pts) for i in range(n_out)]
        rows.append(np.stack(cols, axis=1) if cols else np.zeros((int(inside.sum()), 0), dtype=np.int64))
    assert width == m.dim(isl.dim_type.in_), (width, m)
    if not rows:
        return np.zeros((0, m.dim(isl.dim_type.out)), dtype=np.int64)
    return np.concatenate(rows)


def _box(dom: isl.Set) -> tuple[np.ndarray, list[int], list[int]] | None:
    """All integer points of dom's bounding box, one column each (a row per dim: each contiguous), and the box's
    bounds; None if unbounded or too large."""
    lows: list[int] = []
    highs: list[int] = []
    for i in range(dom.dim(isl.dim_type.set)):
        low, high = dom.dim_min_val(i), dom.dim_max_val(i)
        if not (low.is_int() and high.is_int()):
            return None  # infinite (or an empty piece's NaN)
        lows.append(_int(low))
        highs.append(_int(high))
    if any(h < lo for lo, h in zip(lows, highs)):
        return np.zeros((len(lows), 0), dtype=np.int64), lows, highs
    size = 1
    for lo, h in zip(lows, highs):
        size *= h - lo + 1
    if size > GRID_LIMIT:
        return None
    axes = [np.arange(lo, h + 1, dtype=np.int64) for lo, h in zip(lows, highs)]
    grid = np.stack([a.ravel() for a in np.meshgrid(*axes, indexing="ij")]) if axes else \
        np.zeros((0, 1), dtype=np.int64)
    return grid, lows, highs


def _inside(dom: isl.Set, cols: list[np.ndarray], lows: list[int], highs: list[int]) -> np.ndarray | None:
    """Which points (cols: one array per dim, over the box lows..highs) are in dom (a union of basic sets with
    floor divisions), or None if a division is not known as an expression."""
    n = cols[0].shape[0] if cols else 1
    mask = np.zeros(n, dtype=bool)
    for bs in dom.get_basic_sets():
        try:
            divs = _divs(bs, cols)
        except isl.Error:  # an existential isl could not write as a floor division (compute_divs usually can)
            return None
        ok = np.ones(n, dtype=bool)
        for c in bs.get_constraints():
            const = _int(c.get_constant_val())
            ins = [_int(c.get_coefficient_val(isl.dim_type.set, i)) for i in range(len(cols))]
            outs = [_int(c.get_coefficient_val(isl.dim_type.div, j)) for j in range(len(divs))]
            if not c.is_equality() and not any(outs) and _holds_on_box(const, ins, lows, highs):
                continue  # a bound the box already keeps: most constraints, on millions of points
            v = _linear(const, ins, cols, outs, divs, n)
            ok &= (v == 0) if c.is_equality() else (v >= 0)
        mask |= ok
    return mask


def _holds_on_box(const: int, coefs: list[int], lows: list[int], highs: list[int]) -> bool:
    """Whether const + coefs . x >= 0 at every x of the box (its least value is at a corner)."""
    return const + sum(min(a * lo, a * h) for a, lo, h in zip(coefs, lows, highs)) >= 0


def _linear(const: int, ins: list[int], cols: list[np.ndarray], outs: list[int], divs: list[np.ndarray],
            n: int) -> np.ndarray:
    """const + ins . cols + outs . divs, skipping zero coefficients (whole-array operations each)."""
    v = np.full(n, const, dtype=np.int64)
    for a, col in [*zip(ins, cols), *zip(outs, divs)]:
        if a:
            v += a * col
    return v


def _divs(obj: isl.BasicSet | isl.Aff, cols: list[np.ndarray]) -> list[np.ndarray]:
    """The values of a basic set's or an aff's floor divisions at the points (each may use the ones before it)."""
    divs: list[np.ndarray] = []
    for j in range(obj.dim(isl.dim_type.div)):
        num, den = _numerator(obj.get_div(j), cols, divs)
        divs.append(num // den)  # NumPy's // floors, as isl's divisions do
    return divs


def _aff_values(aff: isl.Aff, cols: list[np.ndarray]) -> np.ndarray:
    num, den = _numerator(aff, cols, _divs(aff, cols))
    assert np.all(num % den == 0), f"a time is an integer: {aff}"
    return num // den


def _numerator(aff: isl.Aff, cols: list[np.ndarray], divs: list[np.ndarray]) -> tuple[np.ndarray, int]:
    """(numerator values, denominator) of aff at the points: aff = numerator / denominator."""
    den = aff.get_denominator_val()
    ins = [_int(aff.get_coefficient_val(isl.dim_type.in_, i).mul(den)) for i in range(aff.dim(isl.dim_type.in_))]
    outs = [_int(aff.get_coefficient_val(isl.dim_type.div, j).mul(den)) for j in range(len(divs))]
    n = cols[0].shape[0] if cols else 1
    return _linear(_int(aff.get_constant_val().mul(den)), ins, cols, outs, divs, n), _int(den)


def _int(v: isl.Val) -> int:
    assert v.is_int(), v
    out = v.to_python()
    assert isinstance(out, int), v
    return out
