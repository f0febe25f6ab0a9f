# Found by mainspring fuzz (seed 9150177, session 17): refused ("Func 'f2': an upsample divides the index of
# dimension x by 2 ... make its extent a multiple of 2"): a 9-wide chain of upsamples with f1 inlined between
# them reading f0 through mirror_image. Bounds inference did not link f2 to f0 through the mirror's index, so it
# did not round f2's box up to whole steps; it links at the quotient inside it now (hwlower/steps.py).
"""mainspring fuzz case 9150177: 9x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i16((hw_input[x / 3, y / 2] + hw_input[x / 3 + 1, y / 2]) >> 1)
    f0_e = hl.BoundaryConditions.mirror_image(f0, [(0, 9), (0, 1)])
    f1 = hl.Func("f1")
    f1_table = hl.Func("f1_table")
    f1_table[x] = hl.i16(x * 4 % 11)
    f1[x, y] = f0_e[x - 1, y - 1] + f1_table[hl.i32(hl.clamp(f0_e[x - 1, y - 1], 0, 15))]
    f1_e = hl.BoundaryConditions.mirror_image(f1, [(0, 9), (0, 1)])
    f2 = hl.Func("f2")
    f2[x, y] = hl.i16((f1[x / 2, y] + f1[x / 2 + 1, y]) >> 1)
    f2_e = hl.BoundaryConditions.mirror_image(f2, [(0, 9), (0, 1)])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 9).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 9, 1).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_9150177")
    design.check(design.example_inputs(9150177), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=9150177)
    print("bit-exact")
