# Found by mainspring fuzz: refused (lanes 2 against 3) when a split wider than its loop shrank its lanes to the
# extent while its producer, wider, kept 3 (f1 over 2 columns, hw_input over 4): lanes round up instead.
"""mainspring fuzz case 118437: 2x1, tile None, 3 lane(s) tail GuardWithIf."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hw_input[x, y] % hl.i32(4)
    f1 = hl.Func("f1")
    f1[x, y] = hl.i32((hw_input[x + 1, y + 1]) + hw_input[x + 2, y + 2])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 1).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f0"].unroll(x, 3, hl.TailStrategy.GuardWithIf)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f1"].unroll(x, 3, hl.TailStrategy.GuardWithIf)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_output"].unroll(xi, 3, hl.TailStrategy.GuardWithIf)
    a["hw_input"].unroll(x, 3, hl.TailStrategy.GuardWithIf)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_118437")
    design.check(design.example_inputs(118437), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=118437)
    print("bit-exact")
