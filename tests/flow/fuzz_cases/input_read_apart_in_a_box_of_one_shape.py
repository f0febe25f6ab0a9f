# Found by mainspring fuzz (seed 153216, session 20): WRONG OUTPUT on both simulators. hw_input is read at x / 2
# (f0, an upsample) and at x (f1) in host tiles of 9 over an 11-wide output (the second tile shifted inwards by 2).
# The union of both reads keeps one shape from tile to tile ([0, 9], then [2, 11]), so hwlower/rate_streams.py
# kept one stream, but the two reads move apart (f0's by 1, f1's by 2) while the hardware addresses each from the
# box's corner: the second tile's f0 read the wrong words. Reads that move apart now get a stream each even where
# their union keeps its shape.
"""mainspring fuzz case 153216: 11x1, tile (9, 1), 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u8((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    f1[x, y] = hl.u8((hw_input[x, y]) + f0[x + 2, y])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 11).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 9, 1).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_153216")
    design.check(design.example_inputs(153216), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=153216)
    print("bit-exact")
