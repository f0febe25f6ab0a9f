# Found by mainspring fuzz (seed 9146145, session 17): refused ("Func 'f1_intm' accesses 'hw_input' at
# ((y + v) / 2), which is not an affine function of its loops"): rfactor(r.y, v) over an inlined 2x upsample. An
# inline upsample read at a sum of two pure variables is now buffered (hwlower/region.py), read at y + v.
"""mainspring fuzz case 9146145: 2x2, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u8((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    r_f1 = hl.RDom([hl.Range(0, 1), hl.Range(0, 2)], "r_f1")
    f1[x, y] = hl.u8(0)
    f1[x, y] += f0[x + r_f1.x, y + r_f1.y] * hl.u8(2)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 2)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 2).hw_accelerate(xi, xo)
    intm = a["f1"].update().rfactor(a["r_f1"].y, hl.Var("v"))
    intm.compute_at(a["f1"], x).unroll(hl.Var("v")).update().unroll(a["r_f1"].x).unroll(hl.Var("v"))
    a["f1"].update().unroll(a["r_f1"].y)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_9146145")
    design.check(design.example_inputs(9146145), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=9146145)
    print("bit-exact")
