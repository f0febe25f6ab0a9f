"""Input streams paced to readers that step them more than a word at a time, and in designs hwlower strip-mined
for an upsample (memories/stream_pacing.py; passes: the whole flow, on both simulators). Before, only readers
stepping a stream one word at a time told its pace, and a strip-mined design kept its stream at one word per
cycle unless the stream had as many dimensions as the group's outer loops: the stream ran ahead of its readers
and the accelerator stored most of it."""

import dataclasses as dc

import pytest

import mainspring as hl
from mainspring.memories import MemoryCheckError, check_plan
from mainspring.memories.ir import Steady

from conftest import SIMULATORS


def _demosaic(width: int, height: int):
    """Half-resolution Bayer planes r, g, b (read at 2 * x, 2 * x + 1, ...) upsampled back into an RGB image of
    width x height x 3: the planes step the stream by 2 words a firing."""
    x, y, c, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "c", "xo", "yo", "xi", "yi"))
    raw = hl.ImageParam(hl.UInt(16), 2, "raw")
    hw_input, r, g, b, hw_output, output = (hl.Func(n) for n in ("hw_input", "r", "g", "b", "hw_output", "output"))
    hw_input[x, y] = raw[x, y]
    r[x, y] = hw_input[2 * x, 2 * y]
    g[x, y] = (hw_input[2 * x + 1, 2 * y] + hw_input[2 * x, 2 * y + 1]) >> 1
    b[x, y] = hw_input[2 * x + 1, 2 * y + 1]
    hw_output[x, y, c] = hl.select(c == 0, r[x / 2, y / 2], c == 1, g[x / 2, y / 2], b[x / 2, y / 2])
    output[x, y, c] = hw_output[x, y, c]
    output.bound(x, 0, width).bound(y, 0, height).bound(c, 0, 3)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height).reorder(c, xi, yi, xo, yo)
    hw_output.hw_accelerate(xi, xo)
    for plane in (r, g, b):
        plane.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


def _upsampled_channels(width: int, height: int):
    """A 2x upsample into 3 channels: the stream has 2 dimensions, the strip-mined output 3 outer loops."""
    x, y, c, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "c", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = (hl.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    hw_output[x, y, c] = hw_input[x / 2, y / 2] * hl.u16(c + 1)
    output[x, y, c] = hw_output[x, y, c]
    output.bound(x, 0, width).bound(y, 0, height).bound(c, 0, 3)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height).reorder(c, xi, yi, xo, yo)
    hw_output.hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_stream_read_at_a_stride_is_paced_to_its_planes(simulator, compile_shared, build_dir):
    # 16x12 raw words: the planes step x every 6 cycles (2 output columns of 3 channels) by 2 words, and y every
    # 96 by 2 rows, so the stream runs 3 cycles a word and 48 a row; at one word a cycle it held 133 words.
    design = compile_shared(_demosaic(16, 12), name="paced_demosaic")
    assert design.plan.op("host.hw_input").rates == (48, 3)
    words = {b["name"]: b["words"] for b in design.report["buffers"]}
    assert words["hw_input"] <= 10 and sum(words.values()) <= 45, words
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    # The trade: g reads the odd raw row, which arrives half a plane row (48 cycles) after the even one.
    assert res.cycles <= design.report["ideal_cycles"] + 48 + 16, (res.cycles, design.report["ideal_cycles"])


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_strip_mined_upsample_paces_a_stream_of_fewer_dimensions(simulator, compile_shared, build_dir):
    # One input word per 2 output columns of 3 channels (6 cycles), one input row per 2 output rows (96 cycles):
    # about a row of 8 words is stored, not 48 of the 96 (the stream ran at one word a cycle).
    design = compile_shared(_upsampled_channels(16, 12), name="paced_upsample_channels")
    assert design.plan.op("host.hw_input").rates == (96, 6)
    words = {b["name"]: b["words"] for b in design.report["buffers"]}
    assert words["hw_input"] <= 10, words
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= design.report["ideal_cycles"] + 8, (res.cycles, design.report["ideal_cycles"])


