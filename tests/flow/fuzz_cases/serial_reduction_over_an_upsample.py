# Found by mainspring fuzz: refused before a serial reduction reading an upsample at x + r.x was strip-mined
# (hwlower/steps.py: an RVar moves the index within a step, it does not change its resolution).
"""mainspring fuzz case 602: 12x4, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i16((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    r_f1 = hl.RDom([hl.Range(0, 1), hl.Range(0, 1)], "r_f1")
    f1[x, y] = hl.i16(0)
    f1[x, y] += f0[x + r_f1.x, y + r_f1.y] * hl.i16(2)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 12).bound(y, 0, 4)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 12, 4).hw_accelerate(xi, xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_602")
    design.check(design.example_inputs(602), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=602)
    print("bit-exact")

