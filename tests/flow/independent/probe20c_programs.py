"""Probe20's hand schedules (session 35), part three: reductions and tables (histograms with where-clauses, two-
dimensional bins and weights, ROMs of two dimensions and from hl.Buffer, several update definitions, updates at
fixed coordinates, argmax, Tuple reductions, several outputs); each in module m (`mainspring`, or `halide`),
returning (output or [outputs], {name: ImageParam}, size)."""

import numpy as np
from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of


def _hist_sched(m, hw_output, output, bins, binf=None, init_lanes=None):
    bo, bi, b = m.Var("bo"), m.Var("bi"), m.Var("b")
    output.bound(b, 0, bins)
    hw_output.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
    if binf is not None:
        binf.compute_at(hw_output, bo)


def histogram_where_bright(m):
    """16 bins of v >> 4 counting only pixels above 40 (r.where), 7x4 frame."""
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    histogram, hw_output, output = m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 7), m.Range(0, 4)], "r")
    r.where(hw_input[r.x, r.y] > 40)
    histogram[b] = m.u16(0)
    histogram[m.i32(hw_input[r.x, r.y] >> 4)] += m.u16(1)
    hw_output[b] = histogram[b]
    output[b] = hw_output[b]
    if on_hardware(m):
        _hist_sched(m, hw_output, output, 16)
        histogram.bound_extent(b, 16)
        hw_input.compute_root().stream_to_accelerator()
    inp.dim(0).set_bounds(0, 7)
    inp.dim(1).set_bounds(0, 4)
    return output, {"input": inp}, [16]


def histogram_where_on_coordinates(m):
    """8 bins of v >> 5 over the even columns only (r.where(r.x % 2 == 0)), 8x3 frame."""
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    histogram, hw_output, output = m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 8), m.Range(0, 3)], "r")
    r.where(r.x % 2 == 0)
    histogram[b] = m.u8(0)
    histogram[m.i32(hw_input[r.x, r.y] >> 5)] += m.u8(1)
    hw_output[b] = histogram[b]
    output[b] = hw_output[b]
    if on_hardware(m):
        _hist_sched(m, hw_output, output, 8)
        histogram.bound_extent(b, 8)
        hw_input.compute_root().stream_to_accelerator()
    inp.dim(0).set_bounds(0, 8)
    inp.dim(1).set_bounds(0, 3)
    return output, {"input": inp}, [8]


def histogram_two_dimensional(m):
    """A 4x4 joint histogram of (v >> 6, right neighbour >> 6) over a 6x3 frame: 2-D bins, output (a, b)."""
    inp, x, y, hw_input = _in(m)
    a, b = m.Var("a"), m.Var("b")
    histogram, hw_output, output = m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 3)], "r")
    histogram[a, b] = m.u16(0)
    histogram[m.i32(hw_input[r.x, r.y] >> 6), m.i32(hw_input[r.x + 1, r.y] >> 6)] += m.u16(1)
    hw_output[a, b] = histogram[a, b]
    output[a, b] = hw_output[a, b]
    if on_hardware(m):
        ao, ai, bo, bi = vars_of(m, "ao ai bo bi")
        output.bound(a, 0, 4).bound(b, 0, 4)
        histogram.bound_extent(a, 4).bound_extent(b, 4)
        hw_output.compute_root().tile(a, b, ao, bo, ai, bi, 4, 4).hw_accelerate(ai, ao)
        hw_input.compute_root().stream_to_accelerator()
    inp.dim(0).set_bounds(0, 7)
    inp.dim(1).set_bounds(0, 3)
    return output, {"input": inp}, [4, 4]


