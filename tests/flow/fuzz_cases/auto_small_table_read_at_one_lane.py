# Found by mainspring fuzz --auto (seed 5228): refused before: a table of 3 bins updated at computed coordinates
# (lanes of registers) read out by the output at 2 lanes; hwlower reads such a table one element per cycle even
# with hist.unroll(b, 2), so the autoscheduler now runs the output at 1 lane (the note says why).
"""mainspring fuzz --auto case 5228: 2x1, plain style, lanes 2."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    f0 = hl.Func("f0")
    f0[x, y] = hl.i32(hl.i32(input_[x + 2, y + 2]) + hl.i32(1))
    b = hl.Var("b")
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 1)], "r")
    hist = hl.Func("hist")
    hist[b] = hl.i32(3)
    hist[hl.clamp(hl.i32(f0[r.x, r.y]), 0, 2)] = hl.max(hist[hl.clamp(hl.i32(f0[r.x, r.y]), 0, 2)], hl.i32(r.x + r.y))
    output = hl.Func("output")
    output[b] = hist[b]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 3)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "2"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(hl.CGRA(), params)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_5228")
    design.check(design.example_inputs(5228), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=5228)
    print("bit-exact")
