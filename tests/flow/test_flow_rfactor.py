"""`f.update().rfactor(r.y, v)` (frontend/rfactor.py): an associative reduction split into an intermediate Func
of partial results, bit for bit on both simulators, with the reference equal to real Halide's where it is
installed. On the accelerator the intermediate's v, unrolled, is lanes of partial results that the update's
unrolled r.y sums. rfactor of a split RVar (Halide's idiom `split(r.y, ryo, ryi, 2).rfactor(ryo, v)`): the split's
parts become dimensions of the RDom, a factor that does not divide guarded as Halide guards an RVar's split."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS


def _algorithm(h, where: bool, op: str):
    """A 3x3 window of a 16-bit input, summed (times 3) or reduced by min; `where` skips the anti-diagonal."""
    x, y, v = h.Var("x"), h.Var("y"), h.Var("v")
    image = h.ImageParam(h.UInt(16), 2, "input")
    hw_input, f = h.Func("hw_input"), h.Func("f")
    hw_input[x, y] = image[x, y]
    r = h.RDom([h.Range(0, 3), h.Range(0, 3)], "r")
    if where:
        r.where(r.x + r.y != 2)
    if op == "add":
        f[x, y] = h.u16(0)
        f[x, y] += hw_input[x + r.x, y + r.y] * h.u16(3)
    else:
        f[x, y] = h.u16(65535)
        f[x, y] = h.min(f[x, y], hw_input[x + r.x, y + r.y])
    return x, y, v, image, hw_input, r, f


def _inputs(seed: int) -> dict:
    return {"input": np.random.default_rng(seed).integers(0, 4000, (10, 10), dtype=np.uint16)}


def _compiled(where: bool, op: str, lanes: bool, scheduled_first: bool = False):
    x, y, v, _, hw_input, r, f = _algorithm(hl, where, op)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    if scheduled_first:  # as Halide: the unroll of r.x goes to the intermediate's update, of r.y to the merged one
        intm = f.update().reorder(r.x, r.y, x, y).unroll(r.x).unroll(r.y).rfactor(r.y, v)
        assert intm._fn.definitions[1].schedule.lane_dims() == {"r$x"}
        assert f._fn.definitions[1].schedule.lane_dims() == {"r$y"}
    else:
        intm = f.update().rfactor(r.y, v)
    assert intm.name() == "f_intm"
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = f[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    f.compute_at(hw_output, xo)
    if not scheduled_first:
        f.update().unroll(r.y)
        if lanes:
            intm.update().unroll(r.x)
    if lanes:  # three partial results per pixel in parallel, each a tree over r.x: one pixel per cycle
        intm.compute_at(f, x).unroll(v).update().unroll(v)
    else:  # the partial results buffered, each summing r.x serially
        intm.compute_at(hw_output, xo).unroll(v).update().unroll(v)
    return hl.compile(output, name=f"rfactor_{op}_{int(where)}_{int(lanes)}_{int(scheduled_first)}")


def _halide(where: bool, op: str, inputs: dict):
    halide = pytest.importorskip("halide")
    _, _, _, image, _, _, f = _algorithm(halide, where, op)
    image.set(halide.Buffer(inputs["input"]))
    return np.asarray(f.realize([8, 8]))


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("where", "op", "lanes"), [(False, "add", True), (True, "add", False), (True, "min", True),
                                                    (True, "add", True)])
def test_rfactor_partial_results_are_bit_exact(where, op, lanes, simulator, build_dir):
    design = _compiled(where, op, lanes)
    if where and op == "add" and lanes:  # each lane's skipped tap is its constant factor 0 (lane_constants.py)
        assert design.report["pes"] == _compiled(False, "add", True).report["pes"]
    inputs = _inputs(int(where) + 2 * int(lanes))
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    if lanes:
        assert design.report["predicted_cycles"] <= 1.1 * design.report["ideal_cycles"]
    assert np.array_equal(design.reference_output(inputs), _halide(where, op, inputs))


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_rfactor_after_the_stages_schedule_calls_is_bit_exact(simulator, build_dir):
    """The stage's reorder and unrolls before rfactor carried over as Halide carries them: the same lanes as
    rfactor first, then the unrolls."""
    design = _compiled(False, "add", True, scheduled_first=True)
    first = _compiled(False, "add", True)
    assert design.report["pes"] == first.report["pes"]
    inputs = _inputs(11)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= 1.1 * design.report["ideal_cycles"]
    assert np.array_equal(design.reference_output(inputs), _halide(False, "add", inputs))


def test_rfactor_preserving_every_rvar_makes_the_partial_results_pure():
    _, _, v, image, _, r, f = _algorithm(hl, False, "add")
    intm = f.update().rfactor([(r.x, hl.Var("u")), (r.y, v)])
    assert len(intm._fn.definitions) == 1 and intm._fn.args == ("x", "y", "u", "v")  # each partial result a term
    inputs = _inputs(5)
    image.set(hl.Buffer(inputs["input"]))
    assert np.array_equal(np.asarray(f.realize([8, 8])), _halide(False, "add", inputs))


def _split_then_rfactor(h, preserved: str):
    """The 3x3 sum with r.y split by 2 (3 rows: the last part guarded), rfactor of its outer or inner part."""
    x, y, v, image, hw_input, r, f = _algorithm(h, False, "add")
    ryo, ryi = h.RVar("ryo"), h.RVar("ryi")
    intm = f.update().split(r.y, ryo, ryi, 2).rfactor(ryo if preserved == "outer" else ryi, v)
    return x, y, v, image, hw_input, r, f, intm, (ryo, ryi)


@pytest.mark.parametrize("preserved", ["outer", "inner"])
def test_rfactor_of_a_split_rvar_matches_halide(preserved):
    halide = pytest.importorskip("halide")
    inputs = _inputs(7)
    want = _split_then_rfactor(halide, preserved)
    want[3].set(halide.Buffer(inputs["input"]))
    got = _split_then_rfactor(hl, preserved)
    got[3].set(hl.Buffer(inputs["input"]))
    assert np.array_equal(np.asarray(got[6].realize([8, 8])), np.asarray(want[6].realize([8, 8])))


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_rfactor_of_a_split_rvar_is_bit_exact(simulator, build_dir, compile_shared):
    """4 taps along x split in two pairs, each pair a partial result (a factor that divides: no guard)."""
    x, y, v, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "v", "xo", "yo", "xi", "yi"))
    image = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, f, hw_output, output = (hl.Func(n) for n in ("hw_input", "f", "hw_output", "output"))
    hw_input[x, y] = image[x, y]
    r = hl.RDom([hl.Range(0, 4), hl.Range(0, 2)], "r")
    f[x, y] = hl.u16(0)
    f[x, y] += hw_input[x + r.x, y + r.y] * hl.u16(r.x + 1)
    rxo, rxi = hl.RVar("rxo"), hl.RVar("rxi")
    intm = f.update().split(r.x, rxo, rxi, 2).rfactor(rxo, v)
    hw_output[x, y] = f[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    f.compute_at(hw_output, xo).update().unroll(rxo)
    intm.compute_at(f, x).unroll(v).update().unroll(rxi).unroll(r.y).unroll(v)
    design = compile_shared(output, name="rfactor_split")
    inputs = {"input": np.random.default_rng(8).integers(0, 4000, (9, 11), dtype=np.uint16)}
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 1.1 * design.report["ideal_cycles"]


def _taps_split(h, extent: int, factor: int, preserved: str = "outer"):
    """`extent` weighted taps along x, r.x split by `factor` (not dividing: the last part guarded) and its outer
    or inner part rfactored into lanes u."""
    x, y, u = h.Var("x"), h.Var("y"), h.Var("u")
    image = h.ImageParam(h.UInt(16), 2, "input")
    hw_input, f = h.Func("hw_input"), h.Func("f")
    hw_input[x, y] = image[x, y]
    r = h.RDom([h.Range(0, extent)], "r")
    f[x, y] = h.u16(0)
    f[x, y] += hw_input[x + r.x, y] * h.u16(r.x + 1)
    rxo, rxi = h.RVar("rxo"), h.RVar("rxi")
    intm = f.update().split(r.x, rxo, rxi, factor).rfactor(rxo if preserved == "outer" else rxi, u)
    return x, y, u, image, hw_input, f, intm, (rxo, rxi)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("extent", "factor"), [(3, 2), (5, 3)])
def test_rfactor_of_a_split_that_does_not_divide_is_bit_exact(extent, factor, simulator, build_dir, compile_shared):
    """The guarded last part clamps its taps at the RVar's last point; over two parts each tap's addresses lie on
    a line (x + min(2 * u + 1, 2) is x + u + 1 over lanes u = 0, 1), so the memories serve them. (Three parts,
    or the inner part preserved, are not a line: the next test.)"""
    halide = pytest.importorskip("halide")
    inputs = {"input": np.random.default_rng(extent * factor).integers(0, 4000, (8, 8 + extent), dtype=np.uint16)}
    want = _taps_split(halide, extent, factor)
    want[3].set(halide.Buffer(inputs["input"]))
    x, y, u, _, hw_input, f, intm, (rxo, rxi) = _taps_split(hl, extent, factor)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = f[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    f.compute_at(hw_output, xo).update().unroll(rxo)
    intm.compute_at(f, x).unroll(u).update().unroll(rxi).unroll(u)
    design = compile_shared(output, name=f"rfactor_guarded_{extent}_{factor}")
    assert np.array_equal(design.reference_output(inputs), np.asarray(want[5].realize([8, 8])))
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("extent", "factor", "preserved", "unrolled"), [
    (5, 2, "outer", True), (7, 3, "outer", False), (3, 2, "outer", False), (5, 3, "inner", True)])
def test_rfactor_of_a_split_with_taps_off_a_line_guards_them(extent, factor, preserved, unrolled, simulator,
                                                              build_dir, compile_shared):
    """Where the clamped taps lie on no line (three parts, a serial inner part, the inner part preserved), the
    tap past the extent, whose value the select discards, is read unclamped under a guard
    (hwlower/guarded_clamps.py): x + 2 * u + rxi, read where 2 * u + rxi <= 2."""
    halide = pytest.importorskip("halide")
    inputs = {"input": np.random.default_rng(extent + factor).integers(0, 4000, (6, 6 + extent), dtype=np.uint16)}
    want = _taps_split(halide, extent, factor, preserved)
    want[3].set(halide.Buffer(inputs["input"]))
    x, y, u, _, hw_input, f, intm, (rxo, rxi) = _taps_split(hl, extent, factor, preserved)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = f[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 6).bound(y, 0, 6)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 6).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    kept, other = (rxo, rxi) if preserved == "outer" else (rxi, rxo)
    f.compute_at(hw_output, xo).update().unroll(kept)
    intm.compute_at(f, x).unroll(u)
    if unrolled:
        intm.update().unroll(other).unroll(u)
    design = compile_shared(output, name=f"rfactor_guarded_tap_{extent}_{factor}")
    assert np.array_equal(design.reference_output(inputs), np.asarray(want[5].realize([6, 6])))
    design.check(inputs, simulator=simulator, build_dir=build_dir)


def _over_an_upsample(h):
    """A 2x2 window summed over an inlined 2x upsample; returns (input, f, up, r)."""
    x, y = h.Var("x"), h.Var("y")
    image = h.ImageParam(h.UInt(16), 2, "input")
    hw_input, up, f = h.Func("hw_input"), h.Func("up"), h.Func("f")
    hw_input[x, y] = h.u8(image[x, y])
    up[x, y] = h.u8((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    r = h.RDom([h.Range(0, 2), h.Range(0, 2)], "r")
    f[x, y] = h.u8(0)
    f[x, y] += up[x + r.x, y + r.y] * h.u8(r.x + 2)
    return image, hw_input, f, r


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("tile", [(6, 4), (3, 2)])
def test_rfactor_over_an_inlined_upsample_buffers_it(tile, simulator, halide, build_dir, compile_shared):
    """rfactor(r.y, v) over an inlined upsample reads it at (y + v) / 2, affine in no split of y and v (fuzz
    9146145); the upsample is buffered (hwlower/region.py) and read at y + v."""
    inputs = {"input": np.random.default_rng(tile[0]).integers(0, 4000, (5, 6), dtype=np.uint16)}
    want = _over_an_upsample(halide)
    want[0].set(halide.Buffer(inputs["input"]))
    _, hw_input, f, r = _over_an_upsample(hl)
    x, y, v, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "v", "xo", "yo", "xi", "yi"))
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = f[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 6).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    intm = f.update().rfactor(r.y, v)
    intm.compute_at(f, x).unroll(v).update().unroll(r.x).unroll(v)
    f.compute_at(hw_output, xo).update().unroll(r.y)
    design = compile_shared(output, name=f"rfactor_over_upsample_{tile[0]}")
    assert np.array_equal(design.reference_output(inputs), np.asarray(want[2].realize([6, 4])))
    design.check(inputs, simulator=simulator, build_dir=build_dir)
