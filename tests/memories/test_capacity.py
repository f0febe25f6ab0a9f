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
    assert count < 1.0 and total < 5.0
