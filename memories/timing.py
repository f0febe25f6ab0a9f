"""isl views of a static schedule: flat cycle maps (for exact bounds and checks) and lexicographic time vectors
(for counting with barvinok).

A flat map `{ S[t] -> [cycle] }` is fine for max/min and emptiness questions (integer programming), but
counting live values over a flat `W*y + x` schedule makes `.max()` slow (seconds at W=1920, TOOLCHAIN.md). So
for counting, a cycle is written as a mixed-radix vector `T[c0, ..., c(D-1)]` with `cycle = sum c_k * P_k`
and `0 <= c_k < P_(k-1) / P_k`: lexicographic order on T is cycle order, and each op's map into T is piecewise
affine with unit coefficients (the delay's digits plus carries), which barvinok counts quickly.

Maps are cached by their plain (hashable) arguments: islpy objects behave as immutable values, and parsing isl
text is most of the cost of the many small questions the checker asks.
"""

from __future__ import annotations

import functools
import itertools

import islpy as isl

from .ir import Dim, Steady
from .isl_text import isl_map, isl_set


def cycle_expr(dims: tuple[Dim, ...], rates: tuple[int, ...], offset: int, prefix: str = "t") -> str:
    terms = [f"{q}*({prefix}{k} - {d.min})" for k, (q, d) in enumerate(zip(rates, dims)) if q]
    return " + ".join(terms + [str(offset)])


def bounds(dims: tuple[Dim, ...], prefix: str = "t") -> str:
    parts = [f"{d.min} <= {prefix}{k} < {d.min + d.extent}" if d.step == 1 else
             f"{d.min} <= {prefix}{k} <= {d.min + d.step * (d.extent - 1)} and ({prefix}{k} - {d.min}) mod {d.step} = 0"
             for k, d in enumerate(dims)]
    return " and ".join(parts or ["true"])


@functools.lru_cache(maxsize=4096)
def flat_map(name: str, dims: tuple[Dim, ...], rates: tuple[int, ...], offset: int) -> isl.Map:
    """{ name[t] -> [cycle] } over the box `dims`."""
    ts = ", ".join(f"t{k}" for k in range(len(dims)))
    return isl_map(f"{{ {name}[{ts}] -> [{cycle_expr(dims, rates, offset)}] : {bounds(dims)} }}")


@functools.lru_cache(maxsize=1024)
def piece_map(name: str, dims: tuple[Dim, ...], rates: tuple[int, ...], offset: int, then: Steady | None) -> isl.Map:
    """{ name[t] -> [cycle] } of a schedule that may come in two pieces (`Steady`: the outermost dim's steps from
    `then.steps` on at `then.rates`, from cycle `then.start`); `offset` is the first piece's."""
    if then is None:
        return flat_map(name, dims, rates, offset)
    split = dims[0].min + then.steps
    first = flat_map(name, dims, rates, offset)
    shift = then.start - then.rates[0] * then.steps
    second = flat_map(name, dims, then.rates, shift)
    ts = ", ".join(f"t{k}" for k in range(len(dims)))
    return first.intersect_domain(isl_set(f"{{ {name}[{ts}] : t0 < {split} }}")).union(
        second.intersect_domain(isl_set(f"{{ {name}[{ts}] : t0 >= {split} }}"))).coalesce()


def formula_map(name: str, dims: tuple[Dim, ...], rates: tuple[int, ...], offset: int,
                then: Steady | None) -> isl.Map:
    """`piece_map`'s formula at every t, inside the loops `dims` or not (a read port rooting registers reads
    before its op's box), its pieces split by the outermost coordinate alone."""
    ts = ", ".join(f"t{k}" for k in range(len(dims)))
    whole = isl_map(f"{{ {name}[{ts}] -> [{cycle_expr(dims, rates, offset)}] }}")
    if then is None:
        return whole
    split = dims[0].min + then.steps
    second = isl_map(f"{{ {name}[{ts}] -> [{cycle_expr(dims, then.rates, then.start - then.rates[0] * then.steps)}]"
                     f" : t0 >= {split} }}")
    return whole.intersect_domain(isl_set(f"{{ {name}[{ts}] : t0 < {split} }}")).union(second)


