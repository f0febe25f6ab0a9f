# Found by helper mends14 (session 30) while reaching a message: a RAM read at a computed address that also uses
# the coordinate x (`tbl(clamp(x + pixel - 128, 0, 63))`) in host tiles of 8 columns hit an internal assert ("op
# 'hw_output_s0' reads coordinate coord_x of another op"): hwlower/tile_coordinates.py gave x's port its per-tile
# offsets in the op's value but not in its lookup (or scatter) addresses. Halide accepts the program.
"""A RAM looked up at an address of the pixel and the coordinate, in two host tiles."""
import mainspring


def algorithm(hl):
    x, y, i = hl.Var("x"), hl.Var("y"), hl.Var("i")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, tbl, hw_output, output = (hl.Func(n) for n in ("hw_input", "tbl", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 4)], "r")
    tbl[i] = hl.u16(0)
    tbl[hl.clamp(hl.i32(hw_input[r.x, 0]), 0, 63)] += 1
    hw_output[x, y] = tbl[hl.clamp(x + hl.clamp(hl.i32(hw_input[x, y]), 0, 255) - 128, 0, 63)]
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    a["output"].bound(a["x"], 0, 16).bound(a["y"], 0, 4)
    a["hw_output"].compute_root().tile(a["x"], a["y"], xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
    a["tbl"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="ram_lookup_at_a_coordinate_in_host_tiles")
    design.check(design.example_inputs(1), simulator="icarus")
    print("bit-exact")
