"""rfactor after the stage's other schedule calls (frontend/rfactor.py), as Halide 21 accepts it: the values equal
Halide's, and the intermediate's update and the merged update carry the calls over as Halide's loop nests show
them (`print_loop_nest` of Halide 21 on the same programs, written out below)."""

from __future__ import annotations

import numpy as np
import pytest
from same_output import assert_same_output

import mainspring as hl


def _window(h, schedule):
    """A weighted 3x3 window sum; `schedule(h, x, y, u, r, f)` schedules f's update and returns rfactor's Func."""
    x, y, u = h.Var("x"), h.Var("y"), h.Var("u")
    image = h.ImageParam(h.UInt(16), 2, "input")
    f = h.Func("f")
    r = h.RDom([h.Range(0, 3), h.Range(0, 3)], "r")
    f[x, y] = h.u16(0)
    f[x, y] += image[x + r.x, y + r.y] * h.u16(r.x + 2 * r.y + 1)
    intm = schedule(h, x, y, u, r, f)
    intm.compute_root()
    image.set(h.Buffer(np.random.default_rng(3).integers(0, 4000, (20, 20), dtype=np.uint16)))
    return f, intm


# Each schedule, and the loops (outermost first, "!" unrolled) of the intermediate's update and of the merged
# update that Halide 21's print_loop_nest shows for it.
SCHEDULES = {
    "unroll of an RVar reduced in the intermediate": (
        lambda h, x, y, u, r, f: f.update().unroll(r.x).rfactor(r.y, u),
        ["y", "x", "u", "r$x!"], ["y", "x", "r$y"]),
    "unroll of the preserved RVar": (
        lambda h, x, y, u, r, f: f.update().unroll(r.y).rfactor(r.y, u),
        ["y", "x", "u", "r$x"], ["y", "x", "r$y!"]),
    "reorder": (
        lambda h, x, y, u, r, f: f.update().reorder(r.y, r.x, x, y).rfactor(r.y, u),
        ["y", "x", "r$x", "u"], ["y", "x", "r$y"]),
    "split of a pure Var": (
        lambda h, x, y, u, r, f: f.update().split(x, h.Var("xo"), h.Var("xi"), 2).rfactor(r.y, u),
        ["y", "xo", "xi", "u", "r$x"], ["y", "xo", "xi", "r$y"]),
    "unroll of a pure Var by a factor": (
        lambda h, x, y, u, r, f: f.update().unroll(x, 2).rfactor(r.y, u),
        ["y", "x", "x.ui!", "u", "r$x"], ["y", "x", "x.ui!", "r$y"]),
    "rename": (
        lambda h, x, y, u, r, f: f.update().rename(x, h.Var("xx")).rfactor(r.y, u),
        ["y", "x", "u", "r$x"], ["y", "x", "r$y"]),
    "fuse of pure Vars": (
        lambda h, x, y, u, r, f: f.update().fuse(x, y, h.Var("t")).rfactor(r.y, u),
        ["t", "u", "r$x"], ["t", "r$y"]),
    "split of an RVar, then an unroll of a pure Var": (
        lambda h, x, y, u, r, f: f.update().split(r.x, h.RVar("rxo"), h.RVar("rxi"), 2).unroll(x, 2)
        .rfactor(h.RVar("rxo"), u),
        ["y", "x", "x.ui!", "r$y", "u", "rxi"], ["y", "x", "x.ui!", "rxo"]),
}


def _loops(schedule) -> list[str]:
    lanes = schedule.lane_dims()
    return [d.name + "!" * (d.name in lanes) for d in reversed(schedule.dims)]


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_rfactor_after_schedule_calls_is_halides(name, halide):
    schedule, intm_loops, merged_loops = SCHEDULES[name]
    f, intm = _window(hl, schedule)
    assert _loops(intm._fn.definitions[1].schedule) == intm_loops
    assert _loops(f._fn.definitions[1].schedule) == merged_loops
    want, _ = _window(halide, schedule)
    assert_same_output(want.realize([8, 8]), f.realize([8, 8]))


def test_rfactor_after_a_later_update_is_scheduled_is_halides(halide):
    """A later update's schedule is its own: rfactor of update 0 keeps it."""
    def program(h):
        x, y, u = h.Var("x"), h.Var("y"), h.Var("u")
        image = h.ImageParam(h.UInt(16), 2, "input")
        f, r = h.Func("f"), h.RDom([h.Range(0, 3), h.Range(0, 3)], "r")
        f[x, y] = h.u16(0)
        f[x, y] += image[x + r.x, y + r.y]
        f[x, y] += h.u16(1)
        f.update(1).unroll(x, 2)
        f.update(0).rfactor(r.y, u).compute_root()
        image.set(h.Buffer(np.random.default_rng(4).integers(0, 4000, (20, 20), dtype=np.uint16)))
        return f

    got = program(hl)
    assert _loops(got._fn.definitions[2].schedule) == ["y", "x", "x.ui!"]
    assert_same_output(program(halide).realize([8, 8]), got.realize([8, 8]))


def test_rfactor_after_a_fuse_of_rvars_is_refused():
    """Halide accepts it (the fused RVar preserved); here the fused loop's parts are no RDom dimensions."""
    x, y, u, r = hl.Var("x"), hl.Var("y"), hl.Var("u"), hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    f = hl.Func("f")
    f[x, y] = hl.u16(0)
    f[x, y] += hl.u16(r.x + r.y)
    rf = hl.RVar("rf")
    with pytest.raises(hl.HalideError, match=r"fuses RVar loops \(r.x and r.y into rf\) before .*rfactor\(r.y, u\)"):
        f.update().fuse(r.x, r.y, rf).rfactor(rf, u)
