"""Kinds `mainspring fuzz` draws after all the others (session 20): what users write that it never drew. Each is
drawn last with a small probability, so that the cases of every seed drawn before them stay as they were, and
only where Halide and mainspring both accept it (`wide_kinds` names a case's kinds for reports)."""

from __future__ import annotations

import dataclasses
import random

from .fuzz_case import Case, read_at_two_rates

_OPS = ("+", "-", "min", "max", "avg", "absd")


def _plain(case: Case) -> bool:
    """An image output through one accelerator level: no scatter, no GLB, no other schedule variant."""
    return not case.bins and case.variant in ("", "store_at", "accelerator_input")


def with_wide_stencils(rng: random.Random, case: Case) -> Case:
    """One case in twelve turns a stencil into a wide one (drawn last, as above): 4 to 9 taps at offsets up to 4
    (windows up to 5x5, as a 5x5 Gaussian's), most of them of the same producer, so that one line buffer feeds
    many taps (seed 002's apps read one Func at up to 25 points)."""
    ks = [k for k, s in enumerate(case.stages) if s.kind == "stencil"]
    if not ks or rng.random() >= 1 / 12:
        return case
    k = rng.choice(ks)
    src = case.stages[k].taps[0][0]
    n = rng.randint(4, 9)
    taps = tuple((src if rng.random() < 0.8 else rng.randint(-1, k - 1), rng.randint(0, 4), rng.randint(0, 4))
                 for _ in range(n))
    ops = tuple(rng.choice(_OPS) for _ in range(n - 1))

    def wide_at(taps) -> Case:
        stage = dataclasses.replace(case.stages[k], taps=taps, ops=ops)
        return dataclasses.replace(case, stages=case.stages[:k] + (stage,) + case.stages[k + 1:])

    wide = wide_at(taps)
    if read_at_two_rates(wide) and not read_at_two_rates(case):
        # a Func read at two rates through a resampled stage, one of them by a chain's divisor, is refused by
        # design (catalogue read_at_two_divisors; fuzz 156144): every tap of the one producer, whose rate it keeps
        wide = wide_at(tuple((src, dx, dy) for _, dx, dy in taps))
    return wide


def with_wide_types(rng: random.Random, case: Case) -> Case:
    """One case in twelve reads a 32-bit or 8-bit input image, and casts one stage's value through the other
    8-bit type (u8 in an i8 pipeline, i8 in a u8 one...) in the middle (drawn last, as above): the wrap-around of
    narrowing casts on the array's 16-bit words and the sign of 8-bit values (seed 002's apps mix u8 and i8)."""
    if rng.random() >= 1 / 12:
        return case
    in_type = rng.choice(("u32", "i32", "u8", "i8"))  # (16-bit inputs are the base draw's)
    ks = [k for k, s in enumerate(case.stages) if s.kind in ("stencil", "pointwise", "coord", "rom", "reduce")]
    if not ks:
        return case
    narrow = "i8" if case.work == "u8" or (case.work != "i8" and rng.random() < 0.5) else "u8"
    stages = list(case.stages)
    k = rng.choice(ks)
    stages[k] = dataclasses.replace(stages[k], narrow=narrow)
    return dataclasses.replace(case, in_type=in_type, stages=tuple(stages))


def with_param(rng: random.Random, case: Case) -> Case:
    """One case in twelve adds a scalar `hl.Param` (its value the default, as Halide's generators give theirs) to
    one stage's value (drawn last, as above): a run-time constant the design takes as an input (seed 002's gain)."""
    if case.bins or rng.random() >= 1 / 12:
        return case
    k = rng.randrange(len(case.stages))
    stages = case.stages[:k] + (dataclasses.replace(case.stages[k], param=True),) + case.stages[k + 1:]
    return dataclasses.replace(case, stages=stages, param=rng.randint(1, 9))


def with_second_input(rng: random.Random, case: Case) -> Case:
    """One case in twelve reads a second input image (its own ImageParam and hw_input2 copy, streamed by its own
    `stream_to_accelerator`) at the output, a row below (a line buffer of its own), as seed 002's two-image apps do
    (drawn last, as above). Not with a GLB level (each copy would need its own)."""
    if not _plain(case) or rng.random() >= 1 / 12:
        return case
    return dataclasses.replace(case, second=rng.choice(("u8", "u16", "i16")))


def with_inner_compute(rng: random.Random, case: Case) -> Case:
    """One case in twelve computes a pure stage at a finer loop than the accelerator's (drawn last, as above): the
    last stage at hw_output's row loop yi (`compute_at(hw_output, yi)`: recomputed per output row), or a stage read
    by one other buffered stage only at that stage's y. Halide requires a Func's producers to be computed outside
    its own loop, so only stages no other buffered Func reads below them."""
    if not _plain(case) or case.loops or rng.random() >= 1 / 12:
        return case
    pure = ("stencil", "pointwise", "coord", "rom")
    options: list[tuple[int, str]] = []
    last = case.stages[-1]
    if not last.inline and last.kind in pure:
        options.append((len(case.stages) - 1, "yi"))
    for j, s in enumerate(case.stages[:-1]):
        readers = [k for k, st in enumerate(case.stages) if any(t[0] == j for t in st.taps)]
        if not s.inline and s.kind in pure and len(readers) == 1 and not case.stages[readers[0]].inline \
                and case.stages[readers[0]].kind in pure:
            options.append((j, case.stages[readers[0]].name))
    if not options:
        return case
    k, at = rng.choice(options)
    stages = case.stages[:k] + (dataclasses.replace(case.stages[k], at=at),) + case.stages[k + 1:]
    return dataclasses.replace(case, stages=stages)


