"""Halide 21's integer intrinsics (frontend/intrinsics.py) against Halide's JIT, bit for bit: every pair of 8-bit
values, and each type's edge values plus random ones at 16 and 32 bits."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring

pytestmark = pytest.mark.oracle

TYPES8 = (np.uint8, np.int8)
TYPES16 = (np.uint16, np.int16)
TYPES32 = (np.uint32, np.int32)


def _values(dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    if info.bits == 8:
        return np.arange(info.min, info.max + 1)
    rng = np.random.default_rng(info.bits)
    edges = [info.min, info.min + 1, -1 if info.min < 0 else 2, 0, 1, 2, 3, info.max - 1, info.max]
    return np.concatenate([np.array(edges, dtype=np.int64), rng.integers(info.min, int(info.max) + 1, 160)])


def _pairs(dtype) -> tuple[np.ndarray, np.ndarray]:
    """a varies along x, b along y: every pair of the values."""
    v = _values(dtype)
    a = np.broadcast_to(v[None, :], (len(v), len(v))).astype(dtype)
    b = np.broadcast_to(v[:, None], (len(v), len(v))).astype(dtype)
    return np.ascontiguousarray(a), np.ascontiguousarray(b)


def _type(hl, dtype):
    dt = np.dtype(dtype)
    return (hl.Int if dt.kind == "i" else hl.UInt)(dt.itemsize * 8)


def _run(hl, fn, a, b):
    x, y = hl.Var("x"), hl.Var("y")
    pa, pb = hl.ImageParam(_type(hl, a.dtype), 2, "a"), hl.ImageParam(_type(hl, b.dtype), 2, "b")
    pa.set(hl.Buffer(a))
    pb.set(hl.Buffer(b))
    f = hl.Func("f")
    f[x, y] = fn(hl, pa[x, y], pb[x, y])
    return np.asarray(f.realize([a.shape[1], a.shape[0]]))


def _nonzero(hl, b):
    return hl.select(b == 0, b + 1, b)


def _no_min(hl, a):  # Halide's JIT traps on min / -1 in div_round_to_zero
    return hl.max(a, hl.cast(a.type(), a.type().min() + 1))


def _unsigned(hl, e):
    return hl.cast(hl.UInt(e.type().bits()), e)


SAME_WIDTH = {
    "saturating_add": lambda hl, a, b: hl.saturating_add(a, b),
    "saturating_sub": lambda hl, a, b: hl.saturating_sub(a, b),
    "halving_add": lambda hl, a, b: hl.halving_add(a, b),
    "rounding_halving_add": lambda hl, a, b: hl.rounding_halving_add(a, b),
    "halving_sub": lambda hl, a, b: hl.halving_sub(a, b),
    "popcount": lambda hl, a, b: hl.popcount(a),
    "count_leading_zeros": lambda hl, a, b: hl.count_leading_zeros(a),
    "count_trailing_zeros": lambda hl, a, b: hl.count_trailing_zeros(a),
    "div_round_to_zero": lambda hl, a, b: hl.div_round_to_zero(_no_min(hl, a), _nonzero(hl, b)),
    "mod_round_to_zero": lambda hl, a, b: hl.mod_round_to_zero(_no_min(hl, a), _nonzero(hl, b)),
    "rounding_shift_right_var": lambda hl, a, b: hl.rounding_shift_right(
        a, _unsigned(hl, b) % a.type().bits()),
    "rounding_shift_right_3": lambda hl, a, b: hl.rounding_shift_right(a, 3),
    "rounding_shift_right_0": lambda hl, a, b: hl.rounding_shift_right(a, 0),
    "rounding_shift_right_-2": lambda hl, a, b: hl.rounding_shift_right(a, -2),
    "rounding_shift_left_3": lambda hl, a, b: hl.rounding_shift_left(a, 3),
    "rounding_shift_left_-5": lambda hl, a, b: hl.rounding_shift_left(a, -5),
    "logical_not": lambda hl, a, b: hl.select(hl.logical_not(a > b), a, b),
    "likely": lambda hl, a, b: hl.likely(a) + hl.likely_if_innermost(b),
    "saturating casts": lambda hl, a, b: hl.u8_sat(a) + hl.cast(hl.UInt(8), hl.i16_sat(b)),
    # markers (frontend/markers.py): the value passes through; a promise that holds changes nothing
    "markers": lambda hl, a, b: hl.print_when((a & 0) != 0, a, "never") + hl.unsafe_promise_clamped(
        b, b - (a & 0), b),
}
WIDENING = {
    "widening_add": lambda hl, a, b: hl.widening_add(a, b),
    "widening_sub": lambda hl, a, b: hl.widening_sub(a, b),
    "widening_mul": lambda hl, a, b: hl.widening_mul(a, b),
    "widening_mul_mixed": lambda hl, a, b: hl.widening_mul(a, hl.reinterpret(hl.Int(a.type().bits()), b)),
    "widening_shift_left": lambda hl, a, b: hl.widening_shift_left(a, 5),
    "widening_shift_right": lambda hl, a, b: hl.widening_shift_right(a, 2),
    "widen_right_add": lambda hl, a, b: hl.widen_right_add(hl.widening_mul(a, b), b),
    "widen_right_sub": lambda hl, a, b: hl.widen_right_sub(hl.widening_add(a, b), a),
    "widen_right_mul": lambda hl, a, b: hl.widen_right_mul(hl.widening_add(a, a), b),
    "mul_shift_right": lambda hl, a, b: hl.mul_shift_right(a, b, 3),
    "rounding_mul_shift_right": lambda hl, a, b: hl.rounding_mul_shift_right(a, b, 5),
    "lerp": lambda hl, a, b: hl.lerp(a, b, _unsigned(hl, a + b)),
    "lerp_8_bit_weight": lambda hl, a, b: hl.lerp(a, b, hl.cast(hl.UInt(8), a * 3 + b)),
    "lerp_16_bit_weight": lambda hl, a, b: hl.lerp(a, b, hl.cast(hl.UInt(16), a * 3 + b)),
    "lerp_bool_weight_ends": lambda hl, a, b: hl.lerp(a, b, hl.cast(hl.UInt(8), hl.select(a > b, 255, 0))),
}


def _check(halide, fn, dtype):
    a, b = _pairs(dtype)
    want = _run(halide, fn, a, b)
    got = _run(mainspring, fn, a, b)
    assert got.dtype == want.dtype
    bad = np.argwhere(got != want)
    assert not len(bad), [(a[i, j], b[i, j], got[i, j], want[i, j]) for i, j in bad[:5]]


@pytest.mark.parametrize("dtype", TYPES8 + TYPES16 + TYPES32, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(SAME_WIDTH))
def test_same_width_intrinsics_agree_with_halide(halide, name, dtype):
    _check(halide, SAME_WIDTH[name], dtype)


@pytest.mark.parametrize("dtype", TYPES8 + TYPES16, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(WIDENING))
def test_widening_intrinsics_agree_with_halide(halide, name, dtype):
    _check(halide, WIDENING[name], dtype)


FLOAT_LERPS = {
    "float32_weight": lambda hl, a, b: hl.lerp(hl.cast(hl.Float(32), a) * 1.5, hl.cast(hl.Float(32), b) + 0.5,
                                               hl.cast(hl.Float(32), b) / 255.0),
    "uint8_weight": lambda hl, a, b: hl.lerp(hl.cast(hl.Float(32), a) * 1.5, hl.cast(hl.Float(32), b) + 0.5, b),
    "float64": lambda hl, a, b: hl.lerp(hl.cast(hl.Float(64), a) * 1.5, hl.cast(hl.Float(64), b) + 0.5,
                                        hl.cast(hl.Float(64), b) / 255.0),
}


@pytest.mark.parametrize("name", list(FLOAT_LERPS))
def test_float_lerp_agrees_with_halide(halide, name):
    _check(halide, FLOAT_LERPS[name], np.uint8)


@pytest.mark.parametrize(("call", "message"), [
    (lambda hl, a: hl.lerp(hl.cast(hl.UInt(32), a), hl.cast(hl.UInt(32), a), hl.cast(hl.UInt(32), a)),
     "hl.lerp of uint32 values computes in a 64-bit type, which mainspring does not support"),
    (lambda hl, a: hl.widening_mul(hl.cast(hl.Int(32), a), a),
     "hl.widening_mul of int32 values computes in a 64-bit type"),
    (lambda hl, a: hl.rounding_shift_right(a, 9),
     ("a rounding shift of a uint8 value by 9 shifts out every bit, rounding bit included (Halide leaves the "
      "result undefined); shift by -7 to 8")),
    (lambda hl, a: hl.rounding_shift_right(a, hl.cast(hl.Int(8), a)),
     "hl.rounding_shift_right by a shift amount that is not a constant must be unsigned here"),
    (lambda hl, a: hl.lerp(a, a, hl.cast(hl.Int(8), a)), "hl.lerp needs an unsigned integer or float weight"),
    (lambda hl, a: hl.reinterpret(hl.UInt(16), a), "the types must have the same number of bits"),
    (lambda hl, a: hl.popcount(hl.cast(hl.Float(32), a)), "hl.popcount takes integer values"),
])
def test_refusals(call, message):
    a = mainspring.ImageParam(mainspring.UInt(8), 2, "a")
    with pytest.raises(mainspring.HalideError, match=r"test_intrinsics.py:\d+: ") as err:
        call(mainspring, a[mainspring.Var("x"), mainspring.Var("y")])
    assert message in str(err.value)
