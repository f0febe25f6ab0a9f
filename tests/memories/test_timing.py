"""memories.timing: the mixed-radix time vectors the capacity count uses. Where `periods_for` accepts the
schedules, each op's vector is the cycle's digits (0 <= c_k < P_(k-1) / P_k, so lexicographic order is cycle
order); a loop that spans more than its digit's radix falls back to flat cycles."""

import itertools

import islpy as isl
import pytest

from mainspring.memories.ir import Dim
from mainspring.memories.timing import bounds, cycle_expr, digits_fit, periods_for, time_vector

# (rates, extents) per op, outermost first; the first is the deepest schedule (its rates are the periods).
ROWS = ((64, 1), (8, 64))  # 8 rows of 64 cycles
CASES = {
    "a row of 64 in a 64-cycle row": ([ROWS, ((64, 1), (2, 64))], (64, 1)),
    "a row of 65 runs into the next row": ([ROWS, ((64, 1), (1, 65))], None),
    "a row of 66 runs two past it": ([ROWS, ((64, 1), (1, 66))], None),
    "every other cycle, 32 times": ([ROWS, ((128, 2), (4, 32))], (64, 1)),
    "every other cycle, 33 times": ([ROWS, ((128, 2), (4, 33))], None),
    "ten rows of 64 in a 640-cycle frame": ([((640, 64, 1), (3, 10, 64)), ((640, 64, 1), (3, 10, 62))],
                                            (640, 64, 1)),
    "eleven rows of a ten-row frame": ([((640, 64, 1), (3, 10, 64)), ((640, 64, 1), (3, 11, 60))], None),
}


@pytest.mark.parametrize("name", CASES)
def test_periods_only_where_every_loop_stays_within_its_digit(name):
    ops, periods = CASES[name]
    assert periods_for([r for r, _ in ops], [e for _, e in ops]) == periods


def _digits(periods: tuple[int, ...], cycle: str) -> list[str]:
    """The mixed-radix digits of `cycle` (an isl expression) in `periods`."""
    out, rest = [], cycle
    for k, p in enumerate(periods):
        out.append(f"floor(({rest}) / {p})" if k == 0 else f"floor((({rest}) mod {periods[k - 1]}) / {p})")
    return out


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("offset", [0, 1, 62, 63, 64, 127, 130])
def test_time_vectors_are_the_cycles_digits(name, offset):
    ops, _ = CASES[name]
    periods = periods_for([r for r, _ in ops], [e for _, e in ops])
    if periods is None:
        return  # counted in flat cycles
    for rates, extents in ops:
        dims = tuple(Dim(f"d{k}", 0, e) for k, e in enumerate(extents))
        ts = ", ".join(f"t{k}" for k in range(len(dims)))
        digits = _digits(periods, cycle_expr(dims, rates, offset))
        want = isl.Map(f"{{ S[{ts}] -> T[{', '.join(digits)}] : {bounds(dims)} }}")
        assert time_vector("S", dims, rates, offset, periods).is_equal(want), (rates, extents, offset)


def _radix_digits(cycle, periods):
    out = []
    for p in periods:
        out.append(cycle // p)
        cycle %= p
    return out


@pytest.mark.parametrize(("rates", "extents", "offset", "periods", "fits"), [
    ((48, 2), (3, 13), 0, (48, 24, 2, 1), True),  # 13 pixels every other cycle in a row of 12 pairs: one carry
    ((48, 2), (3, 13), 5, (48, 24, 2, 1), True),
    ((48, 2), (3, 20), 0, (48, 24, 2, 1), True),
    ((48, 2), (3, 24), 3, (48, 24, 2, 1), False),  # past one carry: the vector would leave its digit's radix
    ((48, 2), (3, 20), 3, (48, 2, 1), True),  # a units digit under a group paced every other cycle, odd delay
])
def test_digits_fit_means_time_vector_writes_each_cycle_exactly(rates, extents, offset, periods, fits):
    dims = tuple(Dim(f"d{k}", 0, e) for k, e in enumerate(extents))
    assert digits_fit(dims, rates, offset, periods) == fits
    if not fits:
        return
    got: dict[tuple[int, ...], list[list[int]]] = {}

    def add(p: isl.Point) -> None:
        xs = [p.get_coordinate_val(isl.dim_type.set, i).to_python() for i in range(len(dims) + len(periods))]
        got.setdefault(tuple(xs[:len(dims)]), []).append(xs[len(dims):])

    time_vector("S", dims, rates, offset, periods).wrap().foreach_point(add)
    for t in itertools.product(*(range(e) for e in extents)):
        assert got[t] == [_radix_digits(offset + sum(q * v for q, v in zip(rates, t)), periods)], t
