# Found by mainspring fuzz (seed 160248, session 28): MemoryCheckError from the checker (no plan). f0 is read
# at two row ages over a 1-row frame: bank 0 serves row y + 2, whose last loads are none of the row-y values bank 1
# reads, so the chained write port fed bank 1 nothing but still wrote it, over the stream's words (unsized: no
# flows). memories/chained.py now refuses a chain whose feeder loads none of its next bank's values.
"""mainspring fuzz case 160248: 3x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    r_f0 = hl.RDom([hl.Range(0, 1), hl.Range(0, 2)], "r_f0")
    r_f0.where(r_f0.x + r_f0.y != 0)
    f0[x, y] = hl.u8(0)
    f0[x, y] += hw_input[x + r_f0.x, y + r_f0.y] * hl.u8(2)
    f1 = hl.Func("f1")
    f1[x, y] = hl.select(x < 2, f0[x, y], f0[x, y] + hl.u8(y * 2 - x))
    f2 = hl.Func("f2")
    f2[x, y] = hl.u8(((f0[x + 1, y + 2]) * f1[x, y + 2]) * f0[x, y])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 3).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 3, 1).hw_accelerate(xi, xo)
    intm = a["f0"].update().rfactor(a["r_f0"].y, hl.Var("v"))
    intm.compute_at(a["f0"], x).unroll(hl.Var("v"))
    a["f0"].compute_at(a["hw_output"], xo)
    a["f0"].store_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f1"].store_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["f2"].store_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]
