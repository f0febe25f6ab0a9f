# Found by mainspring fuzz (seed 130909): refused once session 14 linked edge taps to their Func's steps: a mirror
# tap at y - 1 stepped f1 (3 rows) by f0's upsample steps of 2, which bounds inference had not rounded its box to.
"""mainspring fuzz case 130909: 2x3, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u32((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    f0_e = hl.BoundaryConditions.mirror_interior(f0, [(0, 2), (0, 3)])
    f1 = hl.Func("f1")
    f1_table = hl.Func("f1_table")
    f1_table[x] = hl.u32(x * 3 % 11)
    f1[x, y] = f0_e[x - 1, y - 1] + f1_table[hl.i32(hl.clamp(f0_e[x - 1, y - 1], 0, 15))]
    f1_e = hl.BoundaryConditions.mirror_interior(f1, [(0, 2), (0, 3)])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 3)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 3).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_130909")
    design.check(design.example_inputs(130909), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=130909)
    print("bit-exact")
