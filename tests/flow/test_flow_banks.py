"""Banks by residue of a coordinate (memories/banks.py, session 11): reads that take rows of different parities
in one cycle are served by a bank per parity, each holding its rows once, through tile read ports shared over
disjoint cycles. Bit-exact on both simulators, with stalls on both sides, and `words` pinned against the exact
count of live values (`min_words`): the banks' SRAM is the minimum, and `words` also counts the stream's write
port and each tile read port's output register. Session 14: reads of a row that take another's words some cycles
later are registers after its bank read port (memories/read_registers.py), alone or with banks by residue.
Session 27: reads of one stream at several ages in chained banks (memories/chained.py). Session 41: a tile read
port takes three controllers (ms_mem_tile's R2 to R5 share its two), so a row of 5 taps a cycle is banked by
column residue modulo 3."""

import dataclasses
import importlib.util
import re
from pathlib import Path

import pytest
from compile_once import compiled, together

import mainspring as hl
from mainspring import apps
from mainspring.apps.common import accelerate, random_image

from conftest import SIMULATORS, assert_lint_clean_and_latch_free


def vertical_upsample_blur(width: int, height: int):
    """A 2x vertical upsample (nearest) followed by a vertical 3-tap blur, the upsample inlined: each output reads
    hw_input at rows y / 2, (y + 1) / 2 and y / 2 + 1, that is yo, yo + yi and yo + 1 on the strip-mined loop."""
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(image[x, y])
    up = hl.Func("up")
    up[x, y] = hw_input[x, y / 2]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = (up[x, y] + 2 * up[x, y + 1] + up[x, y + 2]) / 4
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])
    accelerate(output, hw_output, width, height, [], hw_input)
    return output, {"input": random_image(width, height // 2 + 1, seed=5)}


def _shares(bank) -> list[tuple[str, str]]:
    return [(p.name, p.shares) for p in bank.read_ports if p.shares is not None]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("width", "height"), [(12, 8), (7, 6)])
def test_a_vertical_upsample_then_a_blur_is_banked_by_row_parity(width, height, simulator, build_dir, compile_shared):
    out, inputs = vertical_upsample_blur(width, height)
    design = compile_shared(out, name=f"banks_vertical_upsample_{width}")
    buf = design.plan.buffer("hw_input")
    # Rows yo and yo + 1 have different parities, and yo + yi is one of them: the two loads of row yo + yi split
    # four ways (yo's parity x yi), the others two ways, and each bank of rows of one parity is read through two
    # tile read ports, each shared by two reads of disjoint cycles (rows of one parity, once on even yo, once on
    # odd yo). Before, one bank held two rows for the two reads of yo and yo + yi, another one row.
    assert len(buf.banks) == 2
    for bank in buf.banks:
        (w,) = bank.write_ports
        assert [d.step for d in w.domain] == [2, 1] and bank.words == width  # every second input row, one row
        assert len(bank.tile_read_ports) == 2 and len(_shares(bank)) == 2
    assert buf.min_words == 2 * width and buf.words == buf.min_words + 1 + 4
    res = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=3)
    assert res.output.shape == (height, width)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_up_sample_is_banked_by_row_parity_under_stalls(simulator, build_dir, compile_shared):
    out, inputs = apps.load("h2h_up_sample").build(10, 6)
    design = compile_shared(out, name="h2h_up_sample")
    buf = design.plan.buffer("hw_input")
    assert [len(_shares(b)) for b in buf.banks] == [2, 2]
    assert sum(b.words for b in buf.banks) == buf.min_words
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=11)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@together("banks_camera_parity")
def test_camera_pipelines_red_and_blue_planes_are_banked_by_row_parity(simulator, build_dir):
    mod = apps.load("h2h_camera_pipeline")
    design, inputs = compiled("h2h_camera_pipeline", mod.build, 12, 8, target=apps.target(mod))
    words = {b.name: (b.words, b.min_words) for b in design.plan.buffers}
    # r_r and b_b are read at two rows a cycle (4 reads): a bank per row parity, two tile read ports each, shared.
    # Their SRAM is at most the minimum (which also counts the value on the write port); session 10: r_r 30 and
    # b_b 40 words, in banks holding overlapping rows.
    assert words["r_r"] == (21, 17) and words["b_b"] == (26, 21)
    for name in ("r_r", "b_b"):
        banks = design.plan.buffer(name).banks
        assert len(banks) == 2 and all(len(_shares(b)) == 2 for b in banks)
    # g_gr and g_gb are read at 8 taps a cycle (3 rows): the taps at x - 1 and x of a row are its tap at x + 1
    # two and four cycles later, registers after that tap's bank read port (memories/read_registers.py): 3 reads
    # on 2 tiles (session 13: 75 and 73 words on 4 tiles each, copies of overlapping rows). Banks by parity of
    # the 3 reads would hold 30 words of SRAM for 37 but need a register chain per piece: more words, kept out.
    # Session 27: the banks are chained (memories/chained.py), the oldest row no longer a replica: 51 and 45 before.
    # Session 28: the registers shift only when their root loads a word for the last time (x / 2 on a strip of 2,
    # ir.last_of_runs): a tap 2 or 4 cycles behind is 1 or 2 words behind, 10 registers a plane -> 5 (42 and 40).
    assert words["g_gr"] == (37, 26) and words["g_gb"] == (35, 24)
    for name in ("g_gr", "g_gb"):
        buf = design.plan.buffer(name)
        assert sum(b.tiles for b in buf.banks) == 2 and len(buf.registers) == 5
        assert all(r.gated and r.root in {p.name for b in buf.banks for p in b.read_ports} for r in buf.registers)
        assert all(not _shares(b) for b in buf.banks)
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=3)


