"""Issue 8 (helper lanes39, session 39): stages unrolled by factors that disagree along a pipeline, which Halide
accepts (an unroll never changes values) and which were refused as "a consumer's lanes must be a multiple of its
producer's" (the catalogue's lanes_chain_of_two, lanes_chain_of_three, lanes_chain_through_the_stream,
lanes_read_two_of_three and lanes_along_the_channels).

A reader of fewer words per firing than its stream carries steps its loop over x through the transfers' words in
turn (hwlower/lane_steps.py); where that loop's pixels are not whole steps of the words (7 pixels over 2-word
transfers), it now runs past its last pixel as a RoundUp tail would (`_grown`): the buffer grows to hold the extra
values, which no consumer reads, and its loads are guarded to the pixels it computes. Narrowing (hwlower/narrow.py)
counts on that, so that Funcs of lanes their readers do not take run at the lanes those do. The pipeline runs at its
slowest stage's pace: the stream is paced to its reader, ideal = the busiest kernel's firings."""

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl

from conftest import SIMULATORS

R = hl.TailStrategy.RoundUp


def _two_stages(m, width: int, stream: int, mid_lanes: int = 1, halves: bool = False):
    """hw_input -> mid (two taps along x, or with `halves` the sum of pixels 2x and 2x + 1) -> hw_output (two rows
    of mid) -> output, width x 8, the input streamed `stream` words per transfer (RoundUp), mid at `mid_lanes`."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = (m.Func(n) for n in ("hw_input", "mid", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    mid[x, y] = hw_input[2 * x, y] + hw_input[2 * x + 1, y] if halves else hw_input[x, y] + hw_input[x + 1, y] * 3
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, width).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, 8).hw_accelerate(xi, xo)
        mid.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(x, stream, R)
        if mid_lanes > 1:
            mid.unroll(x, mid_lanes)
    return output, {"input": inp}, [width, 8]


def _three_stages(m, lanes: dict[str, int]):
    """hw_input -> a (two taps along x) -> b (two rows of a) -> hw_output (two taps along x), 8 x 8, each stage
    unrolled along x by `lanes` (absent: none)."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, a, b, hw_output, output = (m.Func(n) for n in ("hw_input", "a", "b", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    a[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2
    b[x, y] = a[x, y] + a[x, y + 1]
    hw_output[x, y] = b[x, y] + b[x + 1, y] * 3
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, 8).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
        a.compute_at(hw_output, xo)
        b.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
        for f, var in ((hw_input, x), (a, x), (b, x), (hw_output, xi)):
            if lanes.get(f.name(), 1) > 1:
                f.unroll(var, lanes[f.name()])
    return output, {"input": inp}, [8, 8]


def _channels(m):
    """4 channels stored first, 6 x 4: two taps along x per channel; the stream carries the 4 channels a transfer,
    mid computes 3 of them a firing (RoundUp: 6 channels)."""
    c, x, y, xo, yo, xi, yi = (m.Var(n) for n in "c x y xo yo xi yi".split())
    inp = m.ImageParam(m.UInt(16), 3, "input")
    hw_input, mid, hw_output, output = (m.Func(n) for n in ("hw_input", "mid", "hw_output", "output"))
    hw_input[c, x, y] = inp[c, x, y]
    mid[c, x, y] = hw_input[c, x, y] + hw_input[c, x + 1, y] * 5
    hw_output[c, x, y] = mid[c, x, y]
    output[c, x, y] = hw_output[c, x, y]
    if m is hl:
        output.bound(c, 0, 4).bound(x, 0, 6).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
        mid.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(c, 4)
        mid.unroll(c, 3, R)
    return output, {"input": inp}, [4, 6, 4]


