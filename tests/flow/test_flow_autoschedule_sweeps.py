"""Sums over planes that arrive one after another (mainspring/autoschedule_planes.py, `plan.sweeps`): a reduction
whose RVar reads a planar stream of more than MAX_PLANE planes, or a buffered producer that computes its planes one
sweep of the frame each, keeps that order, its RVar outside its pure Vars (`update(0).reorder(x, y, k, r)`), as
h2h_conv_layer_mobile's hand schedule does. The automatic design is compared with the same algorithm scheduled by
hand, and with the hand schedule in Halide's default order (the RVar innermost, what the autoscheduler emitted
before: 489 cycles and 410 words against 394 and 158 for the stream), and simulated bit-exact on both simulators.
A blur of each plane, read at its own plane, no longer sweeps (automl16, session 32): it makes its 4 planes together
from the stream channels first (68 cycles and 50 words; the sweep took 354 and 168, Halide's default order 401 and
201)."""

import pytest

import mainspring as hl

from conftest import SIMULATORS

SIZE, PLANES_OUT = (8, 6), 3


def _pointwise(planes: int, blurred: bool):
    """A 1x1 convolution of `planes` planes of a planar image (x, y, c) into PLANES_OUT planes, from the stream or
    (`blurred`) from a buffered 3-tap blur of each plane; its Funcs by name."""
    x, y, c, k = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("k")
    inp = hl.ImageParam(hl.UInt(8), 3, "input")
    fs = {n: hl.Func(n) for n in ("hw_input", "blur", "weight", "conv", "output")}
    fs["hw_input"][x, y, c] = hl.u16(inp[x, y, c])
    src = fs["hw_input"]
    if blurred:
        fs["blur"][x, y, c] = src[x, y, c] + src[x + 1, y, c] * 2 + src[x, y + 1, c]
        src = fs["blur"]
    fs["weight"][c, k] = hl.u16(c * 3 + k + 1)
    r = hl.RDom([hl.Range(0, planes)], "r")
    fs["conv"][x, y, k] = hl.u16(0)
    fs["conv"][x, y, k] += fs["weight"][r.x, k] * src[x, y, r.x]
    fs["output"][x, y, k] = hl.u8(fs["conv"][x, y, k] >> 4)
    return fs, (x, y, k, r)


def _auto(planes: int, blurred: bool):
    fs, _ = _pointwise(planes, blurred)
    fs["output"].set_estimates([(0, SIZE[0]), (0, SIZE[1]), (0, PLANES_OUT)])
    res = hl.Pipeline(fs["output"]).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    return fs["output"], res.schedule_source


def _hand(planes: int, blurred: bool, sweep: bool):
    """The schedule a user writes: the sums plane after plane (`sweep`), or each pixel's planes in a row, as the
    autoscheduler scheduled them before session 25 (a stream's planes unrolled; a blur's serial, its planes made
    one sweep each, with the output planes unrolled)."""
    fs, (x, y, k, r) = _pointwise(planes, blurred)
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    out = fs["output"]
    out.bound(x, 0, SIZE[0]).bound(y, 0, SIZE[1]).bound(k, 0, PLANES_OUT)
    out.compute_root().tile(x, y, xo, yo, xi, yi, *SIZE).reorder(xi, yi, k, xo, yo).hw_accelerate(xi, xo)
    if blurred:
        fs["blur"].compute_at(out, xo)
    fs["conv"].compute_at(out, xo)
    if sweep:
        fs["conv"].update().reorder(k, x, y, r.x).unroll(k)
    else:
        fs["conv"].update().unroll(k if blurred else r.x)
    fs["hw_input"].compute_root().stream_to_accelerator()
    return out


def _figures(design) -> tuple[int, int, int]:
    rep = design.report
    return rep["predicted_cycles"], rep["pes"], rep["mem_tiles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("planes", "blurred"), [(6, False)], ids=["stream_of_6_planes"])
def test_a_sum_over_planes_streamed_one_after_another_sweeps_the_frame_per_plane(planes, blurred, simulator,
                                                                                  compile_shared, build_dir):
    out, source = _auto(planes, blurred)
    assert 'funcs["conv"].update(0).reorder(vars["x"], vars["y"], vars["k"], "r$x")' in source
    assert 'funcs["conv"].update(0).unroll(vars["k"])' in source and 'unroll("r$x")' not in source
    tag = f"{planes}_{int(blurred)}"
    design = compile_shared(out, name=f"auto_sweep_{tag}")
    hand = compile_shared(_hand(planes, blurred, True), name=f"hand_sweep_{tag}")
    in_a_row = compile_shared(_hand(planes, blurred, False), name=f"hand_in_a_row_{tag}")
    assert _figures(design) == _figures(hand)
    assert design.report["predicted_cycles"] < 0.9 * in_a_row.report["predicted_cycles"]
    assert sum(b["words"] for b in design.report["buffers"]) < sum(b["words"] for b in in_a_row.report["buffers"])
    res = design.check(design.example_inputs(5), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_blur_of_each_of_4_planes_makes_them_together_from_a_stream_channels_first(simulator, compile_shared,
                                                                                    build_dir):
    """The blur reads the stream at its own plane c (automl16, session 32): the stream carries a pixel's 4 planes a
    transfer and the blur unrolls c, so the sums take them together, no sweep: 68 cycles and 50 words against the
    hand sweep's 354 and 168."""
    out, source = _auto(4, True)
    assert 'funcs["blur"].unroll(vars["c"])' in source and 'update(0).reorder' not in source
    assert 'funcs["hw_input"].reorder(vars["c"], vars["x"], vars["y"]).unroll(vars["c"])' in source
    design = compile_shared(out, name="auto_planes_4_1")
    hand = compile_shared(_hand(4, True, True), name="hand_sweep_4_1")
    assert design.report["predicted_cycles"] < 0.5 * hand.report["predicted_cycles"]
    assert sum(b["words"] for b in design.report["buffers"]) < 0.5 * sum(b["words"] for b in hand.report["buffers"])
    res = design.check(design.example_inputs(5), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_a_stream_of_a_few_planes_still_streams_them_together():
    # 3 planes read by a sum unrolled whole stream a pixel's planes in one transfer (channels first): no sweep.
    _, source = _auto(3, False)
    assert 'funcs["conv"].update(0).reorder' not in source
    assert 'funcs["conv"].update(0).unroll("r$x")' in source
    assert 'funcs["hw_input"].reorder(vars["c"], vars["x"], vars["y"]).unroll(vars["c"])' in source


def test_the_sweep_at_two_lanes(build_dir):
    # At 2 pixels per cycle the sums sweep the frame per plane with x in 2 lanes: 202 cycles for an ideal of 144 at
    # 8x6 (312 with the stream's 6 planes held whole, r unrolled), bit-exact.
    fs, _ = _pointwise(6, False)
    fs["output"].set_estimates([(0, SIZE[0]), (0, SIZE[1]), (0, PLANES_OUT)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "2"})
    source = hl.Pipeline(fs["output"]).apply_autoscheduler(hl.CGRA(), params).schedule_source
    assert 'funcs["conv"].update(0).reorder(vars["x"], vars["y"], vars["k"], "r$x")' in source
    assert 'funcs["conv"].update(0).unroll(vars["x"], 2, up)' in source
    design = hl.compile(fs["output"], name="auto_sweep_lanes")
    assert design.report["ideal_cycles"] == SIZE[0] // 2 * SIZE[1] * 6
    res = design.check(design.example_inputs(5), simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= 1.5 * design.report["ideal_cycles"]