def with_output_loops(rng: random.Random, case: Case) -> Case:
    """One case in twelve without another variant splits or unrolls the output's row loop (drawn last, as above):
    "unroll_y" two rows per transfer (`split(yi, yio, yii, 2).reorder(yii, xi, yio).unroll(yii)`, and the
    buffered stages `unroll(y, 2)` RoundUp: lanes along y run serially, README), "split_yi" `split(yi, yio, yii,
    2)`, "strips" that split with the two rows innermost (`reorder(yii, xi, yio)`). The accelerator's tile gets an
    even height (its rows split whole). Odd seeds write "unroll_y" as `unroll(yi, 2)` with xi inside it, which
    runs as the split form (hwlower/loops.py `lanes_innermost`; refused before session 20's fix, fuzz 155121)."""
    if not _plain(case) or case.variant or any(s.at for s in case.stages) or rng.random() >= 1 / 12:
        return case
    height = case.height + case.height % 2
    tile = None if case.tile is None else (case.tile[0], min(height, case.tile[1] + case.tile[1] % 2))
    # not "strips" over lanes of x: xi unrolled outside yii (refused, as above)
    kinds = ("unroll_y", "split_yi", "strips") if case.lanes_of("hw_output") == 1 else ("unroll_y", "split_yi")
    loops = rng.choice(kinds)
    return dataclasses.replace(case, loops=loops, height=height, tile=tile)


def with_storage(rng: random.Random, case: Case) -> Case:
    """One case in twelve stores its buffered stages at the host's loops (`store_root()`, or `store_at(hw_output,
    yo)`: the host tile's row loop, with compute_at inside the accelerator) or bounds a Func explicitly (drawn
    last, as above): hw_output (`bound(x, 0, w).bound(y, 0, h)`, not over lanes, whose RoundUp tails compute past
    it) or, in one accelerator tile, a buffered stage over more than its readers need (`bound(x, 0, 2 * w + 12)`:
    it computes all of it; a bound short of the need is refused as Halide refuses it, "do not cover")."""
    if not _plain(case) or case.variant == "store_at" or rng.random() >= 1 / 12:
        return case
    kind = rng.choice(("bound", "bound", "root", "yo"))
    if kind == "bound" and case.lanes == 1 and rng.random() < 0.5:
        return dataclasses.replace(case, bound=True)
    ks = [k for k, s in enumerate(case.stages) if not s.inline and s.kind in ("stencil", "pointwise", "coord", "rom")]
    if kind == "bound" and ks and case.tile is None and case.lanes == 1 \
            and all(s.kind not in ("up", "down") for s in case.stages):
        k = rng.choice(ks)
        return dataclasses.replace(case, stages=case.stages[:k] + (dataclasses.replace(case.stages[k], bounded=True),)
                                   + case.stages[k + 1:])
    return dataclasses.replace(case, store="yo" if kind == "yo" else "root")


def with_wide(rng: random.Random, case: Case) -> Case:
    """Every kind of this module, each drawn last in turn."""
    for draw in (with_wide_stencils, with_wide_types, with_param, with_second_input, with_inner_compute,
                 with_output_loops, with_storage):
        case = draw(rng, case)
    return case


def simpler_wide(c: Case):
    """Cases with one of this module's kinds fewer, for the shrinker (mainspring/fuzz.py `shrink`)."""
    rep = dataclasses.replace
    for name, off in (("loops", ""), ("store", ""), ("bound", False), ("second", ""), ("param", 0)):
        if getattr(c, name) != off:
            yield rep(c, **{name: off}, stages=tuple(rep(s, param=False) for s in c.stages) if name == "param"
                      else c.stages)
    for k, s in enumerate(c.stages):
        for name, off in (("narrow", ""), ("at", ""), ("bounded", False)):
            if getattr(s, name) != off:
                yield rep(c, stages=c.stages[:k] + (rep(s, **{name: off}),) + c.stages[k + 1:])


def wide_kinds(case: Case) -> list[str]:
    """The names of this module's kinds a case has drawn."""
    kinds = [f"loops_{case.loops}"] if case.loops else []
    kinds += [f"store_{case.store}"] * bool(case.store) + ["bound"] * case.bound
    kinds += ["bound_stage"] * any(s.bounded for s in case.stages) + ["second_input"] * bool(case.second)
    kinds += ["param"] * bool(case.param)
    kinds += ["wide_stencil"] * any(len(s.taps) >= 4 and s.kind == "stencil" for s in case.stages)
    kinds += ["wide_types"] * any(s.narrow for s in case.stages)
    kinds += [f"at_{'yi' if s.at == 'yi' else 'stage'}" for s in case.stages if s.at]
    return kinds


__all__ = ["simpler_wide", "wide_kinds", "with_wide"]
