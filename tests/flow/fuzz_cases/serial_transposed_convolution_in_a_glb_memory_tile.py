# Found by mainspring fuzz (seed 134105): a transposed convolution with serial taps, f0 += hw_input((x + r.x) / 2,
# (y + r.y) / 2), in a GLB tile of 2x3 with one memory tile of 2x3, was refused: the array output's loop over 3 rows
# runs in steps of 2 (y / 2 strip-mined), and only the one-level output rounded its tile up to whole steps. Memory
# tiles of the array output now round up to whole upsample steps (2x4 here; hwlower/tiling.py), the GLB tile grows
# to whole memory tiles, and the host reads back its 2x3.
"""mainspring fuzz case 134105: 2x3, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    f0 = hl.Func("f0")
    r_f0 = hl.RDom([hl.Range(0, 1), hl.Range(0, 2)], "r_f0")
    f0[x, y] = hl.u16(0)
    f0[x, y] += hw_input[(x + r_f0.x) / 2, (y + r_f0.y) / 2] * hl.u16(1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 2).bound(y, 0, 3)
    glb = a["hw_output"].in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, 2, 3).hw_accelerate(xi, xo)
    glb.store_in(hl.MemoryType.GLB)
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    a["hw_output"].tile(x, y, xio, yio, xii, yii, 2, 3).compute_at(glb, xo)
    a["f0"].compute_at(a["hw_output"], xio)
    a["hw_input"].in_().in_().compute_at(a["hw_output"], xio)
    a["hw_input"].in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    a["hw_input"].compute_root().accelerator_input()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_134105")
    design.check(design.example_inputs(134105), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=134105)
    print("bit-exact")
