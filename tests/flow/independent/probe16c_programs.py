"""Probe16's hand schedules over the schedule calls seed 002 describes, one variation each on small pipelines: loop
orders (reorder, fuse), compute and store levels (compute_at yi, store_at xo), tails (GuardWithIf, RoundUp), Tuples
and several outputs, channels, intrinsics, constant weights, reductions (argmax, RDom.where), multi-rate stages and
more Funcs of no dimensions; in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

import numpy as np
from probe16_programs import _funcs, _hw, _input, _vars, _whole
from probe16b_programs import _tiled


def _box3(m):
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = _funcs(m, "blur_x hw_output output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output[x, y] = m.u8((bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9)
    output[x, y] = hw_output[x, y]
    return inp, x, y, hw_input, bx, hw_output, output


def reorder_columns_first(m):
    """hw_output.tile(...).reorder(yi, xi, xo, yo): the accelerator walks each tile column by column."""
    inp, x, y, hw_input, bx, hw_output, output = _box3(m)
    if _hw(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, hw_input, (8, 6), (4, 6), (bx,))
        hw_output.reorder(yi, xi, xo, yo)
    return output, {"input": inp}, [8, 6]


def fuse_tile_loops(m):
    """tile then fuse(xi, yi, t): one loop over the tile's pixels inside the accelerator."""
    inp, x, y, hw_input, bx, hw_output, output = _box3(m)
    if _hw(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, hw_input, (8, 6), (8, 3), (bx,))
        hw_output.fuse(xi, yi, m.Var("t"))
    return output, {"input": inp}, [8, 6]


def blur_x_at_rows(m):
    """blur_x.store_at(hw_output, xo).compute_at(hw_output, yi): computed a row at a time, stored per tile."""
    inp, x, y, hw_input, bx, hw_output, output = _box3(m)
    if _hw(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, hw_input, (8, 6))
        bx.store_at(hw_output, xo).compute_at(hw_output, yi)
    return output, {"input": inp}, [8, 6]


def guard_with_if_tiles(m):
    """Tiles of 5x4 over 12x7 with TailStrategy.GuardWithIf (the last column and row of tiles partial)."""
    inp, x, y, hw_input, bx, hw_output, output = _box3(m)
    if _hw(m):
        xo, yo, xi, yi = _vars(m, "xo yo xi yi")
        output.bound(x, 0, 12).bound(y, 0, 7)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 4, m.TailStrategy.GuardWithIf).hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [12, 7]


def unroll3_round_up_inner(m):
    """blur_x and the output unrolled by 3 over 9 columns, blur_x with TailStrategy.RoundUp."""
    inp, x, y, hw_input, bx, hw_output, output = _box3(m)
    if _hw(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, hw_input, (9, 4), inner=(bx,))
        hw_output.unroll(xi, 3)
        bx.unroll(x, 3, m.TailStrategy.RoundUp)
        hw_input.unroll(x, 3)
    return output, {"input": inp}, [9, 4]


def split_then_reorder(m):
    """split x and y separately then reorder(xi, yi, xo, yo), as seed 002's spelling of tile."""
    inp, x, y, hw_input, bx, hw_output, output = _box3(m)
    if _hw(m):
        xo, yo, xi, yi = _vars(m, "xo yo xi yi")
        output.bound(x, 0, 8).bound(y, 0, 8)
        hw_output.compute_root().split(x, xo, xi, 4).split(y, yo, yi, 4).reorder(xi, yi, xo, yo)
        hw_output.hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 8]


def tuple_output(m):
    """hw_output a Tuple (min, max of a 2x2 window) in u16; the host's output the Tuple's u8s."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    a, b, c, d = (hw_input[x + i, y + j] for i, j in ((0, 0), (1, 0), (0, 1), (1, 1)))
    hw_output[x, y] = (m.min(m.min(a, b), m.min(c, d)), m.max(m.max(a, b), m.max(c, d)))
    output[x, y] = (m.u8(hw_output[x, y][0]), m.u8(hw_output[x, y][1]))
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4))
    return output, {"input": inp}, [6, 4]


def two_outputs(m):
    """A Pipeline of two outputs scheduled alike: the box blur and the input's gradient along x."""
    inp, x, y, hw_input, bx, hw_output, output = _box3(m)
    grad, out2 = _funcs(m, "grad output2")
    grad[x, y] = m.u8(m.absd(hw_input[x + 2, y + 1], hw_input[x, y + 1]))
    out2[x, y] = grad[x, y]
    if _hw(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, hw_input, (8, 4), inner=(bx,))
        out2.bound(x, 0, 8).bound(y, 0, 4)
        grad.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
    return [output, out2], {"input": inp}, [8, 4]


