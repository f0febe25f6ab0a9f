# Found by mainspring fuzz (seed 127590): refused, 'hw_output reads hist at coordinates computed from loaded values,
# but hist is not a RAM': a 26-bin table read at computed coordinates, its scatter unrolled, is a RAM run serially.
"""mainspring fuzz case 127590: 2x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i8(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i8(hw_input[x, y + 2] + hl.i8(1))
    f1 = hl.Func("f1")
    f1[x, y] = f0[x, y] / hl.i8(5)
    b = hl.Var("b")
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 1)], "r")
    init_t = hl.Func("init_t")
    init_t[b] = hl.i8((b * 7) % 23)
    init_t.compute_root()
    hist = hl.Func("hist")
    hist[b] = init_t[b]
    at = hl.clamp(hl.i32(f1[r.x, r.y]), 0, 255)
    hist[at] = hl.max(hist[at], hl.i8(r.x + r.y))
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = hist[hl.clamp(hl.i32(f1[x, y]), 0, 255)] + f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 1).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hist"].update(0).unroll(a["r"].x)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_127590")
    design.check(design.example_inputs(127590), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=127590)
    print("bit-exact")
