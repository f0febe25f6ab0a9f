# Found by mainspring fuzz --auto (seed 130319): quality before: a histogram's serial update over the pixels counted as
# taps per pixel, so its 2-channel stream carried one channel per transfer (ideal 96 cycles for 48); now whole.
"""mainspring fuzz --auto case 130319: 6x2, copy style, lanes 1."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 3, "input")
    hw_input = hl.Func("hw_input")
    c = hl.Var("c")
    hw_input[c, x, y] = hl.u16(input_[x, y, c])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u16((hw_input[0, 2 * x, 2 * y] + hw_input[1, 2 * x + 1, 2 * y + 1]) >> 1)
    b = hl.Var("b")
    r = hl.RDom([hl.Range(0, 6), hl.Range(0, 2)], "r")
    hist = hl.Func("hist")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hl.i32(f0[r.x, r.y]), 0, 15)] = hist[hl.clamp(hl.i32(f0[r.x, r.y]), 0, 15)] + f0[r.x, r.y] / hl.u16(2)
    hw_output = hl.Func("hw_output")
    hw_output[b] = hist[b]
    output = hl.Func("output")
    output[b] = hw_output[b]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 16)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "1"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(target(hl), params)


def target(hl):
    return hl.CGRA()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_130319", target=target(mainspring))
    design.check(design.example_inputs(130319), simulator="icarus", bubbles=0.4, backpressure=0.4, seed=130319)
    print("bit-exact")
