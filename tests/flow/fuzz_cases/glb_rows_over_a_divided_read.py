# Found by mainspring fuzz (seed 179675, session 39): refused ("Func 'hw_output': an upsample divides the index of
# dimension yii by 3, so the accelerator runs that loop in steps of 6 (3 iterations of 2 lanes), but 'hw_output' runs
# it 2 times"), though Halide accepts it: a transposed convolution's serial taps at (y + r.y) / 3 under seed 002's GLB
# level, the array output's rows unrolled by 2 (RoundUp) over memory tiles of 1 row. The memory tiles rounded up to
# whole steps of 3 rows (3 rows: 2 iterations of 2 lanes), not to runs of lcm(3, 2) = 6 rows, which the array
# strip-mines; they round up to those now (hwlower/tiling.py `_tile_extents`).
"""mainspring fuzz case 179675: 4x6, tile (4, 6), 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i8(input_[x, y])
    f0 = hl.Func("f0")
    r_f0 = hl.RDom([hl.Range(0, 1), hl.Range(0, 2)], "r_f0")
    r_f0.where(r_f0.x + r_f0.y != 0)
    f0[x, y] = hl.i8(0)
    f0[x, y] += hw_input[(x + r_f0.x) / 3, (y + r_f0.y) / 3] * hl.i8(1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 4).bound(y, 0, 6)
    glb = a["hw_output"].in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, 4, 6).hw_accelerate(xi, xo)
    glb.store_in(hl.MemoryType.GLB)
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    a["hw_output"].tile(x, y, xio, yio, xii, yii, 2, 1).compute_at(glb, xo).unroll(yii, 2, hl.TailStrategy.RoundUp)
    a["f0"].compute_at(a["hw_output"], xio).unroll(y, 2, hl.TailStrategy.RoundUp)
    a["f0"].update().unroll(y, 2, hl.TailStrategy.RoundUp)
    a["hw_input"].in_().in_().compute_at(a["hw_output"], xio)
    a["hw_input"].in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    a["hw_input"].compute_root().accelerator_input()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_179675")
    design.check(design.example_inputs(179675), simulator="icarus", bubbles=0.4, backpressure=0.4, seed=179675)
    print("bit-exact")