def _row_sums(width: int, height: int, target: hl.CGRA):
    """A 32-bit running sum along each row, doubled: the scan's update reads the sum it wrote the cycle before,
    and its pure definition is a copy of the stream (run at the stream's schedule)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    r = hl.RDom([(1, width - 1)], "r")
    hw_input, sums, hw_output, output = (hl.Func(n) for n in ("hw_input", "sums", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    sums[x, y] = hl.u32(hw_input[x, y])
    sums[r.x, y] = sums[r.x - 1, y] + hl.u32(hw_input[r.x, y])
    hw_output[x, y] = sums[x, y] * 2
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    sums.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="row_sums", target=target)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("latency", [1, 2])
def test_a_stream_slowed_to_a_scan_slows_its_copy_too(latency, simulator, build_dir):
    # A scan's update reading the sum it wrote last fires every other cycle where its loop-carried path takes 2
    # cycles: the stream is slowed to it, and so must be the copy of the stream (`sums`' pure definition): before,
    # it kept one word a cycle, no schedule fitted, and the design ran its ops one after another (2,269 cycles for
    # 288 at 24x12). That path was a 32-bit add's two PE stages until session 33, when the carried operand came to
    # be read in the kernel's last stage (compiler.py): at one op a stage the scan now takes a step a cycle, and a
    # PE whose result comes 2 cycles after its operands (`pe_latency=2`) makes the slow path.
    design = _row_sums(24, 12, hl.CGRA(pe_ops_per_stage=1, pe_latency=latency))
    assert design.report["schedule"] == ("fused_ii2" if latency == 2 else "fused"), design.report["schedule"]
    # and the report says why: the scan's loop-carried path
    assert [w[:90] for w in design.report["ii_limits"]] == ([
        "at ii 1, Func 'sums' (update definition 0) reads 'sums' from its own earlier iterations as soon as 1 "
        "cycle(s) after they fire, but its kernel takes 2 cycle(s)"[:90]] if latency == 2 else [])
    assert sum(b["words"] for b in design.report["buffers"]) <= 8, design.report["buffers"]
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= latency * design.report["ideal_cycles"] + 8, (res.cycles, design.report["ideal_cycles"])


def _edge_mean_threshold(width: int, height: int):
    """A pixel against its 5x5 mean over repeat_edge(input), the sum's r.y serial (5 firings a pixel) as the
    autoscheduler makes it under max_pes 20: repeat_edge's interior is a copy of the stream (run at its schedule)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    r = hl.RDom([(-2, 5), (-2, 5)], "r")
    edge = hl.BoundaryConditions.repeat_edge(input_)
    s, out = hl.Func("s"), hl.Func("thresh")
    s[x, y] = hl.u16(0)
    s[x, y] += hl.u16(edge[x + r.x, y + r.y])
    out[x, y] = hl.select(hl.u16(edge[x, y]) * 25 + 100 > s[x, y], hl.u8(255), hl.u8(0))
    out.bound(x, 0, width).bound(y, 0, height)
    input_.dim(0).set_bounds(0, width)
    input_.dim(1).set_bounds(0, height)
    out.compute_root().tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    edge.compute_at(out, xo)
    s.compute_at(out, xo)
    s.update(0).unroll(r.x)
    input_.in_().compute_root().stream_to_accelerator()
    return out


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_stream_copied_by_a_boundary_condition_is_paced_to_the_copys_readers(simulator, compile_shared, build_dir):
    # 21x13 stream words for 17x9 pixels of 5 firings (85 cycles a row): the copy's reader steps a column every 5
    # cycles, so the stream runs 21 words in 85 cycles (4 a word, a row a row). Before, only the stream's own
    # readers (the copy, at one word a cycle) told its pace: it ran a row in 21 cycles and the buffer held most
    # of the frame (repeat_edge 599 words, 1,136 at 33x9). The 4 rows of the window the sum needs before its
    # first pixel come first at one word a cycle (memories/stream_prologue.py): paced, they took 4 x 85 cycles
    # (1,126 cycles here, 858 with the stream unpaced, now 870).
    design = compile_shared(_edge_mean_threshold(17, 9), name="paced_edge_mean")
    for op in ("host.input_im_global_wrapper", "repeat_edge_s0"):
        o = design.plan.op(op)
        assert (o.rates, o.delay, o.then) == ((21, 1), 0, Steady(4, 84, (85, 4))), o
    words = {b["name"]: b["words"] for b in design.report["buffers"]}
    assert words["repeat_edge"] <= 3 * 5 * 21, words  # 241 (92 live at most), was 599
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]
    assert res.cycles <= design.report["ideal_cycles"] + 4 * 21 + 24, (res.cycles, design.report["ideal_cycles"])


def test_a_two_piece_stream_is_proved_piece_by_piece(compile_shared):
    # The checker follows both pieces: an op and its ports that disagree on either, or a second piece starting
    # on the prologue's last cycle, are refused (memories/checker.py).
    design = compile_shared(_edge_mean_threshold(17, 9), name="paced_edge_mean")
    nest, plan = design.program.nest, design.plan
    check_plan(nest, plan)

    def with_then(then, *ops):
        return dc.replace(plan, ops=tuple(dc.replace(o, then=then) if o.op in ops else o for o in plan.ops))

    with pytest.raises(MemoryCheckError, match=r"op 'repeat_edge_s0' load 'input_im_global_wrapper_0' at "
                                                r"\[repeat_edge\.s0\._1=4, repeat_edge\.s0\._0=1\] \(cycle 85\).* "
                                                r"read before write"):
        check_plan(nest, with_then(None, "repeat_edge_s0"))
    with pytest.raises(MemoryCheckError, match=r"op 'host\.input_im_global_wrapper' fires twice in one cycle"):
        check_plan(nest, with_then(Steady(4, 83, (85, 4)), "host.input_im_global_wrapper", "repeat_edge_s0"))
    # a bank's write port one cycle late in its second piece only
    buf = plan.buffer("repeat_edge")
    bank = buf.banks[0]
    port = bank.write_ports[0]
    late = dc.replace(port, controller=dc.replace(port.controller, then=dc.replace(
        port.controller.then, start=port.controller.then.start + 1)))
    bad = dc.replace(plan, buffers=tuple(dc.replace(b, banks=(dc.replace(bank, write_ports=(late,)),) + b.banks[1:])
                                         if b is buf else b for b in plan.buffers))
    with pytest.raises(MemoryCheckError, match=r"buffer 'repeat_edge': port .* does not follow op 'repeat_edge_s0' "
                                                r"fired \+ 0 cycles, first at \[repeat_edge\.s0\._1=4, "):
        check_plan(nest, bad)
