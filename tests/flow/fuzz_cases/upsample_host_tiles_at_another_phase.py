# Found by mainspring fuzz (helper auto6, session 13): wrong output with host tiles 3 rows apart over an
# upsample read through a clamp: every tile ran the first tile's steps, the second at the wrong phase (refused in
# session 13); now each tile computes from the first tile's phase (hwlower/tiling.py, _at_first_phase).
"""mainspring fuzz case 125548: 9x6, tile (9, 3), 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i16((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    f1[x, y] = f0[hl.clamp(x - 1, 0, 8), hl.clamp(y - 1, 0, 5)] % hl.i16(7)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 9).bound(y, 0, 6)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 9, 3).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_125548")
    design.check(design.example_inputs(125548), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=125548)
    print("bit-exact")