def rgb_to_gray(m):
    """A 3-channel input (x, y, c) to luma, (77 r + 150 g + 29 b) >> 8, the channels read at constants."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    hw_input, hw_output, output = _funcs(m, "hw_input hw_output output")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    hw_output[x, y] = m.u8((77 * hw_input[x, y, 0] + 150 * hw_input[x, y, 1] + 29 * hw_input[x, y, 2]) >> 8)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        xo, yo, xi, yi = _vars(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        hw_input.compute_root().reorder(c, x, y).stream_to_accelerator()
    return output, {"input": inp}, [6, 4]


def depthwise_channels(m):
    """A 3x3 box per channel of a 3-channel image, the channel loop outermost in the tile."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    hw_input, bx, hw_output, output = _funcs(m, "hw_input blur_x hw_output output")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    bx[x, y, c] = hw_input[x, y, c] + hw_input[x + 1, y, c] + hw_input[x + 2, y, c]
    hw_output[x, y, c] = m.u8((bx[x, y, c] + bx[x, y + 1, c] + bx[x, y + 2, c]) / 9)
    output[x, y, c] = hw_output[x, y, c]
    if _hw(m):
        xo, yo, xi, yi = _vars(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 4).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(xi, yi, c, xo, yo).hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 4, 3]


def clamped_input_edges(m):
    """The input read at clamped coordinates on the host (a repeated edge), a 3x3 box inside."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, bx, hw_output, output = _funcs(m, "hw_input blur_x hw_output output")
    hw_input[x, y] = m.u16(inp[m.clamp(x - 1, 0, 7), m.clamp(y - 1, 0, 5)])
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output[x, y] = m.u8((bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (8, 6), inner=(bx,))
    return output, {"input": inp}, [8, 6]


def intrinsics_mix(m):
    """lerp by the neighbour, saturating_add, rounding_shift_right and absd in u8/u16."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, mix, hw_output, output = _funcs(m, "hw_input mix hw_output output")
    hw_input[x, y] = inp[x, y]
    a, b = hw_input[x, y], hw_input[x + 1, y + 1]
    mix[x, y] = m.saturating_add(m.lerp(a, b, hw_input[x + 1, y]), m.absd(a, b))
    hw_output[x, y] = m.u8(m.rounding_shift_right(m.u16(mix[x, y]) * 3, 1) & 0xff)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4), inner=(mix,))
    return output, {"input": inp}, [6, 4]


def weights_from_a_buffer(m):
    """A 3x3 conv whose weights are an hl.Buffer the algorithm reads (constant), its update unrolled."""
    inp, x, y, hw_input = _input(m)
    w = m.Buffer(np.array([[1, 2, 1], [0, 3, 0], [2, 1, 2]], dtype=np.uint16), "weights")
    wf, conv, hw_output, output = _funcs(m, "wf conv hw_output output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    wf[x, y] = w[x, y]
    conv[x, y] = m.u16(0)
    conv[x, y] += wf[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(conv[x, y] >> 4)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4), inner=(conv, wf))
        conv.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def argmax_window(m):
    """The position (0..8) of the brightest pixel of each 3x3 window, by hl.argmax, serially."""
    inp, x, y, hw_input = _input(m)
    am, hw_output, output = _funcs(m, "am hw_output output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    am[x, y] = m.argmax(hw_input[x + r.x, y + r.y])
    hw_output[x, y] = m.u8(am[x, y][0] + 3 * am[x, y][1])
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4), inner=(am,))
    return output, {"input": inp}, [6, 4]


