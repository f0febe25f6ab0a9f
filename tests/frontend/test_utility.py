"""`hl.evaluate`, `hl.lambda_func`, `Func.rvars`, `hl.extract_bits` and `hl.concat_bits`, run with Halide (the
oracle) and with mainspring's reference, compared value for value; and their refusals."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as ms


def p_helpers(hl):
    x, y = hl.Var("x"), hl.Var("y")
    values = [hl.evaluate(hl.sqrt(hl.f32(2))), hl.evaluate(hl.u8(200) + hl.u8(100)), hl.evaluate(hl.i32(-7) / 2),
              hl.evaluate(hl.i16(-7) % 3), hl.evaluate(hl.f64(1) / 3), hl.evaluate(hl.u8(3) > 2)]
    f = hl.lambda_func(x, y, x * 2 + y)
    values += np.asarray(f.realize([3, 2])).ravel().tolist()
    values += [hl.evaluate(hl.extract_bits(hl.UInt(8), hl.u32(0x12345678), 4)),
               hl.evaluate(hl.extract_bits(hl.Int(8), hl.u16(0xF0F0), 3)),
               hl.evaluate(hl.extract_bits(hl.UInt(16), hl.u8(0xAB), 2)),  # zeros shifted in above the value
               hl.evaluate(hl.extract_bits(hl.UInt(8), hl.f32(1.5), 20)),  # a float's bits
               hl.evaluate(hl.concat_bits([hl.u8(0x12), hl.u8(0x34)])),
               hl.evaluate(hl.concat_bits([hl.i8(-2), hl.i8(3)])),
               hl.evaluate(hl.concat_bits([hl.u8(1), hl.u8(2), hl.u8(3), hl.u8(0xF4)]))]
    g = hl.Func("g")
    r = hl.RDom([(0, 3), (0, 2)], "win")
    g[x] = 0
    g[x] += r.x * r.y + x
    values += [v.name() for v in g.rvars(0)]
    b = hl.Buffer(np.arange(12, dtype=np.uint16).reshape(3, 4) * 1000)
    h = hl.Func("h")
    h[x, y] = hl.extract_bits(hl.UInt(8), b[x, y], y + 3) + hl.u8(x)  # at a bit index computed per pixel
    return values + np.asarray(h.realize([4, 3])).ravel().tolist()


@pytest.mark.oracle
def test_the_helpers_give_halides_values(halide):
    want, got = p_helpers(halide), p_helpers(ms)
    assert got == want and [type(v) for v in got] == [type(v) for v in want]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: ms.evaluate(ms.Var("x") + 1), (r"hl.evaluate of an expression of x: it evaluates an expression of "
                                            r"constants .* define a Func over the variables and realize it instead")),
    (lambda: ms.concat_bits([ms.u8(1), ms.u16(2)]), (r"hl.concat_bits takes a power of two of values of one type, "
                                                     r"got uint8, uint16")),
    (lambda: ms.concat_bits([ms.u16(1), ms.u16(2), ms.u16(3), ms.u16(4)]),
     r"hl.concat_bits of 4 uint16 values: the result must be an integer of at most 32 bits"),
    (ms.lambda_func, r"hl.lambda_func takes the Vars and then the expression"),
])
def test_misuses_are_refused_with_the_reason(make, message):
    with pytest.raises(ms.HalideError, match=message):
        make()
