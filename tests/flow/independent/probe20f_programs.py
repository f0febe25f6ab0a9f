"""Probe20's hand schedules (session 35), part six: seed 002's GLB level around what part five did not put through
it (channels read together, serial reductions, up- and down-samples, boundary conditions, lanes in host tiles,
rows a cycle); each in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe19_programs import _in, _out
from probe20_programs import _blur3
from probe20e_programs import _glb3
from probe_common import on_hardware, vars_of


def glb_rgb_channels_together(m):
    """A 3-channel input (c, x, y) through the GLB, read a pixel's channels together in the memory tiles
    (hw_input.in_().in_().reorder(c, x, y).unroll(c)), a weighted gray of a 2-pixel window, 6x4."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input = m.Func("hw_input")
    hw_input[c, x, y] = m.u16(inp[c, x, y])
    hw_output, output = _out(m, lambda x, y: m.u8(
        (hw_input[0, x, y] + hw_input[1, x + 1, y] * 2 + hw_input[2, x, y]) >> 2))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (6, 4), (6, 4), (3, 4))
        hw_input.bound(c, 0, 3)
        hw_input.in_().in_().reorder(c, x, y).unroll(c)
    return output, {"input": inp}, [6, 4]


def glb_serial_reduction(m):
    """A 3x3 convolution run serially (nine cycles a pixel) in memory tiles of 4x2 under a GLB tile of 8x4."""
    inp, x, y, hw_input = _in(m)
    conv = m.Func("conv")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    conv[x, y] = m.u16(0)
    conv[x, y] += hw_input[x + r.x, y + r.y] * m.u16(r.x + 2 * r.y + 1)
    hw_output, output = _out(m, lambda x, y: m.u8(conv[x, y] >> 5))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (8, 4), (8, 4), (4, 2), inner=(conv,))
    return output, {"input": inp}, [8, 4]


def glb_upsample_nearest(m):
    """A nearest x2 up-sample through the GLB: a 5x3 input tile in the GLB, 10x6 output, memory tiles of 5x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[x / 2, y / 2] + m.u16(x % 2)))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (10, 6), (10, 6), (5, 3))
    return output, {"input": inp}, [10, 6]


def glb_downsample_average(m):
    """A 2x2 average down-sample through the GLB, a 6x4 output in memory tiles of 3x2 (12x8 of input)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y]
                                                   + hw_input[2 * x, 2 * y + 1] + hw_input[2 * x + 1, 2 * y + 1]) >> 2))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (6, 4), (6, 4), (3, 2))
    return output, {"input": inp}, [6, 4]


def glb_repeat_edge_inside(m):
    """repeat_edge of the memory tile's input copy's source inside, a centred 3x3 sum, GLB 8x4, memory tiles 4x4."""
    inp, x, y, hw_input = _in(m)
    cl = m.BoundaryConditions.repeat_edge(hw_input, [(0, 8), (0, 4)])
    sm = m.Func("sum3")
    sm[x, y] = cl[x - 1, y] + cl[x, y] + cl[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((sm[x, y - 1] + sm[x, y] + sm[x, y + 1]) / 9))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (8, 4), (8, 4), (4, 4), inner=(sm,))
    inp.dim(0).set_bounds(0, 8)
    inp.dim(1).set_bounds(0, 4)
    return output, {"input": inp}, [8, 4]


