# Found by mainspring fuzz (seed 151126, session 19): WRONG OUTPUT on both simulators (lane 0 read 0): f1, a
# point-for-point copy of hw_input, read at clamp(x - 1, 0, 1) by f2, all at lanes as wide as the 2-column frame.
# The clamped read became f1(x - 1) over f1 extended to [-1, 0] (hwlower/edges.py), but f1's loads kept the
# guard set before the extension (Halide's box [0, 0], rounded up to the lanes), so lane 0 never read
# hw_input(-1). The extension now drops a stale guard where it alone fills the rounded box.
"""mainspring fuzz case 151126: 2x2, tile None, 3 lane(s) tail GuardWithIf."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    f0_table = hl.Func("f0_table")
    f0_table[x] = hl.i16(x * 3 % 11)
    f0[x, y] = hw_input[x, y] + f0_table[hl.i32(hl.clamp(hw_input[x, y], 0, 15))]
    f1 = hl.Func("f1")
    f1[x, y] = hw_input[x, y] * hl.i16(6)
    f2 = hl.Func("f2")
    f2[x, y] = hl.i16(f1[hl.clamp(x - 1, 0, 1), hl.clamp(y + 1, 0, 1)] + hl.i16(1))
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 2)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 2).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f0"].store_at(a["hw_output"], xo)
    a["f0"].unroll(x, 3, hl.TailStrategy.GuardWithIf)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f1"].store_at(a["hw_output"], xo)
    a["f1"].unroll(x, 3, hl.TailStrategy.GuardWithIf)
    a["f2"].compute_at(a["hw_output"], xo)
    a["f2"].store_at(a["hw_output"], xo)
    a["f2"].unroll(x, 3, hl.TailStrategy.GuardWithIf)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_output"].unroll(xi, 3, hl.TailStrategy.GuardWithIf)
    a["hw_input"].unroll(x, 3, hl.TailStrategy.GuardWithIf)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="edge_extension_fills_the_lanes_of_a_clamped_copy")
    design.check(design.example_inputs(151126), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=151126)
    print("bit-exact")
