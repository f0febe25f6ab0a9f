"""A float hl.Buffer read inside the accelerator at computed coordinates and cast to an integer right away (issue 8,
gaps19): `u8(curve[hw_input(x, y)] * 128.0)` reads a table of integers, a ROM (hwlower/cast_tables.py), where the
float table could not be one. Bit-exact on both simulators; Halide 21's realize is the reference's output. A float
read of 256 values combined with another pixel before the cast stays refused (a table over both would hold 65536
words; catalogue float_buffer_read_at_computed_coordinates); gaps20's smaller ones: test_flow_float_pixel_tables.py."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
W, H = 8, 4
CURVE = (np.linspace(0, 1, 256) ** 0.5).astype(np.float32)


def _algorithm(h, kind: str):
    """hw_output maps each pixel through the float curve: scaled and cast ("scaled"), cast and offset by a second
    read at another coordinate ("two reads"), or scaled by the next pixel before the cast ("per pixel")."""
    x, y = h.Var("x"), h.Var("y")
    inp = h.ImageParam(h.UInt(8), 2, "input")
    curve = h.Buffer(CURVE, "curve")
    hw_input, hw_output, output = (h.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    v = h.i32(hw_input[x, y])  # (Halide indexes a Buffer by Exprs, not by a Func reference)
    if kind == "scaled":
        hw_output[x, y] = h.u8(curve[v] * 128.0)
    elif kind == "two reads":
        hw_output[x, y] = h.u16(curve[v] * 200.0) + h.u16(h.sqrt(curve[255 - v]) * 50.0)
    else:  # (scaled by the pixel it reads at, it is a ROM too: test_flow_float_pixel_tables.py)
        hw_output[x, y] = h.u8(curve[v] * h.f32(hw_input[x + 1, y]))
    output[x, y] = hw_output[x, y]
    return output, inp, curve, (x, y, hw_input, hw_output)


def _scheduled(kind: str) -> hl.Func:
    output, _, _, (x, y, hw_input, hw_output) = _algorithm(hl, kind)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("kind", ["scaled", "two reads"])
def test_a_cast_float_table_read_is_a_rom_and_bit_exact(kind, simulator, build_dir, compile_shared):
    design = compile_shared(_scheduled(kind), name="casts")
    image = (np.arange(W * H).reshape(H, W) * 37 % 256).astype(np.uint8)
    inputs = {"input": hl.Buffer(image)}
    design.check(inputs, simulator=simulator, build_dir=build_dir)
    import halide

    out, inp, _curve, _ = _algorithm(halide, kind)  # (the curve kept alive through realize)
    inp.set(halide.Buffer(image))
    want = np.asarray(out.realize([W, H]))
    np.testing.assert_array_equal(design.reference_output(inputs), want)


def test_a_float_read_scaled_per_pixel_before_the_cast_is_refused():
    with pytest.raises(hl.HalideError, match=r"reads the hl.Buffer curve .* cannot be a ROM"):
        hl.compile(_scheduled("per pixel"), name="casts")
