"""Partially unrolled reductions (hwlower/trees.py): an update accumulating over an RVar the schedule unrolls
while other RVars stay serial computes the unrolled iterations as one adder (or min / max) tree per firing.
resnet_layer_gen's channel-weight-stationary schedule is the reference system's case; memory banks then hold
only the input channels their reads touch. Bit-exact on both simulators."""

import functools

import pytest
from compile_once import GENERATOR_SIZE, at_generator_size, together

import mainspring as hl
from mainspring.apps.common import accelerate, random_image

SIMULATORS = ("icarus", "verilator")


def _window(op: str, w: int = 10, h: int = 6):
    """A 3x3 window reduced along r.y serially, with r.x unrolled into a tree: `op` is "add" or "max"."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, acc = hl.Func("hw_input"), hl.Func("acc")
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    hw_input[x, y] = hl.u16(inp[x, y])
    acc[x, y] = hl.u16(0)
    tap = hw_input[x + r.x, y + r.y] * hl.u16(r.x + 1)
    if op == "add":
        acc[x, y] += tap
    else:
        acc[x, y] = hl.max(acc[x, y], tap)
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = acc[x, y]
    output[x, y] = hl.u8(hw_output[x, y])
    acc.update().unroll(r.x)
    accelerate(output, hw_output, w, h, [acc], hw_input)
    return output, {"input": random_image(w + 2, h + 2, seed=43)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("op", ["add", "max"])
def test_an_unrolled_rvar_with_a_serial_one_is_a_tree(op, simulator, build_dir, compile_shared):
    out, inputs = _window(op)
    design = compile_shared(out, name=f"tree_{op}")
    from mainspring.hwlower import format_program

    assert "r$x" not in format_program(design.program)  # the unrolled taps became one expression: no loop left over r.x
    (update,) = [o for _, o in design.program.nest.ops() if o.name == "acc_s1"]
    assert len([p for p in update.loads if p.access.buffer == "hw_input"]) == 3
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_an_update_that_is_not_an_accumulation_keeps_its_lanes_apart():
    # f = 3 * f + e is not associative over the unrolled r.x: the lanes read each other's result, as before.
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, acc = hl.Func("hw_input"), hl.Func("acc")
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    hw_input[x, y] = hl.u16(inp[x, y])
    acc[x, y] = hl.u16(0)
    acc[x, y] = acc[x, y] * 3 + hw_input[x + r.x, y + r.y]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = acc[x, y]
    output[x, y] = hl.u8(hw_output[x, y])
    acc.update().unroll(r.x)
    accelerate(output, hw_output, 8, 4, [acc], hw_input)
    with pytest.raises(hl.HalideError, match="makes lanes that depend on each other"):
        hl.compile(output, name="not_a_tree")


@functools.lru_cache(maxsize=1)  # the small one, shared by its two simulators (one xdist group)
def _resnet(size: int):
    from mainspring.apps import h2h_resnet_layer_gen as resnet

    out, inputs = resnet.build(size, size)
    return hl.compile(out, name="h2h_resnet_layer_gen"), inputs


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.xdist_group("trees_resnet_small")
def test_resnet_weight_stationary_small(simulator, build_dir):
    design, inputs = _resnet(6)
    rep = design.report
    words = {b["name"]: (b["words"], b["min_words"]) for b in rep["buffers"]}
    # The image is stored once, banked by input channel (8 reads of different channels, each read by all three
    # output-channel lanes through one port), and the weights once: a few port registers over the minimum.
    for name in ("hw_input", "hw_kernel"):
        assert words[name][0] <= words[name][1] * 1.12, words
    # conv's finished sums of lanes 1 and 2, which hw_output reads 3 and 6 cycles after the last step: each in a
    # register bank of one word written on that step only and read without an output register
    # (memories/short_taps.py, BankPort.direct): the minimum, 2 registers (5 before: a 3-register chain, and a bank
    # of one word with its output register).
    assert words["conv"] == (5, 5) and rep["registers"] == 2
    conv = design.plan.buffer("conv")
    assert not conv.registers and all(p.direct for k in conv.banks for p in k.read_ports)
    # The 9 sweeps and the output run at a firing per cycle; the first sweep waits for the image, which arrives
    # at one word (one channel of a pixel) per cycle.
    assert rep["predicted_cycles"] <= 1.5 * rep["ideal_cycles"], (rep["predicted_cycles"], rep["ideal_cycles"])
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.slow
@together(GENERATOR_SIZE)
def test_resnet_at_its_generator_size(build_dir):
    design, inputs = at_generator_size("h2h_resnet_layer_gen")  # 28x28, shared with test_flow_order and _outputs
    res = design.check(inputs, simulator="verilator", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    assert design.report["pes"] <= 225  # the reference system's mapped design: 225 PEs, 71 memory tiles
    assert design.report["mem_tiles"] <= 71
