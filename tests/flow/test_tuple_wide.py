"""Tuple Funcs over 32 bits (issue 8 gap; frontend/wide_tuples.py): a Tuple whose elements need more than one
32-bit word held in several words, each a packed Tuple Func under the Func's schedule. Three 16-bit taps (pure), a
(uint32 sum, uint32 count) reduction serial and unrolled, and an argmin with a running sum whose (value, index)
pair reads each other in one word while the sum takes the next, Halide's argmax by hand with int32 coordinates
(laid out again in one word, the coordinates narrowed), and a Tuple of 64 bits as the accelerator's output (two
words a pixel); each bit-exact on both simulators and equal to Halide 21 running the same algorithm (argmin_sum
autoscheduled too)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from compile_once import grouped

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
W, H = 8, 4


def _frame(h):
    x, y = h.Var("x"), h.Var("y")
    image = h.ImageParam(h.UInt(16), 2, "input")
    hw_input, hw_output, output = h.Func("hw_input"), h.Func("hw_output"), h.Func("output")
    hw_input[x, y] = image[x, y]
    return x, y, image, hw_input, hw_output, output


def three_taps(h):
    """grad: three uint16 taps, 48 bits (the catalogue's former refusal tuple_too_wide)."""
    x, y, image, hw_input, hw_output, output = _frame(h)
    grad = h.Func("grad")
    grad[x, y] = (hw_input[x, y], hw_input[x + 1, y], hw_input[x, y + 1])
    hw_output[x, y] = grad[x, y][0] + grad[x, y][1] * 3 + (grad[x, y][2] ^ grad[x, y][0])
    output[x, y] = hw_output[x, y]
    return output, image, (hw_input, hw_output, [grad])


def _sum_count(h, unrolled: bool):
    """acc: (uint32 sum, uint32 count of values over 20000) over a 3x3 window, 64 bits."""
    x, y, image, hw_input, hw_output, output = _frame(h)
    r = h.RDom([h.Range(0, 3), h.Range(0, 3)], "r")
    acc = h.Func("acc")
    acc[x, y] = (h.u32(0), h.u32(0))
    p = hw_input[x + r.x, y + r.y]
    acc[x, y] = (acc[x, y][0] + p * 7919, acc[x, y][1] + h.select(p > 20000, h.u32(1), h.u32(0)))
    if unrolled and h is hl:
        acc.update().unroll(r.x).unroll(r.y)
    hw_output[x, y] = h.u16(acc[x, y][0] / h.max(acc[x, y][1], 1) >> 3) + h.u16(acc[x, y][1])
    output[x, y] = hw_output[x, y]
    return output, image, (hw_input, hw_output, [acc])


def argmin_sum(h):
    """best: the first minimum of 5 taps along the row (its uint16 value and uint8 offset, which the update reads
    together, word 0) and the taps' uint32 sum (word 1): 56 bits."""
    x, y, image, hw_input, hw_output, output = _frame(h)
    r = h.RDom([h.Range(0, 5)], "r")
    best = h.Func("best")
    best[x, y] = (h.u16(65535), h.u8(0), h.u32(0))
    p = hw_input[x + r.x, y]
    less = p < best[x, y][0]
    best[x, y] = (h.select(less, p, best[x, y][0]), h.select(less, h.u8(r.x), best[x, y][1]), best[x, y][2] + p)
    hw_output[x, y] = (best[x, y][0] >> 4) + h.u16(best[x, y][1]) * 4096 + h.u16(best[x, y][2] >> 2)
    output[x, y] = hw_output[x, y]
    return output, image, (hw_input, hw_output, [best])


def argmax_int32(h):
    """best: Halide's argmax written by hand over a 3x3 window, int32 coordinates and the uint16 value (80 bits at
    their types), which the update computes from each other: laid out again in one word, the coordinates in the 2
    bits their values need (frontend/wide_regroup.py)."""
    x, y, image, hw_input, hw_output, output = _frame(h)
    r = h.RDom([h.Range(0, 3), h.Range(0, 3)], "r")
    best = h.Func("best")
    best[x, y] = (h.i32(0), h.i32(0), h.u16(0))
    p = hw_input[x + r.x, y + r.y]
    more = p > best[x, y][2]
    best[x, y] = (h.select(more, r.x, best[x, y][0]), h.select(more, r.y, best[x, y][1]),
                  h.select(more, p, best[x, y][2]))
    hw_output[x, y] = h.u16(best[x, y][0] + 3 * best[x, y][1]) * 4096 + (best[x, y][2] >> 4)
    output[x, y] = hw_output[x, y]
    return output, image, (hw_input, hw_output, [best])


def accelerator_output(h):
    """hw_output itself a Tuple of (uint32, uint16, int16), 64 bits: the accelerator's output in two words a pixel,
    the host's output a Tuple (a buffer per element)."""
    x, y, image, hw_input, hw_output, output = _frame(h)
    p, q = hw_input[x, y], hw_input[x + 1, y + 1]
    hw_output[x, y] = (h.u32(p) * q, q - p, h.i16(p) - h.i16(q))
    output[x, y] = hw_output[x, y]
    return output, image, (hw_input, hw_output, [])


DESIGNS = {
    "accelerator_output": accelerator_output,
    "argmax_int32": argmax_int32,
    "three_taps": three_taps,
    "sum_count": functools.partial(_sum_count, unrolled=False),
    "sum_count_unrolled": functools.partial(_sum_count, unrolled=True),
    "argmin_sum": argmin_sum,
    "argmin_sum_auto": argmin_sum,
}


def _image() -> np.ndarray:
    # values over 20000 and repeated minima (the first one wins)
    return (np.random.default_rng(22).integers(0, 8, (H + 2, W + 4)) * 9000).astype(np.uint16)




@functools.cache
def _design(kind: str):
    output, _image_param, (hw_input, hw_output, inner) = DESIGNS[kind](hl)
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    if kind.endswith("_auto"):  # the autoscheduler places the words of a wide Tuple as one Func
        output.set_estimates([(0, W), (0, H)])
        hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
        return hl.compile(output, name=f"tuple_wide_{kind}")
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name=f"tuple_wide_{kind}")


@functools.cache
def _halide(kind: str) -> np.ndarray:
    import halide

    output, image, _inner = DESIGNS[kind](halide)
    image.set(halide.Buffer(_image()))
    return np.asarray(output.realize([W, H]))  # a Tuple output: one buffer per element


@pytest.mark.parametrize("kind", grouped("tuple_wide", sorted(DESIGNS)))
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_wide_tuple_is_bit_exact_and_equal_to_halide(kind, simulator, build_dir):
    design = _design(kind)
    inputs = {"input": _image()}
    want = _halide(kind)
    several = bool(design.outputs)  # a Tuple output: each element apart
    np.testing.assert_array_equal(design.reference_outputs(inputs) if several else design.reference_output(inputs),
                                  want)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    np.testing.assert_array_equal(np.asarray(res.outputs) if several else res.output, want)
    assert res.cycles == res.predicted_cycles
