"""Probe17's findings (session 33) and the variations around them: an image's size in the algorithm (an RDom over
the image, `RDom(input)`, with `dim(i).set_bounds` given after it; a boundary condition clamping to the image's own
size), tiles tiled again with tails, coordinates, fused loops, lanes and GLB levels, and tails and loop orders of
updates; in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe17_programs import _input, _tiled
from probe17b_programs import _box
from probe_common import on_hardware, vars_of


def rdom_over_the_image(m):
    """A histogram of 8 bins over RDom(input), the image's size fixed by set_bounds after the RDom (was refused:
    its bounds 'use a Param'; Halide substitutes the constraints)."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    hw_input, hist, hw_output, output = m.Func("hw_input"), m.Func("hist"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = m.u16(inp[x, y])
    r = m.RDom(inp)
    hist[b] = m.u16(0)
    hist[m.clamp(m.i32(hw_input[r.x, r.y] >> 5), 0, 7)] += m.u16(1)
    hw_output[b] = hist[b]
    output[b] = hw_output[b]
    inp.dim(0).set_bounds(0, 8)
    inp.dim(1).set_bounds(0, 4)
    if on_hardware(m):
        bo, bi = m.Var("bo"), m.Var("bi")
        output.bound(b, 0, 8)
        hw_output.compute_root().split(b, bo, bi, 8).hw_accelerate(bi, bo)
        hist.compute_at(hw_output, bo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8]


