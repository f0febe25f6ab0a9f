"""Calls of Halide 21 and of Halide-to-Hardware that ports of the reference generators use, beyond the schedule
language proper: an RVar made from a name to split a reduction loop, `print_loop_nest`, `fifo_depth`."""

import pytest

import mainspring as hl


def _conv():
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    r = hl.RDom([hl.Range(0, 4), hl.Range(0, 2)], "r")
    conv = hl.Func("conv")
    conv[x, y] = hl.u16(0)
    conv[x, y] += input_[x + r.x, y + r.y] * hl.u16(r.x + 1)
    return conv, r, x, y


def test_an_rvar_from_a_name_names_the_loops_of_a_split():
    conv, r, _, _ = _conv()
    rxo, rxi = hl.RVar("rxo"), hl.RVar("rxi")
    conv.update().split(r.x, rxo, rxi, 2).unroll(rxi)
    assert conv._fn.definitions[1].schedule.dim_names()[:3] == ["rxi", "rxo", "r$y"]


def test_an_rvar_from_a_name_is_not_a_value():
    with pytest.raises(hl.HalideError, match="RVar 'rxo' names a loop of a schedule"):
        hl.Expr(hl.RVar("rxo")) + 1


def test_print_loop_nest_shows_the_schedules_loops(capsys):
    conv, r, x, _ = _conv()
    xo, xi = hl.Var("xo"), hl.Var("xi")
    conv.split(x, xo, xi, 4).update().unroll(r.x)
    conv.print_loop_nest()
    out = capsys.readouterr().out
    assert out.splitlines()[:3] == ["produce conv:", "  for y:", "    for xo:"]
    assert "unroll r.x:" in out and "conv(x, y) = (conv(x, y) + (input((x + r.x), (y + r.y))" in out


def test_parallel_with_a_task_size_marks_the_outer_loop_as_halide_does(capsys):
    # Halide 21: parallel(x, 4) splits off an inner serial loop of 4 and runs the outer one in parallel
    conv, _, x, _ = _conv()
    conv.parallel(x, 4)
    conv.print_loop_nest()
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == ["produce conv:", "  for y:", "    parallel x:", "      for x.pi:"]


def test_fifo_depth_is_accepted_and_changes_nothing():
    conv, _, x, y = _conv()
    out = hl.Func("out")
    out[x, y] = conv[x, y]
    assert conv.fifo_depth(out, 64 * 9) is conv
    with pytest.raises(hl.HalideError, match="fifo_depth"):
        conv.fifo_depth("out", 9)


def test_compute_at_a_loop_level():
    x, y = hl.Var("x"), hl.Var("y")
    xo, xi = hl.Var("xo"), hl.Var("xi")
    f, g = hl.Func("f"), hl.Func("g")
    f[x, y] = x + y
    g[x, y] = f[x, y] * 2
    g.split(x, xo, xi, 4)
    f.compute_at(hl.LoopLevel(g, xo))
    where = f._fn.placement.compute
    assert (where.kind, where.func, where.var) == ("at", g._fn, "xo")
    f.compute_at(hl.LoopLevel.root())
    assert f._fn.placement.compute.kind == "root"
    with pytest.raises(hl.HalideError, match=r"LoopLevel\(func, var\) takes a Func"):
        hl.LoopLevel(3, xo)


def test_realize_into_a_buffer():
    import numpy as np

    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = hl.u16(x + 10 * y)
    buf = hl.Buffer(hl.UInt(16), [2, 2]).set_min([5, 1])
    assert f.realize(buf) is buf and np.asarray(buf).tolist() == [[15, 16], [25, 26]]
    with pytest.raises(hl.HalideError, match="realize\\(buffer\\) of Func f"):
        f.realize(hl.Buffer(hl.UInt(8), [2, 2]))