def histogram_weighted_by_gradient(m):
    """8 bins of the pixel >> 5, each weighted by |right - left| (an orientation-histogram-like weight), u16."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    b = m.Var("b")
    grad, histogram, hw_output, output = m.Func("grad"), m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 5), m.Range(0, 4)], "r")
    grad[x, y] = m.u16(m.abs(hw_input[x + 2, y] - hw_input[x, y]))
    histogram[b] = m.u16(0)
    histogram[m.i32(hw_input[r.x + 1, r.y] >> 5)] += grad[r.x, r.y]
    hw_output[b] = histogram[b]
    output[b] = hw_output[b]
    if on_hardware(m):
        _hist_sched(m, hw_output, output, 8, binf=grad)
        histogram.bound_extent(b, 8)
        hw_input.compute_root().stream_to_accelerator()
    inp.dim(0).set_bounds(0, 7)
    inp.dim(1).set_bounds(0, 4)
    return output, {"input": inp}, [8]


def histogram_equalize_lut(m):
    """A 16-bin histogram, its running sum (a CDF) by a second RDom, then the CDF read as a table at each pixel
    (histogram equalisation: two passes over the frame in one accelerator), 6x4."""
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    histogram, cdf = m.Func("histogram"), m.Func("cdf")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    rb = m.RDom([m.Range(1, 15)], "rb")
    histogram[b] = m.u16(0)
    histogram[m.i32(hw_input[r.x, r.y] >> 4)] += m.u16(1)
    cdf[b] = histogram[b]
    cdf[rb.x] = cdf[rb.x - 1] + histogram[rb.x]
    hw_output, output = _out(m, lambda x, y: m.u8(cdf[m.i32(hw_input[x, y] >> 4)] * 10))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(histogram, cdf), inputs=(hw_input,))
        histogram.bound_extent(b, 16)
        cdf.bound(b, 0, 16)
    inp.dim(0).set_bounds(0, 6)
    inp.dim(1).set_bounds(0, 4)
    return output, {"input": inp}, [6, 4]


# ---- ROMs -----------------------------------------------------------------------------------------------------

def rom_two_dimensional_table(m):
    """A 4x4 table Func t(i, j) = (i * 5 + j * 3) % 7 read at (v >> 6, right neighbour >> 6), 7x3."""
    inp, x, y, hw_input = _in(m)
    i, j = m.Var("i"), m.Var("j")
    t = m.Func("table")
    t[i, j] = m.u8((i * 5 + j * 3) % 7)
    hw_output, output = _out(m, lambda x, y: t[m.i32(hw_input[x, y] >> 6), m.i32(hw_input[x + 1, y] >> 6)]
                             + m.u8(hw_input[x, y] & 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inputs=(hw_input,))
        t.compute_at(hw_output, m.Var("xo")).bound(i, 0, 4).bound(j, 0, 4).unroll(i).unroll(j)
    return output, {"input": inp}, [7, 3]


def rom_buffer_two_dimensional(m):
    """An hl.Buffer of 3x4 i16 weights (a constant 2-D table) as a 3x4 convolution kernel, 6x3 output."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    w = np.array([[1, -2, 3], [0, 4, -1], [2, 2, 2], [-3, 1, 0]], dtype=np.int16)  # rows are y
    wb = m.Buffer(w, "weights")
    r = m.RDom([m.Range(0, 3), m.Range(0, 4)], "r")
    conv = m.Func("conv")
    conv[x, y] = m.i16(0)
    conv[x, y] += wb[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: conv[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(conv,), inputs=(hw_input,))
        conv.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 3]


def rom_two_tables_chained(m):
    """A table read at a pixel, its value the index of a second table (t2[t1[v >> 3]]), two lanes, 8x2."""
    inp, x, y, hw_input = _in(m)
    v = m.Var("v")
    t1, t2 = m.Func("t1"), m.Func("t2")
    t1[v] = m.u8((v * 7 + 3) % 16)
    t2[v] = m.u8(255 - v * v)
    hw_output, output = _out(m, lambda x, y: t2[m.i32(t1[m.i32(hw_input[x, y] >> 3)])])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 2), inputs=(hw_input,))
        t1.compute_at(hw_output, xo).bound(v, 0, 32).unroll(v)
        t2.compute_at(hw_output, xo).bound(v, 0, 16).unroll(v)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 2]


def rom_float_sqrt_table(m):
    """A 32-word table of round(sqrt(v) * 40) built in float, read at v >> 3, 5x5."""
    inp, x, y, hw_input = _in(m)
    v = m.Var("v")
    t = m.Func("sqrt_table")
    t[v] = m.u8(m.round(m.sqrt(m.f32(v)) * 40.0))
    hw_output, output = _out(m, lambda x, y: t[m.i32(hw_input[x, y] >> 3)])
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 5), inputs=(hw_input,))
        t.compute_at(hw_output, m.Var("xo")).bound(v, 0, 32).unroll(v)
    return output, {"input": inp}, [5, 5]


# ---- update definitions ---------------------------------------------------------------------------------------

def updates_three_pure(m):
    """f = v; f = f * 2 + 1; f = max(f, right neighbour of the input): three definitions over the same pixels."""
    inp, x, y, hw_input = _in(m)
    f = m.Func("f")
    f[x, y] = hw_input[x, y]
    f[x, y] = f[x, y] * 2 + 1
    f[x, y] = m.max(f[x, y], hw_input[x + 1, y] * 2)
    hw_output, output = _out(m, lambda x, y: m.u8((f[x, y] + f[x, y + 1]) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 4), inner=(f,), inputs=(hw_input,))
    return output, {"input": inp}, [7, 4]


