"""memories' caches of isl work (isl_text, timing.delta_bounds): a cached answer is the answer computed afresh,
for each text and each relation and schedule asked about."""

import islpy as isl

from mainspring.memories.ir import Dim
from mainspring.memories.isl_text import isl_map, isl_set
from mainspring.memories.timing import delta_bounds, flat_map


def test_a_text_is_read_once_and_means_what_it_says():
    text = "{ S[t] -> [c] : c = 2t + 3 and 0 <= t < 10 }"
    assert isl_map(text) is isl_map(text)
    assert isl_map(text) == isl.Map(text)
    assert isl_set("{ [c] : 0 <= c < 4 }").count_val().to_python() == 4


def test_delta_bounds_answer_each_relation_of_the_same_schedules():
    dims = (Dim("x", 0, 8),)
    src, dst = flat_map("S0", dims, (1,), 0), flat_map("S1", dims, (1,), 5)
    rels = [isl.Map(f"{{ S0[t] -> S1[t + {shift}] : 0 <= t and t + {shift} < 8 }}") for shift in range(4)]
    for _ in range(2):  # the second round from the cache
        assert [delta_bounds(rel, src, dst) for rel in rels] == [(5, 5), (6, 6), (7, 7), (8, 8)]
    late = flat_map("S1", dims, (1,), 9)
    assert delta_bounds(rels[0], src, late) == (9, 9)
