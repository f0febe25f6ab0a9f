"""The dense schedule runs an op whose loop-carried flow is slower than one cycle at the interval that flow needs,
and every other op at one firing per cycle (memories/schedule.py `_slow_recurrences`): a histogram with u32 counts,
its running sum read per pixel, ran the whole fused schedule at interval 2 (17x3: 239 cycles for an ideal of 51, the
same with u16 counts 124), then 139 with the sum's two PE stages alone at interval 2. The sum's carried operand is
now read in its kernel's last stage (compiler.py `_accumulates`), so a 32-bit scan takes a step a cycle: fused, 124
cycles as with u16 counts. A PE whose result comes 2 cycles after its operands (`hl.CGRA(pe_latency=2)`) slows
the scan again, and only it."""

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS


def _equalise_u32(m, width: int, height: int, counts):
    """Each pixel's level (16 levels) mapped to the running sum of its image's histogram, counted in `counts`."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    r = m.RDom([(0, width), (0, height)])
    k = m.RDom([(1, 15)])
    hist, cdf, out = m.Func("hist"), m.Func("cdf"), m.Func("out")
    hist[i] = counts(0)
    hist[m.clamp(m.i32(image[r.x, r.y]) / 16, 0, 15)] += counts(1)
    cdf[i] = hist[i]
    cdf[k.x] = cdf[k.x - 1] + hist[k.x]
    out[x, y] = m.u16(cdf[m.clamp(m.i32(image[x, y]) / 16, 0, 15)])
    out.set_estimates([(0, width), (0, height)])
    return out, image


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_32_bit_running_sum_slows_only_itself(simulator, compile_shared, build_dir, halide):
    fast, _ = _equalise_u32(hl, 17, 3, hl.u32)
    hl.Pipeline(fast).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    fused = compile_shared(fast, name="equalise_u32").report
    # two passes (the histogram of the frame, then the lookups): issue 8's ideal is their sum since twopass16
    assert fused["schedule"] == "fused" and fused["ideal_cycles"] == 2 * 51 and fused["predicted_cycles"] <= 124
    slow_pe = hl.CGRA(pe_latency=2)
    out, _ = _equalise_u32(hl, 17, 3, hl.u32)
    hl.Pipeline(out).apply_autoscheduler(slow_pe, hl.AutoschedulerParams("Mainspring"))
    design = compile_shared(out, name="equalise_u32_pe2", target=slow_pe)
    rep = design.report
    # the 15 steps of the sum at 2 cycles each, the rest at interval 1 (fused at interval 2: 239 cycles)
    assert rep["schedule"] == "dense" and rep["predicted_cycles"] <= fused["predicted_cycles"] + 15 + 2, rep
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    ref, image = _equalise_u32(halide, 17, 3, halide.u32)
    image.set(halide.Buffer(np.ascontiguousarray(inputs["image"])))
    assert np.array_equal(np.asarray(ref.realize([17, 3])), design.reference_output(inputs))