def update_first_row_fixed(m):
    """f(x, y) = v, then f(x, 0) = 0 (an update of one row) read by a 2-row sum, 6x4."""
    inp, x, y, hw_input = _in(m)
    f = m.Func("f")
    f[x, y] = hw_input[x, y]
    f[x, 0] = m.u16(0)
    hw_output, output = _out(m, lambda x, y: m.u8((f[x, y] + f[x, y + 1]) >> 1))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(f,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def update_rdom_then_pure(m):
    """A 3-tap RDom sum then a pure update that scales it: s = 0; s += taps; s = s / 3, two lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    s = m.Func("s")
    r = m.RDom([m.Range(0, 3)], "r")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y]
    s[x, y] = s[x, y] / 3
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y]))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(s,), inputs=(hw_input,))
        s.update(0).unroll(r.x).unroll(x, 2)
        s.update(1).unroll(x, 2)
        s.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def update_two_rdoms(m):
    """Two reduction updates on one Func: a 3-tap horizontal sum then a 2-tap vertical max over the input, 6x4."""
    inp, x, y, hw_input = _in(m)
    f = m.Func("f")
    rx = m.RDom([m.Range(0, 3)], "rx")
    ry = m.RDom([m.Range(0, 2)], "ry")
    f[x, y] = m.u16(0)
    f[x, y] += hw_input[x + rx.x, y]
    f[x, y] = m.max(f[x, y], hw_input[x, y + ry.x] * 3)
    hw_output, output = _out(m, lambda x, y: m.u8(f[x, y] >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(f,), inputs=(hw_input,))
        f.update(0).unroll(rx.x)
        f.update(1).unroll(ry.x)
    return output, {"input": inp}, [6, 4]


def argmax_window_3x3(m):
    """argmax over a 3x3 window: the output is 3 * y_index + x_index of the first maximum, 6x4."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    am = m.Func("am")
    am[x, y] = m.argmax(hw_input[x + r.x, y + r.y])
    hw_output, output = _out(m, lambda x, y: m.u8(am[x, y][0] + 3 * am[x, y][1]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(am,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def tuple_sum_and_count_where(m):
    """A Tuple reduction (sum, count) over the 3x3 pixels above 100 (r.where), the output their mean, 5x4."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r.where(hw_input[x + r.x, y + r.y] > 100)
    sc = m.Func("sum_count")
    sc[x, y] = m.Tuple([m.u16(0), m.u16(0)])
    sc[x, y] = m.Tuple([sc[x, y][0] + hw_input[x + r.x, y + r.y], sc[x, y][1] + 1])
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(sc[x, y][1] == 0, 0, sc[x, y][0] / m.max(sc[x, y][1], 1))))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 4), inner=(sc,), inputs=(hw_input,))
        sc.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [5, 4]


def three_outputs_of_one_accelerator(m):
    """Three outputs (a u8 blur, an i16 gradient, a Bool-as-u8 mask) from one accelerator, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    names = "hw_blur hw_grad hw_mask out_blur out_grad out_mask"
    hw_blur, hw_grad, hw_mask, ob, og, om = (m.Func(n) for n in names.split())
    hw_blur[x, y] = m.u8(bx[x, y] / 3)
    hw_grad[x, y] = hw_input[x + 2, y] - hw_input[x, y]
    hw_mask[x, y] = m.u8(m.select(bx[x, y] > 300, 1, 0))
    ob[x, y] = hw_blur[x, y]
    og[x, y] = hw_grad[x, y]
    om[x, y] = hw_mask[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((ob, hw_blur), (og, hw_grad), (om, hw_mask)):
            o.bound(x, 0, 6).bound(y, 0, 3)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 6, 3).hw_accelerate(xi, xo)
        bx.compute_at(hw_blur, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [ob, og, om], {"input": inp}, [6, 3]


CASES = {f.__name__: f for f in (
    histogram_where_bright, histogram_where_on_coordinates, histogram_two_dimensional, histogram_weighted_by_gradient,
    histogram_equalize_lut, rom_two_dimensional_table, rom_buffer_two_dimensional, rom_two_tables_chained,
    rom_float_sqrt_table, updates_three_pure, update_first_row_fixed, update_rdom_then_pure, update_two_rdoms,
    argmax_window_3x3, tuple_sum_and_count_where, three_outputs_of_one_accelerator,
)}
