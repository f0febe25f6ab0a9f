"""Inline reductions (`hl.sum`, `hl.maximum`, ... of an RDom with constant bounds) inside the accelerator are
unrolled into one expression, as Halide inlines them; an unscheduled Func whose update cannot be (a scan) is
buffered at the accelerator's loop (passes: lower, the whole flow)."""

import pytest

import mainspring as hl
from mainspring.apps.common import accelerate, random_image

from conftest import SIMULATORS


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_inline_sum_and_maximum(simulator, build_dir, compile_shared):
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 2)], "r")
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = hl.sum(hw_input[x + r.x, y + r.y]) + hl.maximum(hw_input[x + r.x, y])
    accelerate(hw_output, hw_output, 20, 10, [], hw_input)
    design = compile_shared(hw_output, name="inline_red")
    assert design.report["pes"] > 0
    design.check({"input": random_image(22, 11, seed=3)}, simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_unscheduled_scan_is_buffered(simulator, build_dir, compile_shared):
    # Halide computes a Func whose update cannot be inlined at its consumer's innermost loop; the values are
    # the same when the hardware buffers it at the accelerator's loop.
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(1, 7)], "r")
    scan = hl.Func("scan")
    scan[x, y] = hw_input[x, y]
    scan[r.x, y] = scan[r.x - 1, y] + hw_input[r.x, y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = scan[x, y]
    accelerate(hw_output, hw_output, 8, 4, [], hw_input)
    design = compile_shared(hw_output, name="inline_scan")
    assert "scan" in [b["name"] for b in design.report["buffers"]]
    design.check({"input": random_image(8, 4, seed=5)}, simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("level", ["x", "y", "outermost"])
def test_funcs_computed_at_the_loops_of_an_unscheduled_update(level, simulator, build_dir, compile_shared):
    # Halide gives an unscheduled Func with an update (conv) loops of its own at its consumer's innermost loop, so
    # Funcs may be computed at them (Halide-to-Hardware's cpu_accel_partition computes its kernel at conv.x).
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, g, conv, hw_output = hl.Func("hw_input"), hl.Func("g"), hl.Func("conv"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    g[x, y] = hw_input[x, y] * 2 + 1
    conv[x, y] = hl.u16(0)
    conv[x, y] += g[x + r.x, y + r.y] * hl.u16(r.x + 1)
    hw_output[x, y] = hl.u8(conv[x, y] >> 2)
    accelerate(hw_output, hw_output, 10, 6, [], hw_input)
    g.compute_at(conv, {"x": x, "y": y}.get(level, hl.Var.outermost()))
    conv.update().unroll(r.x).unroll(r.y)
    design = compile_shared(hw_output, name="at_unscheduled_update")
    design.check({"input": random_image(12, 8, seed=6)}, simulator=simulator, build_dir=build_dir)
