# Found by mainspring fuzz --auto (seed 28): refused before: an upsample's input streamed 2 pixels per cycle while the
# output at 2 lanes reads 1; the input now has 1 lane.
"""mainspring fuzz --auto case 28: 4x4, copy style, lanes 2."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.select(x < 2, hw_input[x, y], hw_input[x, y] + hl.i16(y * 2 - x))
    f1 = hl.Func("f1")
    r_f1 = hl.RDom([hl.Range(0, 1), hl.Range(0, 1)], "r_f1")
    f1[x, y] = hl.i16(0)
    f1[x, y] += f0[x + r_f1.x, y + r_f1.y] * hl.i16(1)
    f2 = hl.Func("f2")
    f2[x, y] = hl.i16((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 4), (0, 4)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "2"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(hl.CGRA(), params)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_28")
    design.check(design.example_inputs(28), simulator="icarus", bubbles=0.4, backpressure=0.4, seed=28)
    print("bit-exact")
