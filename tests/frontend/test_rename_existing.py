"""`rename(old, new)` where `new` already names a loop, as Halide 21 accepts it: Halide names the renamed loop
`old.new` and matches a schedule call's name as a suffix, so `new` then names two loops. Split, rename and
compute_at take the inner one, unroll/vectorize/parallel without a factor mark both, and reorder moves the outer
one (frontend/schedule.py's `shadows`). Each case's Halide 21 print_loop_nest is written beside it, its names
as mainspring keeps them (the loop's first name: Halide's `x.y` is x)."""

from __future__ import annotations

import mainspring as hl
from mainspring.frontend.loop_nest import loop_nest


def _nest(schedule) -> str:
    """The loops of f (3-D, reading g) under `schedule(f, g, x, y, c)`, f's statement left out."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    g, f = hl.Func("g"), hl.Func("f")
    g[x, y, c] = x + 2 * y + 3 * c
    f[x, y, c] = g[x, y, c] + g[x + 1, y, c]
    schedule(f, g, x, y, c)
    lines = [line for line in loop_nest(f).splitlines() if "=" not in line and not line.startswith("produce f")]
    return "\n".join(line[2:] for line in lines)


def test_an_unroll_by_the_name_marks_both_loops():
    # Halide: for c / unrolled y / unrolled x.y
    assert _nest(lambda f, g, x, y, c: f.rename(x, y).unroll(y)) == "for c:\n  unroll y:\n    unroll x:"


def test_a_split_by_the_name_splits_the_inner_loop():
    # Halide: for c / for y / for x.y.y / unrolled x.y.yi
    yi = hl.Var("yi")
    assert _nest(lambda f, g, x, y, c: f.rename(x, y).split(y, y, yi, 2).unroll(yi)) == \
        "for c:\n  for y:\n    for x:\n      unroll yi:"


def test_a_reorder_by_the_name_moves_the_outer_loop():
    # Halide (c renamed c.x, outside x): for y / for c.x / for x
    assert _nest(lambda f, g, x, y, c: f.rename(c, x).reorder(x, y)) == "for y:\n  for c:\n    for x:"


def test_compute_at_the_name_is_the_inner_loop_until_it_is_renamed_again():
    # Halide: g inside x.y; after rename(y, z) (x.y.z), y names the old y loop alone and g goes there
    inside = _nest(lambda f, g, x, y, c: (f.rename(x, y), g.compute_at(f, y)))
    assert inside.startswith("for c:\n  for y:\n    for x:\n      produce g:")
    z = hl.Var("z")
    outside = _nest(lambda f, g, x, y, c: (f.rename(x, y).rename(y, z).unroll(z), g.compute_at(f, y)))
    assert outside.startswith("for c:\n  for y:\n    produce g:") and outside.endswith("\n    unroll x:")
