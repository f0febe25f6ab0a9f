"""The reference system's applications with their own schedules (apps/h2h_*), and the schedule features they
need: compute_at through inlined Funcs (Halide's legality), constant Funcs wherever they are scheduled, tiles
larger than their region. Bit-exact on both simulators."""

import inspect
import os

import numpy as np
import pytest
from compile_once import compiled, grouped

import mainspring as hl
from mainspring import apps
from mainspring.apps.common import accelerate, random_image
from mainspring.memories.ir import Steady

SIMULATORS = ("icarus", "verilator")


# Apps whose buffers are above the polyhedral minimum, and why (BENCHMARKS.md lists the figures).
ABOVE_MINIMUM = {
    # hw_input's three channels and reciprocal are addressed banks whose SRAM is the minimum (session 26: the third
    # channel was a delay line carrying the halo columns hw_output does not read); `words` also counts each tile
    # read port's output register.
    "h2h_unsharp": {"hw_input", "reciprocal", "gray"},
    # gray: the 7x7 weights' corners are 0, so blur does not read them (hwlower/simplify.py) and row y - 3's outer
    # columns die a row early, which delay lines cannot free: 389 words for 388 at 58x58 (391 for 391 with them).
    # The half-resolution Bayer planes run in the full-resolution loops' steps (strip-mined like every Func along
    # a divided dimension), so each plane row waits about a frame's half for the demosaic to read it.
    "h2h_camera_pipeline": {"hw_input", "g_gr", "g_gb", "r_r", "b_b"},
    # Four reads of hw_input (columns x / 2 and x / 2 -+ 1 of rows y / 2 and y / 2 -+ 1) from two banks by row parity
    # (memories/banks.py): their SRAM is the minimum; `words` also counts the stream's write port and the four
    # tile read ports' output registers.
    "h2h_up_sample": {"hw_input"},
    # Each of the 16 bins is a lane's accumulator register; `words` also counts each lane's write wire and the
    # registers by which hw_output reads the bins one after another, while the minimum counts 16 live values.
    "h2h_histogram": {"histogram"},
}


