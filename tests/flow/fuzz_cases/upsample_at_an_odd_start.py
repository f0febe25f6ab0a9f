# Found by mainspring fuzz: refused before an upsampled Func's box started at a multiple of its step (f1 reads
# it at x + 1, y + 2: the box starts at 1; frontend/bounds.py now starts it at 0).
"""mainspring fuzz case 97: 4x2, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i32((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    f1[x, y] = hl.i32(f0[x + 1, y + 2] + hl.i32(1))
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 4).bound(y, 0, 2)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 4, 2).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_97")
    design.check(design.example_inputs(97), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=97)
    print("bit-exact")

