"""The least circular size of an addressed bank: no value's slot is rewritten between its write and last read.

A question is plain values (each write stream's cycles, controller and the flows read from it, the flows as isl
text), answered once per process: the mapping asks the same one many times (bank replication and each trial of
banks by residue lay out the same regions; the resnet layer at 28x28 asked 450 questions, 201 of them distinct).
"""

from __future__ import annotations

import functools

import islpy as isl

from .errors import MemoryMappingError
from .ir import Controller, Dim
from .isl_text import isl_map, isl_set
from .timing import bounds, embed_values, flat_map

# (flow { S<src>[t] -> S<dst>[t] } as isl text, dst's time name, dst's time dims, dst's rates, cycle offset)
ReadFlow = tuple[str, str, tuple[Dim, ...], tuple[int, ...], int]
# (src's time name, its time dims' count, the write's box, src's rates, cycle offset, controller, its reads)
WriteStream = tuple[str, int, tuple[Dim, ...], tuple[int, ...], int, Controller, tuple[ReadFlow, ...]]


@functools.lru_cache(maxsize=1024)
def circular_words(buf: str, streams: tuple[WriteStream, ...]) -> int:
    """The least circular size of a region written by `streams` (`buf` names the buffer in the refusal)."""
    write_cycle: isl.Map | None = None
    last_read: isl.Map | None = None
    addr: isl.Map | None = None
    width = 1 + max(n for _, n, *_ in streams)
    for k, (name, n, box, rates, offset, ctrl, flows) in enumerate(streams):
        emb = embed_values(name, n, k, width)
        rel: isl.Map | None = None
        for text, dst, dims, dst_rates, dst_offset in flows:
            m = isl_map(text).apply_range(flat_map(dst, dims, dst_rates, dst_offset))
            rel = m if rel is None else rel.union(m)
        assert rel is not None, "each write comes from `reads`: it has a read"
        wc = flat_map(name, box, rates, offset)
        if ctrl.then is not None:  # a two-piece write (memories/stream_prologue.py): its outer steps from then.steps
            split = box[0].min + box[0].step * ctrl.then.steps
            later = (ctrl.then.rates[-1] // box[0].step,) + tuple(
                q // d.step for q, d in zip(reversed(ctrl.then.rates[:-1]), box[1:]))
            second = flat_map(name, box, later, ctrl.then.start - later[0] * (split - box[0].min))
            ts = ", ".join(f"t{j}" for j in range(len(box)))
            wc = wc.intersect_domain(isl_set(f"{{ {name}[{ts}] : t0 < {split} }}")).union(
                second.intersect_domain(isl_set(f"{{ {name}[{ts}] : t0 >= {split} }}")))
        # A value nobody reads from memory dies as it is written (but still takes its slot in that cycle).
        last = rel.lexmax().union(wc.subtract_domain(rel.domain()))
        parts = (wc.apply_domain(emb), last.apply_domain(emb), _address_map(name, box, ctrl).apply_domain(emb))
        write_cycle, last_read, addr = (p if acc is None else acc.union(p)
                                        for acc, p in zip((write_cycle, last_read, addr), parts))
    assert write_cycle is not None and last_read is not None and addr is not None, "there is a write"
    # Reads forward the word written in their issue cycle, so a rewrite may come in the last read's cycle.
    overlap = write_cycle.lex_le_map(write_cycle).intersect(last_read.lex_gt_map(write_cycle))
    overlap = overlap.subtract(isl.Map.identity(overlap.get_space()))
    if overlap.is_empty():
        return 1
    dist = overlap.apply_domain(addr).apply_range(addr).deltas()
    if not dist.intersect(isl_set("{ [0] }")).is_empty():
        raise MemoryMappingError(f"buffer '{buf}': an element is rewritten while its previous value is still to be "
                                 "read; this needs more than one copy of the buffer")
    return _largest_distance(dist, addr.range()) + 1


# isl operations allowed to lexmax before bisecting instead: the unsharp and mobile conv designs' questions that
# finish within it take milliseconds, those beyond it took seconds to minutes.
LEXMAX_OPERATIONS = 10_000


def _largest_distance(dist: isl.Set, addresses: isl.Set) -> int:
    """max |d| over `dist` (non-empty, without 0, differences of `addresses`). The extreme points of a
    one-dimensional set: isl's lexmax finds them faster than the bounds of the whole set, but with strided rows
    (banks by residue) it took minutes (the mobile conv layer's 86 s), so past a budget of operations bisect on
    emptiness questions, which take milliseconds each. Both are exact: the budget changes the time only."""
    ctx = dist.get_ctx()
    before = ctx.get_max_operations()
    ctx.set_max_operations(LEXMAX_OPERATIONS)
    ctx.reset_operations()
    try:
        return max(dist.lexmax().dim_max_val(0).to_python(), -dist.lexmin().dim_min_val(0).to_python())
    except isl.Error:
        pass
    finally:
        ctx.set_max_operations(before)
    lo, hi = 1, addresses.dim_max_val(0).to_python() - addresses.dim_min_val(0).to_python()
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if dist.intersect(isl_set(f"{{ [d] : d >= {mid} or d <= -{mid} }}")).is_empty():
            hi = mid - 1
        else:
            lo = mid
    return lo


def _address_map(name: str, box: tuple[Dim, ...], c: Controller) -> isl.Map:
    """{ name[t] -> [address] } of a controller iterating `box` (outermost first; its data strides innermost
    first, per iteration)."""
    n = len(box)
    terms = [f"{c.data_stride[n - 1 - k]}*floor((t{k} - {d.min})/{d.step})" for k, d in enumerate(box)]
    ts = ", ".join(f"t{k}" for k in range(n))
    return isl_map(f"{{ {name}[{ts}] -> [{' + '.join(terms + [str(c.data_starting_addr)])}] : {bounds(box)} }}")
