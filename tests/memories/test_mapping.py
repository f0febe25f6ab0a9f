"""memories.mapping: taps, register chains, delay-line and addressed banks, port controllers."""

import pytest

from mainspring import CGRA
from mainspring.frontend.types import UInt
from mainspring.hwlower.ir import Buffer, LoopNest
from mainspring.memories import analyze
from mainspring.memories.mapping import map_buffer
from mainspring.memories.polyhedral import build_program, default_latency
from mainspring.memories.schedule import schedule

import memories_nests as N

NESTS = [N.brighten, N.gaussian, N.cascade, N.unrolled_box, N.sequential_reduction, N.spaced_taps, N.late_read]


def test_the_64x64_window_is_two_delay_lines_in_one_tile_between_register_pairs():
    buf = analyze(N.gaussian()).buffer("hw_input")
    (w,) = buf.write_ports
    assert (w.controller.extent, w.controller.cycle_stride, w.controller.cycle_starting_addr) == ((64, 64), (1, 64), 0)
    assert [r.delay for r in buf.registers] == [1, 2, 65, 66, 129, 130] and all(r.gated for r in buf.registers)
    (bank,) = buf.banks
    assert bank.kind == "delay_line" and bank.gated and bank.words == 2 * 61 and bank.tiles == 1
    # Each line is fed by a register pair's end and read 62 writes later: 61 SRAM words plus its output register.
    assert [(p.source, p.delay, p.region) for p in bank.write_ports] == [
        ("hw_input.w0.reg2", 2, (0, 61)), ("hw_input.w0.reg66", 66, (61, 61))]
    assert [(p.delay, p.region) for p in bank.read_ports] == [(64, (0, 61)), (128, (61, 61))]
    # Writes in the stream's cycles; each read loads, in the cycle after a write, the value the next one needs.
    assert all(p.controller.cycle_starting_addr == 0 for p in bank.write_ports)
    assert all(p.controller.cycle_starting_addr == 1 for p in bank.read_ports)
    assert all(p.controller.extent == (64, 64) and p.controller.cycle_stride == (1, 64)
               for p in bank.write_ports + bank.read_ports)
    assert [p.controller.data_starting_addr for p in bank.write_ports] == [-2 % 61, -66 % 61]
    assert [p.controller.data_starting_addr for p in bank.read_ports] == [(1 - 64) % 61, (1 - 128) % 61]
    assert buf.level == "mem_tile" and buf.words == buf.min_words == 2 * 64 + 3


def test_each_tap_delivers_the_window_offset():
    buf = analyze(N.gaussian()).buffer("hw_input")
    elements = {w.name: 0 for w in buf.write_ports} | {r.name: r.delay for r in buf.registers}
    elements |= {p.name: p.delay for b in buf.banks for p in b.read_ports}
    for r in buf.read_ports:
        k = int(r.load.rsplit("_", 1)[1])
        j, i = divmod(k, 3)  # load k reads hw_input(x + i, y + j)
        assert r.delay == 130 - (64 * j + i) and elements[r.tap] == r.delay
        assert r.controller.data_starting_addr == 64 * j + i and r.controller.data_stride == (1, 64)


def test_a_1920_wide_window_takes_one_tile_per_line():
    buf = analyze(N.gaussian(1920, 1080)).buffer("hw_input")
    first, second = buf.banks
    assert (first.words, second.words) == (1917, 1917)
    assert [p.delay for p in first.read_ports] == [1920] and [p.delay for p in second.read_ports] == [3840]
    assert first.write_ports[0].source == "hw_input.w0.reg2" and second.write_ports[0].source == "hw_input.w0.reg1922"
    assert buf.words == buf.min_words == 2 * 1920 + 3


