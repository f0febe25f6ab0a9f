"""isl objects read from their text, and isl's dataflow analysis, cached by the text.

The stages ask isl many small questions about the same few maps and sets, and reading isl's notation is a large
share of their cost (a third of a millisecond a map). islpy objects behave as immutable values (every operation
returns a new object), so one object per text can be handed to every caller, within a compile and across the
compiles of a process.
"""

from __future__ import annotations

import functools

import islpy as isl


@functools.lru_cache(maxsize=16384)
def isl_map(text: str) -> isl.Map:
    return isl.Map(text)


@functools.lru_cache(maxsize=16384)
def isl_set(text: str) -> isl.Set:
    return isl.Set(text)


@functools.lru_cache(maxsize=1024)
def isl_union_map(text: str) -> isl.UnionMap:
    return isl.UnionMap(text)


def dataflow(sinks: isl.UnionMap, sources: isl.UnionMap,
             order: isl.UnionMap) -> tuple[tuple[isl.Map, ...], isl.UnionMap]:
    """isl's exact dataflow (each sink's last must-source under the schedule `order`): its must-dependences, one map
    per pair of tagged accesses, and the sinks with no source.

    Cached by the three texts, which determine the answer: the analysis is the costliest question of a small compile,
    and a process compiles the same buffers again (the autoscheduler's budget and then the user, a schedule's source
    pasted onto a fresh copy of the algorithm); a text is cheap beside it."""
    key = (sinks.to_str(), sources.to_str(), order.to_str())
    hit = _DATAFLOW.get(key)
    if hit is None:
        flow = isl.UnionAccessInfo.from_sink(sinks).set_must_source(sources).set_schedule_map(order).compute_flow()
        deps = flow.get_must_dependence().get_map_list()
        hit = (tuple(deps.get_at(k) for k in range(deps.n_map())), flow.get_must_no_source())
        if len(_DATAFLOW) >= 1024:
            _DATAFLOW.clear()
        _DATAFLOW[key] = hit
    return hit


_DATAFLOW: dict[tuple[str, str, str], tuple[tuple[isl.Map, ...], isl.UnionMap]] = {}
