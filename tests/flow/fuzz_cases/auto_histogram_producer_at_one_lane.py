# Found by mainspring fuzz --auto (seed 23): refused before: a table updated at computed coordinates steps one pixel
# of its producer per cycle, which had 2 lanes; the producer of a serial reduction now has one.
"""mainspring fuzz --auto case 23: 8x2, plain style, lanes 2."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    other = hl.ImageParam(hl.UInt(16), 2, "other")
    f0 = hl.Func("f0")
    f0[x, y] = hl.select(x < 4, hl.u16(input_[x, y]), hl.u16(input_[x, y]) + hl.u16(y * 4 - x))
    f1 = hl.Func("f1")
    f1[x, y] = hl.u16((f0[x, y]) - hl.u16(other[x, y + 1]))
    b = hl.Var("b")
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 2)], "r")
    hist = hl.Func("hist")
    hist[b] = hl.u16(3)
    hist[hl.clamp(hl.i32(f1[r.x, r.y]), 0, 39)] = hl.max(hist[hl.clamp(hl.i32(f1[r.x, r.y]), 0, 39)], hl.u16(r.x + r.y))
    output = hl.Func("output")
    output[b] = hist[b]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 40)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "2"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(hl.CGRA(), params)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_23")
    design.check(design.example_inputs(23), simulator="icarus", bubbles=0.2, backpressure=0.2, seed=23)
    print("bit-exact")