def where_diamond_unrolled(m):
    """A diamond of 13 taps (RDom.where over 5x5), unrolled."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = _funcs(m, "acc hw_output output")
    r = m.RDom([m.Range(-2, 5), m.Range(-2, 5)], "r")
    r.where(m.abs(r.x) + m.abs(r.y) <= 2)
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x + 2, y + r.y + 2]
    hw_output[x, y] = m.u8(acc[x, y] / 13)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4), inner=(acc,))
        acc.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def down_then_up(m):
    """A 2x2 mean downsample then a nearest upsample, with the detail added back (one Laplacian level)."""
    inp, x, y, hw_input = _input(m)
    down, hw_output, output = _funcs(m, "down hw_output output")
    down[x, y] = (hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y] + hw_input[2 * x, 2 * y + 1]
                  + hw_input[2 * x + 1, 2 * y + 1]) >> 2
    hw_output[x, y] = m.u8_sat(m.i16(hw_input[x, y]) - m.i16(down[x / 2, y / 2]) + 128)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (8, 8), (8, 4), (down,))
    return output, {"input": inp}, [8, 8]


def upsample_by_3(m):
    """A nearest upsample by 3 along x and 2 along y of a 2-tap stencil."""
    inp, x, y, hw_input = _input(m)
    f, hw_output, output = _funcs(m, "f hw_output output")
    f[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = m.u8(f[x / 3, y / 2] >> 1)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (9, 4), inner=(f,))
    return output, {"input": inp}, [9, 4]


def input_inside_accelerator(m):
    """conv_3_3's Clockwork branch: hw_input.compute_at(hw_output, xo) and stream_to_accelerator."""
    inp, x, y, hw_input = _input(m)
    conv, hw_output, output = _funcs(m, "conv hw_output output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    conv[x, y] = m.u16(0)
    conv[x, y] += hw_input[x + r.x, y + r.y] * m.u16(r.x + r.y + 1)
    hw_output[x, y] = m.u8(conv[x, y] >> 4)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        xo, yo, xi, yi = _vars(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        conv.compute_at(hw_output, xo).update().unroll(r.x).unroll(r.y)
        hw_input.compute_at(hw_output, xo).store_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [6, 4]


def frame_min_max_tuple(m):
    """A Func of no dimensions holding a Tuple: the frame's min and max in one pass (the host's output: max - min)."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    hw_output[()] = (m.u16(65535), m.u16(0))
    hw_output[()] = (m.min(hw_output[()][0], hw_input[r.x, r.y]), m.max(hw_output[()][1], hw_input[r.x, r.y]))
    output[()] = m.u8(hw_output[()][1] - hw_output[()][0])
    if _hw(m):
        _whole(m, hw_output, hw_input)
    return output, {"input": inp}, []


def frame_sum_of_a_unrolled_stencil(m):
    """A Func of no dimensions summing a 2x2 stencil computed at 2 lanes at its root loop."""
    inp, x, y, hw_input = _input(m)
    st, hw_output, output = _funcs(m, "st hw_output output")
    st[x, y] = hw_input[x, y] + hw_input[x + 1, y + 1]
    r = m.RDom([m.Range(0, 8), m.Range(0, 3)], "r")
    hw_output[()] = m.u16(0)
    hw_output[()] += st[r.x, r.y]
    output[()] = hw_output[()]
    if _hw(m):
        _whole(m, hw_output, hw_input, (st,))
        st.unroll(x, 2)
        hw_input.unroll(x, 2)
        hw_output.update().unroll(r.x, 2)
    return output, {"input": inp}, []


CASES = {f.__name__: f for f in (
    reorder_columns_first, fuse_tile_loops, blur_x_at_rows, guard_with_if_tiles, unroll3_round_up_inner,
    split_then_reorder, tuple_output, two_outputs, rgb_to_gray, depthwise_channels, clamped_input_edges,
    intrinsics_mix, weights_from_a_buffer, argmax_window, where_diamond_unrolled, down_then_up, upsample_by_3,
    input_inside_accelerator, frame_min_max_tuple, frame_sum_of_a_unrolled_stencil,
)}