def test_rows_with_gaps_store_only_their_real_pixels():
    buf = analyze(N.cascade()).buffer("blur1")  # 62 pixels in each 64-cycle row
    assert sorted({(r.delay, r.steps) for r in buf.read_ports}) == [
        (0, 0), (1, 1), (2, 2), (64, 62), (65, 63), (66, 64), (128, 124), (129, 125), (130, 126)]
    (bank,) = buf.banks
    assert bank.gated and [p.delay for p in bank.read_ports] == [62, 124] and bank.words == 2 * 59
    assert buf.words == buf.min_words == 2 * 62 + 3


def test_reads_in_the_gaps_of_a_stream_count_its_writes_too():
    buf = analyze(N.late_read(full=True)).buffer("a")  # some reads fall in a's row gaps
    (r,) = buf.read_ports
    assert (r.delay, r.steps) == (33, 29) and buf.banks[0].gated
    assert buf.words == buf.min_words == 30


def _tap_chain_mapping(nest: LoopNest, name: str):
    """The buffer's mapping as tap chains, before the search for fewer words (which runs only above the minimum:
    a minimum this large skips it)."""
    target = CGRA()
    prog = build_program(nest, lambda op: default_latency(op, target.pe_latency))
    return map_buffer(prog, schedule(prog, target), target, name, 10**9)


def test_taps_that_no_count_of_writes_describes_count_cycles():
    buf = _tap_chain_mapping(N.late_read(), "a")  # its last rows are read after its last write
    (r,) = buf.read_ports
    (bank,) = buf.banks
    assert (r.delay, r.steps) == (33, None) and not bank.gated
    ports = bank.write_ports + bank.read_ports
    assert [(p.delay, p.controller.cycle_starting_addr) for p in ports] == [(0, 1), (33, 34)]
    assert bank.words == 32 and buf.words == 1 + 32 + 1


def test_a_far_tap_over_few_of_its_stream_values_is_an_addressed_bank_when_that_is_fewer_words():
    # The cycle delay line holds a's values through the gaps of its rows; an addressed bank holds only those
    # read (29 words and its read register: one above the minimum, the value in its read cycle).
    buf = analyze(N.late_read()).buffer("a")
    (r,) = buf.read_ports
    (bank,) = buf.banks
    assert r.delay is None and bank.kind == "addressed" and bank.words == 29
    assert buf.words == 1 + 29 + 1 == buf.min_words + 1


def test_without_a_register_threshold_taps_two_writes_apart_are_delay_lines():
    buf = analyze(N.spaced_taps(step=3), CGRA(register_delay_limit=0)).buffer("hw_input")
    assert not buf.registers
    (bank,) = buf.banks  # two chained lines of 2 words in one tile, the second fed by the first's read port
    assert [(p.source, p.delay, p.region) for p in bank.write_ports] == [
        ("hw_input.w0", 0, (0, 2)), ("hw_input.bank0.r0", 3, (2, 2))]
    assert buf.words == buf.min_words == 7
    # A delay line delivers two writes after its input at the earliest: taps one write apart stay registers.
    plan = analyze(N.gaussian(), CGRA(register_delay_limit=0))
    assert [r.delay for r in plan.buffer("hw_input").registers] == [1, 2, 65, 66, 129, 130]


def test_a_delay_longer_than_a_tile_chains_lines_without_losing_a_word():
    buf = analyze(N.gaussian(), CGRA(mem_tile_words=20)).buffer("hw_input")
    lines = [(p.delay, q.delay, p.region[1]) for b in buf.banks for p, q in zip(b.write_ports, b.read_ports)]
    assert lines == [(2, 23, 20), (23, 44, 20), (44, 64, 19), (66, 87, 20), (87, 108, 20), (108, 128, 19)]
    assert buf.words == buf.min_words


def _lines(buf):
    """(write delay, read delay, SRAM words) of each delay line of a buffer."""
    return [(p.delay, q.delay, p.region[1]) for b in buf.banks for p, q in zip(b.write_ports, b.read_ports)]


