# Found by mainspring fuzz (seed 138643): refused ("accesses 'f0' at (x / 3), which is not an affine function"):
# x read at x / 2 then at (x + r.x) / 3 in one chain; the class was strip-mined by one divisor. Now each resolution
# steps by its own divisor (hwlower/steps.py, _level_steps).
"""mainspring fuzz case 138643: 2x1, tile None, 1 lane(s)."""
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
    r_f1 = hl.RDom([hl.Range(0, 3), hl.Range(0, 1)], "r_f1")
    r_f1.where(r_f1.x + r_f1.y != 1)
    f1[x, y] = hl.u32(0)
    f1[x, y] += f0[(x + r_f1.x) / 3, (y + r_f1.y) / 3] * hl.u32(2)
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
    a["f0"].store_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f1"].store_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_input"].unroll(a["c"])


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_138643")
    design.check(design.example_inputs(138643), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=138643)
    print("bit-exact")
