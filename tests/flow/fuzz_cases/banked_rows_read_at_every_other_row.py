"""Reduced from fuzz case 179594: f0 in 2x2 blocks (a bank per block position), its update's 3 taps unrolled by 2
(3 = 2 + 1), read by hw_output one row per firing over 3-row tiles: bank (0, 0) is read on rows 0 and 2 of each
tile only, a set of iterations with a step of 2 along the rows (one strided port controller), once refused as
"not a union of boxes"."""
import mainspring as hl


def build():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    r = hl.RDom([hl.Range(0, 3)], "r")
    f0[x, y] = hl.i16(0)
    f0[x, y] += hw_input[x + r.x, y] * hl.i16(2)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]

    output.bound(x, 0, 8).bound(y, 0, 6)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, 8, 3).hw_accelerate(xi, xo)
    f0.update().unroll(r.x, 2)
    f0.compute_at(hw_output, xo)
    f0.unroll(x, 2, hl.TailStrategy.RoundUp).unroll(y, 2, hl.TailStrategy.RoundUp)
    f0.update().unroll(x, 2, hl.TailStrategy.RoundUp).unroll(y, 2, hl.TailStrategy.RoundUp)
    hw_input.compute_root().stream_to_accelerator()
    hw_output.unroll(xi, 2, hl.TailStrategy.RoundUp)
    return output
