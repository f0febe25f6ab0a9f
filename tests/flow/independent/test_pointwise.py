"""pointwise_generator.cpp: hw_input = u16(input); mult = hw_input * 2; output = u8(hw_output)."""

import numpy as np
import pytest
from porting import params, rand_image, run

import mainspring as hl


def pointwise(size=64, unroll=1, as_written=True, in_dtype=np.uint8, wrapper_at=False):
    x, y = hl.Var("x"), hl.Var("y")
    input = hl.ImageParam(hl.UInt(8) if in_dtype == np.uint8 else hl.UInt(16), 2, "input")
    hw_input, hw_output, mult = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("mult")
    hw_input[x, y] = hl.cast(hl.UInt(16), input[x, y])
    mult[x, y] = hw_input[x, y] * 2
    hw_output[x, y] = mult[x, y]
    output = hl.Func("output")
    output[x, y] = hl.cast(hl.UInt(8), hw_output[x, y])

    xi, yi, xo, yo = hl.Var("xi"), hl.Var("yi"), hl.Var("xo"), hl.Var("yo")
    output.bound(x, 0, size)
    output.bound(y, 0, size)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, size, size).hw_accelerate(xi, xo)
    hw_output.unroll(xi, unroll)
    mult.compute_at(hw_output, xo).unroll(x, unroll)
    hw_input.stream_to_accelerator()
    if wrapper_at:  # the refusal's suggested fix: give the wrapper loops of its own
        hw_input.in_().compute_at(hw_output, xo).unroll(x, unroll)
    elif as_written:
        hw_input.in_().unroll(x, unroll)
    else:
        hw_input.unroll(x, unroll)
    return output, {"input": rand_image(size, size, seed=1, dtype=in_dtype, hi=256 if in_dtype == np.uint8 else 65536)}


def pointwise_default():
    return pointwise(16)


def pointwise_wrapper_unroll_to_input():
    return pointwise(16, as_written=False)


def pointwise_unroll2():
    return pointwise(16, unroll=2, as_written=False)


def pointwise_unroll2_as_written():
    return pointwise(16, unroll=2, as_written=True)


def pointwise_u16_input():
    return pointwise(16, in_dtype=np.uint16, as_written=False)


def pointwise_generator_size():
    return pointwise(64)


def pointwise_wrapper_compute_at():
    return pointwise(16, wrapper_at=True)


def pointwise_wrapper_compute_at_unroll2():
    return pointwise(16, unroll=2, wrapper_at=True)


def pointwise_generator_size_adapted():
    return pointwise(64, as_written=False)


def pointwise_e64_unroll8():  # myunroll_E64 (E64_MODE_ON=1)
    return pointwise(64, unroll=8, as_written=False)


def pointwise_e64_mb_unroll16():  # myunroll_E64_MB (E64_MULTI_BANK_MODE_ON=1)
    return pointwise(64, unroll=16, as_written=False)


CASES = {f.__name__: f for f in (pointwise_default, pointwise_wrapper_unroll_to_input, pointwise_unroll2,
                                 pointwise_unroll2_as_written, pointwise_u16_input, pointwise_wrapper_compute_at,
                                 pointwise_wrapper_compute_at_unroll2, pointwise_generator_size_adapted,
                                 pointwise_e64_unroll8, pointwise_e64_mb_unroll16)}
REFUSED_LIKE_HALIDE = ("Halide 21 refuses it too: 'Cannot unroll dimension x of function hw_input_global_wrapper "
                       "because the function is scheduled inline' (hw_input.in().unroll(x, unroll) as written)")
# Halide 21 refuses these (REFUSED_LIKE_HALIDE); since session 39 (frontend/stream_wrapper.py) mainspring takes
# the reference system's meaning: the inline wrapper of a streamed Func unrolls the stream.
XFAIL: dict[str, str] = {}


@pytest.mark.parametrize("case,simulator", params(CASES, XFAIL), indirect=["simulator"])
def test_pointwise(case, simulator):
    run(case, CASES[case], simulator)
