"""Probe20's hand schedules (session 35), part seven: loop levels a researcher tries next (a producer at the host
tile loop yo, host loops fused, compute_at a consumer's row with the store at the tile), scans along y, where-clauses
on pure variables, Tuple updates at lanes, bounds given on hw_output instead of the output; each in module m
(`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of


def producer_at_host_row_loop(m):
    """blur_x.compute_at(hw_output, yo): computed per row of host tiles (outside the accelerator's call), host
    tiles of 4x2 over 8x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), tile=(4, 2), inputs=(hw_input,))
        bx.compute_at(hw_output, yo)
    return output, {"input": inp}, [8, 4]


def host_loops_fused(m):
    """hw_output's host loops fused (fuse(xo, yo, t)) with host tiles of 3x2 over 6x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] >> 2))
    if on_hardware(m):
        xo, yo, xi, yi, t = vars_of(m, "xo yo xi yi t")
        output.bound(x, 0, 6).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 3, 2).fuse(xo, yo, t).hw_accelerate(xi, t)
        bx.compute_at(hw_output, t)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 4]


def scan_along_y(m):
    """A recursive filter down the columns: f(x, 0) = v, f(x, r) = (f(x, r - 1) * 3 + v) / 4 for r in 1..4, 6x5."""
    inp, x, y, hw_input = _in(m)
    f = m.Func("f")
    r = m.RDom([m.Range(1, 4)], "r")
    f[x, y] = hw_input[x, y]
    f[x, r.x] = (f[x, r.x - 1] * 3 + hw_input[x, r.x]) / 4
    hw_output, output = _out(m, lambda x, y: m.u8(f[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 5), inner=(f,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 5]


def where_on_pure_variable(m):
    """An RDom whose where-clause reads the pure x (taps only inside a 6-wide strip: x + r.x < 6), 6x3."""
    inp, x, y, hw_input = _in(m)
    s = m.Func("s")
    r = m.RDom([m.Range(0, 3)], "r")
    r.where(x + r.x < 6)
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x)
    return output, {"input": inp}, [6, 3]


def tuple_update_two_lanes(m):
    """A Tuple (min, max) reduction over a 2x2 window at two lanes, the output max - min, 8x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 2), m.Range(0, 2)], "r")
    mm = m.Func("minmax")
    mm[x, y] = m.Tuple([m.u16(65535), m.u16(0)])
    v = hw_input[x + r.x, y + r.y]
    mm[x, y] = m.Tuple([m.min(mm[x, y][0], v), m.max(mm[x, y][1], v)])
    hw_output, output = _out(m, lambda x, y: m.u8(mm[x, y][1] - mm[x, y][0]))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(mm,), inputs=(hw_input,))
        mm.update().unroll(r.x).unroll(r.y).unroll(x, 2)
        mm.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def bound_on_hw_output(m):
    """hw_output.bound(x, 0, 7).bound(y, 0, 3) (the accelerated Func bounded, the output not), 7x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y + 1]) / 2))
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        hw_output.bound(x, 0, 7).bound(y, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 7, 3).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [7, 3]


def u16_in_u16_out_wraps(m):
    """A u16 ImageParam to a u16 output: products that wrap at 2^16 and a right shift, 5x3."""
    inp, x, y, hw_input = _in(m, t=m.UInt(16))
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] * hw_input[x + 1, y] + (hw_input[x, y] >> 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def split_xi_round_up_inner_unrolled(m):
    """hw_output.split(xi, xio, xii, 3, RoundUp).unroll(xii) over an 8-wide tile, the producer and input at 3
    lanes RoundUp, 8x2."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 2), inner=(bx,), inputs=(hw_input,))
        xio, xii = m.Var("xio"), m.Var("xii")
        ru = m.TailStrategy.RoundUp
        hw_output.split(xi, xio, xii, 3, ru).unroll(xii)
        bx.unroll(x, 3, ru)
        hw_input.unroll(x, 3, ru)
    return output, {"input": inp}, [8, 2]


