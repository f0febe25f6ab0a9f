"""Helper blocks40, session 40: a serial RVar loop stepping across the words of an accelerator input's transfers
(`acc(x, y) += in(x + r.x, y)` with `in.unroll(x, 2)`, r.x serial) over a count of steps the transfer's words do
not divide (catalogue lanes_serial_taps_across_a_stream, refused before with "a serial loop may not step across a
stream's lanes"). The loop runs on to whole runs of the transfer (hwlower/rvar_turns.py), each step past the
domain keeping the element's value as Halide's guarded tail of a split RVar does, and its reads guarded to the
domain; hwlower/lane_steps.py then takes the transfer's words in turn."""

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl

from conftest import SIMULATORS

R = hl.TailStrategy.RoundUp


def _taps(m, w: int, h: int, taps: int, lanes: int = 2, rows: bool = False, op: str = "sum"):
    """input -> hw_input (`lanes` words of x per transfer, or with `rows` of y) -> acc (`op` over `taps` taps along
    x, or y with `rows`, in a serial loop r.x; every stage `lanes` pixels of x a firing, or of y with `rows`) ->
    hw_output (acc + 1) -> output, w x h."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    r = m.RDom([m.Range(0, taps)], "r")
    hw_input[x, y] = inp[x, y]
    tap = hw_input[x, y + r.x] if rows else hw_input[x + r.x, y]
    if op == "sum":
        acc[x, y] = m.u16(0)
        acc[x, y] += tap * m.cast(m.UInt(16), r.x + 1)
    elif op == "max":
        acc[x, y] = m.u16(0)
        acc[x, y] = m.max(acc[x, y], tap)
    else:  # not an accumulation: each step past the domain keeps the element's value
        acc[x, y] = m.u16(1)
        acc[x, y] = acc[x, y] * 3 + tap
    hw_output[x, y] = acc[x, y] + 1
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
        if rows:
            hw_input.unroll(y, lanes, R)
            acc.unroll(y, lanes, R)
            acc.update().unroll(y, lanes, R)
            hw_output.unroll(yi, lanes, R)
        else:
            hw_input.unroll(x, lanes, R)
            acc.unroll(x, lanes, R)
            acc.update().unroll(x, lanes, R)
            hw_output.unroll(xi, lanes, R)
    return output, {"input": inp}, [w, h]


def _rx(design) -> list[tuple[str, int]]:
    return [(lp.var.rsplit(".", 1)[-1], lp.extent) for loops, op in design.program.nest.ops()
            if op.func == "acc" and op.stage == 1 for lp in loops if "r$x" in lp.var]


def _name(kw: dict) -> str:
    return "taps40_" + "_".join(f"{k}{v}" for k, v in kw.items())


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("kw", "rx", "cycles", "ideal"), [
    # catalogue lanes_serial_taps_across_a_stream's shape: 3 taps over 2 words, r.x runs 2 x 2 steps; the ideal
    # counts the 3 taps the program asks for (helper ideal40: 4 x 8 x 3, not the 4 steps' 128)
    ({"w": 8, "h": 8, "taps": 3}, [("r$x", 2), ("lane", 2)], 135, 96),
    # 3 words a transfer, 4 taps: r.x runs 2 x 3 steps (ideal 3 x 4 x 4, not 72)
    ({"w": 9, "h": 4, "taps": 4, "lanes": 3}, [("r$x", 2), ("lane", 3)], 79, 48),
    # rows: 3 taps along y over 2 rows a transfer, every stage 2 rows a firing (ideal 6 x 3 x 3, not 72)
    ({"w": 6, "h": 6, "taps": 3, "rows": True}, [("r$x", 2), ("lane", 2)], 101, 54),
])
def test_serial_taps_over_no_whole_transfers_run_on_guarded(kw, rx, cycles, ideal, simulator, compile_shared,
                                                            build_dir, halide):
    design = compile_shared(_taps(hl, **kw)[0], name=_name(kw))
    assert _rx(design) == rx
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (cycles, ideal), rep
    check_simulated_and_halide(design, lambda m: _taps(m, **kw), simulator, build_dir, halide)


@pytest.mark.parametrize(("kw", "cycles", "ideal"), [
    ({"w": 8, "h": 4, "taps": 5}, 103, 80),
    ({"w": 8, "h": 4, "taps": 3, "op": "max"}, 70, 48),  # max's neutral value past the domain
    ({"w": 8, "h": 4, "taps": 3, "op": "poly"}, 67, 48),  # acc * 3 + tap: the step keeps the value
    # (the user's RoundUp of 7 rows to 4 pairs stays counted: 6 x 4 x 5)
    ({"w": 6, "h": 7, "taps": 5, "rows": True, "op": "poly"}, 216, 120),
    ({"w": 12, "h": 3, "taps": 2, "lanes": 4}, 43, 18),  # 2 taps over 4 words: r.x runs 1 x 4 steps
])
def test_serial_taps_over_no_whole_transfers_other_shapes(kw, cycles, ideal, build_dir, halide):
    design = hl.compile(_taps(hl, **kw)[0], name=_name(kw))
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (cycles, ideal), rep
    check_simulated_and_halide(design, lambda m: _taps(m, **kw), "icarus", build_dir, halide)
