# Found by mainspring fuzz --auto (seed 7): quality before: hw_input(c, x, y) had its channels unrolled by 2 as if
# they were x, and at 1 lane not unrolled (a word per channel per cycle); the channels are now unrolled whole.
"""mainspring fuzz --auto case 7: 12x1, copy style, lanes 2."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 3, "input")
    hw_input = hl.Func("hw_input")
    c = hl.Var("c")
    hw_input[c, x, y] = hl.i16(input_[x, y, c])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i16((hw_input[0, 2 * x, 2 * y] + hw_input[1, 2 * x + 1, 2 * y + 1]) >> 1)
    f1 = hl.Func("f1")
    f1[x, y] = hl.i16((((hw_input[1, x + 2, y]) - hw_input[1, x, y + 1]) + f0[x, y]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 12), (0, 1)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "2"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(hl.CGRA(), params)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_7")
    design.check(design.example_inputs(7), simulator="icarus", bubbles=0.4, backpressure=0.4, seed=7)
    print("bit-exact")
