# Found by mainspring fuzz (seed 101730, helper banks): hw_input unrolled by 3 with a GuardWithIf tail, its 6
# columns (which 3 divides) extended by the clamps' halo to 8 (which it does not): the edges pass dropped the
# rounding shift_tails.py gives an accelerator input, and streams refused the split.
"""mainspring fuzz case 101730: 4x5, tile None, 3 lane(s) tail GuardWithIf."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    f0_table = hl.Func("f0_table")
    f0_table[x] = hl.i16(x * 2 % 11)
    f0[x, y] = hw_input[x, y] + f0_table[hl.i32(hl.clamp(hw_input[x, y], 0, 15))]
    f1 = hl.Func("f1")
    r_f1 = hl.RDom([hl.Range(0, 3), hl.Range(0, 1)], "r_f1")
    f1[x, y] = hl.i16(0)
    f1[x, y] += hw_input[x + r_f1.x, y + r_f1.y] * hl.i16(1)
    f2 = hl.Func("f2")
    up = f1[hl.clamp(x, 0, 3), hl.clamp(y - 1, 0, 4)]
    here = f0[hl.clamp(x, 0, 3), hl.clamp(y, 0, 4)]
    left = f1[hl.clamp(x - 1, 0, 3), hl.clamp(y, 0, 4)]
    f2[x, y] = hl.i16(hl.i16(hl.absd(hl.i16(hl.absd(up, here)), left)))
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 4).bound(y, 0, 5)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 4, 5).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f0"].store_at(a["hw_output"], xo)
    a["f0"].unroll(x, 3, hl.TailStrategy.GuardWithIf)
    a["f1"].update().unroll(a["r_f1"].x).unroll(a["r_f1"].y)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f1"].store_at(a["hw_output"], xo)
    a["f1"].unroll(x, 3, hl.TailStrategy.GuardWithIf)
    a["f1"].update().unroll(x, 3, hl.TailStrategy.GuardWithIf)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_output"].unroll(xi, 3, hl.TailStrategy.GuardWithIf)
    a["hw_input"].unroll(x, 3, hl.TailStrategy.GuardWithIf)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_101730")
    design.check(design.example_inputs(101730), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=101730)
    print("bit-exact")
