# crash: Traceback (most recent call last):
#   File "/work/main/mainspring/fuzz.py", line 272, in run_case
#     design = mainspring.compile(a["output"], name=f"fuzz_{case.seed}")
#              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
#   File "/work/main/mainspring/compiler.py", line 85, in compile
#     verify_verilog(name, verilog)
"""mainspring fuzz case 6: 6x6, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hw_input[x, y] >> hl.u16(1)
    f1 = hl.Func("f1")
    r_f1 = hl.RDom([hl.Range(0, 2), hl.Range(0, 1)], "r_f1")
    f1[x, y] = hl.u16(0)
    f1[x, y] += f0[x + r_f1.x, y + r_f1.y] * hl.u16(2)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 6).bound(y, 0, 6)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 6, 6).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].update().unroll(a["r_f1"].x).unroll(a["r_f1"].y)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_6")
    design.check(design.example_inputs(6), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=6)
    print("bit-exact")
