# Found by the lead (session 18) from fuzz --auto 140256: an internal assertion in memories/ ("hwlower contract:
# op 'hw_output_s0' load ... reads element(s) of buffer 'hw_input_global_wrapper_global_wrapper' that no op
# writes"): memory tiles of 3 columns at 2 lanes (`unroll(xii, 2, RoundUp)`), the stage inlined into hw_output.
# The memory tile's split (a tile of 3, whole lanes: 4) is wider than its 3 columns; bounds inference covered 3
# of them where the lanes compute 4 (frontend/bounds.py `_covered`: a split wider than its loop shrinks to it,
# and the lanes round that up).
"""A hand schedule through the GLB: 6x1 in GLB tiles of 3, memory tiles of 3, 2 lanes."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = input_[x, y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = (hw_input[x + 2, y + 1] + hw_input[x + 1, y]) >> 1
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    a["output"].bound(x, 0, 6).bound(y, 0, 1)
    glb = a["hw_output"].in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, 3, 1).hw_accelerate(xi, xo)
    glb.store_in(hl.MemoryType.GLB)
    a["hw_output"].tile(x, y, xio, yio, xii, yii, 3, 1).compute_at(glb, xo)
    a["hw_input"].in_().in_().compute_at(a["hw_output"], xio)
    a["hw_input"].in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    a["hw_input"].compute_root().accelerator_input()
    up = hl.TailStrategy.RoundUp
    a["hw_output"].unroll(xii, 2, up)
    a["hw_input"].in_().in_().unroll(x, 2, up)
    a["hw_input"].in_().unroll(x, 2, up)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="glb_memory_tile_odd_at_lanes")
    design.check(design.example_inputs(3), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=3)
    print("bit-exact")
