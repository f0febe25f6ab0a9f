"""Probe17's loop-structure variations (session 33): GLB tiles tiled again, accelerator loops that hold a tile loop
(hw_accelerate at yo, or at yi with xo inside), outputs with updates of their own, explicit compute_inline, Funcs
read through per-reader wrappers, 1-pixel-wide tiles and Tuples at 2 lanes; in module m (`mainspring`, or
`halide`), returning (output, {name: ImageParam}, size)."""

from probe17_programs import _input, _tiled
from probe17b_programs import _box
from probe_common import on_hardware, vars_of


def accelerate_a_row_of_tiles(m):
    """tile(x, y, xo, yo, xi, yi, 4, 3).hw_accelerate(xi, yo): the accelerator runs xo's tiles of a row of tiles
    itself (xo inside), the host steps yo."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 8).bound(y, 0, 6)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 3).hw_accelerate(xi, yo)
        bx.compute_at(hw_output, yo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


def accelerate_rows_interleaved(m):
    """split x and y, reorder(xi, xo, yi, yo), hw_accelerate(xi, yi): a whole row per invocation (xo inside), the
    host over rows."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 8).bound(y, 0, 4)
        hw_output.compute_root().split(x, xo, xi, 4).split(y, yo, yi, 2).reorder(xi, xo, yi, yo)
        hw_output.hw_accelerate(xi, yi)
        bx.compute_at(hw_output, yi)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 4]


def one_column_tiles(m):
    """Tiles of 1 x 4: the accelerator computes one column a run."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _tiled(m, output, hw_output, (4, 4), (1, 4), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [4, 4]


def glb_tile_tiled_again(m):
    """A GLB level whose output is tiled twice (tiles of 8x8 in tiles of 4x4 on the host), memory tiles of 4x2."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
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


def output_with_its_own_update(m):
    """hw_output(x, y) = blur_x(x, y); hw_output(x, y) += blur_x(x, y + 1) * 2: the accelerator output updated."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = m.Func("blur_x"), m.Func("hw_output"), m.Func("output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = bx[x, y]
    hw_output[x, y] += bx[x, y + 1] * 2
    output[x, y] = m.u8(hw_output[x, y] >> 3)
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def output_serial_reduction(m):
    """hw_output itself a 3x3 serial sum (an update over an RDom), host tiles of 4x4."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    hw_output[x, y] = m.u16(0)
    hw_output[x, y] += hw_input[x + r.x, y + r.y]
    output[x, y] = m.u8(hw_output[x, y] / 9)
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 8), (4, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 8]


def explicit_compute_inline(m):
    """blur_x.compute_inline() and a helper Func computed at xo: the inline one folded into its reader."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), inputs=(hw_input,))
        bx.compute_inline()
    return output, {"input": inp}, [8, 6]


def per_reader_wrappers(m):
    """blur_x read by two Funcs, each through its own wrapper (blur_x.in_(a), blur_x.in_(b)), all at xo."""
    inp, x, y, hw_input = _input(m)
    bx, fa, fb, hw_output, output = (m.Func(n) for n in ("blur_x", "fa", "fb", "hw_output", "output"))
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    fa[x, y] = bx[x, y] + bx[x, y + 1]
    fb[x, y] = bx[x + 1, y] * 2
    hw_output[x, y] = m.u8((fa[x, y] + fb[x, y + 1]) >> 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), inner=(bx, fa, fb, bx.in_(fa), bx.in_(fb)), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def tuple_two_lanes(m):
    """A Tuple Func (sum, max of 2 taps) at 2 lanes, the output unrolled alike."""
    inp, x, y, hw_input = _input(m)
    t, hw_output, output = m.Func("t"), m.Func("hw_output"), m.Func("output")
    t[x, y] = (hw_input[x, y] + hw_input[x + 1, y], m.max(hw_input[x, y], hw_input[x, y + 1]))
    hw_output[x, y] = m.u8((t[x, y][0] + t[x + 1, y][1]) >> 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 4), inner=(t,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        t.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def stereo_argmin_2d_window(m):
    """Stereo matching with the argmin's RDom over disparities and the cost an inline 2x2 window sum."""
    left, x, y, hw_left = _input(m, "left")
    right, _, _, hw_right = _input(m, "right")
    disp, hw_output, output = m.Func("disparity"), m.Func("hw_output"), m.Func("output")
    rd = m.RDom([m.Range(0, 3)], "rd")
    cost = sum(m.absd(hw_left[x + i + 2, y + j], hw_right[x + i + 2 - rd.x, y + j]) for i in (0, 1) for j in (0, 1))
    disp[x, y] = m.argmin(cost)
    hw_output[x, y] = m.u8(disp[x, y][0])
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(disp,), inputs=(hw_left, hw_right))
    return output, {"left": left, "right": right}, [6, 4]


def unroll_round_up_not_dividing_tile(m):
    """hw_output.unroll(xi, 3, RoundUp) over tiles of 8 (a tail lane past each tile), blur_x and the input at 3."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (16, 4), (8, 4), inner=(bx,), inputs=(hw_input,))
        hw_output.unroll(xi, 3, m.TailStrategy.RoundUp)
        bx.unroll(x, 3, m.TailStrategy.RoundUp)
        hw_input.unroll(x, 3, m.TailStrategy.RoundUp)
    return output, {"input": inp}, [16, 4]


def rfactor_rows(m):
    """A 4x4 box sum by rfactor over r.y (4 partial row sums as lanes) summed by a tree."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 4), m.Range(0, 4)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(acc[x, y] >> 4)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        v = m.Var("v")
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
        intm = acc.update().rfactor(r.y, v)
        intm.compute_at(hw_output, m.Var("xo")).unroll(v)
        intm.update().unroll(v)
        acc.update().unroll(r.y)
    return output, {"input": inp}, [6, 4]


CASES = {f.__name__: f for f in (
    accelerate_a_row_of_tiles, accelerate_rows_interleaved, one_column_tiles, glb_tile_tiled_again,
    output_with_its_own_update, output_serial_reduction, explicit_compute_inline, per_reader_wrappers,
    tuple_two_lanes, stereo_argmin_2d_window, unroll_round_up_not_dividing_tile, rfactor_rows,
)}
# (small designs, simulated on Icarus: the shared test's Verilator runs are probe17, 17b and 17c's)
ICARUS_ONLY = tuple(CASES)
