"""After `rename(old, new)` Halide 21 names the loop `old.new`, which `old` no longer matches: a later schedule call
or compute_at by `old` is refused (frontend/schedule.py's StageSchedule.renamed, frontend/renames.py), with the
call by the new name as the fix, while the names Halide still matches keep working."""

from __future__ import annotations

import re

import pytest

import mainspring as hl
from mainspring.frontend.loop_nest import loop_nest
from mainspring.frontend.pipeline import Pipeline

x, y, col, row, xi = (hl.Var(n) for n in ("x", "y", "col", "row", "xi"))


def _f() -> hl.Func:
    f = hl.Func("f")
    f[x, y] = x + y
    return f


@pytest.mark.parametrize(("call", "fixed"), [
    (lambda f: f.unroll(x, 2), "f.unroll(col, 2)"),
    (lambda f: f.split(x, x, xi, 2), "f.split(col, x, xi, 2)"),
    (lambda f: f.reorder(y, x), "f.reorder(y, col)"),
    (lambda f: f.fuse(x, y, row), "f.fuse(col, y, row)"),
    (lambda f: f.rename(x, row), "f.rename(col, row)"),
])
def test_a_call_by_the_old_name_is_refused_with_the_new_name(call, fixed):
    f = _f().rename(x, col)
    with pytest.raises(hl.ScheduleError, match=r"could not find dimension x \(in .*\): f.rename\(x, col\) at .* "
                       r"renamed that loop col, .* Name it col: " + re.escape(fixed) + "$"):
        call(f)


def test_a_loop_renamed_twice_answers_to_its_last_name():
    f = _f().rename(x, col).rename(col, row)
    with pytest.raises(hl.ScheduleError, match=r"renamed that loop col, then row, .* Name it row: f.unroll\(row\)"):
        f.unroll(x)
    with pytest.raises(hl.ScheduleError, match=r"f.rename\(col, row\) at .* Name it row: f.unroll\(row\)"):
        f.unroll(col)
    assert "unroll x:" in loop_nest(f.unroll(row))


def test_names_halide_still_matches_are_accepted():
    # renamed back; a split naming a new loop by the old name; a rename to the name a rename took
    assert "unroll x:" in loop_nest(_f().rename(x, col).rename(col, x).unroll(x))
    assert "unroll x:" in loop_nest(_f().rename(x, col).split(col, x, xi, 2).unroll(x))
    nest = loop_nest(_f().rename(x, col).rename(y, x).unroll(x).vectorize(col))
    assert "unroll y:" in nest and "vectorize x:" in nest


def _placed(where: str):
    xo, tx = hl.Var("xo"), hl.Var("tx")
    g, f = hl.Func("g"), hl.Func("f")
    g[x, y] = x * y
    f[x, y] = g[x, y] + g[x + 1, y]
    f.compute_root().split(x, xo, xi, 4)
    if where == "after":  # g placed at the loop by its new name, then the loop renamed
        g.compute_at(f, tx)
        f.rename(xo, tx)
    else:  # g placed at the loop by its old name
        f.rename(xo, tx)
        g.compute_at(f, xo)
    return f


def test_compute_at_by_the_old_name_is_refused():
    with pytest.raises(hl.ScheduleError, match=r"Func 'g': compute_at\(f, xo\) names the loop xo of 'f', but "
                       r"f.rename\(xo, tx\) at .* Name it tx: g.compute_at\(f, tx\)$"):
        Pipeline(_placed("before"))


def test_compute_at_by_the_new_name_builds_every_time():
    f = _placed("after")
    assert loop_nest(f) == loop_nest(f)  # a second build finds the level named already
    Pipeline(f)
    assert "produce g" in loop_nest(f)


def test_a_split_may_give_a_new_loop_the_name_a_rename_took():
    # Halide: f.s0.y.x and f.s0.x.col stay apart; x names the new loop, col the renamed one
    yi = hl.Var("yi")
    f = _f().rename(x, col).split(y, x, yi, 2).unroll(yi).vectorize(col).reorder(col, yi, x)
    assert loop_nest(f).splitlines()[1:4] == ["  for y.x:", "    unroll yi:", "      vectorize x:"]
