"""memories with lanes: a host stream of k words per cycle, banked by lane (passes: schedule, mapping, checker)."""

import math

import pytest

from mainspring import CGRA
from mainspring.memories import analyze, check_plan, to_json

import memories_nests as N


@pytest.mark.parametrize("lanes", [1, 2, 4])
def test_a_k_lane_window_is_banked_by_lane_within_the_tile_ports(lanes):
    nest = N.gaussian_lanes(60, 16, lanes)
    iw = -(-62 // lanes) * lanes  # the input row, rounded up to whole transfers
    target = CGRA()
    plan = analyze(nest, target)  # the isl checker runs inside
    host = plan.op("host.hw_input")
    assert [d.extent for d in host.lanes] == ([lanes] if lanes > 1 else []) and host.rates == (iw // lanes, 1)
    buf = plan.buffer("hw_input")
    assert sorted(w.lane for w in buf.write_ports) == ([(k,) for k in range(lanes)] if lanes > 1 else [()])
    for bank in buf.banks:
        assert len(bank.write_ports) <= target.mem_tile_write_ports
        assert len(bank.read_ports) <= target.mem_tile_read_ports
        assert len({p.lane for p in bank.write_ports + bank.read_ports}) == 1  # one lane's traffic per tile
        assert bank.words <= bank.tiles * target.mem_tile_words
    # One chain per lane: two row lines of iw / k words less the registers around them, in one tile per lane.
    assert len(buf.banks) == lanes and all(b.kind == "delay_line" for b in buf.banks)
    assert all(b.words <= 2 * iw // lanes for b in buf.banks)
    # Exact storage, except that the lines also carry the padding words of the two rows they hold (never read).
    assert buf.words - buf.min_words == 2 * (iw - 62)
    # The stream sets the pace: a transfer per cycle, plus the pipeline's fill.
    ideal = math.ceil(plan.input_words / lanes)
    assert ideal == iw * 18 // lanes and 0 <= plan.cycles - ideal <= 4


def test_lanes_of_an_op_fire_together_and_each_reads_its_own_taps():
    plan = analyze(N.gaussian_lanes(60, 16, 4))
    ops = to_json(plan)["schedule"]["ops"]
    assert ops["host.hw_input"]["lanes"] == [{"var": "hw_input.d0.lane", "min": 0, "extent": 4}]
    assert ops["blur_unnormalized_s0"]["lanes"] == [{"var": "u.xi", "min": 0, "extent": 4}]
    buf = plan.buffer("hw_input")
    # Lane l's tap i reads x = 4 * u.x + l + i: written by host lane (l + i) mod 4, one transfer later past 3.
    for r in buf.read_ports:
        (lane,), k = r.lane, int(r.load.rsplit("_", 1)[1])
        i = k % 3
        assert r.source == f"hw_input.w{(lane + i) % 4}"
    out = plan.buffer("hw_output")
    assert len(out.output_ports) == 4


def test_the_checker_catches_a_lane_reading_another_lanes_tap():
    import dataclasses

    from mainspring.memories import MemoryCheckError

    nest = N.gaussian_lanes(60, 16, 2)
    plan = analyze(nest)
    buf = plan.buffer("hw_input")
    ports = list(buf.read_ports)
    wrong = next(k for k, r in enumerate(ports) if r.source == "hw_input.w0" and r.delay is not None)
    other = next(r for r in ports if r.source == "hw_input.w1" and r.delay == ports[wrong].delay)
    ports[wrong] = dataclasses.replace(ports[wrong], tap=other.tap, source=other.source)
    bad = dataclasses.replace(plan, buffers=tuple(dataclasses.replace(b, read_ports=tuple(ports))
                                                  if b.name == "hw_input" else b for b in plan.buffers))
    with pytest.raises(MemoryCheckError):
        check_plan(nest, bad)
