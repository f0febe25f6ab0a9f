"""Probe17's host-side variations (session 33): host stages before and after the accelerator (a stencil over its
output, a shifted read of it, a pre-processed input, an input summed from two images), RVars split or unrolled by
factors that do not divide them, dilated and transposed reads, channels as a serial loop, planar or on the host;
in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe17_programs import _input, _tiled
from probe17b_programs import _box
from probe_common import on_hardware, vars_of


def host_stencil_after(m):
    """output(x, y) = hw_output(x, y) + hw_output(x + 1, y) on the host: the accelerator computes 9 columns."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    out2 = m.Func("output2")
    out2[x, y] = m.u16(output[x, y]) + output[x + 1, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        out2.bound(x, 0, 8).bound(y, 0, 6)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 3, 3).hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return out2, {"input": inp}, [8, 6]


def host_reads_shifted(m):
    """output(x, y) = hw_output(x + 2, y + 1): the accelerator's output region starts at (2, 1)."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = m.Func("blur_x"), m.Func("hw_output"), m.Func("output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = m.u8((bx[x, y] + bx[x, y + 1]) >> 2)
    output[x, y] = hw_output[x + 2, y + 1]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 8).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 4).hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 4]


def host_preprocessed_input(m):
    """A host stage (pre = in * 3 / 2, computed root) that the accelerator's input copies."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    pre, hw_input, hw_output, output = m.Func("pre"), m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    pre[x, y] = m.u16(inp[x, y]) * 3 / 2
    hw_input[x, y] = pre[x, y]
    hw_output[x, y] = m.u8((hw_input[x, y] + hw_input[x + 1, y + 1]) >> 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
        pre.compute_root()
    return output, {"input": inp}, [8, 4]


def input_from_two_images(m):
    """hw_input(x, y) = a(x, y) + b(x + 1, y) (two ImageParams summed on the host), one stream."""
    a = m.ImageParam(m.UInt(8), 2, "a")
    b = m.ImageParam(m.UInt(8), 2, "b")
    x, y = m.Var("x"), m.Var("y")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = m.u16(a[x, y]) + b[x + 1, y]
    hw_output[x, y] = m.u8((hw_input[x, y] + hw_input[x, y + 1]) >> 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
    return output, {"a": a, "b": b}, [8, 4]


def rvar_unrolled_not_dividing(m):
    """update().unroll(r.x, 2) over a 3-tap RDom (the factor does not divide: Halide guards the tail)."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y] * m.u16(r.x + 1)
    hw_output[x, y] = m.u8(acc[x, y] >> 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
        acc.update().unroll(r.x, 2)
    return output, {"input": inp}, [6, 4]


def rvar_split_inner_unrolled(m):
    """update().split(r.x, rxo, rxi, 2).unroll(rxi) over a 4x2 RDom, r.y serial."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 4), m.Range(0, 2)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(acc[x, y] >> 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
        rxo, rxi = m.RVar("rxo"), m.RVar("rxi")
        acc.update().split(r.x, rxo, rxi, 2).unroll(rxi)
    return output, {"input": inp}, [6, 4]


def dilated_taps(m):
    """A dilated 3x3 conv (taps 2 apart: x + 2 r.x), unrolled."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = m.Func("acc"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + 2 * r.x, y + 2 * r.y]
    hw_output[x, y] = m.u8(acc[x, y] / 9)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (6, 4), inner=(acc,), inputs=(hw_input,))
        acc.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def transpose_host_tiles(m):
    """hw_output(x, y) = hw_input(y, x) + 1 over 2 x 2 host tiles of 4 x 4."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = m.u8(hw_input[y, x] + 1)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 8), (4, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 8]


def vertical_flip_in_tile(m):
    """hw_output(x, y) = hw_input(x, 7 - y): each 8x8 tile reads its rows bottom up (a whole-tile buffer)."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = m.u8(hw_input[x, 7 - y] >> 1)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 8), inputs=(hw_input,))
    return output, {"input": inp}, [8, 8]


def _rgb(m):
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    hw_output[x, y, c] = m.u8((hw_input[x, y, c] + hw_input[x + 1, y, c] * 2 + hw_input[x, y + 1, c]) >> 2)
    output[x, y, c] = hw_output[x, y, c]
    return inp, x, y, c, hw_input, hw_output, output


def channels_serial_innermost(m):
    """A 3-channel stencil with c the innermost loop in the tile, serial (3 cycles a pixel)."""
    inp, x, y, c, hw_input, hw_output, output = _rgb(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 4).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 4, 3]


def channels_planar(m):
    """The same with c outermost inside the tile (planar: a plane after the other)."""
    inp, x, y, c, hw_input, hw_output, output = _rgb(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 4).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(xi, yi, c, xo, yo).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 4, 3]


def channels_on_the_host(m):
    """The channel loop outside the accelerator (reorder(xi, yi, xo, yo, c), hw_accelerate(xi, xo)): one run per
    channel and tile."""
    inp, x, y, c, hw_input, hw_output, output = _rgb(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 4).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(xi, yi, xo, yo, c).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 4, 3]


CASES = {f.__name__: f for f in (
    host_stencil_after, host_reads_shifted, host_preprocessed_input, input_from_two_images,
    rvar_unrolled_not_dividing, rvar_split_inner_unrolled, dilated_taps, transpose_host_tiles, vertical_flip_in_tile,
    channels_serial_innermost, channels_planar, channels_on_the_host,
)}
# (small designs, simulated on Icarus: the shared test's Verilator runs are probe17, 17b and 17c's)
ICARUS_ONLY = tuple(CASES)