def glb_host_tiles_two_lanes_odd(m):
    """GLB tiles of 6x3 over 12x6 (four calls) at two lanes, memory tiles of 6x3, a 3-tap row blur."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] / 3))
    if on_hardware(m):
        g = _glb3(m, hw_output, output, hw_input, (12, 6), (6, 3), (6, 3), inner=(bx,))
        g.unroll(m.Var("xi"), 2)
        hw_output.unroll(m.Var("xii"), 2)
        bx.unroll(x, 2)
        hw_input.in_().in_().unroll(x, 2)
    return output, {"input": inp}, [12, 6]


def glb_i16_output_two_lanes(m):
    """A signed i16 Laplacian through the GLB at two lanes, GLB 8x4, memory tiles 4x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = _out(m, lambda x, y: hw_input[x + 1, y + 1] * 4 - hw_input[x, y + 1] - hw_input[x + 2, y + 1]
                             - hw_input[x + 1, y] - hw_input[x + 1, y + 2])
    if on_hardware(m):
        g = _glb3(m, hw_output, output, hw_input, (8, 4), (8, 4), (4, 4))
        g.unroll(m.Var("xi"), 2)
        hw_output.unroll(m.Var("xii"), 2)
        hw_input.in_().in_().unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def glb_rows_reordered_in_memory_tiles(m):
    """The memory tiles walked column by column (hw_output.reorder(yii, xii)), the GLB output row by row, 6x4."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y + 1]) >> 1))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (6, 4), (6, 4), (3, 4))
        hw_output.reorder(m.Var("yii"), m.Var("xii"))
    return output, {"input": inp}, [6, 4]


def glb_table_in_memory_tiles(m):
    """A 16-word table (computed in the memory tiles) indexed by the pixel's top bits, GLB 8x2, memory tiles 4x2."""
    inp, x, y, hw_input = _in(m)
    v = m.Var("v")
    t = m.Func("table")
    t[v] = m.u8(v * 15 + (v % 3))
    hw_output, output = _out(m, lambda x, y: t[m.i32(hw_input[x, y] >> 4)] ^ m.u8(hw_input[x + 1, y] & 15))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (8, 2), (8, 2), (4, 2), inner=(t,))
        t.bound(v, 0, 16).unroll(v)
    return output, {"input": inp}, [8, 2]


def glb_two_level_producers(m):
    """Two producers in the memory tiles (blur_x at xio, blur_y at xio), a GLB tile 9x6 in memory tiles of 3x3."""
    inp, x, y, hw_input = _in(m)
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    by[x, y] = bx[x, y] + bx[x, y + 1] + bx[x, y + 2]
    hw_output, output = _out(m, lambda x, y: m.u8(by[x, y] / 9))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (9, 6), (9, 6), (3, 3), inner=(bx, by))
    return output, {"input": inp}, [9, 6]


def glb_store_at_glb_compute_in_memory_tile(m):
    """blur_x.store_at(hw_output.in_(), xo).compute_at(hw_output, xio): stored over the GLB tile, computed per
    memory tile, GLB 8x4, memory tiles 4x2."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 2))
    if on_hardware(m):
        g = _glb3(m, hw_output, output, hw_input, (8, 4), (8, 4), (4, 2))
        bx.store_at(g, m.Var("xo")).compute_at(hw_output, m.Var("xio"))
    return output, {"input": inp}, [8, 4]


def glb_tuple_output(m):
    """A 2-Tuple (u8, u8) output through the GLB, GLB 6x2, memory tiles 3x2."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = m.Tuple([m.u8(hw_input[x, y] >> 1), m.u8(hw_input[x + 1, y] >> 2)])
    output[x, y] = m.Tuple([hw_output[x, y][0], hw_output[x, y][1]])
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (6, 2), (6, 2), (3, 2))
    return output, {"input": inp}, [6, 2]


def glb_output_storage_column_major(m):
    """hw_output.in_().reorder_storage(y, x): the GLB output stored column by column, GLB 6x4, memory tiles 3x4."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x, y + 1]) >> 1))
    if on_hardware(m):
        g = _glb3(m, hw_output, output, hw_input, (6, 4), (6, 4), (3, 4))
        g.reorder_storage(y, x)
    return output, {"input": inp}, [6, 4]


def glb_channels_first_output(m):
    """A channels-first output (c, x, y), 3 colours a cycle in the memory tiles and the GLB (consecutive words),
    GLB 4x2."""
    inp, x, y, hw_input = _in(m)
    c = m.Var("c")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[c, x, y] = m.u8((hw_input[x, y] * m.u16(c + 1) + hw_input[x + 1, y]) >> 2)
    output[c, x, y] = hw_output[c, x, y]
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 4).bound(y, 0, 2).bound(c, 0, 3)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 4, 2).reorder(c, xi, yi, xo, yo).unroll(c)
        g.hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 4, 2).reorder(c, xii, yii, xio, yio).unroll(c)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [3, 4, 2]


def glb_two_rows_a_cycle(m, rows=2):
    """Memory tiles of 4x4 computing two rows a cycle (hw_output.unroll(yii, 2)) under a GLB of 4x4 (refused:
    the lanes are a row apart in the GLB tile; an internal assert before session 35)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x, y + 1]) >> 1))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (4, 4), (4, 4), (4, 4))
        if rows > 1:
            hw_output.unroll(m.Var("yii"), rows)
    return output, {"input": inp}, [4, 4]