def dense_rates(dims: tuple[Dim, ...]) -> tuple[int, ...]:
    """Rates that number a box's iterations 0, 1, 2, ... in loop order (the last dim fastest)."""
    rates, p = [], 1
    for d in reversed(dims):
        rates.append(p)
        p *= d.extent
    return tuple(reversed(rates))


def linear_map(name: str, dims: tuple[Dim, ...]) -> isl.Map:
    """{ name[t] -> [n] }: the iteration t's number in loop order over the box `dims`."""
    return flat_map(name, dims, dense_rates(dims), 0)


def writes_before(written: isl.Map, dims: tuple[Dim, ...]) -> isl.Map:
    """{ [cycle] -> [n] }: how many values the stream `written` ({ S[t] -> [cycle] } over the box `dims`, one
    value per cycle at most) has written before each cycle."""
    # Cached by the map's identity (`flat_map` hands out one object per schedule): the lexmax is most of the cost
    # of placing taps and of checking them, which ask about the same streams again and again.
    key = (id(written), dims)
    hit = _BEFORE.get(key)
    if hit is not None and hit[0] is written:
        return hit[1]
    if len(_BEFORE) >= 4096:
        _BEFORE.clear()
    before = _writes_before(written, dims)
    _BEFORE[key] = (written, before)  # the map kept alive with its id
    return before


_BEFORE: dict[tuple[int, tuple[Dim, ...]], tuple[isl.Map, isl.Map]] = {}


def _writes_before(written: isl.Map, dims: tuple[Dim, ...]) -> isl.Map:
    last = isl_map("{ [c] -> [w] : w < c }").apply_range(written.reverse()).lexmax()
    name = written.get_tuple_name(isl.dim_type.in_)
    first = value_of(written.range().lexmin())
    none = isl_map(f"{{ [c] -> [0] : c <= {first} }}")
    return last.apply_range(linear_map(name, dims)).apply_range(isl_map("{ [n] -> [n + 1] }")).union(none)


def delta_bounds(rel: isl.Map, src: isl.Map, dst: isl.Map) -> tuple[int, int]:
    """min and max over the pairs of `rel` of dst cycle - src cycle."""
    # Cached by the relation's text and the cycle maps' identities (`flat_map` hands out one map per schedule):
    # the scheduler asks about the same flow under the same rates in several of its passes, and a process compiles
    # the same design again (the autoscheduler's budget, then the user), whose flows are new objects.
    key = (rel.to_str(), id(src), id(dst))
    hit = _DELTAS.get(key)
    if hit is not None and hit[0] is src and hit[1] is dst:
        return hit[2]
    if len(_DELTAS) >= 4096:
        _DELTAS.clear()
    d = rel.apply_domain(src).apply_range(dst).deltas()
    found = d.dim_min_val(0).to_python(), d.dim_max_val(0).to_python()
    _DELTAS[key] = (src, dst, found)  # the maps kept alive with their ids
    return found


_DELTAS: dict[tuple[str, int, int], tuple[isl.Map, isl.Map, tuple[int, int]]] = {}


def value_of(single: isl.Set) -> int:
    return single.dim_min_val(0).to_python()


