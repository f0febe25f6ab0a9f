# Found by mainspring fuzz (seed 187502, session 40): refused ("Func 'f0' computes 1 pixel per cycle ... but accelerator
# input 'hw_input' streams 2 per cycle"): a stream of 2 x 2 blocks read by two Funcs of one lane, each in turn.
# Since session 41 both read one copy of the stream at one lane (frontend/stream_staging.py,
# tests/flow/test_shared_staging41.py).
"""mainspring fuzz case 187502: 2x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.select(x < 1, hw_input[x, y], hw_input[x, y] + hl.i32(y * 1 - x))
    f1 = hl.Func("f1")
    f1[x, y] = hl.i32((f0[x + 2, y + 2]) * hw_input[x + 2, y + 1])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 2, 1).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_input"].unroll(x, 2, hl.TailStrategy.RoundUp).unroll(y, 2, hl.TailStrategy.RoundUp)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_187502")
    design.check(design.example_inputs(187502), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=187502)
    print("bit-exact")
