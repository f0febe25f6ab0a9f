# Found by mainspring fuzz: wrong output (5 of 12 pixels) when the last host tile shifted inward to an odd origin
# (11 over 12) over an upsample: its box rounds down to a whole step, and the host placed the stream at the
# output box's origin (design._origin now places it at the box's).
"""mainspring fuzz case 118031: 12x1, tile (11, 1), 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.select(x < 1, hw_input[x, y], hw_input[x, y] + hl.u8(y * 1 - x))
    f1 = hl.Func("f1")
    f1[x, y] = hl.u8((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 12).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 11, 1).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_118031")
    design.check(design.example_inputs(118031), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=118031)
    print("bit-exact")