def test_a_delay_line_exactly_one_tile_long_fills_one_tile():
    # The 64-wide window's lines hold 61 words each: in 61-word tiles each is one whole tile, not chained.
    buf = analyze(N.gaussian(), CGRA(mem_tile_words=61)).buffer("hw_input")  # analyze checks the plan
    assert _lines(buf) == [(2, 64, 61), (66, 128, 61)]
    assert [b.tiles for b in buf.banks] == [1, 1] and buf.words == buf.min_words


def test_a_delay_line_one_word_longer_than_a_tile_chains_two_real_lines():
    # A full tile and then a register (it was a line of 0 words: ZeroDivisionError; the gaussian app at 2050 x 8
    # with the default tiles failed so).
    target = CGRA(mem_tile_words=60)
    buf = analyze(N.gaussian(), target).buffer("hw_input")
    assert all(1 <= words <= target.mem_tile_words for _, _, words in _lines(buf))
    assert buf.words == buf.min_words


@pytest.mark.parametrize("make", NESTS)
@pytest.mark.parametrize("target", [CGRA(), CGRA(mem_tile_words=100, mem_tile_read_ports=1)])
def test_no_tile_gets_more_ports_or_words_than_it_has(make, target):
    plan = analyze(make(), target)
    for buf in plan.buffers:
        for bank in buf.banks:
            assert len(bank.read_ports) <= target.mem_tile_read_ports
            assert len(bank.write_ports) <= target.mem_tile_write_ports
            assert bank.words <= bank.tiles * target.mem_tile_words
        assert buf.words >= buf.min_words  # storage is counted as live values are: never below the minimum


def test_a_rate_change_goes_through_an_addressed_bank():
    buf = analyze(N.sequential_reduction()).buffer("in_copy")
    (bank,) = buf.banks
    assert bank.kind == "addressed" and buf.words == 1 + bank.words + 1 >= buf.min_words
    (r,) = buf.read_ports
    assert r.delay is None and r.tap == bank.read_ports[0].name
    # sum_s1 reads in_copy(x + r, y): address stride 1 along x and r, 16 along y; firing strides 1, 4, 52.
    assert r.controller.data_stride == (1, 1, 16) and r.controller.cycle_stride == (1, 4, 52)


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
    from mainspring.memories.iteration_boxes import boxes

    dims = (Dim("y", 0, 4), Dim("x", 0, 8))
    got = boxes(isl.Set("{ S[y, x] : 0 <= y < 4 and 0 <= x < 8 and (y > 1 or (y = 1 and x >= 3)) and "
                        "(y < 3 or x <= 5) }"), dims, "test")
    assert [[(d.min, d.extent) for d in b] for b in got] == [[(1, 1), (3, 5)], [(2, 1), (0, 8)], [(3, 1), (0, 6)]]


def test_a_reductions_steps_but_the_first_of_each_plane_are_boxes():
    """A sum per channel's reads of its element, { c, r.y, r.x : -r.y < r.x } over 32 rows (too many to cut row
    by row): its first row less the first step, then the rows after (memories/iteration_boxes._peel)."""
    import islpy as isl

    from mainspring.memories.ir import Dim
    from mainspring.memories.iteration_boxes import boxes

    dims = (Dim("c", 0, 3), Dim("ry", 0, 32), Dim("rx", 0, 64))
    got = boxes(isl.Set("{ S[c, ry, rx] : 0 <= c <= 2 and 0 <= ry <= 31 and rx >= 0 and -ry < rx <= 63 }"), dims,
                "test")
    assert [[(d.min, d.extent) for d in b] for b in got] == [[(0, 3), (0, 1), (1, 63)], [(0, 3), (1, 31), (0, 64)]]


def test_too_many_write_streams_into_one_memory_is_a_mapping_error():
    from mainspring.memories import MemoryMappingError

    with pytest.raises(MemoryMappingError, match=r"buffer 'sum' needs 2 write streams into one addressed memory but "
                                                 r"a memory tile has 1 write ports"):
        analyze(N.sequential_reduction(), CGRA(max_ii=1, mem_tile_write_ports=1), latencies={"sum_s1": 2})
