"""Helper blocks40, session 40: an upsample of one lane over a producer of several (`up(x, y) = f(x / 2, y / 2)`
with `f.unroll(x, 2)`, catalogue upsample_reads_across_lanes, refused before with "a serial upsample may not step
across its producer's lanes"). Each step of the upsample's strip-mined loop reads one pixel of f, the next step
the next: hwlower/narrow.py runs f at one lane (an unroll never changes values), as it does for readers that take
fewer of its pixels a firing, and f reads its stream's words in turn (lane_steps.py)."""

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl

from conftest import SIMULATORS


def _up(m, w: int, h: int, lanes: int = 2, div: int = 2, taps: int = 2, stream: int | None = None,
        out_lanes: int = 1):
    """input -> hw_input (`stream` words of x per transfer, default `lanes`) -> f (`taps` taps along x, `lanes`
    pixels a firing) -> up(x, y) = f(x / div, y / div) (one pixel a firing) -> hw_output (`out_lanes`) -> output,
    w x h."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, f, up, hw_output, output = (m.Func(n) for n in ("hw_input", "f", "up", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    f[x, y] = hw_input[x, y]
    for k in range(1, taps):
        f[x, y] = f[x, y] + hw_input[x + k, y] * (k + 1)
    up[x, y] = f[x / div, y / div]
    hw_output[x, y] = (up[x, y] >> 1) + 3
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        f.compute_at(hw_output, xo)
        up.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, stream or lanes)
        f.unroll(x, lanes)
        if out_lanes > 1:
            hw_output.unroll(xi, out_lanes)
    return output, {"input": inp}, [w, h]


def _name(kw: dict) -> str:
    return "up40_" + "_".join(f"{k}{v}" for k, v in kw.items())


def _f_lanes(design) -> list[int]:
    return [lp.extent for loops, op in design.program.nest.ops() if op.func == "f" for lp in loops if lp.unrolled]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("kw", "cycles", "ideal"), [
    ({"w": 16, "h": 8}, 134, 128),  # catalogue upsample_reads_across_lanes' shape
    ({"w": 12, "h": 6, "lanes": 3}, 84, 72),  # f and the stream at 3 lanes
    ({"w": 12, "h": 6, "div": 3}, 92, 72),  # up(x, y) = f(x / 3, y / 3)
])
def test_a_one_lane_upsample_runs_its_producer_at_one_lane(kw, cycles, ideal, simulator, compile_shared, build_dir,
                                                           halide):
    design = compile_shared(_up(hl, **kw)[0], name=_name(kw))
    assert _f_lanes(design) == []  # f narrowed to one lane
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (cycles, ideal), rep
    check_simulated_and_halide(design, lambda m: _up(m, **kw), simulator, build_dir, halide)


@pytest.mark.parametrize(("kw", "cycles", "ideal"), [
    ({"w": 16, "h": 8, "lanes": 4, "stream": 2}, 134, 128),  # f at 4 lanes over a 2-word stream
    ({"w": 16, "h": 8, "out_lanes": 2}, 134, 128),  # the output 2 pixels a cycle over up's one
    ({"w": 16, "h": 16, "lanes": 4, "div": 4}, 261, 256),
    ({"w": 16, "h": 8, "taps": 1}, 131, 128),
])
def test_a_one_lane_upsample_over_lanes_other_shapes(kw, cycles, ideal, build_dir, halide):
    design = hl.compile(_up(hl, **kw)[0], name=_name(kw))
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (cycles, ideal), rep
    check_simulated_and_halide(design, lambda m: _up(m, **kw), "icarus", build_dir, halide)