def select_negative_index_clamped(m):
    """A read at a data-dependent column clamped to the frame (x - v % 4 clamped to 0..6), 7x3."""
    inp, x, y, hw_input = _in(m)
    idx = m.clamp(x - m.i32(hw_input[x, y] % 4), 0, 6)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[idx, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inputs=(hw_input,))
    inp.dim(0).set_bounds(0, 7)
    inp.dim(1).set_bounds(0, 3)
    return output, {"input": inp}, [7, 3]


def upsample_two_lanes_host_tiles(m):
    """A nearest x2 up-sample at two lanes in host tiles of 4x2 over 8x6 (each tile reads a 2x1 input patch)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[x / 2, y / 2] * 2 - hw_input[x / 2, y / 2] / 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 6), tile=(4, 2), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
    return output, {"input": inp}, [8, 6]


def histogram_rdom_unrolled_by_three(m):
    """A 4-bin histogram whose update is unrolled by 3 along r.x (three pixels binned a cycle, often into the
    same bin), 6x4 frame."""
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    histogram, hw_output, output = m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    histogram[b] = m.u16(0)
    histogram[m.i32(hw_input[r.x, r.y] >> 6)] += m.u16(1)
    hw_output[b] = histogram[b]
    output[b] = hw_output[b]
    if on_hardware(m):
        bo, bi = m.Var("bo"), m.Var("bi")
        output.bound(b, 0, 4)
        histogram.bound_extent(b, 4)
        hw_output.compute_root().split(b, bo, bi, 4).hw_accelerate(bi, bo)
        histogram.compute_at(hw_output, bo)
        histogram.update().unroll(r.x, 3)
        hw_input.compute_root().stream_to_accelerator()
    inp.dim(0).set_bounds(0, 6)
    inp.dim(1).set_bounds(0, 4)
    return output, {"input": inp}, [4]


def where_checkerboard_two_lanes(m):
    """A 3x2 window with the taps of a checkerboard only (r.where((r.x + r.y) % 2 == 0)), unrolled, two lanes,
    8x3."""
    inp, x, y, hw_input = _in(m)
    s = m.Func("s")
    r = m.RDom([m.Range(0, 3), m.Range(0, 2)], "r")
    r.where((r.x + r.y) % 2 == 0)
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x).unroll(r.y).unroll(x, 2)
        s.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def scan_along_x_unrolled(m, unrolled=True):
    """A running sum along each row, f(r.x, y) = f(r.x - 1, y) + v for r.x in 1..5, its RVar unrolled (refused
    before session 36: the lanes read each other in one cycle; now chained, scan22), 6x3."""
    inp, x, y, hw_input = _in(m)
    f = m.Func("f")
    r = m.RDom([m.Range(1, 5)], "r")
    f[x, y] = hw_input[x, y]
    f[r.x, y] = f[r.x - 1, y] + hw_input[r.x, y]
    hw_output, output = _out(m, lambda x, y: m.u8(f[x, y] >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(f,), inputs=(hw_input,))
        if unrolled:
            f.update().unroll(r.x)
    return output, {"input": inp}, [6, 3]


def scan_along_x_serial(m):
    """The refusal's fix for scan_along_x_unrolled: the scan's RVar serial."""
    return scan_along_x_unrolled(m, unrolled=False)


def i32_products_output(m):
    """An i32 copy of the input, products times 1000 (past 16 bits), an i32 output, 5x3."""
    inp, x, y, hw_input = _in(m, wide=m.i32)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] * hw_input[x + 1, y] * 1000 - hw_input[x, y + 1])
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def host_stencil_after_accelerator(m):
    """The output a 2-row stencil computed on the host from the accelerator's 6x5 result (hw_output bounded by
    the tile, the output 6x4)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    output[x, y] = m.u8((hw_output[x, y] + hw_output[x, y + 1]) >> 2)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 5).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 4]


