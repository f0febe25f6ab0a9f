# Found by mainspring fuzz (seed 179709, session 40): refused ("Func 'f0_intm' computes 1 pixel per cycle ... but
# accelerator input 'hw_input' streams 2 per cycle"): a stream of 2 x 2 blocks read by an rfactor's intermediate (at
# f0's x) and by f1 (at hw_output's xo), both of one lane. Since session 41 both read one copy of the stream at one
# lane, computed at the accelerator's loop xo (frontend/stream_staging.py, tests/flow/test_shared_staging41.py).
"""mainspring fuzz case 179709: 2x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    f0 = hl.Func("f0")
    r_f0 = hl.RDom([hl.Range(0, 1), hl.Range(0, 2)], "r_f0")
    f0[x, y] = hl.u16(0)
    f0[x, y] += hw_input[x + r_f0.x, y + r_f0.y] * hl.u16(2)
    f1 = hl.Func("f1")
    f1[x, y] = hl.select(x < 4, hw_input[x, y], hw_input[x, y] + hl.u16(y * 4 - x))
    f2 = hl.Func("f2")
    f2[x, y] = hl.u16(hl.halving_sub(hl.u16(f0[x, y + 2]), f1[x, y + 2]))
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 1).hw_accelerate(xi, xo)
    intm = a["f0"].update().rfactor(a["r_f0"].y, hl.Var("v"))
    intm.compute_at(a["f0"], x).unroll(hl.Var("v")).update().unroll(a["r_f0"].x).unroll(hl.Var("v"))
    a["f0"].update().unroll(a["r_f0"].y)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_input"].unroll(x, 2, hl.TailStrategy.RoundUp).unroll(y, 2, hl.TailStrategy.RoundUp)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_179709")
    design.check(design.example_inputs(179709), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=179709)
    print("bit-exact")
