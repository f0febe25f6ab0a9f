"""memories.mapping: taps, register chains, delay-line and addressed banks, port controllers."""

import pytest

import memories_nests as N
from mainspring.frontend.types import UInt
from mainspring.hwlower.ir import Buffer, LoopNest
from mainspring.memories import Target, analyze

NESTS = [N.brighten, N.gaussian, N.cascade, N.unrolled_box, N.sequential_reduction]


def test_the_64x64_line_buffer_matches_clockwork():
    buf = analyze(N.gaussian()).buffer("hw_input")
    (w,) = buf.write_ports
    assert (w.controller.extent, w.controller.cycle_stride, w.controller.cycle_starting_addr) == ((64, 64), (1, 64), 0)
    (bank,) = buf.banks
    assert bank.kind == "delay_line" and bank.words == 129 and bank.tiles == 1
    assert [p.controller.cycle_starting_addr for p in bank.read_ports] == [64, 128]
    assert all(p.controller.extent == (64, 64) and p.controller.cycle_stride == (1, 64) for p in bank.read_ports)
    assert sorted(r.delay for r in buf.registers) == [1, 2, 65, 66, 129, 130]
    assert buf.level == "mem_tile" and buf.words == 129 + 6 and buf.min_words == 131


def test_each_tap_delivers_the_window_offset():
    buf = analyze(N.gaussian()).buffer("hw_input")
    elements = {w.name: 0 for w in buf.write_ports} | {r.name: r.delay for r in buf.registers}
    elements |= {p.name: p.delay for b in buf.banks for p in b.read_ports}
    for r in buf.read_ports:
        k = int(r.load.rsplit("_", 1)[1])
        j, i = divmod(k, 3)  # load k reads hw_input(x + i, y + j)
        assert r.delay == 130 - (64 * j + i) and elements[r.tap] == r.delay
        assert r.controller.data_starting_addr == 64 * j + i and r.controller.data_stride == (1, 64)


def test_a_1920_wide_window_chains_two_tiles():
    buf = analyze(N.gaussian(1920, 1080)).buffer("hw_input")
    first, second = buf.banks
    assert (first.words, second.words) == (1921, 1921)
    assert [p.delay for p in first.read_ports] == [1920] and [p.delay for p in second.read_ports] == [3840]
    assert second.write_ports[0].source == first.read_ports[0].name and second.write_ports[0].delay == 1920


def test_no_register_threshold_puts_every_tap_in_sram_within_port_limits():
    plan = analyze(N.gaussian(), Target(register_max_delay=0))
    buf = plan.buffer("hw_input")
    assert not buf.registers
    assert sorted(p.delay for b in buf.banks for p in b.read_ports) == [1, 2, 64, 65, 66, 128, 129, 130]


@pytest.mark.parametrize("make", NESTS)
@pytest.mark.parametrize("target", [Target(), Target(mem_tile_words=100, mem_tile_read_ports=1)])
def test_no_tile_gets_more_ports_or_words_than_it_has(make, target):
    plan = analyze(make(), target)
    for buf in plan.buffers:
        for bank in buf.banks:
            assert len(bank.read_ports) <= target.mem_tile_read_ports
            assert len(bank.write_ports) <= target.mem_tile_write_ports
            assert bank.words <= bank.tiles * target.mem_tile_words


def test_a_rate_change_goes_through_an_addressed_bank():
    buf = analyze(N.sequential_reduction()).buffer("in_copy")
    (bank,) = buf.banks
    assert bank.kind == "addressed" and bank.words >= buf.min_words
    (r,) = buf.read_ports
    assert r.delay is None and r.tap == bank.read_ports[0].name
    # sum_s1 reads in_copy(x + r, y): address stride 1 along x and r, 16 along y; firing strides 1, 4, 64.
    assert r.controller.data_stride == (1, 1, 16) and r.controller.cycle_stride == (1, 4, 64)


def test_wide_values_take_parallel_tile_slices():
    nest = N.gaussian()
    bufs = tuple(Buffer(b.name, UInt(32), b.box) if b.name == "hw_input" else b for b in nest.buffers)
    plan = analyze(LoopNest(nest.name, bufs, nest.inputs, nest.output, nest.body))
    assert plan.buffer("hw_input").banks[0].slices == 2


def test_unrolled_lanes_get_one_port_each():
    buf = analyze(N.unrolled_box()).buffer("hw_input")
    lanes = sorted(r.lane for r in buf.read_ports)
    assert lanes == [(j, i) for j in range(3) for i in range(3)]
    assert sorted(r.delay for r in buf.read_ports) == sorted(34 - 16 * j - i for j in range(3) for i in range(3))


def test_lexicographic_intervals_split_into_few_boxes():
    import islpy as isl

    from mainspring.memories.ir import Dim
    from mainspring.memories.mapping import boxes

    dims = (Dim("y", 0, 4), Dim("x", 0, 8))
    got = boxes(isl.Set("{ S[y, x] : 0 <= y < 4 and 0 <= x < 8 and (y > 1 or (y = 1 and x >= 3)) and "
                        "(y < 3 or x <= 5) }"), dims, "test")
    assert [[(d.min, d.extent) for d in b] for b in got] == [[(1, 1), (3, 5)], [(2, 1), (0, 8)], [(3, 1), (0, 6)]]


def test_too_many_write_streams_into_one_memory_is_a_mapping_error():
    from mainspring.memories import MemoryMappingError

    with pytest.raises(MemoryMappingError, match=r"buffer 'sum' needs 2 write streams into one addressed memory but "
                                                 r"a memory tile has 1 write ports"):
        analyze(N.sequential_reduction(), Target(max_ii=1, mem_tile_write_ports=1), latencies={"sum_s1": 2})
