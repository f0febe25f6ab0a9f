"""Updates at computed coordinates inside the accelerator (hwlower/scatter.py): a histogram's
`hist(bin(r)) += 1` and other scatters become compare-and-update lanes over the Func's box, one reduction step
per cycle. Bit-exact on both simulators; the reference agrees with Halide 21."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image

SIMULATORS = ("icarus", "verilator")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_histogram_of_a_small_image(simulator, build_dir):
    from mainspring.apps import h2h_histogram

    out, inputs = h2h_histogram.build(9, 5)
    design = hl.compile(out, name="h2h_histogram")
    rep = design.report
    assert rep["predicted_cycles"] <= rep["ideal_cycles"] + 40  # 45 pixels, one per cycle, then 16 bins out
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _max_per_bin(w: int, h: int):
    """The largest high nibble seen for each low nibble: a scatter that is not an add, over a 2-D RDom."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, top, hw_output, output = (hl.Func(n) for n in ("hw_input", "top", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, w), hl.Range(0, h)], "r")
    top[b] = hl.u16(0)
    top[hl.i32(hw_input[r.x, r.y] & 7)] = hl.max(top[hl.i32(hw_input[r.x, r.y] & 7)], hw_input[r.x, r.y] >> 4)
    hw_output[b] = top[b]
    output[b] = hl.u8(hw_output[b])
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, 8)
    hw_output.compute_root().split(b, bo, bi, 8).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    return output, {"input": random_image(w, h, seed=47)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_max_scatter_over_a_bounded_index(simulator, build_dir):
    out, inputs = _max_per_bin(7, 6)
    design = hl.compile(out, name="max_per_bin")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_histogram_reference_equals_halide(halide):
    from mainspring.apps import h2h_histogram

    out, inputs = h2h_histogram.build(12, 10)
    ours = hl.compile(out, name="h2h_histogram").reference_output(inputs)
    x, y, b = halide.Var("x"), halide.Var("y"), halide.Var("b")
    inp = halide.ImageParam(halide.UInt(8), 2, "input")
    binned = halide.Func("bin")
    binned[x, y] = halide.clamp(halide.cast(halide.Int(32), halide.cast(halide.UInt(16), inp[x, y]) & 0xF), 0, 15)
    hist = halide.Func("histogram")
    r = halide.RDom([halide.Range(0, 12), halide.Range(0, 10)])
    hist[b] = halide.cast(halide.UInt(16), 0)
    hist[binned[r.x, r.y]] += halide.cast(halide.UInt(16), 1)
    result = halide.Func("result")
    result[b] = halide.cast(halide.UInt(8), hist[b])
    inp.set(halide.Buffer(np.ascontiguousarray(inputs["input"])))
    assert np.array_equal(np.asarray(result.realize([16])), ours)
