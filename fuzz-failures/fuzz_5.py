# crash: Traceback (most recent call last):
#   File "/work/main/mainspring/fuzz.py", line 272, in run_case
#     design = mainspring.compile(a["output"], name=f"fuzz_{case.seed}")
#              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
#   File "/work/main/mainspring/compiler.py", line 85, in compile
#     verify_verilog(name, verilog)
"""mainspring fuzz case 5: 4x2, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hw_input[x, y] / hl.u32(3)
    f1 = hl.Func("f1")
    f1[x, y] = hl.u32((f0[x, y + 1]) + hw_input[x + 2, y])
    f2 = hl.Func("f2")
    r_f2 = hl.RDom([hl.Range(0, 1), hl.Range(0, 2)], "r_f2")
    f2[x, y] = hl.u32(0)
    f2[x, y] += f0[x + r_f2.x, y + r_f2.y] * hl.u32(1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 4).bound(y, 0, 2)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 4, 2).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_5")
    design.check(design.example_inputs(5), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=5)
    print("bit-exact")
