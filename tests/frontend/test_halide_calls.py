"""Calls of Halide 21 and of Halide-to-Hardware that ports of the reference generators use, beyond the schedule
language proper: an RVar made from a name to split a reduction loop, `print_loop_nest`, `fifo_depth`."""

import numpy as np
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


@pytest.mark.parametrize("call", ["compute_at", "store_at"])
def test_compute_at_takes_halide_s_keywords(halide, call):
    """Halide 21 names the overloads' arguments f, var, rvar and loop_level; each spelling places the Func alike."""
    for m in (halide, hl):
        x, y, xo, xi = m.Var("x"), m.Var("y"), m.Var("xo"), m.Var("xi")
        r = m.RDom([m.Range(0, 3)], "r")
        f, g, h = m.Func("f"), m.Func("g"), m.Func("h")
        f[x, y] = x + y
        g[x, y] = f[x, y] * 2
        h[x, y] = m.i32(0)
        h[x, y] += g[x + r.x, y]
        g.split(x, xo, xi, 4)
        places = [getattr(f, call)(loop_level=m.LoopLevel(g, xo)), getattr(f, call)(g, var=xo),
                  getattr(f, call)(f=g, var=xi), getattr(f, call)(h, rvar=r.x), getattr(f, call)(m.LoopLevel.root())]
        assert [p.name() for p in places] == [f.name()] * 5
    got = []
    for where in ({"loop_level": hl.LoopLevel(g, xo)}, {"f": g, "var": xo}, {"f": h, "rvar": r.x}):
        getattr(f, call)(**where)
        level = f._fn.placement.compute if call == "compute_at" else f._fn.placement.store
        got.append((level.func.name, level.var))
    assert got == [("g", "xo"), ("g", "xo"), ("h", "r$x")]


def test_realize_into_a_buffer():
    import numpy as np

    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = hl.u16(x + 10 * y)
    buf = hl.Buffer(hl.UInt(16), [2, 2]).set_min([5, 1])
    assert f.realize(buf) is buf and np.asarray(buf).tolist() == [[15, 16], [25, 26]]
    with pytest.raises(hl.HalideError, match="realize\\(buffer\\) of Func f"):
        f.realize(hl.Buffer(hl.UInt(8), [2, 2]))


def _required_pipeline(hl_, width: int):
    """f(x) = 2 * input(x) with a requirement on the input's width and on a Param, realized over 4 values."""
    x = hl_.Var("x")
    image, gain = hl_.ImageParam(hl_.UInt(8), 1, "image"), hl_.Param(hl_.UInt(8), "gain")
    f = hl_.Func("f")
    f[x] = image[x] * gain
    pipe = hl_.Pipeline(f)
    pipe.add_requirement(image.dim(0).extent() >= 6, "image width", image.dim(0).extent())
    pipe.add_requirement(gain < 8, "gain", gain)
    image.set(hl_.Buffer(np.arange(width, dtype=np.uint8)))
    return pipe, gain


@pytest.mark.parametrize(("width", "gain"), [(8, 3), (4, 3), (8, 9)])
def test_add_requirement_fails_the_pipeline_when_halide_s_does(halide, width, gain):
    ours, theirs = _required_pipeline(hl, width), _required_pipeline(halide, width)
    ours[1].set(gain)
    theirs[1].set(gain)
    broken = "image width 4" if width < 6 else f"gain {gain}" if gain >= 8 else None
    if broken is None:
        want = theirs[0].realize([4])  # held: an array of a temporary Halide buffer would read freed memory
        assert np.array_equal(np.asarray(ours[0].realize([4])), np.array(want))
        return
    with pytest.raises(Exception, match="Requirement Failed"):  # Halide raises its own error type
        theirs[0].realize([4])
    with pytest.raises(hl.HalideError, match=f"Requirement Failed: .* {broken}$"):
        ours[0].realize([4])


def test_a_cgra_s_natural_vector_size_is_one_word():
    assert hl.CGRA().natural_vector_size(hl.UInt(8)) == hl.CGRA().natural_vector_size(hl.Int(32)) == 1
    assert not hl.CGRA().has_feature(hl.TargetFeature.AVX2)


