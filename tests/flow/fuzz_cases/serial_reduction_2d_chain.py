# Found by mainspring fuzz: refused before serial reductions over two RVars read their operands from
# several boxes of iterations (memories.iteration_boxes._split_coupled).
"""mainspring fuzz case 146: 3x4, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hw_input[x, y] * hl.i16(6)
    f1 = hl.Func("f1")
    f1[x, y] = hl.i16(hw_input[x + 2, y + 1] + hl.i16(1))
    f2 = hl.Func("f2")
    r_f2 = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r_f2")
    f2[x, y] = hl.i16(0)
    f2[x, y] += hw_input[x + r_f2.x, y + r_f2.y] * hl.i16(1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 3).bound(y, 0, 4)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 3, 4).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_146")
    design.check(design.example_inputs(146), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=146)
    print("bit-exact")
