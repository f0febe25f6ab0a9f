"""Autorate17 (session 33): consumers that read a producer's lanes in turn (hwlower/lane_steps.py) and lanes that
divide the greatest of a chain of divisors (hwlower/strip_mine.py), held to the figures measured in session 33. The
designs are checked bit-exact on both simulators by test_probes.py (autorate17h_programs.py, hand schedules) and
test_autoprobes.py (autorate17_programs.py, the autoscheduler's)."""

import autorate17_programs as auto
import autorate17h_programs as hand
import pytest

import mainspring as hl

# case -> (predicted cycles, buffer words, their minimum, memory tiles, the loop split to read lanes in turn)
HAND = {
    "up_every_func_two_lanes": (68, 35, 28, 1, "f.s0.x.lane"),  # 44, 38, 3 before the stream was paced (rows21)
    "up_f_one_lane_over_a_two_lane_stream": (68, 35, 28, 1, "f.s0.x.lane"),  # likewise
    "one_lane_between_two_lane_stages": (75, 51, 45, 3, "mid.s0.x.lane"),
    "serial_taps_across_a_stream": (130, 69, 62, 2, "acc.s1.r$x.lane"),  # 64 before quality22: constant wires uncounted
    "box3_of_a_two_lane_scale": (185, 44, 43, 1, "f.s0.x.lane"),
}


@pytest.mark.parametrize("case", list(HAND))
def test_a_consumer_reads_its_producers_lanes_in_turn_near_the_minimum(case):
    """Each refused until session 33 ("the producer's lanes must divide what the consumer reads per cycle"). The
    brief's case, up_every_func_two_lanes, compiled only with a GLB level (84 cycles for 64, its f narrowed to one
    lane over a one-lane GLB copy); without one now 68 (f at one lane reads the input's two lanes in turn)."""
    cycles, words, least, tiles, split = HAND[case]
    design = hl.compile(hand.CASES[case](hl)[0], name=f"autorate17h_{case}", prove=False)
    rep = design.report
    got = sum(b["words"] for b in rep["buffers"]), sum(b["min_words"] for b in rep["buffers"])
    assert rep["predicted_cycles"] <= cycles and got[0] <= words and rep["mem_tiles"] <= tiles, (rep, got)
    assert got[1] == least
    assert split in [lp.var for loops, _ in design.program.nest.ops() for lp in loops]


def test_four_lanes_over_x_over_2_and_x_over_4_are_reached():
    """The pyramid (d2 at x / 4, d1 at x / 2) at 4 lanes: 4 lanes as many as the greatest divisor split only
    themselves by 2 (it fell to 2 lanes, 183 cycles for 94)."""
    algorithm, size, keys, bounds = auto.AUTO["pyramid_32x8_l4"]
    out = algorithm(hl, *size)[0]
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys))
    assert (result.lanes, result.note) == (4, "")
    assert 'funcs["up"].unroll(xi, 4' in result.schedule_source
    rep = hl.compile(out, name="autorate17_pyramid", prove=False).report
    assert rep["predicted_cycles"] <= bounds["cycles"] and rep["ideal_cycles"] == 64, rep


def test_lanes_a_chain_reads_unevenly_are_still_refused():
    """3 lanes over x / 2 and x / 8 take a quotient that moves unevenly: the autoscheduler comes down to 2."""
    algorithm = auto.band_pass
    out = algorithm(hl, 24, 16)[0]
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": "3"}))
    assert result.lanes < 3 and "3 pixels per cycle" in result.note, result.note
