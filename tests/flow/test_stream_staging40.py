"""Helper taps40, session 40: a stencil reading a stream's words in turn through more than 2 reads (3 or 4 taps of
`hw_input.unroll(x, 2)` by a Func of one lane; catalogue lanes_three_taps_of_a_wider_stream, 3 taps of a 4-word
stream at 2 lanes, refused before with "which it does through at most 2 reads of a stream"). The compiler puts a
copy of the stream at the reader's lanes between them (frontend/stream_staging.py): the copy reads the stream once,
in turn (hwlower/lane_steps.py), and the taps read the copy as an ordinary buffer."""

import numpy as np
import pytest
from oracle import halide_outputs

import mainspring as hl
from mainspring.frontend.ir import Call, walk

from conftest import SIMULATORS


def _taps(m, w: int = 8, h: int = 8, taps: int = 3, stream: int = 2, lanes: int = 1, along_y: bool = False,
          two_rows: bool = False, block: bool = False):
    """input -> hw_input (`stream` words of x per transfer) -> f (`taps` weighted taps along x, or y with
    `along_y`; `lanes` pixels a firing) -> hw_output (f plus one, or with `two_rows` f's pixel plus the one below,
    as the catalogue case) -> output, w x h; with `block` the stream carries 2 rows of its words too."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, f, hw_output, output = (m.Func(n) for n in ("hw_input", "f", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    e = hw_input[x, y]
    for k in range(1, taps):
        e = e + (hw_input[x, y + k] if along_y else hw_input[x + k, y]) * (k + 1)
    f[x, y] = e
    hw_output[x, y] = f[x, y] + (f[x, y + 1] if two_rows else 1)
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        f.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, stream)
        if block:
            hw_input.unroll(y, 2)
        if lanes > 1:
            f.unroll(x, lanes)
            hw_output.unroll(xi, lanes)
    return output, {"input": inp}, [w, h]


def _words(design) -> dict[str, tuple[int, int]]:
    return {b["name"]: (b["words"], b["min_words"]) for b in design.report["buffers"]
            if b["name"].startswith("hw_input")}


def _name(kw: dict) -> str:
    return "taps40_" + "_".join(f"{k}{v}" for k, v in kw.items())


CASES = [
    # (schedule, cycles, ideal, {buffer: (words, min words)}, PEs)
    ({}, 84, 80, {"hw_input": (3, 2), "hw_input_turns": (3, 3)}, 5),
    ({"taps": 4}, 99, 88, {"hw_input": (3, 2), "hw_input_turns": (4, 4)}, 7),
    ({"taps": 4, "stream": 4}, 99, 88, {"hw_input": (7, 4), "hw_input_turns": (4, 4)}, 7),
    ({"along_y": True}, 84, 80, {"hw_input": (3, 2), "hw_input_turns": (17, 17)}, 5),
    # a stream of 2 x 2 blocks (the fuzzer's block cases, seed 180740): the copy reads a row of them at a time
    ({"block": True}, 84, 80, {"hw_input": (17, 12), "hw_input_turns": (3, 3)}, 5),
    ({"block": True, "along_y": True}, 84, 80, {"hw_input": (15, 10), "hw_input_turns": (17, 17)}, 5),
    # the catalogue case: 3 taps of a 4-word stream at 2 lanes, two rows of them summed at 2 lanes
    # (the fix, all at 4 lanes: 31 / 27, hw_input 8 words; read in turn without the copy: 83 words at 64 x 8)
    ({"stream": 4, "lanes": 2, "two_rows": True}, 57, 45, {"hw_input": (6, 4), "hw_input_turns": (4, 4)}, 10),
    ({"w": 16, "h": 16, "taps": 4, "stream": 4, "lanes": 2}, 164, 160, {"hw_input": (6, 4), "hw_input_turns": (6, 6)},
     14),
]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("kw", "cycles", "ideal", "words", "pes"), CASES, ids=[_name(c[0]) for c in CASES])
def test_a_stencil_reads_a_staging_copy_of_a_stream_read_in_turn(kw, cycles, ideal, words, pes, simulator,
                                                                 compile_shared, build_dir, halide):
    design = compile_shared(_taps(hl, **kw)[0], name=_name(kw))
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"], _words(design), rep["pes"]) == (cycles, ideal, words, pes)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    out, images, size = _taps(halide, **kw)
    (want,) = halide_outputs(halide, out, images, inputs, size)
    (got,) = design.reference_outputs(inputs)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_two_taps_keep_reading_the_stream_in_turn():
    """2 reads of a stream are read in turn as before, without a copy (lane_steps.py)."""
    design = hl.compile(_taps(hl, taps=2)[0], name="taps40_two")
    assert list(_words(design)) == ["hw_input"]


def test_the_copy_leaves_the_users_funcs_alone():
    """The copy is made in a copy of the user's Funcs: compiling twice gives the same design, and the user's f
    still reads hw_input."""
    out, _, _ = _taps(hl)
    a, b = hl.compile(out, name="taps40_twice"), hl.compile(out, name="taps40_twice")
    assert a.verilog == b.verilog and "hw_input_turns" in _words(a)
    f = next(fn for fn in hl.Pipeline(out).order if fn.name == "f")
    assert {n.callee.name for n in walk(f.definitions[0].value) if isinstance(n, Call)} == {"hw_input"}