def half_plane_stencil(width: int, height: int):
    """A half-resolution plane (both dims) read at x / 2, x / 2 + 1 and x / 2 + 2 over three of its rows, as
    camera_pipeline's demosaic reads its green planes: on the strip-mined x loop, each row's taps at xo and xo + 1
    are its tap at xo + 2 delayed four and two cycles."""
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(image[x, y])
    half = hl.Func("half")
    half[x, y] = hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y + 1]
    taps = [half[x / 2 + dx, y + dy] * (1 + dx + 3 * dy) for dy in range(3) for dx in range(3)]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = sum(taps[1:], taps[0]) / 64
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])
    accelerate(output, hw_output, width, height, [half], hw_input)
    return output, {"input": random_image(width + 6, 2 * height + 6, seed=7)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("width", "height"), [(12, 8), (9, 5)])
def test_a_half_resolution_plane_read_at_three_columns_is_one_read_a_row_and_registers(width, height, simulator,
                                                                                       build_dir, compile_shared):
    out, inputs = half_plane_stencil(width, height)
    design = compile_shared(out, name=f"banks_half_plane_{width}")
    buf = design.plan.buffer("half")
    # Each read takes its value a constant number of half's writes later (9 reads a cycle were 5 banks of copies,
    # then 3 bank read ports with registers after them: 2 tiles, 38 words for 20): write taps on one chain of
    # registers enabled by half's writes, its two row-long gaps delay lines in one tile, the exact minimum.
    assert all(p.delay is None and p.steps is not None for p in buf.read_ports)
    row = (width - 1) // 2 + 3  # half's values a row: x / 2 + dx over the output's width
    assert {p.steps for p in buf.read_ports} == {k + j * row for j in range(3) for k in (1, 2, 3)}
    assert [b.kind for b in buf.banks] == ["delay_line"] and buf.banks[0].tiles == 1 and len(buf.registers) == 7
    assert buf.words == buf.min_words
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=3)


