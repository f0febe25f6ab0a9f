# Found by mainspring fuzz: crashed (an hwlower contract assert) when unroll(x, 3, GuardWithIf) ran over a
# 2-wide output: the split shrank to the extent but kept 3 lanes; lanes wider than their loop inside the
# accelerator now round up, as a non-dividing tail does (loops._split, bounds._covered).
"""mainspring fuzz case 118032: 2x1, tile None, 3 lane(s) tail GuardWithIf."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.select(x < 1, hw_input[x, y], hw_input[x, y] + hl.u8(y * 1 - x))
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 1).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f0"].store_at(a["hw_output"], xo)
    a["f0"].unroll(x, 3, hl.TailStrategy.GuardWithIf)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_output"].unroll(xi, 3, hl.TailStrategy.GuardWithIf)
    a["hw_input"].unroll(x, 3, hl.TailStrategy.GuardWithIf)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_118032")
    design.check(design.example_inputs(118032), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=118032)
    print("bit-exact")
