"""Shifts of 8- and 16-bit values by amounts of the value's width or more (issue 8, gaps19). Halide 21 refuses a
constant amount so when the pipeline compiles (a Pipeline refuses it too: frontend/expr.py wide_shift_error,
catalogue shift_by_the_width); an amount known only when the pipeline runs shifts in zeros (or the sign, right)
in the NumPy reference and in the hardware, bit-exact on both simulators, and so does Halide's own code for amounts
below 32 (past that its codegen shifts by the amount mod 32: undefined, so not compared)."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
W, H = 16, 2
TYPES = {"i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16}


def _algorithm(h, tn: str):
    """hw_output shifts a left by b in row 0 and right by b in row 1 (a and b of type tn, streamed in)."""
    t = h.Int(int(tn[1:])) if tn[0] == "i" else h.UInt(int(tn[1:]))
    x, y = h.Var("x"), h.Var("y")
    a, b = h.ImageParam(t, 2, "a"), h.ImageParam(t, 2, "b")
    hw_a, hw_b, hw_output, output = (h.Func(n) for n in ("hw_a", "hw_b", "hw_output", "output"))
    hw_a[x, y] = a[x, y]
    hw_b[x, y] = b[x, y]
    hw_output[x, y] = h.select(y == 0, hw_a[x, y] << hw_b[x, y], hw_a[x, y] >> hw_b[x, y])
    output[x, y] = hw_output[x, y]
    return output, (a, b), (x, y, hw_a, hw_b, hw_output)


def _inputs(tn: str) -> dict[str, np.ndarray]:
    bits, signed = int(tn[1:]), tn[0] == "i"
    amounts = [0, 1, bits - 1, bits, bits + 1, 2 * bits - 1, 2 * bits, 31, 32, 40, 100, 127]
    amounts += [-1, -bits, -bits - 1, -100] if signed else [128, 200, 255, bits]
    values = [-77, 5, 1, -1] if signed else [179, 5, 1, 255]
    a = np.array([values[(i + i // 4) % 4] for i in range(W)] * H, dtype=np.int64).reshape(H, W)
    b = np.array(amounts * H, dtype=np.int64).reshape(H, W)
    return {"a": a.astype(TYPES[tn]), "b": b.astype(TYPES[tn])}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("tn", list(TYPES))
def test_a_shift_by_the_width_or_more_is_bit_exact(tn, simulator, build_dir, compile_shared):
    output, _, (x, y, hw_a, hw_b, hw_output) = _algorithm(hl, tn)
    output.bound(x, 0, W).bound(y, 0, H)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_a.compute_root().stream_to_accelerator()
    hw_b.compute_root().stream_to_accelerator()
    design = compile_shared(output, name="wide_shifts")
    given = _inputs(tn)
    inputs = {k: hl.Buffer(v) for k, v in given.items()}
    design.check(inputs, simulator=simulator, build_dir=build_dir)
    got = design.reference_output(inputs)
    bits, b = int(tn[1:]), given["b"].astype(np.int64)
    left = np.where(np.arange(H)[:, None] == 0, b >= 0, b < 0)
    wide = np.abs(b) >= bits
    a = given["a"].astype(np.int64)
    sign = np.where(a < 0, -1, 0)
    assert np.array_equal(got[wide], np.where(left, 0, sign)[wide].astype(got.dtype))  # zeros, or the sign
    import halide

    want_out, (ha, hb), _ = _algorithm(halide, tn)
    ha.set(halide.Buffer(given["a"]))
    hb.set(halide.Buffer(given["b"]))
    want = np.asarray(want_out.realize([W, H]))
    defined = np.abs(b) < 32
    np.testing.assert_array_equal(got[defined], want[defined])


@pytest.mark.parametrize("amount", [8, -8, 9])
def test_halide_refuses_a_constant_shift_by_the_width(amount):
    """The claim frontend/expr.py's wide_shift_error rests on (Halide's words are about constant folding)."""
    import halide

    x = halide.Var("x")
    a = halide.ImageParam(halide.Int(8), 1, "a")
    f = halide.Func("f")
    f[x] = a[x] << halide.i8(amount)
    with pytest.raises(halide.HalideError, match="constant-folding"):
        f.compile_jit()
    g, v = hl.Func("f"), hl.Var("x")
    g[v] = hl.ImageParam(hl.Int(8), 1, "a")[v] << hl.i8(amount)  # made, as in Halide: refused by the pipeline
    with pytest.raises(hl.HalideError, match=f"Func 'f': the shift << .* by the constant {amount}: a constant shift"):
        hl.Pipeline(g)
