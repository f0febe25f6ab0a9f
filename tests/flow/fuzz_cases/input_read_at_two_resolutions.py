# Found by mainspring fuzz: refused before a Func that reads its input at two resolutions (x / 2 through an
# inlined upsample, and x + 2) was strip-mined (hwlower/steps.py kept only the last read's resolution).
"""mainspring fuzz case 378: 6x2, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u32((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    f1[x, y] = hl.u32(hl.select(f0[x, y] > hw_input[x + 2, y + 2], f0[x, y], hw_input[x + 2, y + 2] + 1))
    f2 = hl.Func("f2")
    r_f2 = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r_f2")
    f2[x, y] = hl.u32(0)
    f2[x, y] += f1[x + r_f2.x, y + r_f2.y] * hl.u32(3)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 6).bound(y, 0, 2)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 6, 2).hw_accelerate(xi, xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f2"].update().unroll(a["r_f2"].x).unroll(a["r_f2"].y)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_378")
    design.check(design.example_inputs(378), simulator="icarus", bubbles=0.4, backpressure=0.4, seed=378)
    print("bit-exact")

