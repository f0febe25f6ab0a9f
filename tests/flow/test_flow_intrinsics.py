"""Halide's integer intrinsics (hl.lerp, hl.saturating_add, hl.rounding_shift_right, ...) in the accelerator: built
from the PEs' plain operations, bit-exact with the reference on both simulators."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import accelerate, random_image

from conftest import SIMULATORS


def _blend(kind: str):
    """A 2-tap stencil whose taps are combined by one family of intrinsics."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = i[x, y]
    a, b = hw_input[x, y], hw_input[x + 1, y + 1]
    f = hl.Func("f")
    if kind == "lerp":  # u8 values, u8 weight: a 16-bit product sum divided by 255, rounded
        f[x, y] = hl.u16(hl.lerp(a, b, hw_input[x + 1, y])) + hl.u16(hl.lerp(hl.i8(a), hl.i8(b), b))
    elif kind == "saturating":
        f[x, y] = hl.u16(hl.saturating_add(a, b)) * 3 + hl.u16(hl.saturating_sub(hl.i8(a), hl.i8(b)))
    elif kind == "halving":
        f[x, y] = hl.u16(hl.halving_add(a, b)) + hl.u16(hl.rounding_halving_add(a, b)) + hl.u16(hl.halving_sub(a, b))
    elif kind == "shifts":
        f[x, y] = (hl.u16(hl.rounding_shift_right(a, 3)) + hl.widening_mul(a, b) +
                   hl.u16(hl.rounding_mul_shift_right(a, b, 6)) + hl.u16(hl.rounding_shift_right(b, a % 8)))
    elif kind == "bits":
        f[x, y] = hl.u16(hl.popcount(a)) + hl.u16(hl.count_leading_zeros(b)) * 16 + \
            hl.u16(hl.count_trailing_zeros(a)) * 256
    elif kind == "divide":
        f[x, y] = hl.i16(hl.div_round_to_zero(hl.i16(a) - 128, 7)) + hl.i16(hl.mod_round_to_zero(hl.i16(b) - 100, 5))
    accelerate(f, f, 8, 6, [], hw_input)
    return f


@pytest.mark.parametrize("kind", ["lerp", "saturating", "halving", "shifts", "bits", "divide"])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_intrinsics_in_hardware(kind, simulator, build_dir, compile_shared):
    design = compile_shared(_blend(kind), name=f"intrinsics_{kind}")
    rng = np.random.default_rng(5)
    image = random_image(9, 7, seed=3)
    image[0, :4] = (0, 255, 128, 1)  # the ends of the ranges, where saturation and rounding turn
    image[1, 1:5] = (255, 0, 127, 128)
    design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    design.check({"input": rng.integers(0, 256, (7, 9)).astype(np.uint8)}, simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_promised_range_sizes_a_table(simulator, build_dir, compile_shared):
    """hl.unsafe_promise_clamped gives bounds inference the range of a table's index (the ROM holds the promised 8
    entries, not the 16 that a >> 4 reaches); hl.print and hl.print_when pass their value through."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, lut, f = hl.Func("hw_input"), hl.Func("lut"), hl.Func("f")
    hw_input[x, y] = i[x, y]
    lut[x] = hl.u8(x * 7 + 3)
    for k, v in [(0, 9), (2, 200), (5, 17)]:
        lut[k] = hl.u8(v)
    a = hw_input[x, y]
    f[x, y] = hl.print(lut[hl.unsafe_promise_clamped(hl.i32(a) >> 4, 0, 7)], "at", x) + \
        hl.print_when(x == 0, hw_input[x + 1, y])
    lut.compute_at(f, hl.Var("xo"))  # computed in the accelerator, read at a data index: a ROM
    accelerate(f, f, 8, 6, [], hw_input)
    design = compile_shared(f, name="promise")
    assert design.report["rom_words"] == 8, design.report
    inputs = {"input": random_image(9, 6, seed=3) & 127}  # the promise holds
    design.check(inputs, simulator=simulator, build_dir=build_dir)
