"""Probe16's edge cases of its two subjects: Funcs of no dimensions (unrolled by a factor, at a GLB level) and
upsamples (read inline, along y over a split y, a chain of quotients at lanes); in module m (`mainspring`, or
`halide`), returning (output, {name: ImageParam}, size)."""

from probe16_programs import _funcs, _hw, _input, _vars, _whole
from probe16b_programs import _tiled


def frame_sum_unrolled_by_2(m):
    """A frame sum of 8x3 with r.x unrolled by 2 (a split of the RVar) and the input at 2 lanes."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    r = m.RDom([m.Range(0, 8), m.Range(0, 3)], "r")
    hw_output[()] = m.u16(0)
    hw_output[()] += hw_input[r.x, r.y] * m.u16(r.y + 1)
    output[()] = hw_output[()]
    if _hw(m):
        _whole(m, hw_output, hw_input)
        hw_output.update().unroll(r.x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, []


def frame_sum_at_a_glb_level(m):
    """A frame sum whose accelerator output is a GLB copy (hw_output.in_()), the sum computed inside it."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    hw_output[()] = m.u16(0)
    hw_output[()] += hw_input[r.x, r.y]
    output[()] = hw_output[()]
    if _hw(m):
        root = m.Var.outermost()
        g = hw_output.in_()
        g.compute_root().hw_accelerate(root, root).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, root)
        hw_input.in_().in_().compute_at(hw_output, root)
        hw_input.in_().compute_at(g, root).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, []


def up_inline(m):
    """up(x, y) = f(x / 2, y / 2) with f left inline: the quotient read from the input's buffer."""
    inp, x, y, hw_input = _input(m)
    f, hw_output, output = _funcs(m, "f hw_output output")
    f[x, y] = hw_input[x, y] * 3
    hw_output[x, y] = m.u8(f[x / 2, y / 2] >> 2)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (8, 4))
    return output, {"input": inp}, [8, 4]


def up_rows_over_split_y(m):
    """up(x, y) = f(x, y / 2) with hw_output.split(yi, yi, ys, 2)."""
    inp, x, y, hw_input = _input(m)
    f, hw_output, output = _funcs(m, "f hw_output output")
    f[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = m.u8(f[x, y / 2] >> 1)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, hw_input, (6, 8), (6, 4), (f,))
        hw_output.split(yi, yi, m.Var("ys"), 2)
    return output, {"input": inp}, [6, 8]


def up_chain_two_lanes(m):
    """A chain of quotients (x / 2 and x / 4) read at 2 lanes, over a split xi."""
    inp, x, y, hw_input = _input(m)
    f, g, hw_output, output = _funcs(m, "f g hw_output output")
    f[x, y] = hw_input[x, y] + 1
    g[x, y] = hw_input[x, y] * 2
    hw_output[x, y] = m.u8((f[x / 2, y] + g[x / 4, y]) >> 1)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, hw_input, (16, 2), inner=(f, g))
        xs = m.Var("xs")
        hw_output.split(xi, xi, xs, 4).unroll(xs, 2)
    return output, {"input": inp}, [16, 2]


def glb_at_the_root_loop(m):
    """A 2-D GLB level accelerated at the root (hw_accelerate(x, Var.outermost())), memory tiles of 4x4 in it."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = _funcs(m, "blur_x hw_output output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = m.u8((bx[x, y] + bx[x, y + 1]) >> 2)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        root = m.Var.outermost()
        xio, yio, xii, yii = _vars(m, "xio yio xii yii")
        output.bound(x, 0, 8).bound(y, 0, 8)
        g = hw_output.in_()
        g.compute_root().hw_accelerate(x, root).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, root).tile(x, y, xio, yio, xii, yii, 4, 4)
        bx.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, root).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [8, 8]


def bound_on_a_producer_in_tiles(m):
    """blur_x.compute_at(hw_output, xo).bound(y, 0, 10) over two rows of 8x4 tiles: Halide realises it over rows 0-9
    in each tile (the same values); the second row of tiles read the wrong rows (31 of 64 pixels differed)."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = _funcs(m, "blur_x hw_output output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output[x, y] = m.u8((bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (8, 8), (4, 4), (bx,))
        bx.bound(y, 0, 10)
    return output, {"input": inp}, [8, 8]


def bound_on_an_update_in_tiles(m):
    """acc (a serial 3-tap update) computed at xo with acc.bound(y, 0, 10), over two rows of 8x4 tiles (was an
    internal error: a load of rows no op wrote)."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = _funcs(m, "acc hw_output output")
    r = m.RDom([m.Range(0, 3)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    hw_output[x, y] = m.u8((acc[x, y] + acc[x, y + 1] + acc[x, y + 2]) / 9)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (8, 8), (8, 4), (acc,))
        acc.bound(y, 0, 10)
    return output, {"input": inp}, [8, 8]


def _min_max(m, two):
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    hw_output[()] = (m.u16(65535), m.u16(0))
    hw_output[()] = (m.min(hw_output[()][0], hw_input[r.x, r.y]), m.max(hw_output[()][1], hw_input[r.x, r.y]))
    if two:
        (hi,) = _funcs(m, "hi")
        output[()] = m.u8(hw_output[()][0])
        hi[()] = m.u8(hw_output[()][1])
    else:
        output[()] = (m.u8(hw_output[()][0]), m.u8(hw_output[()][1]))
    if _hw(m):
        _whole(m, hw_output, hw_input)
    return ([output, hi] if two else output), {"input": inp}, []


def zero_d_tuple_output(m):
    """The host's output a Tuple of no dimensions (a frame's min and max): was refused for want of a bound on the
    internal dimension of its packing."""
    return _min_max(m, False)


def two_zero_d_outputs(m):
    """The same as a Pipeline of two outputs of no dimensions, each a 0-D array as Halide realises it."""
    return _min_max(m, True)


CASES = {f.__name__: f for f in (
    frame_sum_unrolled_by_2, frame_sum_at_a_glb_level, glb_at_the_root_loop, up_inline, up_rows_over_split_y,
    up_chain_two_lanes, bound_on_a_producer_in_tiles, bound_on_an_update_in_tiles, zero_d_tuple_output,
    two_zero_d_outputs,
)}
