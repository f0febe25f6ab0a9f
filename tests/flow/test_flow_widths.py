"""Registers narrowed by value ranges, end to end (passes: the whole compile driver: buffer_ranges and widths in
compute, kernel_widths and top_widths in the Verilog; then sim): an 8-bit pixel widened to uint16 sits in 8-bit
registers, a product of it in 13-bit stage registers, a signed difference of pixels in 9-bit ones, the kernels
are proved under their input ranges, storage is reported in bits beside words, and the designs stay bit-exact
on both simulators."""

from __future__ import annotations

import re

import numpy as np
import pytest

import mainspring as hl
from mainspring import apps
from mainspring.apps.common import accelerate
from mainspring.compiler import compile  # noqa: A004 - mainspring's compile

SIMULATORS = ("icarus", "verilator")


def _gaussian(size: int = 12):
    out, inputs = apps.load("gaussian").build(size, size)
    return compile(out, name="gaussian"), inputs


def _difference(size: int = 12):
    """diff = i16(in(x + 1, y)) - i16(in(x, y)) of a uint8 image, as int16: values in [-255, 255]."""
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.UInt(8), 2, "image")
    hw_input, diff, hw_output, output = hl.Func("hw_input"), hl.Func("diff"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.i16(image[x, y])
    diff[x, y] = hw_input[x + 1, y] - hw_input[x, y]
    hw_output[x, y] = diff[x, y]
    output[x, y] = hw_output[x, y]
    accelerate(output, hw_output, size, size, [diff], hw_input)
    rng = np.random.default_rng(5)
    return compile(output, name="difference"), {"image": rng.integers(0, 256, (size, size + 1), dtype=np.uint8)}


def test_a_widened_pixel_sits_in_8_bit_registers():
    design, _ = _gaussian()
    v = design.verilog
    taps = re.findall(r"reg \[(\d+):0\] hw_input_w0_reg\d+;", v)
    assert taps and set(taps) == {"7"}, taps
    assert re.search(r"reg \[7:0\] blur_w0;", v)  # blur = blur_unnormalized / 256 is in [0, 252]
    assert "reg [12:0] mul_10_r1;" in v  # a kernel's stage register: 24 times a pixel
    assert "// Input ranges assumed (the values the buffers it loads hold): hw_input_0 in [0, 255]," in v
    assert "// Output ranges (proved under the input ranges): out in [0, 64515]." in v
    assert design.report["kernels_proved"] == 3 and not design.report["kernels_unproved"]
    (buf,) = [b for b in design.report["buffers"] if b["name"] == "hw_input"]
    registers = len(design.plan.buffer("hw_input").registers)
    assert buf["bits"] == (buf["words"] - registers) * 16 + registers * 8


def test_a_signed_difference_is_sign_extended_from_9_bits():
    design, _ = _difference()
    v = design.verilog
    assert re.search(r"reg \[8:0\] diff_w0;", v)
    assert ".diff_0({{7{diff_w0[8]}}, diff_w0})" in v  # the next kernel reads it sign-extended
    assert re.search(r"reg \[7:0\] hw_input_w0_reg1;", v)  # the pixel, [0, 255] as int16


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("make", [_gaussian, _difference], ids=["gaussian", "difference"])
def test_narrowed_designs_are_bit_exact(make, simulator, build_dir):
    design, inputs = make()
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    stalled = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=7)
    assert np.array_equal(stalled.output, res.output)
