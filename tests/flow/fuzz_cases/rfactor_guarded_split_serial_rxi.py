# Found by mainspring fuzz (seed 9163400, session 17): refused ("Func 'f0_intm'.update(0) accesses 'hw_input' at
# (x + min(((v * 2) + rxi_f0), 2)), which is not an affine function of its loops"), with a fix the program already
# followed: rfactor of r.x split by 2 over 3 taps (the outer part preserved), rxi serial. Lane 0 reads x + rxi,
# lane 1 x + 2: no line. The tap past the extent, which the select discards, is now read unclamped under a guard
# (hwlower/guarded_clamps.py).
"""mainspring fuzz case 9163400: 2x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 3, "input")
    hw_input = hl.Func("hw_input")
    c = hl.Var("c")
    hw_input[c, x, y] = hl.u16(input_[x, y, c])
    f0 = hl.Func("f0")
    r_f0 = hl.RDom([hl.Range(0, 3), hl.Range(0, 2)], "r_f0")
    f0[x, y] = hl.u16(0)
    f0[x, y] += hw_input[0, x + r_f0.x, y + r_f0.y] * hl.u16(1)
    f1 = hl.Func("f1")
    r_f1 = hl.RDom([hl.Range(0, 1), hl.Range(0, 2)], "r_f1")
    f1[x, y] = hl.u16(0)
    f1[x, y] += hw_input[1, x + r_f1.x, y + r_f1.y] * hl.u16(1)
    f2 = hl.Func("f2")
    f2_table = hl.Func("f2_table")
    f2_table[x] = hl.u16(x * 5 % 11)
    f2[x, y] = f0[x, y] + f2_table[hl.i32(hl.clamp(f0[x, y], 0, 15))]
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
    intm = a["f0"].update().split(a["r_f0"].x, hl.RVar("rxo_f0"), hl.RVar("rxi_f0"), 2).rfactor(hl.RVar("rxo_f0"), hl.Var("v"))  # noqa: E501
    intm.compute_at(a["f0"], x).unroll(hl.Var("v"))
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].update().unroll(a["r_f1"].x).unroll(a["r_f1"].y)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_input"].unroll(a["c"])


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_9163400")
    design.check(design.example_inputs(9163400), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=9163400)
    print("bit-exact")
