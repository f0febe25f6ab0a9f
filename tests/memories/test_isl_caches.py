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


def test_the_dataflow_is_isls_for_each_schedule_and_cached_by_text():
    from mainspring.memories.isl_text import dataflow

    sinks = isl.UnionMap("{ R[i] -> B[i] : 0 <= i < 4 }")
    sources = isl.UnionMap("{ W0[i] -> B[i] : 0 <= i < 4; W1[i] -> B[i] : 0 <= i < 2 }")
    orders = {"W1 last": "{ W0[i] -> [0, i]; W1[i] -> [1, i]; R[i] -> [2, i] }",
              "W0 last": "{ W1[i] -> [0, i]; W0[i] -> [1, i]; R[i] -> [2, i] }"}
    answers = {}
    for label, order in orders.items():
        fresh = isl.UnionAccessInfo.from_sink(sinks).set_must_source(sources).set_schedule_map(
            isl.UnionMap(order)).compute_flow().get_must_dependence()
        for _ in range(2):  # the second from the cache, asked with new objects of the same texts
            deps, no_source = dataflow(isl.UnionMap(sinks.to_str()), isl.UnionMap(sources.to_str()),
                                       isl.UnionMap(order))
            got = isl.UnionMap("{ }")
            for m in deps:
                got = got.union(isl.UnionMap.from_map(m))
            assert got.is_equal(fresh) and no_source.is_empty()
        answers[label] = got
    # another order is another question: the last writer differs where both write
    assert answers["W1 last"].is_equal(isl.UnionMap("{ W1[i] -> R[i] : 0 <= i < 2; W0[i] -> R[i] : 2 <= i < 4 }"))
    assert answers["W0 last"].is_equal(isl.UnionMap("{ W0[i] -> R[i] : 0 <= i < 4 }"))


def test_a_design_analyzed_again_gets_the_same_plan_and_a_tampered_copy_still_fails():
    import dataclasses as dc

    import pytest

    from mainspring.memories import MemoryCheckError, analyze, check_plan

    import memories_nests as N

    first, again = analyze(N.gaussian()), analyze(N.gaussian())  # new nests: new objects, the same texts
    assert again == first
    nest = N.gaussian()
    bank = first.buffer("hw_input").banks[0]
    moved = [dc.replace(p, region=(30, 61)) for p in (bank.write_ports[1], bank.read_ports[1])]
    tampered = dc.replace(bank, write_ports=(bank.write_ports[0], moved[0]), read_ports=(bank.read_ports[0], moved[1]))
    plan = dc.replace(first, buffers=tuple(dc.replace(b, banks=(tampered,) + b.banks[1:]) if b.name == "hw_input"
                                           else b for b in first.buffers))
    with pytest.raises(MemoryCheckError, match=r"bank hw_input.bank0 \(122 words\): the value hw_input.bank0.w. "
                                                r"writes at .* is overwritten by hw_input.bank0.w. at"):
        check_plan(nest, plan)
