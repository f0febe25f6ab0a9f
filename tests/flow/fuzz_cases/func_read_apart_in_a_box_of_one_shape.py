# The Func-inside form of input_read_apart_in_a_box_of_one_shape.py (session 20): g, computed inside, is read at
# x / 2 and at x in host tiles whose union keeps one shape; before the fix the second tile's reads through x / 2
# took the wrong words (wrong output on both simulators). g now becomes two buffers (g, g_rate1), one per rate.
"""mainspring fuzz case 153216: 11x1, tile (9, 1), 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    g = hl.Func("g")
    g[x, y] = hw_input[x, y] * 3 + 1
    f0 = hl.Func("f0")
    f0[x, y] = hl.u8((g[x / 2, y / 2] + g[x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    f1[x, y] = hl.u8((g[x, y]) + f0[x + 2, y])
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
    a["g"].compute_at(a["hw_output"], xo)
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