def _rows(m, glb: bool = False):
    """hw_input -> mid (two taps along x) -> hw_output (two rows of mid) -> output, 8 x 8, the input streamed two
    rows per transfer (RoundUp), mid a row a firing over its 9 rows; with `glb`, 16 x 16 over seed 002's three
    levels, the GLB input's copy into the memory tiles two rows a transfer."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    size = 16 if glb else 8
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = (m.Func(n) for n in ("hw_input", "mid", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 3
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    if m is hl and not glb:
        output.bound(x, 0, size).bound(y, 0, size)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, size, size).hw_accelerate(xi, xo)
        mid.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().unroll(y, 2, R)
    elif m is hl:
        xio, yio, xii, yii = (m.Var(n) for n in ("xio", "yio", "xii", "yii"))
        output.bound(x, 0, size).bound(y, 0, size)
        out = hw_output.in_()
        out.compute_root().tile(x, y, xo, yo, xi, yi, 16, 16).hw_accelerate(xi, xo)
        out.store_in(hl.MemoryType.GLB)
        hw_output.tile(x, y, xio, yio, xii, yii, 8, 8).compute_at(out, xo)
        mid.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(out, xo).store_in(hl.MemoryType.GLB).unroll(y, 2, R)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [size, size]


def _pairs_scan(m):
    """acc, a running sum along x over a stream of 2 pixels a transfer, its update unrolled by 2 (its lanes chained,
    run serially: the pure definition has one), read in pairs by hw_output; 8 x 4 (16 pixels of acc a row)."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    acc[x, y] = hw_input[x, y]
    r = m.RDom([m.Range(1, 15)], "r")
    acc[r.x, y] = acc[r.x - 1, y] + hw_input[r.x, y]
    hw_output[x, y] = acc[2 * x, y] + acc[2 * x + 1, y]
    output[x, y] = hw_output[x, y]
    if m is hl:
        output.bound(x, 0, 8).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        acc.update().unroll(r.x, 2)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2, R)
    return output, {"input": inp}, [8, 4]


# (name, the design's algorithm over a module, its stream's words per transfer, predicted cycles, ideal cycles,
# words of memory): each figure measured when the schedule first compiled (helper lanes39); the ideals count the
# iterations the program asks for, not those the compiler rounds up to whole transfers (helper ideal40)
DESIGNS = [
    # a 2-word stream read a word a firing by mid over its 7 pixels: 4 steps of 2, the last one's second past the row
    ("chain_of_two", lambda m: _two_stages(m, 7, 2), 2, 75, 63, 14),
    # mid reads 2 words of a 3-word stream a firing: 9 pixels in 3 steps of 3
    ("read_two_of_three", lambda m: _two_stages(m, 8, 3, halves=True), 3, 83, 72, 27),
    # a over 9 pixels of a 2-word stream: 5 steps of 2
    ("chain_of_three", lambda m: _three_stages(m, {"hw_input": 2}), 2, 95, 81, 18),
    # a and b at 3 lanes over a 2-word stream and under a 2-lane output: both narrowed to one lane, a reading the
    # stream in turn (the output then fires every other cycle)
    ("chain_through_the_stream", lambda m: _three_stages(m, {"hw_input": 2, "a": 3, "b": 3, "hw_output": 2}), 2, 95,
     81, 20),
    # mid narrowed to one channel a firing, its 6 channels rounded up to 2 steps of the stream's 4 (the ideal
    # counts the 6 channels of the user's RoundUp, 6 x 6 x 4, not the 8 the compiler runs)
    ("along_the_channels", _channels, 4, 198, 144, 27),
    # (catalogue rows_in_odd_steps) mid a row a firing over 9 rows of a stream of 2 rows a transfer: 5 steps of 2
    ("rows_in_odd_steps", _rows, 2, 76, 72, 22),
    # (catalogue glb_input_unrolled_along_y) the GLB input's copy into the memory tiles likewise, over 9 rows
    ("glb_rows_in_odd_steps", lambda m: _rows(m, glb=True), 2, 358, 324, 23),
    # (catalogue scan_over_two_lane_stream) the stream read in turn by both of acc's ops, its pure definition and
    # its update, whose unrolled r.x already steps by 2 (the stream's pace is theirs, a word a cycle)
    ("scan_over_two_lane_stream", _pairs_scan, 2, 66, 64, 9),
]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("name", "make", "words", "cycles", "ideal", "memory"), DESIGNS, ids=[d[0] for d in DESIGNS])
def test_stages_of_disagreeing_lanes_are_bit_exact(name, make, words, cycles, ideal, memory, simulator,
                                                   compile_shared, build_dir, halide):
    design = compile_shared(make(hl)[0], name=f"mixed_lanes_{name}")
    rep = design.report
    assert design.program.inputs[0].lanes == words
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (cycles, ideal), rep
    assert sum(b["words"] for b in rep["buffers"]) <= memory, rep["buffers"]
    check_simulated_and_halide(design, make, simulator, build_dir, halide)


def test_a_reader_past_its_last_pixel_stores_into_a_grown_buffer_and_guards_its_loads():
    design = hl.compile(_two_stages(hl, 7, 2)[0], name="mixed_lanes_grown")
    nest = design.program.nest
    loops, op = next((lp, o) for lp, o in nest.ops() if o.func == "mid")
    assert [(lp.var, lp.extent) for lp in loops][-2:] == [("mid.s0.x", 4), ("mid.s0.x.lane", 2)]
    assert nest.buffer("mid").box[0] == (0, 8)  # 7 pixels its reader takes, and the step's eighth
    assert all(p.access.guard and p.access.guard[-1][1:] == (0, 6) for p in op.loads)
