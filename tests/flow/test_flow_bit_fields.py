"""Bit fields on the array: `hl.concat_bits` of two neighbouring pixels and `hl.extract_bits` of the middle bits
of a 16-bit sum, lowered to shifts, masks and casts the PEs compute; bit-exact on both simulators."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image

from conftest import SIMULATORS

W, H = 16, 6


def _bit_fields():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    pair = hl.concat_bits([hw_input[x, y], hw_input[x + 1, y]])  # uint16: x's pixel low, x + 1's high
    middle = hl.extract_bits(hl.UInt(8), hl.u16(hw_input[x, y]) + hw_input[x, y + 1], 1)
    hw_output[x, y] = pair ^ hl.u16(middle)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_concat_and_extract_bits_on_the_array(simulator, compile_shared, build_dir):
    design = compile_shared(_bit_fields(), name="bit_fields")
    image = random_image(W + 1, H + 1, seed=12)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    c = image.astype(np.int64)
    pair = c[:H, :W] | (c[:H, 1:W + 1] << 8)
    middle = ((c[:H, :W] + c[1:H + 1, :W]) >> 1) & 0xFF
    assert np.array_equal(res.output, (pair ^ middle).astype(np.uint16))