def test_a_bank_of_one_tile_read_port_and_a_read_sharing_it_is_lint_clean(tmp_path):
    # fuzz seed 101725 (tests/flow/fuzz_cases, simulated there): the sharer is ms_mem_tile's R2 (NS = 1), not its
    # second tile read port R1 (NR = 1)
    path = Path(__file__).parent / "fuzz_cases" / "downsample_banked_on_one_tile_read_port.py"
    spec = importlib.util.spec_from_file_location("banks_one_tile_read_port", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    design = hl.compile(mod.build(), name="banks_one_tile_read_port")
    banks = design.plan.buffer("f0").banks
    shapes = [(len(b.tile_read_ports), len(_shares(b))) for b in banks]
    # Since session 24's narrow_32_bit_ops its kernels are a stage shorter, and f0 (the same 9 words) is one bank of
    # 2 tile read ports; before, two banks of one tile read port and a read sharing it. Both must be lint-clean.
    assert shapes in ([(1, 1), (1, 1)], [(2, 0)]), shapes
    assert len(re.findall(r"\.NR\(1\),\s*\.NS\(1\),", design.verilog)) == (2 if shapes[0] == (1, 1) else 0)
    assert_lint_clean_and_latch_free(design, tmp_path)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@together("banks_camera_chained")
def test_chained_banks_hold_each_green_word_once_under_stalls(simulator, build_dir):
    # Session 27 (memories/chained.py): the green planes' 3 row reads (registers after each give the other columns)
    # by age on 64-word tiles. Bank 0 holds the two youngest rows; bank 1, the oldest row, is written from bank 0's
    # row-y read port as it loads each word for the last time, and from the stream for row 0, which that port never
    # loads. Session 14's banks by row residue modulo 3 (3 banks of 32 words, 3 tiles, 133 words) now lose: 2 tiles.
    mod = apps.load("h2h_camera_pipeline")
    target = dataclasses.replace(apps.target(mod), mem_tile_words=64, num_mem_tiles=1024)
    design, inputs = compiled("h2h_camera_pipeline", mod.build, 56, 56, target=target)
    buf = design.plan.buffer("g_gr")
    first, second = buf.banks
    assert [(b.words, b.tiles, len(b.read_ports)) for b in buf.banks] == [(63, 1, 2), (31, 1, 1)]
    (stream,) = buf.write_ports
    feed, edge = second.write_ports
    assert feed.source in {p.name for p in first.read_ports} and feed.op == "demosaicked_s0"
    assert [d.extent for d in feed.domain if d.var.endswith("strip_i")] == [1, 1]  # the last of each word's loads
    assert edge.source == stream.name and (edge.domain[0].min, edge.domain[0].extent) == (0, 1)  # row 0 only
    assert {r.root for r in buf.registers} == {p.name for b in buf.banks for p in b.read_ports}
    # session 28: gated registers (one word a run of x / 2's strip of 2): 2 + 2 + 1, not 4 + 4 + 2 (108 words)
    assert [r.delay for r in buf.registers if r.gated] == [1, 2, 1, 2, 1]
    assert (buf.words, buf.min_words) == (103, 92)
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=3)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_three_channels_read_late_are_addressed_banks_packed_by_write_ports(simulator, build_dir, compile_shared):
    # Session 26: unsharp's hw_output reads each channel of the stream about three rows late, one load lane a
    # channel. Three streams exceed a tile's two write ports, so the third channel stayed a delay line holding
    # the halo columns no late read takes; packed, channels 0 and 1 share one bank and channel 2 has its own.
    out, inputs = apps.load("h2h_unsharp").build(16, 12)
    design = compile_shared(out, name="banks_unsharp_channels")
    buf = design.plan.buffer("hw_input")
    assert [(b.kind, len(b.write_ports), b.tiles) for b in buf.banks] == [("addressed", 2, 1), ("addressed", 1, 1)]
    tile_ports = sum(len(b.tile_read_ports) for b in buf.banks)
    assert sum(b.words for b in buf.banks) + len(buf.write_ports) == buf.min_words
    assert buf.words == buf.min_words + tile_ports
    res = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=7)
    assert res.cycles >= res.predicted_cycles


def box5_taps_of_a_row_a_cycle(width: int, height: int):
    """A 5x5 box sum over an RDom, r.x unrolled: the 5 taps of one row a cycle, r.y serial (5 cycles a pixel)."""
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(image[x, y])
    r = hl.RDom([(0, 5), (0, 5)], "r")
    box = hl.Func("box")
    box[x, y] = hl.u16(0)
    box[x, y] += hw_input[x + r.x, y + r.y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = box[x, y] / 25
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])
    accelerate(output, hw_output, width, height, [box], hw_input)
    box.update().unroll(r.x)
    return output, {"input": random_image(width + 4, height + 4, seed=7)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("width", "height", "banks", "cycles"),
                         [(13, 9, [27, 27, 22], 675), (8, 6, [34, 34, 34], 298)])
def test_five_taps_of_a_row_a_cycle_are_banked_by_column_residue_three_controllers_a_port(
        width, height, banks, cycles, simulator, build_dir, compile_shared):
    out, inputs = box5_taps_of_a_row_a_cycle(width, height)
    design = compile_shared(out, name=f"banks_box5_row_taps_{width}")
    buf = design.plan.buffer("hw_input")
    # Columns x .. x + 4 take each residue modulo 3 once or twice: a bank per residue, each read cut in 3 along x
    # (every third column), 5 pieces a bank on its 2 tile read ports, 3 on one (ms_mem_tile's R0, R2 and R3).
    # Before session 41 (2 controllers a tile read port) 3 banks each held the 5 live rows over 2, 2 and 1 of the
    # taps' columns: 13 x 9, 182 words (62, 60, 54) for a minimum of 76; 8 x 6, 221 (75, 75, 65) for 102.
    assert [b.words for b in buf.banks] == banks and [len(b.tile_read_ports) for b in buf.banks] == [2, 2, 2]
    assert [sorted(p.shares or "" for p in b.read_ports).count(b.read_ports[0].name) for b in buf.banks] == [2, 2, 2]
    # the SRAM is the minimum but for a word a bank; then the tile read ports' output registers, the write port
    assert buf.words == sum(banks) + 6 + 1 == buf.min_words + 7
    assert design.report["mem_tiles"] == 3 and design.report["predicted_cycles"] == cycles
    assert len(re.findall(r"\.NR\(2\),\s*\.NS\(3\),", design.verilog)) == 3
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=5)
