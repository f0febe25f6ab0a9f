"""A float hl.Buffer read inside the accelerator at computed coordinates, multiplied by a pixel before its cast to
an integer (`i32(gain[idx] * hw_input(x, y))`, issue 8, gaps20): the integer is a function of (idx, pixel), a ROM
indexed by both (hwlower/cast_tables.py) where it has at most 4096 words (8 gains x a u8 pixel: 2048), or by the
pixel alone where the pixel is the coordinate (`curve[v] * f32(v)`: 256 words). Bit-exact on Icarus for both and
on Verilator for the 2-D one; Halide 21's realize (float32 as Halide computes it) is the reference's output. A
product over more words stays refused (catalogue float_buffer_read_at_computed_coordinates)."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl

W, H = 8, 6
GAIN = np.array([0.5, 1.25, 3.1, 0.01, 7.77, 2.0, 1 / 3, 0.9], np.float32)
CURVE = (np.linspace(0, 1, 256) ** 0.5).astype(np.float32)
IMAGE = (np.arange(W * H).reshape(H, W) * 53 % 256).astype(np.uint8)
CASES = [("gain", "icarus"), ("gain", "verilator"), ("curve", "icarus")]
WORDS = {"gain": 2048, "curve": 256}  # the ROM's: 8 gains x 256 pixel values; the curve at its 256 values


def _algorithm(h, kind: str):
    """hw_output scales each pixel by a float gain chosen by its top 3 bits ("gain"), or maps it through a float
    curve and scales by it ("curve"), then casts to an integer."""
    x, y = h.Var("x"), h.Var("y")
    inp = h.ImageParam(h.UInt(8), 2, "input")
    hw_input, hw_output, output = (h.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    if kind == "gain":
        table = h.Buffer(GAIN, "gain")
        hw_output[x, y] = h.i32(table[h.i32(hw_input[x, y] >> 5)] * hw_input[x, y])
    else:
        table = h.Buffer(CURVE, "curve")
        v = h.i32(hw_input[x, y])
        hw_output[x, y] = h.u8(table[v] * h.f32(v))
    output[x, y] = hw_output[x, y]
    return output, inp, table, (x, y, hw_input, hw_output)


def _scheduled(kind: str) -> hl.Func:
    output, _, _, (x, y, hw_input, hw_output) = _algorithm(hl, kind)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize(("kind", "simulator"), CASES, indirect=["simulator"])
def test_a_float_read_scaled_by_a_pixel_is_a_rom_and_bit_exact(kind, simulator, build_dir, compile_shared):
    design = compile_shared(_scheduled(kind), name="pixel_tables")
    assert design.report["rom_words"] == WORDS[kind]
    inputs = {"input": hl.Buffer(IMAGE)}
    design.check(inputs, simulator=simulator, build_dir=build_dir)
    import halide

    out, inp, _table, _ = _algorithm(halide, kind)  # (the table kept alive through realize)
    kept = halide.Buffer(IMAGE)
    inp.set(kept)
    want = np.asarray(out.realize([W, H]))
    np.testing.assert_array_equal(design.reference_output(inputs), want)


def test_a_product_over_more_than_4096_words_is_refused():
    with pytest.raises(hl.HalideError, match=r"reads the hl.Buffer curve .* cannot be a ROM"):
        hl.compile(_next_pixel(), name="pixel_tables")


def _next_pixel() -> hl.Func:
    """The curve at a pixel scaled by the next one: a table over both would hold 256 x 256 words."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    curve = hl.Buffer(CURVE, "curve")
    hw_input, hw_output, output = (hl.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    hw_output[x, y] = hl.u8(curve[hl.i32(hw_input[x, y])] * hl.f32(hw_input[x + 1, y]))
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output
