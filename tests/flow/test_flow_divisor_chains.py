"""One loop read at a chain of divisors (x / 2 and x / 4 in one Func, each divisor dividing the next): hwlower
strip-mines the loop into nested steps, x = 4 * a + 2 * b + c, so x / 2 = 2 * a + b and x / 4 = a are both affine,
and the half-resolution Funcs step by what is left of the chain (2), their loops the outer digits of the full
resolution's (hwlower/steps.py, hwlower/strip_mine.py, memories/schedule.py). Divisors that are no chain (x / 2
and x / 3) run in runs of their lcm since session 35 (test_flow_uneven_lanes20.py); refused where a run's
selects are too many (tests/errors: read_at_two_divisors, two_divisors)."""

import pytest
from newcomer_algorithms import pyramid, pyramid_by_levels

import mainspring as hl
from mainspring.hwlower.ir import Loop

from conftest import SIMULATORS


def _two_levels(d1: int, d2: int, width: int, height: int, tile: tuple[int, int] | None = None, lanes: int = 1,
                along: str = "x"):
    """hw_output = f(x / d1) + g(x / d2) (or along y), f and g of two inputs streamed at their own resolutions;
    one accelerator tile of `tile` (the whole output unless given), `lanes` pixels per cycle along x."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a_in, b_in = hl.ImageParam(hl.UInt(16), 2, "a_in"), hl.ImageParam(hl.UInt(16), 2, "b_in")
    hw_a, hw_b, f, g, hw_output, output = (hl.Func(n) for n in ("hw_a", "hw_b", "f", "g", "hw_output", "output"))
    hw_a[x, y] = a_in[x, y]
    hw_b[x, y] = b_in[x, y]
    f[x, y] = hw_a[x, y] + 1
    g[x, y] = hw_b[x, y] * 2
    if along == "x":
        hw_output[x, y] = f[x / d1, y] + g[x / d2, y]
    else:
        hw_output[x, y] = f[x, y / d1] + g[x, y / d2]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    tw, th = tile or (width, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, tw, th).hw_accelerate(xi, xo)
    if lanes > 1:
        hw_output.unroll(xi, lanes)
    f.compute_at(hw_output, xo)
    g.compute_at(hw_output, xo)
    hw_a.compute_root().stream_to_accelerator()
    hw_b.compute_root().stream_to_accelerator()
    return output


def _loops(design) -> dict[str, Loop]:
    """Every loop of the design's nest, by name."""
    out: dict[str, Loop] = {}
    todo = list(design.program.nest.body)
    while todo:
        n = todo.pop()
        if isinstance(n, Loop):
            out[n.var] = n
            todo.extend(n.body)
    return out


def _nested(design, func: str, dim: str) -> tuple[tuple[int, str], ...]:
    """(extent, strip) of func's loops over dim, outermost first."""
    loops = _loops(design)
    names = sorted((v for v in loops if v.startswith(f"{func}.s0.{dim}.strip")), key=len)
    return tuple((loops[v].extent, loops[v].strip) for v in names)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_x_over_2_and_x_over_4_in_one_func_run_in_nested_steps(simulator, compile_shared, build_dir):
    design = compile_shared(_two_levels(2, 4, 32, 8), name="chain_2_4")
    # x = 4 * strip_o + 2 * strip_i.strip_o + strip_i.strip_i: one outer digit, two inner ones below it
    assert _nested(design, "hw_output", "xi")[0] == (8, "outer")
    assert {(e, s) for e, s in _nested(design, "hw_output", "xi")[1:]} >= {(2, "inner")}
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 1.1 * design.report["ideal_cycles"], (res.cycles, design.report["ideal_cycles"])


@pytest.mark.parametrize(("d1", "d2", "along", "width", "height"), [
    (2, 4, "y", 16, 8), (3, 6, "x", 24, 4), (3, 6, "y", 12, 12), (2, 8, "x", 32, 4)])
def test_other_chains_and_along_y_are_bit_exact(d1, d2, along, width, height, build_dir):
    design = hl.compile(_two_levels(d1, d2, width, height, along=along), name=f"chain_{d1}_{d2}_{along}")
    res = design.check(design.example_inputs(1), simulator="icarus", build_dir=build_dir)
    assert res.cycles <= 1.1 * design.report["ideal_cycles"], (res.cycles, design.report["ideal_cycles"])


def test_host_tiles_of_whole_steps(build_dir):
    """Four host tiles of 16 x 4, each a whole number of steps of 4: every tile starts at the chain's phase."""
    design = hl.compile(_two_levels(2, 4, 32, 8, tile=(16, 4)), name="chain_tiles")
    assert design.report["tiles"] == 4
    design.check(design.example_inputs(1), simulator="icarus", build_dir=build_dir)


