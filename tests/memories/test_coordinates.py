"""memories.coordinates: a coordinate an op reads as a value is counted by a controller firing with the op, whose
address plus the generator's offset is the coordinate, its words spanning exactly the values taken."""

import itertools

from mainspring.memories import analyze

import memories_nests as N


def _firings(c):
    """(cycle, address) of each firing of a coordinate generator's controller."""
    ctrl = c.controller
    for it in itertools.product(*(range(e) for e in ctrl.extent)):
        yield (ctrl.cycle_starting_addr + sum(i * s for i, s in zip(it, ctrl.cycle_stride)),
               ctrl.data_starting_addr + sum(i * s for i, s in zip(it, ctrl.data_stride)))


def test_each_lane_counts_its_coordinates_in_exactly_the_words_they_take():
    width, height, lanes = 10, 4, 2
    nest = N.coordinates(width, height, lanes)
    plan = analyze(nest)
    (sched,) = [s for s in plan.ops if s.op == "hw_output_s0"]
    gens = {(c.name, c.lane): c for c in plan.coords}
    assert sorted(gens) == [("coord_x", (0,)), ("coord_x", (1,)), ("coord_y", (0,)), ("coord_y", (1,))]
    for (name, (lane,)), c in gens.items():
        # The value each firing must see, by the op's cycle at loop point (y, x) and lane.
        want = {sched.cycle((y, x)): (width - 1 - (lanes * x + lane) if name == "coord_x" else 2 * y + 3)
                for y in range(height) for x in range(width // lanes)}
        got = dict(_firings(c))
        assert got.keys() == want.keys(), (name, lane)
        assert all(0 <= a < c.words for a in got.values()), (name, lane, c)
        assert {t: a + c.offset for t, a in got.items()} == want, (name, lane)
        assert (c.offset, c.words) == (min(want.values()), max(want.values()) - min(want.values()) + 1), c
