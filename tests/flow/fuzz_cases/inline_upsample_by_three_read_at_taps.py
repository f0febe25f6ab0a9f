# Found by mainspring fuzz (seed 156060, session 20): refused with a fix that did not work. f0, an inline upsample
# by 3, is read over 2 unrolled taps at x + r.x: inlined, hw_input((x + 1) / 3, y) changes quotient partway through
# each 3-long step of x, affine in no split, and the refusal asked for extents that are multiples of 3 (it stayed
# refused at 6 wide). f0 is now buffered at the accelerator's loop (hwlower/region.py), as compute_at would.
"""mainspring fuzz case 156060: 2x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u16((hw_input[x / 3, y / 2] + hw_input[x / 3 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    r_f1 = hl.RDom([hl.Range(0, 2), hl.Range(0, 1)], "r_f1")
    f1[x, y] = hl.u16(0)
    f1[x, y] += f0[x + r_f1.x, y + r_f1.y] * hl.u16(3)
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
    a["f1"].update().unroll(a["r_f1"].x).unroll(a["r_f1"].y)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_156060")
    design.check(design.example_inputs(156060), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=156060)
    print("bit-exact")
