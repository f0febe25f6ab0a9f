"""The pipeline of the boundary-condition tests over tiles (test_flow_boundary_tiles.py: host tiles;
test_flow_glb_edges.py and bench_glb_edges.py: GLB tiles of memory tiles): grad, a 2-tap stencil of the input
computed inside the accelerator, read by blur through a boundary condition (or clamped indices, a chain of two, a
reduction; "none": the same taps without one, moved to stay inside the input)."""

import numpy as np

import mainspring as hl
from mainspring.apps.common import input_extent

BC = ("clamp", "repeat_edge", "constant_exterior", "mirror_image", "mirror_interior")
MORE = ("chain", "input_and_inner", "unrolled_reduction", "serial_reduction")


def bc(m, kind: str, f, width: int, height: int):
    bounds = [(0, width), (0, height)]
    conds = m.BoundaryConditions
    if kind == "constant_exterior":
        return conds.constant_exterior(f, 7, bounds)
    return getattr(conds, kind)(f, bounds)


def algorithm(m, case: str, width: int, height: int):
    """The Funcs of a case in module m (`mainspring` or `halide`), unscheduled: (input, hw_input, inner Funcs,
    hw_output, output)."""
    x, y = m.Var("x"), m.Var("y")
    input_ = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, grad, blur = m.Func("hw_input"), m.Func("grad"), m.Func("blur")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = m.u16(input_[x, y])
    if case == "input_and_inner":  # the input's stream extended, grad's edges tapped
        e_in = bc(m, "repeat_edge", hw_input, width, height)
        grad[x, y] = e_in[x - 1, y] * 2 + e_in[x, y + 1]
    else:
        grad[x, y] = hw_input[x + 1, y] * 2 + hw_input[x, y + 1]
    inner = [grad, blur]
    last, bottom = width - 1, height - 1
    if case == "none":  # the taps without a boundary condition, moved by (2, 2) to read the input from (0, 0)
        blur[x, y] = grad[x, y + 3] + grad[x + 2, y + 2] * 2 + grad[x + 3, y]
    elif case == "clamp":
        blur[x, y] = (grad[m.clamp(x - 2, 0, last), y] + grad[x, y] * 2
                      + grad[m.clamp(x + 1, 0, last), m.clamp(y - 1, 0, bottom)])
    elif case in BC:
        e = bc(m, case, grad, width, height)
        blur[x, y] = e[x - 2, y + 1] + e[x, y] * 2 + e[x + 1, y - 2]
    elif case == "chain":  # two Funcs inside read through boundary conditions, one after the other
        mid = m.Func("mid")
        r = bc(m, "repeat_edge", grad, width, height)
        mid[x, y] = r[x - 1, y] + r[x + 1, y - 1] * 3
        e = bc(m, "mirror_interior", mid, width, height)
        blur[x, y] = e[x, y + 2] + mid[x, y] + e[x - 2, y]
        inner = [grad, mid, blur]
    elif case == "input_and_inner":
        e = bc(m, "mirror_image", grad, width, height)
        blur[x, y] = e[x + 1, y - 1] + e[x - 1, y + 1] * 3
    elif case in ("unrolled_reduction", "serial_reduction"):  # a 3x3 box over the clamped Func
        rd = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
        blur[x, y] = m.u16(0)
        blur[x, y] += grad[m.clamp(x + rd.x, 0, last), m.clamp(y + rd.y, 0, bottom)] * m.u16(rd.x + 2)
        if m is hl and case == "unrolled_reduction":
            blur.update().unroll(rd.x).unroll(rd.y)
    else:
        raise AssertionError(case)
    hw_output[x, y] = blur[x, y]
    output[x, y] = hw_output[x, y]
    return input_, hw_input, inner, hw_output, output


def image(case: str, width: int, height: int) -> np.ndarray:
    """An input of width x height (grad reads x + 1 and y + 1 of it: width and height one more than the output's)."""
    return np.random.default_rng(len(case) + width).integers(0, 256, (height, width), dtype=np.uint8)


def through_glb(case: str, size: tuple[int, int], glb_tile: tuple[int, int], mem_tile: tuple[int, int],
                lanes: int = 1):
    """Seed 002's three levels: GLB tiles of `glb_tile` over an output of `size` (hw_output.in_(), the host's
    invocations), hw_output computed once per GLB tile in memory tiles of `mem_tile`, grad and blur at the memory
    tile's loop; (output, inputs)."""
    _, hw_input, inner, hw_output, output = algorithm(hl, case, *size)
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    glb = hw_output.in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, *glb_tile).hw_accelerate(xi, xo)
    glb.store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, *mem_tile).compute_at(glb, xo)
    for f in inner:
        f.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    if lanes > 1:  # seed 002's duplicated compute: every stage of the array and the GLB input along x
        round_up = hl.TailStrategy.RoundUp
        for f in (*inner, hw_input.in_().in_(), hw_input.in_()):
            f.unroll(x, lanes, round_up)
        for f in inner:
            for k in range(f.num_update_definitions()):
                f.update(k).unroll(x, lanes, round_up)
        hw_output.unroll(xii, lanes, round_up)
    return output, {"input": image(case, *input_extent(output, "input"))}
