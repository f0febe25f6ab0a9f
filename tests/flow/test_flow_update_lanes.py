"""Unrolls of an update folded into a constant pure definition (hwlower/update_lanes.py, issue 8, session 11):
honoured as lanes of the Func's op where its producers make what the lanes read in one firing, else run serially
with a note in the design's report; and constant tables whose slice read is one value folded (hwlower/tables.py).
Bit-exact on both simulators."""

from __future__ import annotations

import numpy as np
import pytest
from channel_planes import sweep_bound

import mainspring as hl
from mainspring.frontend.pipeline import Pipeline
from mainspring.hwlower import lower

SIMULATORS = ("icarus", "verilator")


def _mobile(width: int, height: int):
    from mainspring.apps import h2h_conv_layer_mobile as mobile

    return mobile.build(width, height)


def _layer(width: int, height: int, interleaved: bool, weights: bool = True, pixel_out: bool = False):
    """mobile's layer and schedule, with weights that differ per tap and channel (`weights`), with
    `interleaved` its input streamed a pixel's 4 channels per transfer (`hw_input.reorder(c, x, y).unroll(c)`)
    instead of by channel planes, and with `pixel_out` its output a pixel's 3 channels per transfer
    (`reorder(k, xi, yi, xo, yo).unroll(k)`) instead of by channel planes."""
    x, y, c, k = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("k")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    image = hl.ImageParam(hl.UInt(8), 3, "input")
    filter_dw, filter_pw = hl.Func("filter_dw"), hl.Func("filter_pw")
    filter_dw[x, y, c] = hl.u16(x + 2 * y + 1) if weights else hl.u16(1)
    filter_pw[c, k] = hl.u16(3 * c + k + 1) if weights else hl.u16(3)
    hw_input, dw_conv, pw_conv = hl.Func("hw_input"), hl.Func("dw_conv"), hl.Func("pw_conv")
    reduction, hw_output, output = hl.Func("pw_conv_reduction"), hl.Func("hw_output"), hl.Func("output")
    r_dw = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r_dw")
    r_pw = hl.RDom([hl.Range(0, 4)], "r_pw")
    hw_input[x, y, c] = hl.u16(image[x, y, c])
    dw_conv[x, y, c] = hl.i16(0)
    dw_conv[x, y, c] += hl.i16(filter_dw[r_dw.x, r_dw.y, c] * hw_input[x + r_dw.x, y + r_dw.y, c])
    pw_conv[k, x, y, c] = hl.i16(0)
    pw_conv[k, x, y, c] += hl.i16(filter_pw[c, k] * dw_conv[x, y, c])
    reduction[k, x, y] = hl.i16(0)
    reduction[k, x, y] += hl.i16(pw_conv[k, x, y, r_pw.x])
    hw_output[x, y, k] = hl.max(0, reduction[k, x, y])
    output[x, y, k] = hl.u8(hw_output[x, y, k])
    output.bound(x, 0, width).bound(y, 0, height).bound(k, 0, 3)
    reduction.bound(x, 0, width).bound(y, 0, height)
    pw_conv.bound(c, 0, 4)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, width, height)
    if pixel_out:
        hw_output.reorder(k, xi, yi, xo, yo).unroll(k).hw_accelerate(xi, xo)
    else:
        hw_output.reorder(xi, yi, k, xo, yo).hw_accelerate(xi, xo)
    filter_dw.compute_at(hw_output, xo).unroll(x).unroll(y).unroll(c)
    filter_pw.compute_at(hw_output, xo).unroll(c).unroll(k)
    reduction.update().reorder(k, x, y, r_pw.x).unroll(k)
    reduction.compute_at(hw_output, xo).store_at(hw_output, xo)
    pw_conv.compute_at(hw_output, xo).store_at(hw_output, xo).reorder(c, x, y, k)
    pw_conv.update().unroll(c).unroll(k)
    dw_conv.compute_at(hw_output, xo).reorder(x, y, c)
    dw_conv.update().reorder(r_dw.x, r_dw.y, x, y, c).unroll(r_dw.x).unroll(r_dw.y).unroll(c)
    if interleaved:
        hw_input.compute_at(hw_output, xo).reorder(c, x, y).unroll(c)
    hw_input.stream_to_accelerator()
    rng = np.random.default_rng(11)
    return output, {"input": rng.integers(0, 256, size=(4, height + 2, width + 2), dtype=np.uint8)}


def _lanes(out) -> dict[str, list[str]]:
    """Each op's loops (extent > 1), unrolled ones starred."""
    nest = lower(Pipeline(out), "d").nest
    return {op.name: [lp.var.split(".")[-1] + ("*" if lp.unrolled else "") for lp in loops if lp.extent > 1]
            for loops, op in nest.ops()}