@pytest.mark.parametrize("lanes", [2, 4, 8])
def test_lanes_that_divide_the_least_divisor_or_are_whole_steps_of_the_greatest(lanes, build_dir):
    """2 lanes over x / 2 and x / 4 (x = 4 * a + 2 * b + lane: the serial loop splits by 2), 4 lanes (x / 4 = xo,
    x / 2 = 2 * xo + xi / 2: the lanes split by 2; refused before session 33), 8 lanes (two steps of 4 in a cycle,
    each split by 2 again in its lanes)."""
    design = hl.compile(_two_levels(2, 4, 16, 4, lanes=lanes), name=f"chain_lanes_{lanes}")
    design.check(design.example_inputs(1), simulator="icarus", build_dir=build_dir)


@pytest.mark.parametrize("lanes", [13])
def test_lanes_neither_are_refused_naming_them_with_the_unroll_that_works(lanes):
    """13 lanes over x / 2 and x / 4: quotients move unevenly, each lane among 9 words of a run. The refusal's fix
    (2 lanes) is `test_lanes_that_divide...`; 3 and 6 lanes compile since session 35 (test_flow_uneven_lanes20.py)."""
    with pytest.raises(hl.HalideError) as err:
        hl.compile(_two_levels(2, 4, 4 * lanes, 4, lanes=lanes), name=f"chain_lanes_{lanes}")
    msg = str(err.value)
    assert "Func 'hw_output' reads its dimension x at a chain of divisors (x / 2, x / 4)" in msg
    assert "in runs of 4 cycles each lane would select among up to 9 words" in msg
    assert f"change hw_output.unroll(xi, {lanes}) to hw_output.unroll(xi, 2) (or unroll by 8)" in msg


def test_two_divisors_that_are_no_chain_stay_refused_where_a_run_selects_among_too_many():
    # x / 2 and x / 3 compile since session 35 (runs of 6: test_flow_uneven_lanes20.py); x / 2 over runs of 18
    # would select among 10 words
    with pytest.raises(hl.HalideError, match=r"runs its loop over x in runs of 18 \(the lcm of its divisors\), in "
                                             r"which x / 2 would select among up to 10 words"):
        hl.compile(_two_levels(2, 9, 36, 2), name="chain_2_9")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_the_autoscheduled_pyramid_is_as_fast_as_by_levels_in_less_storage(simulator, build_dir, compile_shared):
    """up = d2(x / 4) + d1(x / 2), autoscheduled: d1 (half resolution) steps by 2, up by 4 then 2; against the
    pyramid by levels (up_2 at half resolution, then up), the same cycles and fewer words (no up_2 buffer)."""
    designs = []
    for algorithm in (pyramid, pyramid_by_levels):
        out, _, _ = algorithm(hl, 32, 16)
        hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
        designs.append(compile_shared(out, name=f"chain_{algorithm.__name__}"))
    mine, levels = designs
    assert _nested(mine, "up", "xi")[0][1] == "outer" and len(_nested(mine, "up", "xi")) == 3
    assert len(_nested(mine, "d1", "x")) == 2 and not _nested(mine, "d2", "x")
    words = [sum(b["words"] for b in d.report["buffers"]) for d in designs]
    assert words[0] < words[1], words
    res = mine.check(mine.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= levels.report["predicted_cycles"] and res.cycles <= 1.25 * mine.report["ideal_cycles"]


def test_a_three_level_pyramid_runs_in_steps_of_8_4_and_2(build_dir):
    """up = d3(x / 8) + d2(x / 4) + d1(x / 2), autoscheduled: a chain of three divisors; d1 steps by 4 then 2, d2
    by 2. Its first output row waits for eight image rows (d3's first row): 752 cycles for 512 at 32x16."""
    image = hl.ImageParam(hl.UInt(16), 2, "image")
    x, y = hl.Var("x"), hl.Var("y")
    d1, d2, d3, up = hl.Func("d1"), hl.Func("d2"), hl.Func("d3"), hl.Func("up")
    d1[x, y] = (image[2 * x, 2 * y] + image[2 * x + 1, 2 * y + 1]) >> 1
    d2[x, y] = (d1[2 * x, 2 * y] + d1[2 * x + 1, 2 * y + 1]) >> 1
    d3[x, y] = (d2[2 * x, 2 * y] + d2[2 * x + 1, 2 * y + 1]) >> 1
    up[x, y] = d3[x / 8, y / 8] + d2[x / 4, y / 4] + d1[x / 2, y / 2]
    up.set_estimates([(0, 32), (0, 16)])
    hl.Pipeline(up).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    design = hl.compile(up, name="chain_pyramid_3")
    assert [len(_nested(design, f, "x")) for f in ("d1", "d2", "d3")] == [3, 2, 0]
    assert len(_nested(design, "up", "xi")) == 4
    res = design.check(design.example_inputs(1), simulator="icarus", build_dir=build_dir)
    assert res.cycles <= 1.5 * design.report["ideal_cycles"], (res.cycles, design.report["ideal_cycles"])
