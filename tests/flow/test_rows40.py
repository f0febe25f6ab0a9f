"""Helper blocks40, session 40: an accelerator input streamed 2 rows per transfer (`hw_input.unroll(y, 2)`) read
by several Funcs, each one row per firing (catalogue rows_read_twice, refused before as "rows streamed side by side
have one reader"). Each reader steps its loop over y in runs of the transfer's rows (hwlower/lane_steps.py), so
each takes the transfer's words in turn at the same pace, and the stream waits a row for them as it does for one
reader."""

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl

from conftest import SIMULATORS

R = hl.TailStrategy.RoundUp


def _readers(m, w: int, h: int, taps: int = 1, readers: int = 2, fast: bool = False, rows: int = 2,
             blocks: bool = False):
    """input -> hw_input (`rows` rows a transfer) -> mid (`taps` taps along y) and `readers` - 1 pointwise Funcs
    (o1 reads the row below its pixel) -> hw_output (mid at y and y + 1 plus the others) -> output, w x h; `fast`:
    o1 computes 2 rows a firing (it takes each transfer whole); `blocks`: the stream 2 x `rows` blocks, every stage
    2 pixels of x a firing."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = (m.Func(n) for n in ("hw_input", "mid", "hw_output", "output"))
    others = [m.Func(f"o{i}") for i in range(1, readers)]
    hw_input[x, y] = inp[x, y]
    mid[x, y] = hw_input[x, y]
    for k in range(1, taps):
        mid[x, y] = mid[x, y] + hw_input[x, y + k] * (k + 1)
    total = mid[x, y] + mid[x, y + 1]
    for i, o in enumerate(others, 1):
        o[x, y] = hw_input[x, y + (i % 2)] * (2 * i + 1) + i
        total = total + o[x, y]
    hw_output[x, y] = total
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        for f in [mid, *others]:
            f.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(y, rows, R)
        if blocks:
            hw_input.unroll(x, 2, R)
            for f in [mid, *others]:
                f.unroll(x, 2, R)
            hw_output.unroll(xi, 2, R)
        if fast:
            others[0].unroll(y, rows, R)
    return output, {"input": inp}, [w, h]


def _words(design, name: str) -> tuple[int, int]:
    (b,) = [b for b in design.report["buffers"] if b["name"] == name]
    return b["words"], b["min_words"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("kw", "cycles", "ideal", "words"), [
    # catalogue rows_read_twice's shape: mid over 8 rows of 7 (its extra row rounded up), o1 over 7
    ({"w": 8, "h": 7}, 68, 64, (10, 9)),
    # (ideals: mid's 9 rows the program asks for, not the 10 it runs, helper ideal40)
    ({"w": 8, "h": 8, "taps": 2, "readers": 3}, 84, 72, (26, 17)),
    ({"w": 8, "h": 8, "taps": 2, "readers": 3, "blocks": True}, 44, 36, (28, 18)),
])
def test_rows_read_in_turn_by_several_funcs(kw, cycles, ideal, words, simulator, compile_shared, build_dir, halide):
    design = compile_shared(_readers(hl, **kw)[0], name="rows40_" + "_".join(f"{k}{v}" for k, v in kw.items()))
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (cycles, ideal), rep
    assert _words(design, "hw_input") == words, rep
    # every reader steps its loop over y in runs of the transfer's 2 rows
    for func in ("mid", "o1"):
        assert [lp.extent for loops, op in design.program.nest.ops() if op.func == func for lp in loops
                if lp.var.endswith("y.lane")] == [2], func
    check_simulated_and_halide(design, lambda m: _readers(m, **kw), simulator, build_dir, halide)


@pytest.mark.parametrize(("kw", "cycles", "ideal"), [
    # (ideals: the rows the program asks for, not those rounded up to whole transfers, helper ideal40)
    ({"w": 6, "h": 8, "fast": True}, 58, 54),  # o1 takes each transfer whole, mid its rows in turn
    ({"w": 8, "h": 6, "taps": 3}, 77, 56),  # three taps along y in turn, as one reader of them does (76)
    ({"w": 8, "h": 9, "rows": 3}, 84, 80),  # 3 rows a transfer over 9 (mid's 10 rows run 12)
    ({"w": 16, "h": 16, "taps": 2, "readers": 3}, 292, 272),
])
def test_rows_read_by_several_funcs_other_shapes(kw, cycles, ideal, build_dir, halide):
    design = hl.compile(_readers(hl, **kw)[0], name="rows40_" + "_".join(f"{k}{v}" for k, v in kw.items()))
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (cycles, ideal), rep
    check_simulated_and_halide(design, lambda m: _readers(m, **kw), "icarus", build_dir, halide)
