# Found by mainspring fuzz (seeds 9146012, 9146072, 9146126, session 17; shrunk by hand): refused ("Func 'f1'
# accesses 'hw_input' at ((x / 4) / 2), which is not an affine function of its loops"), with a fix the program
# already followed: a chain of upsamples with the first inlined into the second, read at (x / 4) / 2 and
# (x / 4 + 1) / 2 (steps by 8 and by 4 in one loop). An inline upsample read at a quotient is now buffered
# (hwlower/region.py), each Func reading its producer at one quotient.
"""mainspring fuzz case 9146072 (shrunk by hand): 8x6, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i32((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    f1[x, y] = hl.i32((f0[x / 4, y] + f0[x / 4 + 1, y]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 8).bound(y, 0, 6)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 8, 6).hw_accelerate(xi, xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_9146072")
    design.check(design.example_inputs(9146072), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=9146072)
    print("bit-exact")