def _blur(m, keywords: bool):
    """A scheduled 3x3 sum written positionally, or with every argument Halide 21's Python bindings name."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    if keywords:
        input_ = m.ImageParam(type=m.UInt(8), dimensions=2, name="input")
        gain = m.Param(type=m.UInt(16), name="gain", value=3)
        r = m.RDom(region=[m.Range(0, 3), m.Range(0, 3)], name="r")
    else:
        input_, gain, r = m.ImageParam(m.UInt(8), 2, "input"), m.Param(m.UInt(16), "gain", 3), m.RDom(
            [m.Range(0, 3), m.Range(0, 3)], "r")
    blur, out = m.Func("blur"), m.Func("out")
    blur[x, y] = m.u16(0)
    blur[x, y] += m.u16(input_[x + r.x, y + r.y]) * gain
    out[x, y] = blur[x, y] / 9
    if keywords:
        out.bound(var=x, min=0, extent=12).bound_extent(var=y, extent=8)
        out.tile(previous=[x, y], outers=[xo, yo], inners=[xi, yi], factors=[6, 4], tail=m.TailStrategy.RoundUp)
        blur.compute_at(f=out, var=xo).update(idx=0).unroll(var=r.x, factor=3, tail=m.TailStrategy.GuardWithIf)
    else:
        out.bound(x, 0, 12).bound_extent(y, 8)
        out.tile(x, y, xo, yo, xi, yi, 6, 4, m.TailStrategy.RoundUp)
        blur.compute_at(out, xo).update(0).unroll(r.x, 3, m.TailStrategy.GuardWithIf)
    return out


def test_schedule_calls_take_halide_s_keyword_arguments(capsys, halide):
    """Halide 21's bindings name their arguments (`tile(..., tail=...)`, `bound(var=x, min=0, extent=8)`, tile over
    lists); written so, a program means what its positional spelling means (they raised TypeError, probe14a)."""
    halide_out = _blur(halide, keywords=True)  # Halide accepts every one of these keywords
    assert halide_out.defined()
    loop_nests = []
    for keywords in (False, True):
        _blur(hl, keywords).print_loop_nest()
        loop_nests.append(capsys.readouterr().out)
    assert loop_nests[0] == loop_nests[1] and "for xi:" in loop_nests[0]
    x, y, xi, yi = hl.Var("x"), hl.Var("y"), hl.Var("xi"), hl.Var("yi")
    f = hl.Func("f")
    f[x, y] = x + y
    f.tile([x, y], [xi, yi], [4, 2])  # Halide's fourth form: the outer loops keep the names x and y
    assert f._fn.definitions[0].schedule.dim_names() == ["xi", "yi", "x", "y"]
    with pytest.raises(hl.HalideError, match=r"tile takes .* got 3 arguments besides the tail \(keywords xi\)"):
        f.tile(x, y, xi=xi)
    g = hl.Func("g")
    g[x, y] = f[x, y] + 1
    assert f.in_(f=g).name() == f.in_(g).name() and f.in_(fs=[g]).name() == f.in_([g]).name()


def test_a_target_names_its_features_and_realize_takes_one(halide):
    """hl.Target as Halide 21's: `realize(sizes, target)` computes what Halide's JIT computes (the reference);
    Halide-to-Hardware's "host-clockwork" has the Clockwork feature, and a GeneratorContext of it is the default
    array, where a generator takes its Clockwork branch (a CPU target is refused: tests/errors)."""
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = x * 3 + y
    g = halide.Func("f")
    g[halide.Var("x"), halide.Var("y")] = halide.Var("x") * 3 + halide.Var("y")
    want = np.asarray(g.realize([4, 3], halide.get_jit_target_from_environment()))
    assert np.array_equal(np.asarray(f.realize([4, 3], hl.get_jit_target_from_environment())), want)
    assert np.array_equal(np.asarray(hl.Pipeline(f).realize([4, 3], hl.get_host_target())), want)
    clockwork = hl.Target("host-clockwork")
    assert clockwork.has_feature(hl.TargetFeature.Clockwork) and not clockwork.has_feature(hl.TargetFeature.AVX2)
    assert not hl.Target("host").has_feature(hl.TargetFeature.Clockwork)
    assert hl.Target("host").with_feature(hl.TargetFeature.Clockwork) == clockwork

    @hl.generator(name="branches")
    class Branches(hl.Generator):
        input = hl.InputBuffer(hl.UInt(16), 2)
        output = hl.OutputBuffer(hl.UInt(16), 2)

        def generate(self):
            x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
            hw_input, hw_output = hl.funcs("hw_input hw_output")
            hw_input[x, y] = self.input[x, y]
            hw_output[x, y] = hw_input[x, y] + 1
            self.output[x, y] = hw_output[x, y]
            if self.target().has_feature(hl.TargetFeature.Clockwork):
                self.output.bound(x, 0, 8).bound(y, 0, 8)
                hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
                hw_input.compute_root().stream_to_accelerator()

    with hl.GeneratorContext(clockwork):
        design = hl.compile(Branches(), name="target_branches")
    assert design.report["ideal_cycles"] == 64


def test_implicit_variables_by_name_are_halide_s(halide):
    assert [getattr(hl, f"_{i}").name() for i in range(10)] == [getattr(halide, f"_{i}").name() for i in range(10)]


BOUNDS_TWICE = {"4_then_8": [(0, 4), (0, 8)], "8_then_2_8": [(0, 8), (2, 8)], "extent_4_then_8": [(None, 4), (0, 8)],
                "8_then_4": [(0, 8), (0, 4)], "8_then_extent_4": [(0, 8), (None, 4)]}


@pytest.mark.parametrize("name", sorted(BOUNDS_TWICE))
def test_a_second_bound_is_refused_where_halide_fails(halide, name):
    """Halide 21 keeps every bound of a dimension and fails at run time unless the first covers the last; mainspring
    refuses the second bound at its call then."""
    def bounded(m):
        x = m.Var("x")
        f = m.Func("f")
        f[x] = x * 2
        for lo, extent in BOUNDS_TWICE[name]:
            f.bound(x, lo, extent) if lo is not None else f.bound_extent(x, extent)
        return f

    covered = name in ("8_then_4", "8_then_extent_4")
    if covered:
        bounded(halide).realize([4])
        bounded(hl)
    else:
        with pytest.raises(halide.HalideError, match="do not cover required region"):
            bounded(halide).realize([4])
        with pytest.raises(hl.HalideError, match="do not cover required region"):
            bounded(hl)