def test_mobiles_output_channel_lanes_are_honoured_and_its_channel_lanes_noted():
    # pw_conv.update().unroll(c).unroll(k): k reads no producer (its weights are constants), so its 3 lanes run;
    # c would read dw_conv's 4 channel planes in one firing, and dw_conv.update().unroll(c) the input's 4
    # channel planes, which the host streams one after another: both run serially, and the report says why.
    out, _ = _mobile(8, 6)
    loops = _lanes(out)
    assert loops["pw_conv_s0"] == ["c", "y", "x", "k*"]
    assert loops["dw_conv_s0"] == ["c", "y", "x"]
    rep = hl.compile(out, name="mobile", prove=False).report
    notes = rep["notes"]
    assert len(notes) == 2
    assert notes[0].startswith("dw_conv.update(0).unroll(c) at ") and "'hw_input'" in notes[0]
    assert "h2h_conv_layer_mobile.py:" in notes[0] and "hw_input.reorder(c, x, y).unroll(c)" in notes[0]
    assert notes[1].startswith("pw_conv.update(0).unroll(c) at ") and "dw_conv.unroll(c)" in notes[1]
    # 3 pointwise lanes of one multiply each; the weights (all 1, all 3) fold: no ROM, no multiply by 1
    assert rep["rom_words"] == 0 and rep["pes"] <= 18 and rep["mem_tiles"] <= 4
    assert rep["ideal_cycles"] == 10 * 8 * 4  # the input stream; pw_conv fires 192 times, not 576
    assert rep["predicted_cycles"] <= 1.1 * sweep_bound(8, 6)  # (and the pipeline's depth: 1.03 at 16 x 16)


def test_every_unroll_is_honoured_when_the_input_streams_a_pixels_channels_together():
    out, _ = _layer(8, 6, interleaved=True)
    loops = _lanes(out)
    assert loops["dw_conv_s0"] == ["c*", "y", "x"]  # (r_dw folded into the one op)
    assert loops["pw_conv_s0"] == ["c*", "y", "x", "k*"]
    assert "notes" not in hl.compile(out, name="layer", prove=False).report


def test_a_sum_over_planes_keeps_its_sweeps_where_they_arrive_one_after_another():
    # Pass `reorder` (hwlower/reorder.py): over channel planes the reduction keeps the generator's sweep per input
    # channel, each following its plane, and its constant init takes the update's lanes, a pixel's three zeros in
    # one firing (hwlower/init_lanes.py), so as not to hold the first sweep back; over a pixel's channels per
    # transfer it sums each pixel's channels in a row, in pace with the stream.
    planar = _lanes(_layer(8, 6, interleaved=False)[0])
    assert planar["pw_conv_reduction_s1"] == ["r_pw$x", "y", "x", "k*"]
    assert planar["pw_conv_reduction_s0"] == ["y", "x", "k*"]
    together = _lanes(_layer(8, 6, interleaved=True)[0])
    assert together["pw_conv_reduction_s1"] == ["y", "x", "r_pw$x", "k*"]
    assert together["pw_conv_reduction_s0"] == ["y", "x", "k*"]


def test_honoured_lanes_run_near_their_ideal():
    # 16 x 16 x 4 in lanes: the reduction's 1,024 serial steps are the busiest kernel, and nothing waits for a
    # channel plane.
    out, _ = _layer(16, 16, interleaved=True, weights=False)
    rep = hl.compile(out, name="layer", prove=False).report
    assert rep["ideal_cycles"] == 16 * 16 * 4
    assert rep["predicted_cycles"] <= 1.05 * rep["ideal_cycles"], rep["predicted_cycles"]
    # the lanes' adds and multiplies, the sums, the ReLU (max(0, i16) in Int(32): a 16-bit max, zero-extended)
    assert rep["pes"] == 4 * 8 + 12 * 1 + 3 + 1


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("interleaved", [False, True])
def test_lanes_of_folded_updates_are_bit_exact(interleaved, simulator, build_dir, compile_shared):
    # Weights that differ per tap and channel: read at unrolled coordinates they fold, at a channel of a serial
    # loop (or a lane, each with its ROM) they are a ROM.
    out, inputs = _layer(8, 6, interleaved)
    design = compile_shared(out, name=f"folded_lanes_{int(interleaved)}")
    assert design.report["rom_words"] > 0
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_a_table_read_where_its_slice_is_one_value_folds():
    # filter_dw(r_dw.x, r_dw.y, c) = r_dw.x + 2 r_dw.y + 1 at a serial c: each tap's slice is one value, so the
    # depthwise stage has constant weights; filter_pw(c, k) at a serial c differs per channel: a ROM per lane.
    out, _ = _layer(8, 6, interleaved=False)
    rep = hl.compile(out, name="layer", prove=False).report
    # filter_pw's 12 words: pw_conv's 3 lanes read it in one cycle, 2 per tile (its read ports): 2 copies
    assert rep["rom_words"] == 2 * 12


