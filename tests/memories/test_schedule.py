"""memories.schedule (through analyze): rates, delays, fusion, collapse of init/update, fallbacks."""

import math

from mainspring import CGRA
from mainspring.memories import analyze

import memories_nests as N


def delays(plan):
    return {s.op: s.delay for s in plan.ops}


def close_to_ideal(plan):
    """cycles - ceil(input words) <= pipeline depth + 1%."""
    return plan.cycles - math.ceil(plan.input_words) <= plan.first_output_cycle + 0.01 * plan.input_words


def test_a_pointwise_brighten_streams_with_no_line_buffer():
    plan = analyze(N.brighten())
    assert plan.strategy == "fused"
    assert all(s.rates == (64, 1) for s in plan.ops)
    assert plan.cycles <= 4096 + 2
    assert all(b.level == "wire" and not b.banks and not b.registers for b in plan.buffers)


def test_b_gaussian_runs_one_pixel_per_cycle_first_output_near_130():
    for variant in (N.gaussian(), N.gaussian(init_update=True)):
        plan = analyze(variant)
        blur = [s for s in plan.ops if s.func == "blur_unnormalized"]
        assert all(s.rates == (64, 1) and s.delay == 130 for s in blur)
        assert 130 <= plan.first_output_cycle <= 134
        assert plan.cycles - 4096 <= 4 and close_to_ideal(plan)


def test_b_pure_init_collapses_onto_its_update():
    plan = analyze(N.gaussian(init_update=True))
    d = delays(plan)
    assert d["blur_unnormalized_s0"] == d["blur_unnormalized_s1"]  # the init is pulled late, not buffered
    acc = plan.buffer("blur_unnormalized")
    # the update's value on its wire; the init's constant, read as it is made, is a wire too: neither a live
    # value nor a word (memories/constant_ports.py)
    assert acc.level == "wire" and acc.words == acc.min_words == 1
    (r,) = [p for p in acc.read_ports if p.op == "blur_unnormalized_s1"]
    assert r.delay == 0


def test_an_input_copy_is_fixed_to_the_stream():
    plan = analyze(N.gaussian(input_copy=True))
    copy = plan.op("in_copy_s0")
    assert (copy.rates, copy.delay) == ((64, 1), 0)
    assert plan.buffer("hw_input").min_words == 1 and plan.buffer("in_copy").min_words == 131


def test_c_cascade_pipelines_both_blurs():
    plan = analyze(N.cascade())
    d = delays(plan)
    assert (d["conv1_s0"], d["blur1_s0"], d["conv2_s0"]) == (130, 131, 262)
    assert plan.cycles - 4096 <= 8 and close_to_ideal(plan)


def test_e_a_sequential_reduction_runs_its_loop_one_iteration_per_cycle():
    plan = analyze(N.sequential_reduction(16, 8, taps=4))
    s1 = plan.op("sum_s1")
    assert plan.strategy == "fused" and s1.rates == (13 * 4, 4, 1)  # rows of its 13 pixels: the stream fits in them
    # Producer and consumer of the accumulator run at the reduction's pace (rate matched, no big buffer).
    assert plan.op("sum_s0").rates == (52, 4) and plan.op("hw_output_s0").rates == (52, 4)
    # the two stages' wires: the update's value one word, the init's constant (read as it is made) none
    assert plan.buffer("sum").level == "wire" and plan.buffer("sum").words == plan.buffer("sum").min_words == 1
    # The stream still arrives one word per cycle: what the reduction has not consumed waits in memory.
    assert plan.buffer("in_copy").banks[0].kind == "addressed"
    assert plan.cycles <= 8 * 16 * 4 + 8


def test_e_a_slow_loop_carried_update_raises_the_initiation_interval():
    plan = analyze(N.sequential_reduction(), latencies={"sum_s1": 2})
    assert plan.strategy == "fused_ii2"
    assert plan.op("sum_s1").rates == (104, 8, 2)


def test_e_without_a_workable_interval_the_nest_runs_in_program_order():
    plan = analyze(N.sequential_reduction(), CGRA(max_ii=1), latencies={"sum_s1": 2})
    assert plan.strategy == "sequential"
    d = delays(plan)
    assert d["in_copy_s0"] == 0 and d["sum_s0"] < d["sum_s1"] < d["hw_output_s0"]
    assert plan.op("sum_s1").rates == (13 * 4 * 3, 4 * 3, 3)  # each iteration takes latency + 1 cycles
    # Capacity is still exact: the whole input is copied before the reduction starts reading it.
    assert plan.buffer("in_copy").min_words == 16 * 8


def test_latency_is_configurable():
    plan = analyze(N.gaussian(), CGRA(pe_latency=3))
    d = delays(plan)
    assert (d["blur_unnormalized_s0"], d["blur_s0"], d["hw_output_s0"]) == (130, 133, 136)
    plan = analyze(N.gaussian(), latencies={"blur_s0": 5})
    assert delays(plan)["hw_output_s0"] == 131 + 5


def test_e_a_whole_image_reduction_accumulates_in_place():
    plan = analyze(N.total_sum(8, 4))
    s1 = plan.op("total_s1")
    assert plan.strategy == "fused" and (s1.rates, s1.delay) == ((8, 1), 0)  # it consumes the stream as it comes
    assert plan.op("total_s0").dims == () and plan.cycles == 8 * 4 + 1
    total = plan.buffer("total")
    assert total.output_ports == ("total.w1",) and total.level == "wire"
    # The accumulator is read from the init at the first iteration and from itself afterwards: three boxes.
    assert [(r.source, [(d.min, d.extent) for d in r.domain]) for r in total.read_ports] == [
        ("total.w0", [(0, 1), (0, 1)]), ("total.w1", [(0, 1), (1, 7)]), ("total.w1", [(1, 3), (0, 8)])]


def test_a_scan_runs_at_rate_one_when_the_latency_allows_and_slower_otherwise():
    plan = analyze(N.scan())
    assert plan.strategy == "fused" and plan.op("prefix_s1").rates == (16, 1)
    (carried,) = [r for r in plan.buffer("prefix").read_ports if r.source == "prefix.w1"]
    assert carried.delay == 0  # the PE's own output register feeds the next pixel
    plan = analyze(N.scan(), latencies={"prefix_s1": 3})
    assert plan.strategy == "fused_ii3" and plan.op("prefix_s1").rates == (48, 3)


def test_a_downsample_keeps_pace_with_its_input():
    # hw_output(x, y) reads hw_input(2x, 2y) and (2x + 1, 2y + 1): it steps x every 2 cycles and y every 2 input
    # rows, so it starts as soon as (1, 1) arrives, and the even pixels of even rows wait a row: the odd columns
    # of even rows are never read, so at most 9 values are live. An addressed bank written with every second
    # value of every second row only holds them in 8 words (a delay line of the row would take 18).
    plan = analyze(N.downsample())
    op = plan.op("hw_output_s0")
    assert (op.rates, op.delay) == ((32, 2), 17)
    buf = plan.buffer("hw_input")
    (bank,) = buf.banks
    (w,) = bank.write_ports
    assert [(d.extent, d.step) for d in w.domain] == [(8, 2), (8, 2)]
    assert bank.kind == "addressed" and bank.words == 8 and (buf.words, buf.min_words) == (1 + 8 + 1, 9)
