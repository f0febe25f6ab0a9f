"""Addressed banks of at most `CGRA.register_bank_words` words (default 4) are register banks, not memory tiles
(memories/mapping.py `small_banks_in_registers`, verilog `ms_reg_bank`): bilinear_up's 2-word `wide` (1 tile
less), a hand-scheduled 3-tap upsample whose banks by residue hold 3 and 4 words (2 tiles -> 0), and the same
with a bound of 3, where the 4-word bank stays on its tile. The ports and timing are the addressed bank's, so the
cycles are unchanged and the checker proves the plan as before. Bit for bit on both simulators; lint-clean."""

import dataclasses

import pytest
from compile_once import compiled, together
from newcomer_algorithms import bilinear_up, resampled_funcs_buffered

import mainspring as hl
from mainspring.apps.common import accelerate, random_image
from mainspring.memories import MemoryCheckError
from mainspring.memories.checker import check_plan

from conftest import SIMULATORS, assert_lint_clean_and_latch_free


def _bilinear_up(width, height):
    out, _, _ = bilinear_up(hl, width, height)
    with resampled_funcs_buffered():  # ux buffered, as its 2-word `wide` bank needs
        hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    return out, None


def _three_taps(width, height):
    """An upsample in x reading three input pixels per output pixel: banks by residue of 3 and 4 words."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    up[x, y] = hw_input[x / 2, y] + hw_input[x / 2 + 1, y] * 2 + hw_input[x / 2 + 2, y] * 3
    hw_output[x, y] = up[x, y] + 1
    accelerate(hw_output, hw_output, width, height, [up], hw_input)
    return hw_output, {"input": random_image(width // 2 + 2, height, seed=11)}


def _banks(design) -> list:
    return [bank for b in design.plan.buffers for bank in b.banks]


def _check_register_banks(design) -> None:
    """Every register bank is an addressed bank on no tile, rendered as `ms_reg_bank`; the report counts its words
    and output registers as registers."""
    regs = [k for k in _banks(design) if k.in_registers]
    assert regs
    for k in regs:
        assert k.kind == "addressed" and k.tiles == 0 and k.words <= design.plan.target.register_bank_words
    assert design.verilog.count("ms_reg_bank #(") == len(regs)
    assert design.verilog.count("ms_mem_tile #(") == len(_banks(design)) - len(regs)
    extra = sum(k.words + len(k.tile_read_ports) for k in regs)
    assert design.report["registers"] == sum(len(b.registers) for b in design.plan.buffers) + extra
    check_plan(design.program.nest, design.plan)


@together("register_bank_words_bilinear")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_bilinear_up_keeps_its_pixel_pair_in_registers(simulator, build_dir):
    design, _ = compiled("register_bank_words_bilinear", _bilinear_up, 16, 8)
    _check_register_banks(design)
    (wide,) = design.plan.buffer("wide").banks
    assert wide.in_registers and wide.words == 2
    assert design.report["mem_tiles"] == 1  # ux's 32-word bank; wide's took a tile of its own before
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@together("register_bank_words_bilinear")
def test_bilinear_up_on_tiles_only_with_register_banks_off():
    design, _ = compiled("register_bank_words_bilinear", _bilinear_up, 16, 8)
    out, _ = _bilinear_up(16, 8)
    tiles = hl.compile(out, name="bilinear_tiles", target=hl.CGRA(register_bank_words=0))
    assert not any(k.in_registers for k in _banks(tiles))
    assert tiles.report["mem_tiles"] == design.report["mem_tiles"] + 1
    assert tiles.report["predicted_cycles"] == design.report["predicted_cycles"]
    assert [b["words"] for b in tiles.report["buffers"]] == [b["words"] for b in design.report["buffers"]]


@together("register_bank_words_three_taps")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_banks_by_residue_of_three_and_four_words_are_registers(simulator, build_dir):
    design, inputs = compiled("register_bank_words_three_taps", _three_taps, 16, 4)
    _check_register_banks(design)
    assert sorted(k.words for k in _banks(design)) == [3, 4]
    assert all(k.in_registers for k in _banks(design))
    assert any(p.shares for k in _banks(design) for p in k.read_ports)  # read ports sharing an output register
    assert design.report["mem_tiles"] == 0
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@together("register_bank_words_three_taps")
def test_register_banks_are_lint_clean(tmp_path):
    design, _ = compiled("register_bank_words_three_taps", _three_taps, 16, 4)
    assert_lint_clean_and_latch_free(design, tmp_path)


@together("register_bank_words_three_taps")
def test_a_register_bank_on_a_tile_is_caught():
    design, _ = compiled("register_bank_words_three_taps", _three_taps, 16, 4)
    buf = design.plan.buffer("hw_input")
    bad = dataclasses.replace(buf, banks=(dataclasses.replace(buf.banks[0], tiles=1),) + buf.banks[1:])
    plan = dataclasses.replace(design.plan, buffers=tuple(bad if b is buf else b for b in design.plan.buffers))
    with pytest.raises(MemoryCheckError, match=rf"register bank {buf.banks[0].name} must be an addressed bank"):
        check_plan(design.program.nest, plan)


@together("register_bank_words_bound")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_bank_over_the_bound_stays_on_its_tile(simulator, build_dir):
    design, inputs = compiled("register_bank_words_bound", _three_taps, 16, 4, target=hl.CGRA(register_bank_words=3))
    by_words = {k.words: k for k in _banks(design)}
    assert by_words[3].in_registers and by_words[3].tiles == 0
    assert not by_words[4].in_registers and by_words[4].tiles == 1
    assert design.report["mem_tiles"] == 1
    _check_register_banks(design)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
