"""`output.bound_extent(v, e)` alone (issue 8): Halide forces the extent and takes the min from the realize, 0 for a
realize of the output's size, as hl.compile does (hwlower/bounds.py). Its extent counts as a constant where one is
needed: `unroll(c)` of 3 channels bounded so (frontend/pipeline.py `_inferred_extent`), and the autoscheduler's
output size (mainspring/autoschedule_images.py). Bit-exact on both simulators; the reference equals Halide 21's.
probe22e's output_bound_extent_only (test_probe22.py) is the host-tiled case."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS

W, H, C = 8, 4, 3
IMAGE = (np.arange(W * H * C).reshape(C, H, W) * 13 % 256).astype(np.uint8)


def _algorithm(m):
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    inp = m.ImageParam(m.UInt(8), 3, "input")
    hw_input, hw_output, output = (m.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y, c] = inp[x, y, c]
    hw_output[x, y, c] = hw_input[x, y, c] * m.cast(m.UInt(8), c + 2) + hw_input[x, y, 0]
    output[x, y, c] = hw_output[x, y, c]
    output.bound_extent(x, W).bound_extent(y, H).bound_extent(c, C)
    return inp, (x, y, c), hw_input, hw_output, output


@functools.cache
def _design() -> hl.Design:
    _, (x, y, c), hw_input, hw_output, output = _algorithm(hl)
    hw_output.compute_root().reorder(c, x, y).unroll(c).hw_accelerate(c, hl.Var.outermost())
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="bound_extent_channels")


@pytest.mark.xdist_group("output_bound_extent")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_channels_unrolled_over_a_bound_extent_are_bit_exact(simulator, build_dir):
    design = _design()
    assert design.program.output_box == [(0, W - 1), (0, H - 1), (0, C - 1)]
    res = design.check({"input": hl.Buffer(IMAGE)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    assert (design.report["predicted_cycles"], design.report["ideal_cycles"]) == (98, 96)


def test_the_reference_is_halides(halide):
    inp, _, _, _, output = _algorithm(halide)
    inp.set(halide.Buffer(IMAGE))
    want = np.asarray(output.realize([W, H, C]))
    np.testing.assert_array_equal(_design().reference_output({"input": hl.Buffer(IMAGE)}), want)


def test_the_autoscheduler_takes_the_extent_at_min_0():
    _, _, _, _, output = _algorithm(hl)
    hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
    assert hl.compile(output, name="bound_extent_auto").program.output_box == [(0, W - 1), (0, H - 1), (0, C - 1)]
