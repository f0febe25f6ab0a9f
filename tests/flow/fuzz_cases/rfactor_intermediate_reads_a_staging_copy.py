# Found by mainspring fuzz (seed 180113, session 40): refused ("Func 'f0_intm' computes 1 pixel per cycle ... but
# accelerator input 'hw_input' streams 2 per cycle"): an rfactor's intermediate f0_intm(x, y, v), the stream's only
# reader, takes 3 taps of x of a stream of 2 x 2 blocks; the staging copy (frontend/stream_staging.py) left it for
# its third variable. Since session 41 it reads a copy computed at its own level (f0's x): 55 cycles for 50.
"""mainspring fuzz case 180113: 7x4, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i8(input_[x, y])
    k = hl.Param(hl.Int(8), "k", 7)
    f0 = hl.Func("f0")
    r_f0 = hl.RDom([hl.Range(0, 3), hl.Range(0, 2)], "r_f0")
    f0[x, y] = hl.i8(0)
    f0[x, y] += hw_input[x + r_f0.x, y + r_f0.y] * hl.i8(2) + k
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 7).bound(y, 0, 4)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 7, 4).hw_accelerate(xi, xo)
    intm = a["f0"].update().rfactor(a["r_f0"].y, hl.Var("v"))
    intm.compute_at(a["f0"], x).unroll(hl.Var("v")).update().unroll(a["r_f0"].x).unroll(hl.Var("v"))
    a["f0"].update().unroll(a["r_f0"].y)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f0"].unroll(y, 2, hl.TailStrategy.RoundUp)
    a["f0"].update().unroll(y, 2, hl.TailStrategy.RoundUp)
    a["hw_input"].compute_root().accelerator_input()
    a["hw_input"].unroll(x, 2, hl.TailStrategy.RoundUp).unroll(y, 2, hl.TailStrategy.RoundUp)
    a["hw_output"].unroll(xi, 2, hl.TailStrategy.RoundUp)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_180113")
    design.check(design.example_inputs(180113), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=180113)
    print("bit-exact")
