# Found by mainspring fuzz (seed 141245): refused ("accesses 'f1' at (x / 2), which is not an affine function"):
# x read at (x + r.x) / 3 then at x / 2 in one chain; the class was strip-mined by one divisor. Now each resolution
# steps by its own divisor (hwlower/steps.py, _level_steps).
"""mainspring fuzz case 141245: 2x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    r_f0 = hl.RDom([hl.Range(0, 3), hl.Range(0, 1)], "r_f0")
    f0[x, y] = hl.u8(0)
    f0[x, y] += hw_input[(x + r_f0.x) / 3, (y + r_f0.y) / 3] * hl.u8(3)
    f1 = hl.Func("f1")
    f1_table = hl.Func("f1_table")
    f1_table[x] = hl.u8(x * 5 % 11)
    f1[x, y] = f0[x, y] + f1_table[hl.i32(hl.clamp(f0[x, y], 0, 15))]
    f2 = hl.Func("f2")
    f2[x, y] = hl.u8((f1[x / 2, y / 2] + f1[x / 2 + 1, y / 2]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 1)
    glb = a["hw_output"].in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, 2, 1).hw_accelerate(xi, xo)
    glb.store_in(hl.MemoryType.GLB)
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    a["hw_output"].tile(x, y, xio, yio, xii, yii, 2, 1).compute_at(glb, xo)
    a["f0"].compute_at(a["hw_output"], xio)
    a["f1"].compute_at(a["hw_output"], xio)
    a["f2"].compute_at(a["hw_output"], xio)
    a["hw_input"].in_().in_().compute_at(a["hw_output"], xio)
    a["hw_input"].in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    a["hw_input"].compute_root().accelerator_input()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_141245")
    design.check(design.example_inputs(141245), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=141245)
    print("bit-exact")