def host_tiles_column_order(m):
    """Host tiles of 3x2 over 6x4 visited column by column (hw_output.reorder(xi, yi, yo, xo))."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y + 1]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), tile=(3, 2), inputs=(hw_input,))
        hw_output.reorder(xi, yi, yo, xo)
    return output, {"input": inp}, [6, 4]


def channels_unrolled_by_two_of_four(m):
    """4 output channels, hw_output.unroll(c, 2) after reorder(c, xi, yi): two channels a cycle, 5x3."""
    inp, x, y, hw_input = _in(m)
    c = m.Var("c")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y, c] = m.u8((hw_input[x, y] * m.u16(c + 1) + hw_input[x + 1, y]) >> 2)
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 5).bound(y, 0, 3).bound(c, 0, 4)
        hw_output.bound(c, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 3).reorder(c, xi, yi, xo, yo).unroll(c, 2)
        hw_output.hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 3, 4]


def lanes_three_shift_inwards(m):
    """unroll(x, 3, ShiftInwards) everywhere over an 8-wide frame (the last lanes shifted back over computed
    pixels), 8x2."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 2), inner=(bx,), inputs=(hw_input,))
        si = m.TailStrategy.ShiftInwards
        hw_output.unroll(xi, 3, si)
        bx.unroll(x, 3, si)
        hw_input.unroll(x, 3, si)
    return output, {"input": inp}, [8, 2]


def producer_split_predicate_loads(m):
    """blur_x.split(x, a, b, 2, TailStrategy.PredicateLoads) inside a 7-wide tile, 7x2."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (7, 2), inner=(bx,), inputs=(hw_input,))
        a, b = m.Var("a"), m.Var("b")
        bx.split(x, a, b, 2, m.TailStrategy.PredicateLoads)
    return output, {"input": inp}, [7, 2]


def rdom_three_dims_where_on_channel(m):
    """A 2x2x3 RDom over x, y and the channel, skipping the taps where r.z == r.x + r.y, all unrolled, 5x3."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input, s, hw_output, output = m.Func("hw_input"), m.Func("s"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    r = m.RDom([m.Range(0, 2), m.Range(0, 2), m.Range(0, 3)], "r")
    r.where(r.z != r.x + r.y)
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y + r.y, r.z]
    hw_output[x, y] = m.u8(s[x, y] >> 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 5).bound(y, 0, 3)
        hw_input.bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 3).hw_accelerate(xi, xo)
        s.compute_at(hw_output, xo)
        s.update().unroll(r.x).unroll(r.y).unroll(r.z)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 3]


def kernel_at_consumer_rvar(m):
    """kernel.compute_at(s, win.y): a kernel Func computed inside the consumer's reduction loop (one of Halide's
    legal locations), the window serial, 5x3."""
    inp, x, y, hw_input = _in(m)
    k, s = m.Func("k"), m.Func("s")
    r = m.RDom([m.Range(0, 3), m.Range(0, 2)], "win")
    k[x, y] = m.u16(x + 2 * y + 1)
    s[x, y] = m.u16(0)
    s[x, y] += k[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] >> 4))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(s,), inputs=(hw_input,))
        k.compute_at(s, r.y)
    return output, {"input": inp}, [5, 3]


CASES = {f.__name__: f for f in (
    producer_at_host_row_loop, host_loops_fused, scan_along_y, where_on_pure_variable, tuple_update_two_lanes,
    bound_on_hw_output, u16_in_u16_out_wraps, split_xi_round_up_inner_unrolled, select_negative_index_clamped,
    upsample_two_lanes_host_tiles, histogram_rdom_unrolled_by_three, where_checkerboard_two_lanes,
    scan_along_x_unrolled, scan_along_x_serial, i32_products_output, host_stencil_after_accelerator,
    host_tiles_column_order, channels_unrolled_by_two_of_four, lanes_three_shift_inwards,
    producer_split_predicate_loads, rdom_three_dims_where_on_channel, kernel_at_consumer_rvar,
)}
