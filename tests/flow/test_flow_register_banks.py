"""Addressed reads a constant number of their root's writes after their value (a bank of one word: each value read
before the next arrives) are write taps on a register the root's writes enable, not a memory tile
(memories/mapping.py `_addressed_as_write_taps`): colour_matrix's three channel planes, each pixel's channels
read over three cycles (3 memory tiles for 9 words before), and an upsample in x reading each input pixel in two
cycles (1 tile for 3 words before). Bit for bit on both simulators; the checker proves the write taps' steps."""

import dataclasses

import pytest
from compile_once import compiled, together
from newcomer_algorithms import colour_matrix

import mainspring as hl
from mainspring.apps.common import accelerate, random_image
from mainspring.memories import MemoryCheckError
from mainspring.memories.checker import check_plan

from conftest import SIMULATORS


def _colour_matrix(width, height):
    # its planes serial, each pixel's channels over three cycles: the schedule the budget's cut gave at max_pes 24
    # (unbudgeted, the output takes a pixel's 3 planes a cycle, autoschedule_planes.py `_apart_from_reads`, each
    # lane with its row's coefficients: 18 PEs, fewer than these 24)
    out, _, image = colour_matrix(hl, width, height)
    x, y, c, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "c", "xo", "yo", "xi", "yi"))
    out.bound(x, 0, width).bound(y, 0, height).bound(c, 0, 3)
    out.compute_root().tile(x, y, xo, yo, xi, yi, width, height).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
    stream = image.in_()
    stream.compute_root().stream_to_accelerator()
    stream.reorder(hl.Var("_2"), hl.Var("_0"), hl.Var("_1")).unroll(hl.Var("_2"))
    return out, None


def _up_x(width, height):
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    up[x, y] = hw_input[x / 2, y] * 3
    hw_output[x, y] = up[x, y] + 1
    accelerate(hw_output, hw_output, width, height, [up], hw_input)
    return hw_output, {"input": random_image(width // 2, height, seed=7)}


def _write_taps(design) -> list:
    """The read ports that are write taps at no constant delay, with the register each reads."""
    out = []
    for b in design.plan.buffers:
        regs = {r.name: r for r in b.registers}
        out += [(p, regs.get(p.tap)) for p in b.read_ports if p.delay is None and p.steps is not None]
    return out


def _assert_registers_not_tiles(design) -> None:
    taps = _write_taps(design)
    assert taps
    for p, reg in taps:  # a register after the write port, enabled by its writes: the value one write back
        assert reg is not None and reg.gated and reg.source == p.source and p.steps == reg.delay == 1, (p, reg)
    assert design.report["mem_tiles"] == 0
    assert not [bank for b in design.plan.buffers for bank in b.banks]
    assert [b["words"] for b in design.report["buffers"]] == [b["min_words"] for b in design.report["buffers"]]


@together("register_banks_colour_matrix")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_colour_matrix_channel_planes_are_registers_not_tiles(simulator, build_dir):
    design, _ = compiled("register_banks_colour_matrix", _colour_matrix, 32, 8)
    _assert_registers_not_tiles(design)
    assert design.report["registers"] == 3  # one per channel plane, where 3 memory tiles were
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@together("register_banks_up_x")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_upsample_in_x_reads_its_input_from_a_register(simulator, build_dir):
    design, inputs = compiled("register_banks_up_x", _up_x, 16, 4)
    _assert_registers_not_tiles(design)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@together("register_banks_up_x")
def test_a_write_tap_at_the_wrong_steps_is_caught():
    design, _ = compiled("register_banks_up_x", _up_x, 16, 4)
    (p, _), = _write_taps(design)
    buf = design.plan.buffer(p.buffer)
    bad = dataclasses.replace(buf, read_ports=tuple(dataclasses.replace(q, steps=2) if q is p else q
                                                     for q in buf.read_ports))
    plan = dataclasses.replace(design.plan, buffers=tuple(bad if b is buf else b for b in design.plan.buffers))
    with pytest.raises(MemoryCheckError, match=rf"read port {p.name} "):
        check_plan(design.program.nest, plan)
