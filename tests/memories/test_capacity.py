"""memories.capacity: exact maximum live values (barvinok), fast at 1920 wide."""

import time

import pytest

from mainspring import CGRA
from mainspring.memories import analyze
from mainspring.memories.capacity import buffer_capacity
from mainspring.memories.polyhedral import build_program, default_latency
from mainspring.memories.schedule import schedule

import memories_nests as N


def capacities(nest):
    prog = build_program(nest, lambda op: default_latency(op, 1))
    sched = schedule(prog, CGRA())
    return {b.name: buffer_capacity(prog, sched, b.name) for b in nest.buffers}


@pytest.mark.parametrize("width", [8, 17, 64])
def test_a_3x3_window_holds_two_rows_and_three_words(width):
    assert capacities(N.gaussian(width, 12))["hw_input"] == 2 * width + 3


def test_b_gaussian_input_buffer_is_exactly_131_words():
    caps = capacities(N.gaussian())
    assert caps["hw_input"] == 131
    assert caps["blur"] == 1  # read in the cycle it is written: one live word, no storage


def test_c_cascade_second_window_counts_only_real_pixels():
    caps = capacities(N.cascade())
    # 62 valid pixels per 64-cycle row: 2 * 62 + 3 live values, fewer than the 131-cycle distance.
    assert (caps["hw_input"], caps["blur1"]) == (131, 127)


def test_d_1920x1080_blur_counts_fast():
    nest = N.gaussian(1920, 1080)
    prog = build_program(nest, lambda op: default_latency(op, 1))
    sched = schedule(prog, CGRA())
    start = time.perf_counter()
    words = buffer_capacity(prog, sched, "hw_input")
    count = time.perf_counter() - start
    start = time.perf_counter()
    plan = analyze(nest)
    total = time.perf_counter() - start
    print(f"\n1920x1080 3x3 blur: capacity {words} words counted in {count * 1e3:.0f} ms; "
          f"whole analysis (schedule, capacity, mapping, check) {total * 1e3:.0f} ms")
    assert words == 2 * 1920 + 3 and plan.buffer("hw_input").min_words == words
    # a guard against the counting blowing up (barvinok on the live relation took minutes), with room for a
    # loaded machine: the figures themselves are benchmarks (`mainspring bench`)
    assert count < 10.0 and total < 60.0


def test_f_a_strided_serial_reduction_counts_in_a_second():
    # A 3x3 serial reduction read at stride 2 (resnet at stride 2): barvinok took minutes on its live relation.
    import mainspring as hl

    x, y, xo, yo, xi, yi = (hl.Var(v) for v in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, conv, hw_output, output = (hl.Func(n) for n in ("hw_input", "conv", "hw_output", "output"))
    hw_input[x, y] = hl.u16(inp[x, y])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    conv[x, y] = hl.u16(0)
    conv[x, y] += hw_input[2 * x + r.x, 2 * y + r.y]
    hw_output[x, y] = conv[x, y]
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, 6).bound(y, 0, 6)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 6).hw_accelerate(xi, xo)
    conv.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()
    start = time.perf_counter()
    design = hl.compile(output, name="strided", prove=False)
    assert time.perf_counter() - start < 20
    assert {b["name"]: b["words"] >= b["min_words"] for b in design.report["buffers"]} == {
        "hw_input": True, "conv": True, "hw_output": True}
