# Found by mainspring fuzz --auto (seed 97): refused before: an upsample inlined into a reader at x + 1 gives (x + 1)
# / 2, not affine; it is now buffered.
"""mainspring fuzz --auto case 97: 4x2, plain style, lanes 1."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    f0 = hl.Func("f0")
    f0[x, y] = hl.i32((hl.i32(input_[x / 2, y / 2]) + hl.i32(input_[x / 2 + 1, y / 2])) >> 1)
    f1 = hl.Func("f1")
    f1[x, y] = hl.i32(f0[x + 1, y + 2] + hl.i32(1))
    output = f1
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 4), (0, 2)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "1"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(hl.CGRA(), params)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_97")
    design.check(design.example_inputs(97), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=97)
    print("bit-exact")
