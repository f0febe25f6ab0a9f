"""Probe17's data-flow variations (session 33): centred stencils (reads before the origin), RDom.where on loaded
values, scans (a row's running sum, an integral image), a 256-entry table streamed as a second input and read at
pixel values, an unrolled argmax, a special row written by an update and several Funcs computed at a row loop; in
module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe17_programs import _input, _tiled
from probe_common import on_hardware


def centred_stencil(m):
    """A 3x3 box centred on the pixel (reads at x - 1 and y - 1: the input's region starts at -1)."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = m.Func("blur_x"), m.Func("hw_output"), m.Func("output")
    bx[x, y] = hw_input[x - 1, y] + hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = m.u8((bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 9)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), (4, 3), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def where_on_loaded_values(m):
    """The sum of the 3x3 window's pixels brighter than 100 (RDom.where on a loaded value), serial."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r.where(hw_input[x + r.x, y + r.y] > 100)
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(acc[x, y] >> 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def where_on_loaded_values_unrolled(m):
    """The same, the window unrolled (the failing taps add 0)."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r.where(hw_input[x + r.x, y + r.y] > 100)
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(acc[x, y] >> 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
        acc.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def row_running_sum(m):
    """A running sum along each row (a scan: f(r.x, y) = f(r.x - 1, y) + in(r.x, y)) over an 8-wide tile."""
    inp, x, y, hw_input = _input(m)
    f, hw_output, output = m.Func("cumsum"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(1, 7)], "r")
    f[x, y] = hw_input[x, y]
    f[r.x, y] = f[r.x - 1, y] + hw_input[r.x, y]
    hw_output[x, y] = m.u8(f[x, y] >> 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inner=(f,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def integral_image(m):
    """A summed-area table: a running sum along rows, then along columns (two scans), in u32."""
    inp, x, y, hw_input = _input(m, wide=m.u32)
    rows, cols, hw_output, output = m.Func("rows"), m.Func("cols"), m.Func("hw_output"), m.Func("output")
    rx = m.RDom([m.Range(1, 5)], "rx")
    ry = m.RDom([m.Range(1, 3)], "ry")
    rows[x, y] = hw_input[x, y]
    rows[rx.x, y] = rows[rx.x - 1, y] + hw_input[rx.x, y]
    cols[x, y] = rows[x, y]
    cols[x, ry.x] = cols[x, ry.x - 1] + rows[x, ry.x]
    hw_output[x, y] = cols[x, y]
    output[x, y] = m.u16(hw_output[x, y])
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(rows, cols), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def streamed_table_at_pixels(m):
    """A 256-entry table as a second input (1-D, streamed), read at each pixel's value: a tone curve."""
    inp, x, y, hw_input = _input(m)
    table = m.ImageParam(m.UInt(8), 1, "table")
    hw_table, hw_output, output = m.Func("hw_table"), m.Func("hw_output"), m.Func("output")
    hw_table[x] = m.u16(table[x])
    hw_output[x, y] = m.u8(hw_table[m.clamp(m.i32(hw_input[x, y]), 0, 255)])
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input, hw_table))
        hw_table.bound(x, 0, 256)
    return output, {"input": inp, "table": table}, [8, 4]


def argmax_inline_whole(m):
    """The position of the brightest of 4 horizontal taps by hl.argmax (an inline reduction: the accelerator
    computes its RDom whole; `am.update().unroll(r.x)` is refused, as Halide refuses it)."""
    inp, x, y, hw_input = _input(m)
    am, hw_output, output = m.Func("am"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 4)], "r")
    am[x, y] = m.argmax(hw_input[x + r.x, y])
    hw_output[x, y] = m.u8(am[x, y][0] * 64 + (am[x, y][1] >> 2))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(am,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def special_row_update(m):
    """f(x, y) = in(x, y) + 1, then f(x, 0) = 0 (an update of one row at a constant coordinate), read by a 2-row
    sum."""
    inp, x, y, hw_input = _input(m)
    f, hw_output, output = m.Func("f"), m.Func("hw_output"), m.Func("output")
    f[x, y] = hw_input[x, y] + 1
    f[x, 0] = m.u16(0)
    hw_output[x, y] = m.u8((f[x, y] + f[x, y + 1]) >> 1)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inner=(f,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def funcs_at_the_row_loop(m):
    """blur_x and a gradient both computed at yi (a row at a time), stored at xo."""
    inp, x, y, hw_input = _input(m)
    bx, gx, hw_output, output = m.Func("blur_x"), m.Func("grad_x"), m.Func("hw_output"), m.Func("output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    gx[x, y] = m.absd(hw_input[x + 2, y], hw_input[x, y])
    hw_output[x, y] = m.u8((bx[x, y] + bx[x, y + 1] + gx[x, y + 2]) >> 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
        for f in (bx, gx):
            f.store_at(hw_output, xo).compute_at(hw_output, yi)
    return output, {"input": inp}, [8, 4]


def eight_lanes(m):
    """A 2-tap blur at 8 pixels a cycle over a 16x2 tile."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = m.u8((hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]) / 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (16, 2), inputs=(hw_input,))
        hw_output.unroll(xi, 8)
        hw_input.unroll(x, 8)
    return output, {"input": inp}, [16, 2]


CASES = {f.__name__: f for f in (
    centred_stencil, where_on_loaded_values, where_on_loaded_values_unrolled, row_running_sum, integral_image,
    streamed_table_at_pixels, argmax_inline_whole, special_row_update, funcs_at_the_row_loop, eight_lanes,
)}
# (small designs, simulated on Icarus: the shared test's Verilator runs are probe17, 17b and 17c's)
ICARUS_ONLY = tuple(CASES)