def test_an_unroll_of_the_outputs_folded_update_is_noted():
    # The accelerator's output streams its op's lanes as the words of one transfer, in its pure definition's
    # loops: its update's unroll runs serially, and the report says so.
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    image = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y, c] = hl.u16(image[x, y, c])
    hw_output[x, y, c] = hl.u16(0)
    hw_output[x, y, c] += hw_input[x, y, c] * 2
    output[x, y, c] = hl.u8(hw_output[x, y, c])
    output.bound(x, 0, 8).bound(y, 0, 6).bound(c, 0, 3)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, 8, 6).reorder(xi, yi, c, xo, yo).hw_accelerate(xi, xo)
    hw_output.update().unroll(c)
    hw_input.stream_to_accelerator()
    (note,) = hl.compile(output, name="noted", prove=False).report["notes"]
    assert note.startswith("hw_output.update(0).unroll(c) at ") and "the accelerator's output" in note


def _channels(split: bool, together: bool):
    """f(x, y, c) = 0; f(x, y, c) += g(x, y, c) * 3 + 1, its update's c unrolled (whole, or split by 2); g, and the
    input stream, make a pixel's 4 channels together (`together`) or one channel per firing."""
    x, y, c, co, ci = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("co"), hl.Var("ci")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    image = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, g, f, hw_output, output = (hl.Func(n) for n in ("hw_input", "g", "f", "hw_output", "output"))
    hw_input[x, y, c] = hl.u16(image[x, y, c])
    g[x, y, c] = hw_input[x, y, c] + hw_input[x + 1, y, c]
    f[x, y, c] = hl.u16(0)
    f[x, y, c] += g[x, y, c] * hl.u16(3) + hl.u16(1)
    hw_output[x, y, c] = f[x, y, c] + g[x, y, c]
    output[x, y, c] = hw_output[x, y, c]
    output.bound(c, 0, 4).bound(x, 0, 8).bound(y, 0, 4)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, 8, 4).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
    g.compute_at(hw_output, xo).reorder(c, x, y)
    if together:
        g.unroll(c)
        hw_input.compute_at(hw_output, xo).reorder(c, x, y).unroll(c)
    f.compute_at(hw_output, xo)
    if split:
        f.update().reorder(c, x, y).split(c, co, ci, 2).unroll(ci)
    else:
        f.update().reorder(c, x, y).unroll(c)
    hw_input.stream_to_accelerator()
    rng = np.random.default_rng(5)
    return output, {"input": rng.integers(0, 256, size=(4, 4, 9), dtype=np.uint8)}


@pytest.mark.parametrize(("split", "together", "kept"),
                         [(False, True, True), (False, False, False), (True, True, False)])
def test_channel_lanes_are_kept_when_unrolled_whole_over_a_producer_making_them_together(split, together, kept):
    out, _ = _channels(split, together)
    assert ("c*" in _lanes(out)["f_s0"]) is kept
    notes = hl.compile(out, name="channels", prove=False).report.get("notes", [])
    if kept:
        assert not notes
    else:  # a split's lanes would be read at a stride by hw_output's serial c (not a box of iterations)
        (note,) = notes
        assert ("a split" in note) is split and ("'g' makes one value of c per firing" in note) is (not split)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("split", "together"), [(False, True), (True, True)])
def test_channel_lanes_are_bit_exact(split, together, simulator, build_dir, compile_shared):
    out, inputs = _channels(split, together)
    design = compile_shared(out, name=f"channel_lanes_{int(split)}")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _vertical(width=12, height=8):
    """A vertical 3-tap blur with `blur.unroll(y, 2)`: lanes along part of y, which its reader (one row per
    firing) would read at a stride."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    image = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = image[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x, y + 1] + hw_input[x, y + 2]
    hw_output[x, y] = blur[x, y] // 3
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    blur.compute_at(hw_output, xo).unroll(y, 2)
    hw_input.compute_root().stream_to_accelerator()
    rng = np.random.default_rng(12)
    return output, {"input": rng.integers(0, 4000, (height + 2, width)).astype(np.uint16)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_pure_stages_unroll_along_part_of_y_runs_serially_with_a_note(simulator, build_dir, compile_shared):
    out, inputs = _vertical()
    design = compile_shared(out, name="vertical")
    (note,) = design.report["notes"]
    assert note.startswith("blur.unroll(y, 2) at ") and "runs serially: lanes along part of y (a split)" in note
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_channel_planes_in_and_pixels_out_reach_the_ideal(simulator, build_dir, compile_shared):
    # Over channel planes the generator's sweeps follow the planes (pass `reorder`); with the output a pixel's 3
    # channels per transfer, no word waits for the one before: 336 cycles for the input stream's 320 (468 while
    # the reduction summed a pixel's channels in a row, 609 words in 9 memory tiles where it now keeps 213 in 6).
    out, inputs = _layer(8, 6, interleaved=False, pixel_out=True)
    design = compile_shared(out, name="planes_in_pixels_out")
    rep = design.report
    assert rep["ideal_cycles"] == 10 * 8 * 4
    assert rep["predicted_cycles"] <= 1.06 * rep["ideal_cycles"], rep["predicted_cycles"]
    assert rep["mem_tiles"] <= 6
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
