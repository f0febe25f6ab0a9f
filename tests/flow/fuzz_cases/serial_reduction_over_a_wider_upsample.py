# Found by mainspring fuzz (seed 101497): a serial 2x2 reduction over an upsample's strip-mined loops. Its
# producers (f0, f1) have no reduction loops and step 3 pairs of columns where f2 steps 2: memories/schedule.py
# took the radix from the deepest op alone and gave them its periods, so f0 fired twice in a cycle (the checker).
"""mainspring fuzz case 101497: 3x4, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i16((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    f1 = hl.Func("f1")
    f1_table = hl.Func("f1_table")
    f1_table[x] = hl.i16(x * 2 % 11)
    f1[x, y] = f0[x, y] + f1_table[hl.i32(hl.clamp(f0[x, y], 0, 15))]
    f2 = hl.Func("f2")
    r_f2 = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r_f2")
    r_f2.where(r_f2.x + r_f2.y != 0)
    f2[x, y] = hl.i16(0)
    f2[x, y] += f1[x + r_f2.x, y + r_f2.y] * hl.i16(2)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 3).bound(y, 0, 4)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 3, 4).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_101497")
    design.check(design.example_inputs(101497), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=101497)
    print("bit-exact")