def row_sums_to_the_image_width(m):
    """Each row's weighted sum over RDom(0, input.width()), the width fixed by set_bounds."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, inp.width())], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[r.x, y] * m.u16(x + 1)
    hw_output[x, y] = m.u8(acc[x, y] >> 4)
    output[x, y] = hw_output[x, y]
    inp.dim(0).set_bounds(0, 6)
    if on_hardware(m):
        _tiled(m, output, hw_output, (4, 4), inner=(acc,), inputs=(hw_input,))
    return output, {"input": inp}, [4, 4]


def repeat_edge_of_the_image(m):
    """BoundaryConditions.repeat_edge(input) with no bounds (the image's own size) on the host, a centred 3-tap
    blur inside (example_inputs crashed: the region read was unbounded; now an image as large as the output)."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    clamped = m.BoundaryConditions.repeat_edge(inp)
    hw_input, bx, hw_output, output = m.Func("hw_input"), m.Func("blur_x"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = m.u16(clamped[x, y])
    bx[x, y] = hw_input[x - 1, y] + hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = m.u8((bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 9)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def _coord(m):
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = m.Func("blur_x"), m.Func("hw_output"), m.Func("output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + m.u16(x * 3 + y)
    hw_output[x, y] = m.u8(m.select((x + 2 * y) % 3 == 0, bx[x, y] / 3, bx[x, y + 1] / 3 + m.u16(x)))
    output[x, y] = hw_output[x, y]
    return inp, x, y, hw_input, bx, hw_output, output


def _nested(m, size, outer, inner, tails=(None, None), lanes=1):
    """tile(outer) then tile(inner) of the inner part, hw_accelerate(xii, xio), over a program of coordinates."""
    inp, x, y, hw_input, bx, hw_output, output = _coord(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, size[0]).bound(y, 0, size[1])
        a, b = ((t,) if t else () for t in tails)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *outer, *a).tile(xi, yi, xio, yio, xii, yii, *inner, *b)
        hw_output.hw_accelerate(xii, xio)
        bx.compute_at(hw_output, xio)
        if lanes > 1:
            hw_output.unroll(xii, lanes)
            bx.unroll(x, lanes)
            hw_input.unroll(x, lanes)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, list(size)


def nested_guard_with_if_outer(m):
    """Tiles of 8x4 (GuardWithIf) over 14x7, each in tiles of 4x2."""
    return _nested(m, (14, 7), (8, 4), (4, 2), (m.TailStrategy.GuardWithIf, None))


def nested_round_up_both(m):
    """Tiles of 8x8 (RoundUp) over 15x8, each in tiles of 3x4 (RoundUp: past the outer tile)."""
    return _nested(m, (15, 8), (8, 8), (3, 4), (m.TailStrategy.RoundUp, m.TailStrategy.RoundUp))


def nested_larger_than_the_image(m):
    """Outer tiles of 8x8 over a 6x4 image (one tile, shrunk to it), inner tiles of 3x2."""
    return _nested(m, (6, 4), (8, 8), (3, 2))


def nested_two_lanes(m):
    """Tiles of 8x4 in tiles of 4x4, at 2 lanes."""
    return _nested(m, (16, 8), (8, 4), (4, 4), lanes=2)


def tiled_three_times(m):
    """tile 12x8, then 6x4, then 4x3 (hw_accelerate(x3i, x3o)) over 17x9: three host loops per dimension, every
    level's last tile shifted inward."""
    inp, x, y, hw_input, bx, hw_output, output = _coord(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        x3o, y3o, x3i, y3i = vars_of(m, "x3o y3o x3i y3i")
        output.bound(x, 0, 17).bound(y, 0, 9)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 12, 8).tile(xi, yi, xio, yio, xii, yii, 6, 4)
        hw_output.tile(xii, yii, x3o, y3o, x3i, y3i, 4, 3).hw_accelerate(x3i, x3o)
        bx.compute_at(hw_output, x3o)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [17, 9]


def nested_fused_inner_host_loops(m):
    """Tiles of 8x8 in tiles of 4x4, the inner host loops fused (fuse(xio, yio, t), hw_accelerate(xii, t))."""
    inp, x, y, hw_input, bx, hw_output, output = _coord(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii, t = vars_of(m, "xo yo xi yi xio yio xii yii t")
        output.bound(x, 0, 16).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).tile(xi, yi, xio, yio, xii, yii, 4, 4)
        hw_output.fuse(xio, yio, t).hw_accelerate(xii, t)
        bx.compute_at(hw_output, t)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [16, 8]


def nested_glb_tiles(m):
    """A GLB output tiled 8x8 then 4x4 (hw_accelerate(xgi, xgo)), memory tiles of 4x2, with coordinates."""
    inp, x, y, hw_input, bx, hw_output, output = _coord(m)
    if on_hardware(m):
        xo, yo, xi, yi, xgo, ygo, xgi, ygi = vars_of(m, "xo yo xi yi xgo ygo xgi ygi")
        xio, yio, xii, yii = vars_of(m, "xio yio xii yii")
        output.bound(x, 0, 16).bound(y, 0, 8)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).tile(xi, yi, xgo, ygo, xgi, ygi, 4, 4)
        g.hw_accelerate(xgi, xgo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xgo).tile(x, y, xio, yio, xii, yii, 4, 2)
        bx.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, xgo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [16, 8]


def nested_producer_at_the_outer_loop(m):
    """Tiles of 8x8 in tiles of 4x4, blur_x computed at the outer host loop xo (above the accelerator's xio)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 16).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).tile(xi, yi, xio, yio, xii, yii, 4, 4)
        hw_output.hw_accelerate(xii, xio)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [16, 8]


def _acc(m):
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y] * m.u16(r.x + 1)
    hw_output[x, y] = m.u8(acc[x, y] >> 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
    return inp, x, y, hw_input, acc, output, r


def update_taps_outermost(m):
    """acc.update().reorder(x, y, r.x): each tap over the whole tile before the next."""
    inp, x, y, hw_input, acc, output, r = _acc(m)
    if on_hardware(m):
        acc.update().reorder(x, y, r.x)
    return output, {"input": inp}, [6, 4]


def update_split_x_taps_between(m):
    """acc.update().split(x, xo2, xi2, 3).reorder(xi2, r.x, xo2, y): the taps between the parts of x."""
    inp, x, y, hw_input, acc, output, r = _acc(m)
    if on_hardware(m):
        acc.update().split(x, m.Var("xo2"), m.Var("xi2"), 3).reorder(m.Var("xi2"), r.x, m.Var("xo2"), y)
    return output, {"input": inp}, [6, 4]


def tiles_predicate_loads(m):
    """Host tiles of 5x4 over 12x7 with TailStrategy.PredicateLoads."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 12).bound(y, 0, 7)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 4, m.TailStrategy.PredicateLoads)
        hw_output.hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [12, 7]


CASES = {f.__name__: f for f in (
    rdom_over_the_image, row_sums_to_the_image_width, repeat_edge_of_the_image, nested_guard_with_if_outer,
    nested_round_up_both, nested_larger_than_the_image, nested_two_lanes, tiled_three_times,
    nested_fused_inner_host_loops, nested_glb_tiles, nested_producer_at_the_outer_loop, update_taps_outermost,
    update_split_x_taps_between, tiles_predicate_loads,
)}
# (Verilator: the image's size in an RDom; Icarus the rest)
ICARUS_ONLY = tuple(c for c in CASES if c != "rdom_over_the_image")
