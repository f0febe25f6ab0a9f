# fuzz17 (session 17): rfactor of a split r.x that does not divide (3 taps by 2: two parts, the outer one preserved,
# as README says compiles) with the intermediate's update serial over rxi (not unrolled; Halide 21 accepts it):
# refused, and the message's fix ("split it by a factor that divides the extent or leaves two parts ... and rfactor
# the outer part") is what the program already does. With rxi and v unrolled in f0_intm's update (r.y serial),
# it compiles and is bit-exact. Fuzz seeds 9163400 (shrunk here), 9167480, 9167551, 9168317, 9171141; the fuzzer's
# serial split form now unrolls rxi over 3 taps.
# refusal: <fuzz case 9163400>:35: Func 'f0_intm'.update(0) accesses 'hw_input' at (x + min(((v * 2) + rxi_f0), 2)), which is not an affine function of its loops; memories need affine addresses: an index clamped with min or max is affine only where its values at the iterations of the loops it moves with lie on a line (clamps of a read at constant bounds become edge taps; this one is not such a read): rfactor of a split RVar clamps the last part's taps where the split's factor does not divide the RVar's extent, a line over the lanes of the outer part only when there are two parts; split it by a factor that divides the extent or leaves two parts (at least half of it) and rfactor the outer part; else compute the clamped index on the host side.  # noqa: E501
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
