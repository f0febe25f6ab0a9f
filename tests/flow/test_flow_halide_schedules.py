"""Schedules of the accelerator's inputs and inner Funcs that Halide accepts and hardware used to refuse or run
slowly, bit for bit on both simulators:

- an input streams in the order its schedule gives (`reorder_storage`, or its loops' `reorder`;
  hwlower/stream_order.py): a planar image read a pixel's channels at a time arrives channels first;
- a split inside the accelerator whose factor does not divide its extent (Halide's Auto, ShiftInwards or
  GuardWithIf tail) rounds up with its reads guarded (hwlower/shift_tails.py);
- a fuse of two loops that both iterate inside the accelerator runs as those two loops (hwlower/loops.py);
- `hw_accelerate(x, Var.outermost())` accelerates the whole Func (no host loop), with Funcs computed at
  `Var.outermost()`; host loops over every part of a split dimension step over tiles one row high
  (hwlower/tiling.py)."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl

SIMULATORS = ("icarus", "verilator")


def _depthwise(order: str | None, width=16, height=8, channels=4):
    """A depthwise 3x3 convolution of a planar image (x, y, c) with per-channel weights, the output channels
    innermost; `order` says how the inputs are streamed: None (storage order, plane after plane), "loops"
    (`reorder(c, x, y)`) or "storage" (`reorder_storage(c, x, y)`)."""
    x, y, c, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "c", "xo", "yo", "xi", "yi"))
    image = hl.ImageParam(hl.UInt(8), 3, "input")
    weights = hl.ImageParam(hl.Int(8), 3, "weights")
    hw_input, hw_w, conv, hw_output, output = (hl.Func(n) for n in ("hw_input", "hw_w", "conv", "hw_output",
                                                                     "output"))
    hw_input[x, y, c] = hl.i16(image[x, y, c])
    hw_w[x, y, c] = hl.i16(weights[x, y, c])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    conv[x, y, c] = hl.i16(0)
    conv[x, y, c] += hw_input[x + r.x, y + r.y, c] * hw_w[r.x, r.y, c]
    hw_output[x, y, c] = hl.u8(hl.clamp(conv[x, y, c] >> 4, 0, 255))
    output[x, y, c] = hw_output[x, y, c]
    output.bound(x, 0, width).bound(y, 0, height).bound(c, 0, channels)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height).reorder(c, xi, yi, xo, yo)
    hw_output.hw_accelerate(xi, xo)
    conv.compute_at(hw_output, xo).reorder(c, x, y)
    conv.update().reorder(c, r.x, r.y, x, y).unroll(r.x).unroll(r.y)
    for f in (hw_input, hw_w):
        f.compute_root().stream_to_accelerator()
        if order == "loops":
            f.reorder(c, x, y)
        elif order == "storage":
            f.reorder_storage(c, x, y)
    rng = np.random.default_rng(5)
    inputs = {"input": rng.integers(0, 256, (channels, height + 2, width + 2)).astype(np.uint8),
              "weights": rng.integers(-8, 8, (channels, 3, 3)).astype(np.int8)}
    return output, inputs


@pytest.mark.parametrize("order", ["loops", "storage"])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_planar_input_streams_channels_first(order, simulator, compile_shared, build_dir):
    planes = compile_shared(_depthwise(None)[0], name="planes")
    out, inputs = _depthwise(order)
    design = compile_shared(out, name=f"channels_{order}")
    assert [s.order for s in design.program.inputs] == [(2, 0, 1), (2, 0, 1)]
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 1.02 * design.report["ideal_cycles"]
    # Storage order holds whole planes and waits for them: half as many cycles again.
    assert planes.report["predicted_cycles"] > 1.4 * design.report["ideal_cycles"]
    # and holds more: 528 words against 201 (session 36's storage changes packed the planes into 2 memory tiles,
    # where they took 6, so the channels-first design's 5 tiles are no longer fewer; its words still are)
    words = [sum(b["words"] for b in d.report["buffers"]) for d in (design, planes)]
    assert words[0] < words[1], words


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_input_channels_unrolled_after_reorder(simulator, compile_shared, build_dir):
    """An input stored (x, y, c) whose channels travel together: `reorder(c, x, y).unroll(c)`."""
    x, y, c, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "c", "xo", "yo", "xi", "yi"))
    image = hl.ImageParam(hl.UInt(16), 3, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y, c] = image[x, y, c]
    hw_output[x, y, c] = hw_input[x, y, c] * 3 + hw_input[x, y, 2 - c]
    output[x, y, c] = hw_output[x, y, c]
    output.bound(x, 0, 12).bound(y, 0, 6).bound(c, 0, 3)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 12, 6).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
    hw_output.unroll(c)
    hw_input.compute_root().stream_to_accelerator()
    hw_input.reorder(c, x, y).unroll(c)
    design = compile_shared(output, name="channels_unrolled")
    assert design.program.nest.lanes == (("hw_input", 3), ("hw_output", 3))
    res = design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 1.05 * design.report["ideal_cycles"]


def _odd_blur(tail, width=32, height=8):
    """Two lanes of a blur whose 33 columns 2 does not divide, read by a 2-lane output; the input's 35 columns
    in 2 lanes too."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    image = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = image[x, y]
    blur[x, y] = (hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y] + hw_input[x, y + 1]
                  + hw_input[x + 1, y + 2]) / 5
    hw_output[x, y] = blur[x, y] * 2 + blur[x + 1, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    hw_output.unroll(xi, 2)
    blur.compute_at(hw_output, xo).unroll(x, 2, tail)
    hw_input.compute_root().stream_to_accelerator().unroll(x, 2, tail)
    inputs = {"input": np.random.default_rng(3).integers(0, 1000, (height + 3, width + 3)).astype(np.uint16)}
    return output, inputs


@pytest.mark.parametrize("tail", [hl.TailStrategy.Auto, hl.TailStrategy.ShiftInwards, hl.TailStrategy.GuardWithIf])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_tails_that_do_not_divide_inside_the_accelerator(tail, simulator, compile_shared, build_dir):
    out, inputs = _odd_blur(tail)
    design = compile_shared(out, name=f"odd_{tail.name}")
    nest = design.program.nest
    assert nest.buffer("blur").box[0] == (0, 34) and nest.buffer("hw_input").box[0] == (0, 36)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 1.05 * design.report["ideal_cycles"]


def test_round_up_still_asks_for_the_extra_input():
    """RoundUp keeps Halide's meaning: the extra iterations' reads are real, so the input must cover them."""
    out, inputs = _odd_blur(hl.TailStrategy.RoundUp)
    with pytest.raises(hl.HalideError, match="Input buffer input is accessed at 35, which is beyond the max"):
        hl.compile(out, name="odd_round_up").check(inputs, simulator="icarus")


def _fused(where: str, width=16, height=8):
    """A 2-stage stencil with a fuse inside the accelerator: `output` fuses the accelerator's own loops (and is
    accelerated at the fused loop), `producer` its producer's loops after an unroll of x, `reduction` a serial
    3x3 reduction's loops, `unrolled` the same unrolled whole."""
    x, y, xo, yo, xi, yi, t = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi", "t"))
    image = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, conv, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "conv", "hw_output",
                                                                     "output"))
    hw_input[x, y] = image[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    conv[x, y] = hl.u16(0)
    conv[x, y] += blur[x + r.x, y + r.y] * hl.u16(r.x + 3 * r.y + 1)
    hw_output[x, y] = conv[x, y] + blur[x + 1, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height)
    if where == "output":
        hw_output.fuse(xi, yi, t).hw_accelerate(t, xo)
    else:
        hw_output.hw_accelerate(xi, xo)
    if where == "producer":
        blur.unroll(x, 2).fuse(x, y, t)
    rf = hl.RVar("rf")
    if where == "reduction":
        conv.update().fuse(r.x, r.y, rf)
    else:
        conv.update().fuse(r.x, r.y, rf).unroll(rf)
    blur.compute_at(hw_output, xo)
    conv.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    inputs = {"input": np.random.default_rng(4).integers(0, 1000, (height + 3, width + 3)).astype(np.uint16)}
    return output, inputs


@pytest.mark.parametrize("where", ["output", "producer", "reduction"])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_fuse_inside_the_accelerator(where, simulator, compile_shared, build_dir):
    out, inputs = _fused(where)
    design = compile_shared(out, name=f"fused_{where}")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    ratio = 1.3 if where == "reduction" else 1.05  # 9 serial steps a pixel on a small frame: rows of latency
    assert res.cycles <= ratio * design.report["ideal_cycles"]


def _whole_or_rows(where: str):
    """A 3-tap blur feeding a 2-tap one; `where`: "outermost" (hw_accelerate(x, Var.outermost()), the blur
    computed at Var.outermost()) or "rows" (both parts of y's split are host loops, their order swapped: the
    host steps over one-row tiles; gaussian_generator.cpp's schedule 6 names its tile's Vars this way)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = hl.u16(image[x, y])
    blur[x, y] = hw_input[x, y] + 2 * hw_input[x + 1, y] + hw_input[x + 2, y + 1]
    hw_output[x, y] = blur[x, y] + blur[x, y + 1]
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, 16).bound(y, 0, 8)
    if where == "outermost":
        hw_output.compute_root().hw_accelerate(x, hl.Var.outermost())
        blur.compute_at(hw_output, hl.Var.outermost())
    else:
        hw_output.compute_root().tile(x, y, xi, xo, yi, yo, 8, 4).reorder(xi, yi, xo, yo).hw_accelerate(xi, xo)
        blur.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output, {"input": np.random.default_rng(5).integers(0, 256, (10, 18)).astype(np.uint8)}


@pytest.mark.parametrize("where", ["outermost", "rows"])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_whole_func_and_one_row_tiles(where, simulator, compile_shared, build_dir):
    out, inputs = _whole_or_rows(where)
    design = compile_shared(out, name=f"whole_{where}")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert design.report["tiles"] == (1 if where == "outermost" else 8)
    ratio = 1.05 if where == "outermost" else 1.25  # 8 tiles of 54 input words, each with the pipeline's fill
    assert res.cycles <= ratio * design.report["ideal_cycles"]
