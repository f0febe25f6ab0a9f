# Found by mainspring fuzz (seed 9158449, session 18): hw_input read at (x, y + 2) by f2 and at (x / 2, y / 2)
# by an inlined upsample f0, in 2x2 host tiles over 8x6: refused as "tiles differ in shape" with multiples of 2 as
# the fix, which the program follows. Its reads move at different rates from tile to tile; since session 19 the
# host streams hw_input once per rate (hwlower/rate_streams.py), each box only shifting.
"""mainspring fuzz case 9158449: 8x6, tile (2, 2), 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 3, "input")
    hw_input = hl.Func("hw_input")
    c = hl.Var("c")
    hw_input[c, x, y] = hl.u32(input_[x, y, c])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u32((hw_input[0, x / 2, y / 2] + hw_input[1, x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    r_f1 = hl.RDom([hl.Range(0, 1), hl.Range(0, 2)], "r_f1")
    r_f1.where(r_f1.x + r_f1.y != 1)
    f1[x, y] = hl.u32(0)
    f1[x, y] += f0[x + r_f1.x, y + r_f1.y] * hl.u32(2)
    f2 = hl.Func("f2")
    f2[x, y] = hl.u32(hl.u32(hl.max(hl.select(hw_input[0, x, y + 2] > f1[x + 2, y + 2], hw_input[0, x, y + 2], f1[x + 2, y + 2] + 1), f1[x, y])))  # noqa: E501
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 8).bound(y, 0, 6)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 2).hw_accelerate(xi, xo)
    a["f1"].update().unroll(a["r_f1"].y).unroll(a["r_f1"].x)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_input"].unroll(a["c"])


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_9158449")
    design.check(design.example_inputs(9158449), simulator="icarus", bubbles=0.4, backpressure=0.4, seed=9158449)
    print("bit-exact")