def _checked(design, inputs, simulator, build_dir, minimal=True):
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    above = ABOVE_MINIMUM.get(design.name, set())
    for b in design.report["buffers"]:
        assert b["words"] == b["min_words"] or not minimal or b["name"] in above, b
    return res


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("name", grouped("h2h_generator_size", apps.REFERENCE))
def test_reference_app_at_its_generator_size(name, simulator, build_dir):
    mod = apps.load(name)
    design, inputs = compiled(mod.NAME, mod.build, *mod.DEFAULT_SIZE, target=apps.target(mod))
    res = _checked(design, inputs, simulator, build_dir)
    if design.program.glb is None:  # one pixel per cycle, behind the pipeline's depth
        assert res.cycles - design.report["ideal_cycles"] <= design.report["first_output_cycle"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_cascade_with_line_buffers(simulator, build_dir, compile_shared):
    from mainspring.apps import h2h_cascade

    out, inputs = h2h_cascade.build(20, 12, schedule=1)
    design = compile_shared(out, name="h2h_cascade_s1")
    assert [b["name"] for b in design.report["buffers"] if b["level"] == "mem_tile"] == ["hw_input", "conv1_shift"]
    _checked(design, inputs, simulator, build_dir)


def test_down_sample_keeps_pace_with_its_input():
    # A 2x2 max pool at stride 2 steps x every 2 cycles and y every 2 input rows (memories.op_pacing.keep_pace):
    # it starts one input row after the stream, storing one row, not half a frame (4167 words before).
    out, _ = apps.load("h2h_down_sample").build(32, 32)
    design = hl.compile(out, name="h2h_down_sample")
    (buf,) = [b for b in design.report["buffers"] if b["name"] == "hw_input"]
    assert buf["words"] == buf["min_words"] == 64 + 2
    # The max of four is two levels of max: two pipeline stages, one cycle more than a single stage.
    assert design.report["first_output_cycle"] == 66 + 1 and design.report["mem_tiles"] == 1
    assert design.report["predicted_cycles"] == design.report["ideal_cycles"] + 1 + 1


@pytest.mark.parametrize(("width", "height"), [(124, 124), (20, 14)])
def test_up_sample_paces_its_input_to_the_output(width, height):
    # Each output reads hw_input at x / 2 - 1 + 2 * (x % 2), which is xo - 1 + 2 * xi on the strip-mined loop
    # x = 2 * xo + xi: a low-resolution stream (one word per step of xo), not a full-resolution one that the
    # inner loop moves along. It is paced at one word per two cycles and one row per two output rows
    # (memories.schedule._paced); at full rate it stored 33 of the 64 input rows at 124x124 (4167 words, 2081 the
    # minimum). Its rows, two words wider than the output's steps, run into the next row's time: output rows
    # stay 124 cycles long.
    out, _ = apps.load("h2h_up_sample").build(width, height)
    design = hl.compile(out, name="h2h_up_sample")
    row = width // 2 + 2  # input words per row
    # Its first two rows (-1 and 0) come at one word a cycle, the rest paced (memories/stream_prologue.py), which
    # stores no more: the prologue's rows are read by the first output rows as the paced rows arrive.
    stream = design.plan.op("host.hw_input")
    assert (stream.rates, stream.then) == ((row, 1), Steady(2, 2 * row, (2 * width, 2)))
    assert design.plan.op("hw_output_s0").rates == (2 * width, width, 2, 1)
    rep = design.report
    (buf,) = [b for b in rep["buffers"] if b["name"] == "hw_input"]
    # Two banks by row parity, each of one input row's words (the rows y / 2 and y / 2 -+ 1 read in a cycle have
    # different parities), read through two tile read ports each: the SRAM is the minimum, plus the stream's
    # write port and four output registers (three rows of SRAM and 7 words when a bank held the outer rows).
    assert buf["min_words"] == 2 * row and buf["words"] == 2 * row + 5
    banks = design.plan.buffer("hw_input").banks
    assert [(b.words, len(b.tile_read_ports), len(b.read_ports)) for b in banks] == [(row, 2, 4)] * 2
    # An odd output row also reads the input row after its own (y / 2 + 1): paced throughout, the first output
    # waited for three input rows, three output rows' time (3 * width + 10: 15,758 cycles at 124 x 124). With the
    # first two rows at one word a cycle it waits for input (0, 0), the stream's (row + 2)th word (from -1),
    # the least any stream of one word a cycle allows, and the blend's pipeline (+6): 15,448 for 15,376.
    assert rep["first_output_cycle"] == row + 2 + 6 == width // 2 + 10
    assert rep["predicted_cycles"] == rep["ideal_cycles"] + rep["first_output_cycle"] == (
        height * width + width // 2 + 10)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("width", "height"), [(20, 14), (8, 6)])
def test_up_sample_at_small_sizes(width, height, simulator, build_dir, compile_shared):
    out, inputs = apps.load("h2h_up_sample").build(width, height)
    design = compile_shared(out, name="h2h_up_sample")
    res = _checked(design, inputs, simulator, build_dir)
    assert res.cycles - design.report["ideal_cycles"] <= design.report["first_output_cycle"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_unsharp_reads_no_zero_weight_tap(simulator, build_dir, compile_shared):
    # The four corners of the 7x7 weights are 0: an integer product with 0 is 0, as Halide's simplifier makes it,
    # so blur reads 45 taps, rows y + 3 and y - 3 are 5 wide (4 registers each, not 6) and blur fires a cycle
    # earlier (its newest tap, (x + 2, y + 3), is the stream's word before (x + 3, y + 3)). Registers: 4 + 5 * 6 + 4
    # for the window's rows (46 with the corners). The 4 cycles by which sharpen reads gray(x, y) the blur's 7
    # cycles later are a delay line of 3 words on the second port pair of another buffer's tile
    # (memories/shared_tiles.py; 4 registers before), as gray's 6 row gaps take its 3 tiles' 6 lines.
    out, inputs = apps.load("h2h_unsharp").build(10, 10)
    design = compile_shared(out, name="h2h_unsharp")
    (blur,) = [op for _, op in design.program.nest.ops() if op.name == "blur_unnormalized_s0"]
    assert sum(p.access.buffer == "gray" for p in blur.loads) == 45
    assert design.report["registers"] == 4 + 5 * 6 + 4
    (guest,) = [k for b in design.plan.buffers for k in b.banks if k.host is not None]
    assert guest.name.startswith("gray.") and guest.kind == "delay_line" and guest.words == 3
    _checked(design, inputs, simulator, build_dir)


def test_harris_resources_against_the_reference_mapping():
    # The reference system's mapped harris: 288 PEs, 11 memory tiles, 61 registers (../shared/CLOCKWORK.md).
    out, _ = apps.load("h2h_harris").build(58, 58)
    rep = hl.compile(out, name="h2h_harris").report
    assert rep["pes"] + rep["const_words"] <= 288 and rep["mem_tiles"] <= 11 and rep["registers"] <= 61


def test_unsharp_and_resnet_registers_against_the_reference_mapping():
    # The reference's mapped unsharp: 256 PEs, 13 memory tiles, 41 registers; resnet_layer_gen: 225, 71, 1
    # (../shared/CLOCKWORK.md). Unsharp's 42 registers were 4 + 5 x 6 + 4 for the window's rows and 4 by which
    # sharpen reads gray(x, y): those 4 are a delay line on the idle port pair of hw_input's tile
    # (memories/shared_tiles.py). Resnet's 5 were conv's finished sums held 3 and 6 cycles for hw_output: a
    # 3-register chain and a 1-word bank with its output register; now two 1-word banks read directly (2).
    unsharp = hl.compile(apps.load("h2h_unsharp").build(58, 58)[0], name="h2h_unsharp").report
    assert (unsharp["registers"], unsharp["mem_tiles"], unsharp["pes"]) == (38, 7, 115)
    resnet = hl.compile(apps.load("h2h_resnet_layer_gen").build(28, 28)[0], name="h2h_resnet_layer_gen").report
    assert (resnet["registers"], resnet["mem_tiles"], resnet["pes"]) == (2, 16, 49)


def _inlined_into_two():
    """grad (inlined) feeds sq and cross, both computed at the output's loop; grad_unclamped is computed there
    too, which Halide accepts: every use of it, through the inlined grad, is inside that loop."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = inp[x, y]
    grad_unclamped, grad, sq, cross, hw_output = (hl.Func(n) for n in
                                                  ("grad_unclamped", "grad", "sq", "cross", "hw_output"))
    grad_unclamped[x, y] = hw_input[x + 1, y] - hw_input[x, y + 1]
    grad[x, y] = hl.clamp(grad_unclamped[x, y], -100, 100)
    sq[x, y] = grad[x, y] * grad[x, y]
    cross[x, y] = grad[x, y] * grad[x + 1, y]
    hw_output[x, y] = sq[x, y] + cross[x, y + 1]
    accelerate(hw_output, hw_output, 9, 7, [grad_unclamped, sq, cross], hw_input)
    return hw_output, {"input": random_image(11, 9, dtype=np.int16)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_compute_at_through_an_inlined_func_read_by_two(simulator, build_dir, compile_shared):
    out, inputs = _inlined_into_two()
    design = compile_shared(out, name="inlined_into_two")
    assert "grad_unclamped" in {b["name"] for b in design.report["buffers"]}
    # sq is read at two rows by an op that also reads cross: its addressed bank takes 13 words, 11 the minimum.
    _checked(design, inputs, simulator, build_dir, minimal=False)


def _weighted(where: str):
    """A 2x2 weighted sum whose weights are a constant Func (zero plus updates at constant coordinates)."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(inp[x, y])
    weights = hl.Func("weights")
    weights[x, y] = hl.u16(0)
    for (i, j), w in {(0, 0): 3, (1, 0): 5, (0, 1): 7, (1, 1): 0}.items():
        weights[i, j] = hl.u16(w)
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    acc[x, y] += weights[r.x, r.y] * hw_input[x + r.x, y + r.y]
    acc.update().unroll(r.x).unroll(r.y)
    accelerate(acc, acc, 8, 6, [], hw_input)
    xo = hl.Var("xo")
    if where == "at":
        weights.compute_at(acc, xo).unroll(x).unroll(y)  # the reference system's idiom: no lanes here
    elif where == "root":
        weights.compute_root()
    elif where == "rom":
        weights.compute_at(acc, xo).store_in(hl.MemoryType.ROM)
    return acc, {"input": random_image(9, 7)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("where", ["at", "root", "rom", "inline"])
def test_constant_func_wherever_it_is_scheduled_folds(where, simulator, build_dir, compile_shared):
    out, inputs = _weighted(where)
    design = compile_shared(out, name=f"weights_{where}")
    assert design.report["pes"] == 5 and design.report["const_words"] == 3  # 3 multiplies, 2 adds; 0 dropped
    assert {b["name"] for b in design.report["buffers"]} == {"hw_input", "acc"}
    _checked(design, inputs, simulator, build_dir)


def test_rom_of_a_func_that_reads_an_input_is_refused():
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, f = hl.Func("hw_input"), hl.Func("f")
    hw_input[x, y] = hl.u16(inp[x, y])
    f[x, y] = hw_input[x, y] + 1
    accelerate(f, f, 4, 4, [], hw_input)
    hw_input.store_in(hl.MemoryType.ROM)
    with pytest.raises(hl.HalideError, match=r"Func 'hw_input': store_in\(MemoryType.ROM\) holds a table known at "
                                             r"compile time, but 'hw_input' depends on an input or a Param; remove "
                                             r"the call"):
        hl.compile(f, name="rom_input")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_glb_tile_larger_than_the_output_shrinks(simulator, build_dir, compile_shared):
    out, inputs = apps.load("h2h_cascade_glb").build(18, 14)
    design = compile_shared(out, name="cascade_glb_small")
    assert design.report["tiles"] == 1 and design.report["mem_tiles_per_glb_tile"] == 1
    design.check(inputs, simulator=simulator, build_dir=build_dir)


def test_floating_point_inside_the_accelerator_is_refused():
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, half = hl.Func("hw_input"), hl.Func("half")
    hw_input[x, y] = hl.u16(inp[x, y])
    line = inspect.currentframe().f_lineno + 1
    half[x, y] = hl.u16(hl.f32(hw_input[x, y]) * 0.5)
    accelerate(half, half, 4, 4, [], hw_input)
    with pytest.raises(hl.HalideError) as err:
        hl.compile(half, name="float_inside")
    assert str(err.value) == (
        f"{os.path.relpath(__file__)}:{line}: Func 'half' computes in floating point inside the accelerator "
        "((float32(hw_input_0) * 0.500000f) is float32); the PEs are integer units. Compute the floating-point part "
        "in a Func of its own that reads no input (a table known at compile time, folded where it is read at "
        "constant coordinates), or on the host before the accelerator input, or use fixed point (multiply, then "
        "shift)."
    )


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_three_level_memory_runs_per_memory_tile(simulator, build_dir, compile_shared):
    # No memory type named: the per-accelerator-tile copies form the GLB level (as Clockwork maps them) and the
    # convolution runs once per 62x62 memory tile (2x2 of them here), each a 64x64 input tile streamed from the
    # GLB at a word per cycle (375x the ideal when the convolution ran over the whole output in row order).
    from mainspring.apps import h2h_three_level_memory

    out, inputs = h2h_three_level_memory.build(124, 124)
    design = compile_shared(out, name="h2h_three_level_memory")
    rep = design.report
    # Each memory tile's run: 4100 cycles (4097 with unpipelined kernels; the 3x3 sum has 5 stages now).
    assert rep["mem_tiles_per_glb_tile"] == 4 and rep["tile_cycles"] == 4 * (64 * 64 + 4)
    _checked(design, inputs, simulator, build_dir)


@pytest.mark.slow
@pytest.mark.parametrize("simulator", ["verilator"], indirect=True)
def test_gaussian_at_its_generator_size(simulator, build_dir, compile_shared):
    # The generator's whole frame: 16x20 GLB tiles of 62x196 at 2 pixels per cycle (about 30 s on Verilator).
    from mainspring.apps import h2h_gaussian

    out, inputs = h2h_gaussian.build(*h2h_gaussian.GENERATOR_SIZE)
    design = compile_shared(out, name="h2h_gaussian")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert design.report["tiles"] == 320 and res.cycles == res.predicted_cycles
    assert res.cycles <= 1.01 * design.report["ideal_cycles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_gaussian_float_weights_on_one_tile(simulator, build_dir, compile_shared):
    from mainspring.apps import h2h_gaussian

    out, inputs = h2h_gaussian.build(30, 12, lanes=1, schedule=0)
    design = compile_shared(out, name="h2h_gaussian_one_tile")
    assert design.report["const_words"] == 4  # 24, 30 and 37 folded from the float weights, and the 256
    _checked(design, inputs, simulator, build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_accumulation_reads_a_rom_at_its_reduction_counters(simulator, build_dir, compile_shared):
    # kernel(x) = x read at r.x + 3 * r.y of a serial reduction: a ROM addressed by coordinates.
    from mainspring.apps import h2h_accumulation

    out, inputs = h2h_accumulation.build(14, 6)
    design = compile_shared(out, name="h2h_accumulation")
    assert design.report["rom_words"] == 9
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_conv_layer_mobile_at_its_generator_size(simulator, build_dir, compile_shared):
    # Depthwise 3x3 over 4 channels (unrolled), pointwise 4 -> 3 channels, a serial reduction over input channels
    # with the output channels unrolled, the output one channel plane after another (reorder(xi, yi, k, xo, yo)).
    from mainspring.apps import h2h_conv_layer_mobile as conv

    out, inputs = conv.build(*conv.DEFAULT_SIZE)
    design = compile_shared(out, name="h2h_conv_layer_mobile")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
