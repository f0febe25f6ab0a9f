"""memories/circular: the largest address distance, by lexmax within its isl budget and by bisection past it."""

import islpy as isl
import pytest

from mainspring.memories import circular

# Distances of a bank by residue 3 (strided rows): the shape whose lexmax took minutes in the mobile conv layer.
SETS = [
    ("{ [d] : -7 <= d <= 12 and d != 0 }", "{ [a] : 0 <= a <= 20 }", 12),
    ("{ [d] : -30 <= d <= -2 and d mod 3 = 1 }", "{ [a] : 0 <= a <= 40 }", 29),
    ("{ [d] : exists e : d = 68 * e + 2 and -5 <= e <= 4 }", "{ [a] : 0 <= a <= 2991 }", 338),
]


@pytest.mark.parametrize(("dist", "addresses", "expected"), SETS)
@pytest.mark.parametrize("budget", [circular.LEXMAX_OPERATIONS, 1])
def test_the_largest_distance_is_the_same_by_lexmax_and_by_bisection(monkeypatch, dist, addresses, expected,
                                                                     budget):
    # A budget of 1 operation sends every question to the bisection.
    monkeypatch.setattr(circular, "LEXMAX_OPERATIONS", budget)
    assert circular._largest_distance(isl.Set(dist), isl.Set(addresses)) == expected
    assert isl.DEFAULT_CONTEXT.get_max_operations() == 0, "the budget is the question's alone"
