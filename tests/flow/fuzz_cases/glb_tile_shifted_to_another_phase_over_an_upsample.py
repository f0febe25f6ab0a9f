# Found by mainspring fuzz (seed 141463): refused ("accelerator tiles differ in shape", naming x / 3): GLB tiles of 4
# over an 11-wide 2x upsample, the last shifted inward to x = 7, at another phase than the first; the GLB tiles did
# not see the array output's steps. Now the last moves back outward to x = 8 (hwlower/tiling.py, phase_multiples).
"""mainspring fuzz case 141463: 11x1, tile (4, 1), 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u32(hw_input[x + 1, y + 1] + hl.u32(1))
    f0_e = hl.BoundaryConditions.constant_exterior(f0, hl.u32(3), [(0, 11), (0, 1)])
    f1 = hl.Func("f1")
    f1[x, y] = hw_input[x, y] << hl.u32(1)
    f1_e = hl.BoundaryConditions.constant_exterior(f1, hl.u32(3), [(0, 11), (0, 1)])
    f2 = hl.Func("f2")
    f2[x, y] = hl.u32((f0[x / 2, y / 2] + f0[x / 2 + 1, y / 2]) >> 1)
    f2_e = hl.BoundaryConditions.constant_exterior(f2, hl.u32(3), [(0, 11), (0, 1)])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 11).bound(y, 0, 1)
    glb = a["hw_output"].in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, 4, 1).hw_accelerate(xi, xo)
    glb.store_in(hl.MemoryType.GLB)
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    a["hw_output"].tile(x, y, xio, yio, xii, yii, 4, 2).compute_at(glb, xo)
    a["f0"].compute_at(a["hw_output"], xio)
    a["f1"].compute_at(a["hw_output"], xio)
    a["hw_input"].in_().in_().compute_at(a["hw_output"], xio)
    a["hw_input"].in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    a["hw_input"].compute_root().accelerator_input()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_141463")
    design.check(design.example_inputs(141463), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=141463)
    print("bit-exact")
