"""Seed 002's schedule with the bounds on the accelerated copy `hw_output` instead of the host's `output`
(`hw_output.bound(x, 0, W).bound(y, 0, H)`): Halide accepts it, the output's size coming from realize([W, H]);
the compile takes that size from the bound (frontend/output_bounds.py), builds byte for byte the design of the
same schedule with the output bounded, and is bit-exact on both simulators. So do several outputs that read a
bounded Tuple hw_output (frontend/outputs.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from test_flow_several_outputs import _blur_and_gradient, two_outputs

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
W, H = 16, 8


def _blur(bound: str, offset: int = 0) -> tuple[hl.Func, hl.ImageParam]:
    """input -> hw_input -> a 3x3 box blur -> hw_output (one accelerator tile) -> output on the host, bounded on
    `bound` ("hw_output" or "output"); the output reads hw_output `offset` pixels to the right."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, blur_x, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur_x", "blur", "hw_output",
                                                                       "output"))
    hw_input[x, y] = hl.u16(inp[x, y])
    blur_x[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    blur[x, y] = (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 9
    hw_output[x, y] = blur[x, y]
    output[x, y] = hl.u8(hw_output[x + offset, y] if offset else hw_output[x, y])
    (hw_output if bound == "hw_output" else output).bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    blur_x.compute_at(hw_output, xo)
    blur.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output, inp


def test_a_bound_on_hw_output_builds_the_design_of_a_bound_on_output():
    def files(bound: str) -> dict[str, str]:  # the report's compile time aside
        out = hl.compile(_blur(bound)[0], name="blur").files()
        out["blur.report.json"] = re.sub(r'"compile_seconds": [0-9.]+', "", out["blur.report.json"])
        return out

    assert files("hw_output") == files("output")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_bound_on_hw_output_is_bit_exact(simulator, build_dir, compile_shared):
    output, inp = _blur("hw_output")
    design = compile_shared(output, name="blur")
    inputs = design.example_inputs(5)
    design.check(inputs, simulator=simulator, build_dir=build_dir)
    inp.set(inputs["input"])  # Halide's realize of the size the bound fills gives the reference's output
    want = design.reference_output(inputs)
    assert want.shape == (H, W)
    np.testing.assert_array_equal(np.asarray(output.realize([W, H])), want)


def test_a_read_at_an_offset_takes_the_region_the_bound_allows():
    """output[x, y] = hw_output[x + 1, y]: Halide's realize of [-1, W - 1) reads hw_output over its bound
    (test_flow_output_regions.py simulates such reads)."""
    assert hl.compile(_blur("hw_output", offset=1)[0], name="blur").program.output_box == [(-1, W - 2), (0, H - 1)]


def test_several_outputs_take_their_size_from_hw_output():
    """test_flow_several_outputs' two outputs of one Tuple hw_output, bounded on hw_output only: the design of the
    outputs bounded (which that file checks on both simulators)."""
    def two_outputs_bounded_inside():
        x, y, hw_output = _blur_and_gradient()
        blurred, gradient = hl.funcs("blurred gradient")
        blurred[x, y] = hw_output[x, y][0]
        gradient[x, y] = hw_output[x, y][1]
        hw_output.bound(x, 0, 16).bound(y, 0, 12)
        return [blurred, gradient]

    def files(outputs) -> dict[str, str]:
        out = hl.compile(outputs, name="two").files()
        out["two.report.json"] = re.sub(r'"compile_seconds": [0-9.]+', "", out["two.report.json"])
        return out

    assert files(two_outputs_bounded_inside()) == files(two_outputs())
