# Found by mainspring fuzz --auto (seed 102000): refused before: at 3 lanes asked, the table (8 bins, a RAM) is read
# out at 2 lanes while the serial update's region runs at 1; its stream hw_input, read by a 2x downsample (2 pixels
# a cycle) and by a stage at 1, got 2 lanes, which do not divide the other's 1. Two rates along x now cut the
# output's lanes as they did for readers of several lanes (here to 1, with the note).
"""mainspring fuzz --auto case 102000: 6x3, copy style, lanes 3."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i16((hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y + 1]) >> 1)
    f1 = hl.Func("f1")
    f1[x, y] = hl.i16((hl.select(f0[x + 2, y + 2] > hw_input[x + 2, y + 2], f0[x + 2, y + 2],
                                 hw_input[x + 2, y + 2] + 1)) - hw_input[x + 1, y + 1])
    f2 = hl.Func("f2")
    f2[x, y] = hl.i16((f0[x + 2, y + 1]) * f1[x, y + 2])
    b = hl.Var("b")
    r = hl.RDom([hl.Range(0, 6), hl.Range(0, 3)], "r")
    hist = hl.Func("hist")
    hist[b] = hl.i16(0)
    hist[hl.clamp(hl.i32(f2[r.x, r.y]), 0, 7)] = hist[hl.clamp(hl.i32(f2[r.x, r.y]), 0, 7)] + f2[r.x, r.y] / hl.i16(2)
    hw_output = hl.Func("hw_output")
    hw_output[b] = hist[b]
    output = hl.Func("output")
    output[b] = hw_output[b]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 8)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "3"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(hl.CGRA(), params)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_102000")
    design.check(design.example_inputs(102000), simulator="icarus", bubbles=0.2, backpressure=0.2, seed=102000)
    print("bit-exact")