def periods_for(rate_lists: list[tuple[int, ...]], extents: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """A mixed radix in which every schedule is a digit-aligned prefix, or None (then count with flat cycles).

    The candidate is the deepest schedule's rates (`radix_candidate`); it works when every schedule's digits
    stay within the radix (a multiple m of a period: a consumer at a stride steps m per iteration).
    """
    deepest = radix_candidate(rate_lists)
    if deepest is None:
        return None
    for rates, ext in zip(rate_lists, extents):
        for k, (p, m) in enumerate(digit_steps(tuple(rates), deepest) or ()):
            if p > 0 and m * (ext[k] - 1) + 1 > deepest[p - 1] // deepest[p]:
                return None
    return deepest


def radix_candidate(rate_lists: list[tuple[int, ...]], unit: bool = False) -> tuple[int, ...] | None:
    """The deepest schedule's rates if they are a mixed radix (ending in 1, each period dividing the one before)
    whose digits every schedule's rates step, else None. With `unit`, a last period over 1 gets a units digit
    (a paced group firing every other cycle at an odd delay)."""
    longest = max((len(r) for r in rate_lists), default=0)
    # every schedule of no dimension (a group of one iteration: no radix to take; flat cycles count it)
    deepest = min((r for r in rate_lists if len(r) == longest), key=lambda r: r[-1], default=()) if longest else ()
    if unit and deepest and deepest[-1] > 1:
        deepest = (*deepest, 1)
    if not deepest or deepest[-1] != 1 or any(q <= 0 for q in deepest):
        return None
    if any(deepest[k] % deepest[k + 1] for k in range(len(deepest) - 1)):
        return None
    if any(digit_steps(tuple(r), tuple(deepest)) is None for r in rate_lists):
        return None
    return tuple(deepest)


def digits_fit(dims: tuple[Dim, ...], rates: tuple[int, ...], offset: int, periods: tuple[int, ...]) -> bool:
    """Whether `time_vector` writes every cycle of this schedule exactly: each digit's steps, the offset's digit
    and a carry in stay under twice its radix, so at most one carry goes out. This admits schedules
    `periods_for` refuses (an upsample's input stream one pixel longer than the consumer's row of pairs
    overflows into the next digit at its last pixel), given their actual offset."""
    steps = digit_steps(tuple(rates), tuple(periods))
    if steps is None or offset < 0:
        return False
    digits, rem = [], offset
    for p in periods:
        digits.append(rem // p)
        rem %= p
    top = [0] * len(periods)
    for k, (p, m) in enumerate(steps):
        top[p] += m * dims[k].step * (dims[k].extent - 1)
    return all(top[k] + digits[k] + 1 < 2 * (periods[k - 1] // periods[k]) for k in range(1, len(periods)))


def digit_positions(rates: tuple[int, ...], periods: tuple[int, ...]) -> list[int] | None:
    """The digit of `periods` each rate steps (increasing), or None (see `digit_steps`)."""
    steps = digit_steps(rates, periods)
    return None if steps is None else [p for p, _ in steps]


def digit_steps(rates: tuple[int, ...], periods: tuple[int, ...]) -> list[tuple[int, int]] | None:
    """The digit of `periods` each rate steps (increasing) and by how much, or None. Usually a prefix, by 1; an
    input stream paced for an upsample's strip-mined loops steps every other digit; a strided consumer (a
    downsample) steps a digit by its stride."""
    out, j = [], 0
    for q in rates:
        while j < len(periods) and q % periods[j]:  # periods decrease: an exact match comes first
            j += 1
        if j == len(periods):
            return None
        out.append((j, q // periods[j]))
        j += 1
    return out


@functools.lru_cache(maxsize=4096)
def time_vector(name: str, dims: tuple[Dim, ...], rates: tuple[int, ...], offset: int,
                periods: tuple[int, ...] | None) -> isl.Map:
    """{ name[t] -> T[...] }: the cycle `offset + rates . (t - min)` as a lexicographic vector in `periods`
    (whose prefix the rates must be), or as the one-dimensional flat cycle when `periods` is None."""
    if periods is None:
        flat = ", ".join(f"t{k}" for k in range(len(dims)))
        return isl_map(f"{{ {name}[{flat}] -> T[{cycle_expr(dims, rates, offset)}] : {bounds(dims)} }}")
    steps = digit_steps(tuple(rates), tuple(periods))
    assert steps is not None, (name, rates, periods)
    ts = [f"t{k}" for k in range(len(dims))]
    head = f"{name}[{', '.join(ts)}]"
    depth = len(periods)
    radix = [periods[k - 1] // periods[k] for k in range(1, depth)]  # radix[k-1] bounds digit k
    rem, digits = offset, []
    for p in periods:
        digits.append(rem // p)
        rem %= p
    base = ["0"] * depth
    for k, (p, m) in enumerate(steps):
        base[p] = f"({ts[k]} - {dims[k].min})" if m == 1 else f"{m} * ({ts[k]} - {dims[k].min})"
    pieces = []
    for carry in itertools.product((0, 1), repeat=depth - 1):
        # carry[k-1] is the carry out of digit k into digit k-1.
        conds, outs = [bounds(dims)], []
        for k in range(depth):
            cin = carry[k] if k < depth - 1 else 0
            raw = f"{base[k]} + {digits[k] + cin}"
            if k == 0:
                outs.append(raw)
                continue
            cout = carry[k - 1]
            conds.append(f"{raw} >= {radix[k - 1]}" if cout else f"{raw} < {radix[k - 1]}")
            outs.append(f"{raw} - {radix[k - 1]}" if cout else raw)
        pieces.append(f"({' and '.join(conds)} and {' and '.join(f'o{k} = {o}' for k, o in enumerate(outs))})")
    out_vars = ", ".join(f"o{k}" for k in range(depth))
    return isl_map(f"{{ {head} -> T[{out_vars}] : {' or '.join(pieces)} }}")


@functools.lru_cache(maxsize=4096)
def program_vector(name: str, loops: tuple[Dim, ...], unrolled: tuple[bool, ...], position: tuple[int, ...],
                   depth: int, sub: int) -> isl.Map:
    """{ name[t] -> T[p0, i0, p1, i1, ..., pn, sub, 0...] }: the program-order time of the sequential schedule.

    There each op owns latency + 1 cycles in program order, so its cycles (and its write, `sub` = latency
    cycles into its slot) are ordered exactly as these vectors; unrolled loops add no time (their entry is 0).
    """
    ts, vec, k = [], [], 0
    for level, (d, u) in enumerate(zip(loops, unrolled)):
        vec.append(str(position[level]))
        if u:
            vec.append("0")
        else:
            ts.append(f"t{k}")
            vec.append(f"t{k} - {d.min}")
            k += 1
    vec += [str(position[len(loops)]), str(sub)]
    vec += ["0"] * (2 * depth + 2 - len(vec))
    time_dims = tuple(d for d, u in zip(loops, unrolled) if not u)
    return isl_map(f"{{ {name}[{', '.join(ts)}] -> T[{', '.join(vec)}] : {bounds(time_dims)} }}")


@functools.lru_cache(maxsize=4096)
def time_space_bounds(periods: tuple[int, ...] | None, width: int = 1) -> isl.Set:
    """The valid T vectors (digits within their radix), to count only at real cycles.

    Counting at other vectors too would be harmless (between two real cycles the live set is a subset of the
    one at either side), but bounding keeps the count's pieces few."""
    if periods is None:
        return isl_set(f"{{ T[{', '.join(f'c{k}' for k in range(width))}] }}")
    names = [f"c{k}" for k in range(len(periods))]
    conds = [f"0 <= c{k} < {periods[k - 1] // periods[k]}" for k in range(1, len(periods))]
    return isl_set(f"{{ T[{', '.join(names)}] : {' and '.join(conds or ['true'])} }}")


@functools.lru_cache(maxsize=4096)
def embed_values(name: str, n: int, k: int, width: int) -> isl.Map:
    """{ name[t] -> V[k, t, 0...] }: the values of several write ports in one space, so one count (or one
    question) covers them all."""
    ts = [f"t{j}" for j in range(n)]
    vs = [str(k)] + ts + ["0"] * (width - 1 - n)
    return isl_map(f"{{ {name}[{', '.join(ts)}] -> V[{', '.join(vs)}] }}")
