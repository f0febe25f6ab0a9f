# Found by mainspring fuzz (seed 170488, a base draw): refused before with "tail strategy Auto is not supported"
# (a documented refusal in fuzz.py since then): hw_input is read both through a mirrored Func and directly, so
# the edges pass streams it twice (hw_input_ext1), and that copy's Auto tail over 3 columns did not round up as
# hw_input's own does (hwlower/edges.py, session 41). Both streams now round up to whole transfers of 2 words.
"""mainspring fuzz case 170488: 2x1, tile None, 2 lane(s) tail Auto."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u32(hw_input[x + 1, y + 2] + hl.u32(1))
    f0_e = hl.BoundaryConditions.mirror_image(f0, [(0, 2), (0, 1)])
    f1 = hl.Func("f1")
    f1[x, y] = hl.u32(hl.u32(hl.max((f0_e[x, y + 1]) + f0_e[x + 1, y], hw_input[x + 1, y + 1])))
    f1_e = hl.BoundaryConditions.mirror_image(f1, [(0, 2), (0, 1)])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = (hl.u32(f1[x, y]), hl.u8(hl.absd(f1[x + 1, y], f1[x, y]) / 2))
    output, output2 = hl.Func("output"), hl.Func("output2")
    output[x, y] = hw_output[x, y][0]
    output2[x, y] = hw_output[x, y][1]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 1).hw_accelerate(xi, xo)
    a["output2"].bound(x, 0, 2).bound(y, 0, 1)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_output"].unroll(xi, 2)
    a["hw_input"].unroll(x, 2)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return [a["output"], a["output2"]]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_170488")
    design.check(design.example_inputs(170488), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=170488)
    print("bit-exact")