def glb_rows_in_turn(m):
    """The refusal's fix for glb_two_rows_a_cycle: the unroll of yii removed."""
    return glb_two_rows_a_cycle(m, rows=1)


def glb_block_lanes(m, size=(2, 4), lanes=(2, 2)):
    """Memory tiles as wide as x's lanes computing a block of lanes[0] x lanes[1] pixels a cycle (unroll(xii) whole
    and unroll(yii, 2): consecutive words of the GLB tile), the GLB output unrolled alike (the outer half of the
    x unroll a loop of one iteration: an internal assert before session 35)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y + 1]) >> 1))
    if on_hardware(m):
        g = _glb3(m, hw_output, output, hw_input, size, size, size)
        hw_output.unroll(m.Var("xii"), lanes[0]).unroll(m.Var("yii"), lanes[1])
        g.unroll(m.Var("xi"), lanes[0]).unroll(m.Var("yi"), lanes[1])
        hw_input.in_().in_().unroll(x, lanes[0])
    return output, {"input": inp}, list(size)


def glb_block_lanes_three_by_two(m):
    """glb_block_lanes with a 3x4 tile, 3 x 2 = 6 pixels a cycle."""
    return glb_block_lanes(m, (3, 4), (3, 2))


def glb_sliding_rows_copy_at_tile(m, copy_at_rows=False):
    """Under a GLB tile of 4x2 over 8x5, memory tiles of 2x2 with blur_x stored at xio and computed at yii, blur_y
    at yii, the memory tile's input copy at xio (refused before session 36: the array's Funcs were computed at one
    loop)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 8).bound(y, 0, 5)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 4, 2).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 2, 2)
        if copy_at_rows:
            hw_input.in_().in_().store_at(hw_output, xio).compute_at(hw_output, yii)
        else:
            hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
        bx.store_at(hw_output, xio).compute_at(hw_output, yii)
        by.compute_at(hw_output, yii)
    return output, {"input": inp}, [8, 5]


def glb_sliding_rows(m):
    """The refusal's fix for glb_sliding_rows_copy_at_tile: the input copy stored at xio, computed at yii too."""
    return glb_sliding_rows_copy_at_tile(m, copy_at_rows=True)


def glb_sliding_rows_two_lanes_column_order(m):
    """glb_sliding_rows at two lanes RoundUp with the memory tile walked column by column (reorder(yii, xii)), GLB
    tiles 4x2 over 8x3, memory tiles 3x2 (each group of its rows one iteration: a crash in memories/timing.py
    radix_candidate before session 35)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        ru = m.TailStrategy.RoundUp
        output.bound(x, 0, 8).bound(y, 0, 3)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 4, 2).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        g.unroll(xi, 2, ru)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 3, 2).unroll(xii, 2, ru).reorder(yii, xii)
        hw_input.in_().in_().store_at(hw_output, xio).compute_at(hw_output, yii).unroll(x, 2, ru)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
        bx.store_at(hw_output, xio).compute_at(hw_output, yii).unroll(x, 2, ru)
        by.compute_at(hw_output, yii).unroll(x, 2, ru)
    return output, {"input": inp}, [8, 3]


CASES = {f.__name__: f for f in (
    glb_rgb_channels_together, glb_serial_reduction, glb_upsample_nearest, glb_downsample_average,
    glb_repeat_edge_inside, glb_host_tiles_two_lanes_odd, glb_i16_output_two_lanes, glb_rows_reordered_in_memory_tiles,
    glb_table_in_memory_tiles, glb_two_level_producers, glb_store_at_glb_compute_in_memory_tile, glb_tuple_output,
    glb_output_storage_column_major, glb_channels_first_output, glb_two_rows_a_cycle, glb_rows_in_turn,
    glb_block_lanes, glb_block_lanes_three_by_two, glb_sliding_rows_copy_at_tile, glb_sliding_rows,
    glb_sliding_rows_two_lanes_column_order,
)}
