# Found by mainspring fuzz (GLB lanes; seed 124706, its GLB case forced to 3 lanes): GLB tiles of 2 columns with
# unroll(xi, 3, RoundUp) compute 3, but the memory tiles (3 after rounding to whole lanes) shrank to the 2-column
# GLB tile, so the output's third lane streamed no value (refused: 'some lanes of its op stream no value'). The GLB
# tile is now grown to whole lanes of the GLB output before its memory tiles are drawn (hwlower/tiling.py).
"""mainspring fuzz case 124706: 7x1, tile (2, 1), 3 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hw_input[x, y] >> hl.i32(3)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 7).bound(y, 0, 1)
    glb = a["hw_output"].in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, 2, 1).hw_accelerate(xi, xo)
    glb.unroll(xi, 3, hl.TailStrategy.RoundUp).store_in(hl.MemoryType.GLB)
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    a["hw_output"].tile(x, y, xio, yio, xii, yii, 2, 1).compute_at(glb, xo).unroll(xii, 3, hl.TailStrategy.RoundUp)
    a["f0"].compute_at(a["hw_output"], xio).unroll(x, 3, hl.TailStrategy.RoundUp)
    a["hw_input"].in_().in_().compute_at(a["hw_output"], xio).unroll(x, 3, hl.TailStrategy.RoundUp)
    a["hw_input"].in_().compute_at(glb, xo).unroll(x, 3, hl.TailStrategy.RoundUp).store_in(hl.MemoryType.GLB)
    a["hw_input"].compute_root().accelerator_input()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_124706")
    design.check(design.example_inputs(124706), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=124706)
    print("bit-exact")
