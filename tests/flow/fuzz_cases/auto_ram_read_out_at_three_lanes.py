# Found by mainspring fuzz --auto (seed 24): refused before: a 8-bin RAM read out at 3 lanes needs 3 read ports (a
# memory tile has 2), and the lane plan looked into a constant table (a ROM) and gave up; now 2 lanes.
"""mainspring fuzz --auto case 24: 10x6, plain style, lanes 3."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    other = hl.ImageParam(hl.Int(16), 2, "other")
    f0 = hl.Func("f0")
    f0[x, y] = hl.i32(hl.i32(hl.max(hl.i32(input_[x, y + 2]), hl.i32(other[x + 2, y]))))
    f1 = hl.Func("f1")
    f1_table = hl.Func("f1_table")
    f1_table[x] = hl.i32(x * 4 % 11)
    f1[x, y] = hl.i32(input_[x, y]) + f1_table[hl.i32(hl.clamp(hl.i32(input_[x, y]), 0, 15))]
    f2 = hl.Func("f2")
    f2[x, y] = hl.i32((f1[2 * x, 2 * y] + f1[2 * x + 1, 2 * y + 1]) >> 1)
    b = hl.Var("b")
    r = hl.RDom([hl.Range(0, 10), hl.Range(0, 6)], "r")
    hist = hl.Func("hist")
    hist[b] = hl.i32(3)
    hist[hl.clamp(hl.i32(f2[r.x, r.y]), 0, 7)] = hl.max(hist[hl.clamp(hl.i32(f2[r.x, r.y]), 0, 7)], hl.i32(r.x + r.y))
    output = hl.Func("output")
    output[b] = hist[b]
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
    design = mainspring.compile(build(), name="fuzz_auto_24")
    design.check(design.example_inputs(24), simulator="icarus", bubbles=0.4, backpressure=0.4, seed=24)
    print("bit-exact")
