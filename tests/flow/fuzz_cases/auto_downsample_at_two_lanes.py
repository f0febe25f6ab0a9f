# Found by mainspring fuzz --auto (seed 11): refused before: at 2 lanes the autoscheduler unrolled every stage by 2,
# but a 2x downsample reads 4 pixels of its producer per cycle; lanes now follow the rates (autoschedule_lanes.py: the
# producer at 4).
"""mainspring fuzz --auto case 11: 12x6, copy style, lanes 2."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    r_f0 = hl.RDom([hl.Range(0, 1), hl.Range(0, 2)], "r_f0")
    f0[x, y] = hl.u8(0)
    f0[x, y] += hw_input[x + r_f0.x, y + r_f0.y] * hl.u8(3)
    f1 = hl.Func("f1")
    f1[x, y] = hl.u8((f0[2 * x, 2 * y] + f0[2 * x + 1, 2 * y + 1]) >> 1)
    b = hl.Var("b")
    r = hl.RDom([hl.Range(0, 12), hl.Range(0, 6)], "r")
    hist = hl.Func("hist")
    hist[b] = hl.u8(0)
    hist[hl.clamp(hl.i32(f1[r.x, r.y]), 0, 3)] = hist[hl.clamp(hl.i32(f1[r.x, r.y]), 0, 3)] + f1[r.x, r.y] / hl.u8(2)
    hw_output = hl.Func("hw_output")
    hw_output[b] = hist[b]
    output = hl.Func("output")
    output[b] = hw_output[b]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 4)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "2"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(hl.CGRA(), params)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_11")
    design.check(design.example_inputs(11), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=11)
    print("bit-exact")
