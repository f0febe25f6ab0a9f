# Found by mainspring fuzz (seed 175371, session 37): wrong hardware. The host stream paces its last row (a
# two-piece schedule, Controller.then) so that f0's 5-word line buffer does not overflow, but the counters feeding
# f0's coordinates (memories/coordinates.py) dropped the second piece: f0(1, 2) read the held coordinate (2, 2).
# memories/checker.py now proves every coordinate counter fires with its op.
"""mainspring fuzz case 175371: 2x2, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.select(x < 2, hw_input[x, y], hw_input[x, y] + hl.u8(y * 2 - x))
    f1 = hl.Func("f1")
    r_f1 = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r_f1")
    f1[x, y] = hl.u8(0)
    f1[x, y] += f0[x + r_f1.x, y + r_f1.y] * hl.u8(1)
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
    a["f0"].compute_at(a["hw_output"], xo)
    a["f0"].store_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f1"].store_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_175371")
    design.check(design.example_inputs(175371), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=175371)
    print("bit-exact")
