"""The groupings of addressed reads into banks (memories/read_groups.py), on the elements each read takes."""

from mainspring.memories.read_groups import read_groups


def _tap(c: int, dy: int, dx: int) -> tuple[tuple[int, int, int], ...]:
    """The span of tap (dx, dy) of channel parity c over a 4x4 output of channels c, c + 2: outermost first."""
    return ((c, 2, 2), (dy, 4, 1), (dx, 4, 1))


def test_the_snake_pairs_only_neighbouring_taps_of_a_3x3_window():
    taps = [(c, dy, dx) for c in (0, 1) for dy in range(3) for dx in range(3)]
    groupings = read_groups(taps, [_tap(*t) for t in taps], 2)
    order, snake = groupings[0], groupings[-1]  # (on one grid: the order of least elements again)
    assert len(groupings) == 2
    # in order of their least elements, taps (2, 0) and (0, 1) go together: a hull of 6 x 5 taps
    assert [(0, 0, 2), (0, 1, 0)] in order
    # along the snake every group of one channel parity is two taps side by side, a row's last beside the next's
    for g in snake:
        if len({c for c, _, _ in g}) == 1:
            (_, y0, x0), (_, y1, x1) = g
            assert abs(y0 - y1) + abs(x0 - x1) == 1
    # the odd one out: tap (2, 2) of both channel parities, where the first parity's snake meets the second's
    assert [(0, 2, 2), (1, 2, 2)] in snake


def test_groupings_are_distinct_and_the_first_is_the_order_of_least_elements():
    taps = [(0, 0, dx) for dx in range(4)]  # one row: the snake is the order itself
    groupings = read_groups(taps, [_tap(*t) for t in taps], 2)
    assert groupings == [[[taps[0], taps[1]], [taps[2], taps[3]]]]


def test_the_snake_is_tried_only_where_its_hulls_hold_fewer_elements():
    # two rows of 3 taps in groups of 3: the snake takes each row's taps too (the second reversed), no smaller hull
    taps = [(0, dy, dx) for dy in range(2) for dx in range(3)]
    assert read_groups(taps, [_tap(*t) for t in taps], 3) == [[taps[:3], taps[3:]]]
