"""Helper share41, session 41: a stream of x lanes read by several Funcs, one of them in turn (a Func of fewer
lanes than the stream's words, or a serial RVar loop of taps stepping across them), was refused ("each lane of a
consumer reads one lane of its producer"; lane_steps.py leaves a stream other Funcs read too). The compiler puts
one copy of the stream between it and all its readers (frontend/stream_staging.py), at lanes each reader's divide:
the copy reads the stream in turn as its only reader, and the readers read the copy as any buffer. Fuzz 187502,
179808, 181910, 181927 and 179709 (tests/flow/fuzz_cases/shared_*) and catalogue lanes_serial_taps_beside_another_
reader (retired here, with catalogue lanes_serial_taps_beside_an_upsample left) are of this kind. A reader
inlined into others counts as those Funcs (fuzz 179808 as drawn)."""

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl

from conftest import SIMULATORS


def _two_readers(m, w: int = 8, h: int = 8, stream: int = 2, block: bool = False, lanes: tuple[int, int] = (1, 1),
                 out_lanes: int = 1, inline: bool = False):
    """input -> hw_input (`stream` words of x a transfer, 2 rows too with `block`) -> f (2 taps of it along x, at
    lanes[0] pixels a firing) and g (f's pixel below times the stream's pixel two rows down, at lanes[1], or
    inlined into hw_output with `inline`) -> hw_output (g, at `out_lanes`) -> output, w x h."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, f, g, hw_output, output = (m.Func(n) for n in ("hw_input", "f", "g", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    f[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 3
    g[x, y] = f[x + 1, y + 1] * hw_input[x + 2, y + 2] + 5
    hw_output[x, y] = g[x, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        f.compute_at(hw_output, xo)
        if not inline:
            g.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, stream)
        if block:
            hw_input.unroll(y, 2)
        for fn, n in ((f, lanes[0]), (g, lanes[1])):
            if n > 1:
                fn.unroll(x, n)
        if out_lanes > 1:
            hw_output.unroll(xi, out_lanes)
    return output, {"input": inp}, [w, h]


def _serial_taps(m, taps: int = 3, w: int = 8, h: int = 8):
    """The retired catalogue case: acc sums `taps` taps of a 2-word stream along x in a serial loop r.x at 2 lanes,
    and hw_output (2 lanes) adds the stream's pixel to it."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    r = m.RDom([m.Range(0, taps)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    hw_output[x, y] = acc[x, y] + hw_input[x, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2)
        acc.unroll(x, 2)
        acc.update().unroll(x, 2)
        hw_output.unroll(xi, 2)
    return output, {"input": inp}, [w, h]


def _words(design) -> dict[str, tuple[int, int]]:
    return {b["name"]: (b["words"], b["min_words"]) for b in design.report["buffers"]
            if b["name"].startswith("hw_input")}


def _name(make, kw: dict) -> str:
    return "share41_" + make.__name__.strip("_") + "".join(f"_{k}{v}" for k, v in kw.items()).replace(
        " ", "").replace(",", "_").replace("(", "").replace(")", "")


CASES = [
    # (program, schedule, cycles, ideal, {buffer: (words, min words)}, PEs)
    # two Funcs of one lane over a 2-word stream: the copy at one lane
    (_two_readers, {}, 91, 81, {"hw_input": (3, 2), "hw_input_turns": (2, 2)}, 4),
    # ... over a stream of 2 x 2 blocks (the fuzzer's 187502, 179808, 181927 at 8 x 8)
    (_two_readers, {"block": True}, 91, 81, {"hw_input": (16, 10), "hw_input_turns": (2, 2)}, 4),
    # a reader of one lane beside one of 2 (whole transfers): the copy at one lane, the gcd
    (_two_readers, {"lanes": (2, 1)}, 91, 81, {"hw_input": (3, 2), "hw_input_turns": (2, 2)}, 4),
    # readers of 2 lanes over a 4-word stream, the output at 2: the copy at 2 lanes
    (_two_readers, {"stream": 4, "lanes": (2, 2), "out_lanes": 2}, 55, 45,
     {"hw_input": (6, 4), "hw_input_turns": (4, 4)}, 8),
    # g inlined into hw_output (fuzz 179808 as drawn): hw_output computes g's reads of the copy
    (_two_readers, {"inline": True}, 91, 81, {"hw_input": (3, 2), "hw_input_turns": (2, 2)}, 4),
    # ... hw_output at 2 lanes over 2 x 2 blocks: the copy at one lane (an output at 2 beside f at 1)
    (_two_readers, {"inline": True, "block": True, "out_lanes": 2}, 91, 81,
     {"hw_input": (16, 10), "hw_input_turns": (2, 2)}, 6),
    # the catalogue case: a serial loop of 3 taps at 2 lanes beside hw_output at 2: the copy at one lane
    (_serial_taps, {}, 122, 96, {"hw_input": (3, 2), "hw_input_turns": (5, 5)}, 4),
    (_serial_taps, {"taps": 4, "w": 16}, 320, 256, {"hw_input": (3, 2), "hw_input_turns": (13, 6)}, 4),
]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("make", "kw", "cycles", "ideal", "words", "pes"), CASES,
                         ids=[_name(c[0], c[1]) for c in CASES])
def test_readers_of_a_stream_share_a_staging_copy(make, kw, cycles, ideal, words, pes, simulator, compile_shared,
                                                 build_dir, halide):
    design = compile_shared(make(hl, **kw)[0], name=_name(make, kw))
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"], _words(design), rep["pes"]) == (cycles, ideal, words, pes)
    check_simulated_and_halide(design, lambda h: make(h, **kw), simulator, build_dir, halide)


def test_readers_of_whole_transfers_read_the_stream_as_before():
    """Two readers at the stream's lanes (each takes whole transfers) read it without a copy, as before."""
    design = hl.compile(_two_readers(hl, lanes=(2, 2), out_lanes=2)[0], name="share41_whole")
    assert list(_words(design)) == ["hw_input"]


def test_the_shared_copy_leaves_the_users_funcs_alone():
    """The copy is made in a copy of the user's Funcs: compiling twice gives the same design."""
    out, _, _ = _two_readers(hl, block=True)
    a, b = hl.compile(out, name="share41_twice"), hl.compile(out, name="share41_twice")
    assert a.verilog == b.verilog and "hw_input_turns" in _words(a)
