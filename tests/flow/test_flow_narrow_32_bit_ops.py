"""32-bit ops whose values fit 16 bits computed on 16-bit PEs, end to end (passes: the whole compile driver, with
compute_json's narrow_32_bit_ops; each kernel proved equal to its Halide expression; then sim): Int(32)
arithmetic on 8-bit pixels costs the PEs of 16-bit arithmetic, values that do not fit 16 bits (a product of two
pixels times 300, a uint32 difference that wraps) stay 32-bit, and the designs are bit-exact on both
simulators."""

from __future__ import annotations

import pytest
from newcomer_algorithms2 import yuv_interleaved

import mainspring as hl

from conftest import SIMULATORS

SIZE = (24, 12)


def _pointwise(name, make):
    """out(x, y) = make(image(x, y), image(x + 1, y)) of a uint8 image, autoscheduled."""
    def build(m, width, height):
        image = m.ImageParam(m.UInt(8), 2, "image")
        x, y = m.Var("x"), m.Var("y")
        out = m.Func(name)
        out[x, y] = make(m, image[x, y], image[x + 1, y])
        out.set_estimates([(0, width), (0, height)])
        return out, [width, height], image
    build.__name__ = name
    return build


times_66 = _pointwise("times_66", lambda m, p, q: m.i32(p) * 66)
# p * q is at most 65025 (16 bits, unsigned); times 300 it needs 25 bits: one 16-bit and one 32-bit multiply
product_times_300 = _pointwise("product_times_300", lambda m, p, q: m.i32(p) * m.i32(q) * 300)
# negative for p < 200: the uint32 result wraps to 2**32 - k, which no 16-bit op gives
wrapping_u32 = _pointwise("wrapping_u32", lambda m, p, q: m.u32(p) - m.u32(200) + m.u32(q) * 3)

# (algorithm, PEs at most: 16-bit ops where values fit; before the pass 222, 4, 8, 6)
DESIGNS = [(yuv_interleaved, 100), (times_66, 1), (product_times_300, 5), (wrapping_u32, 6)]
CASES = [(a, most, s) for a, most in DESIGNS for s in SIMULATORS]


@pytest.mark.parametrize(("algorithm", "most", "simulator"), CASES, indirect=["simulator"],
                         ids=[f"{a.__name__}-{s}" for a, _, s in CASES])
def test_32_bit_ops_that_fit_cost_16_bit_pes_and_stay_bit_exact(algorithm, most, simulator, compile_shared,
                                                                 build_dir):
    out, _, _ = algorithm(hl, *SIZE)
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
    design = compile_shared(out, name=f"narrow32_{algorithm.__name__}")
    rep = design.report
    assert rep["pes"] <= most, rep["pes"]
    assert not rep["kernels_unproved"], rep["kernels_unproved"]
    res = design.check(design.example_inputs(3), simulator=simulator, build_dir=build_dir)
    assert res.cycles == rep["predicted_cycles"] <= 1.1 * rep["ideal_cycles"], (res.cycles, rep["ideal_cycles"])
