"""Probe19's hand schedules (session 34), part five: histograms followed by scans (a CDF, an equalisation), updates
without RDoms and recurrences, rates that differ (down-sampling at two lanes, up-sampling at three), schedule calls
in another order, and the generators at their own 64x64 size; each in module m (`mainspring`, or `halide`),
returning (output or [outputs], {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of


def histogram_cdf(m):
    """A 16-bin histogram of v >> 4 over 6x4, then its running sum over the bins (a CDF) in the same accelerator."""
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    hist, cdf, hw_output, output = m.Func("hist"), m.Func("cdf"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    hist[b] = m.u16(0)
    hist[m.i32(hw_input[r.x, r.y] >> 4)] += m.u16(1)
    rb = m.RDom([m.Range(1, 15)], "rb")
    cdf[b] = hist[b]
    cdf[rb.x] = cdf[rb.x - 1] + hist[rb.x]
    hw_output[b] = cdf[b]
    output[b] = m.u8(hw_output[b])
    if on_hardware(m):
        bo, bi = m.Var("bo"), m.Var("bi")
        output.bound(b, 0, 16)
        hw_output.compute_root().split(b, bo, bi, 16).hw_accelerate(bi, bo)
        hist.compute_at(hw_output, bo)
        cdf.compute_at(hw_output, bo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [16]


def update_without_rdom(m):
    """f(x, y) = v; f(x, y) = f(x, y) * 3 / 2 + f(x, y) % 5: a pure-var update."""
    inp, x, y, hw_input = _in(m)
    f = m.Func("f")
    f[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    f[x, y] = f[x, y] * 3 / 2 + f[x, y] % 5
    hw_output, output = _out(m, lambda x, y: m.u8(f[x, y] >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(f,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def update_recurrence_along_x(m):
    """A recursive filter along rows: f(r.x, y) = (f(r.x - 1, y) + v) / 2 for r.x from 1 to 6."""
    inp, x, y, hw_input = _in(m)
    f = m.Func("iir")
    r = m.RDom([m.Range(1, 6)], "r")
    f[x, y] = hw_input[x, y]
    f[r.x, y] = (f[r.x - 1, y] + hw_input[r.x, y]) / 2
    hw_output, output = _out(m, lambda x, y: m.u8(f[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inner=(f,), inputs=(hw_input,))
    return output, {"input": inp}, [7, 3]


def down_avg_two_lanes(m):
    """A 2x1 average down-sample (x / 2) at two output lanes: four input pixels a cycle."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[2 * x, y] + hw_input[2 * x + 1, y]) / 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 4)
    return output, {"input": inp}, [6, 3]


def up_three_lanes(m):
    """A nearest x3 up-sample along x at three output lanes."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[x / 3, y] + m.u16(x % 3)))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (9, 2), inputs=(hw_input,))
        hw_output.unroll(xi, 3)
    return output, {"input": inp}, [9, 2]


def accelerate_yi_compute_var(m):
    """hw_accelerate(yi, xo): seed 002 calls the first argument unused."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] + bx[x, y + 1] >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(yi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 4]


def three_level_calls_reversed(m):
    """Seed 002's three levels with its calls from the input up (the order does not matter, seed 002 says)."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) / 8))
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        hw_input.compute_root().accelerator_input()
        hw_input.in_().store_in(m.MemoryType.GLB)
        g = hw_output.in_()
        hw_input.in_().compute_at(g, xo)
        hw_input.in_().in_().compute_at(hw_output, xio)
        bx.compute_at(hw_output, xio)
        hw_output.compute_at(g, xo)
        hw_output.tile(x, y, xio, yio, xii, yii, 4, 2)
        g.store_in(m.MemoryType.GLB)
        g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
        output.bound(y, 0, 4).bound(x, 0, 8)
    return output, {"input": inp}, [8, 4]


def two_outputs_producer_and_consumer(m):
    """Two outputs from one accelerator where one (the row blur) is read by the other (the box)."""
    inp, x, y, hw_input = _in(m)
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    by[x, y] = bx[x, y] + bx[x, y + 1]
    hw_a, hw_b, out_a, out_b = m.Func("hw_rows"), m.Func("hw_box"), m.Func("out_rows"), m.Func("out_box")
    hw_a[x, y] = m.u8(bx[x, y] >> 1)
    hw_b[x, y] = by[x, y]
    out_a[x, y] = hw_a[x, y]
    out_b[x, y] = hw_b[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 5).bound(y, 0, 3)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 5, 3).hw_accelerate(xi, xo)
        bx.compute_at(hw_b, xo)
        by.compute_at(hw_b, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_a, out_b], {"input": inp}, [5, 3]


def four_dims_intermediate(m):
    """An intermediate of four dims (x, y, i, j) for a 2x2 window of weights, summed over i and j by the output."""
    inp, x, y, hw_input = _in(m)
    i, j = m.Var("i"), m.Var("j")
    w = m.Func("weighted")
    w[x, y, i, j] = hw_input[x + i, y + j] * m.u16(1 + i + 2 * j)
    hw_output, output = _out(m, lambda x, y: m.u8((w[x, y, 0, 0] + w[x, y, 1, 0] + w[x, y, 0, 1] + w[x, y, 1, 1])
                                                  / 10))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(w,), inputs=(hw_input,))
        w.bound(i, 0, 2).bound(j, 0, 2).reorder(i, j, x, y).unroll(i).unroll(j)
    return output, {"input": inp}, [5, 3]


def conv33_generator_size(m):
    """conv_3_3_generator at its own size: a 64x64 input, 62x62 output, one tile, the window unrolled."""
    inp, x, y, hw_input = _in(m)
    conv = m.Func("conv")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    weights = ((11, 12, 13), (14, 0, 16), (17, 18, 19))
    kernel = m.Func("kernel")
    kernel[x, y] = m.u16(0)
    for yy in range(3):
        for xx in range(3):
            kernel[xx, yy] = m.u16(weights[yy][xx])
    conv[x, y] = m.u16(0)
    conv[x, y] += kernel[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(conv[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (62, 62), inner=(conv,), inputs=(hw_input,))
        kernel.compute_at(hw_output, m.Var("xo"))
        conv.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [62, 62]


def histogram_bins_init_unrolled(m):
    """A histogram whose initialisation is unrolled by 4 (histogram.unroll(b, 4)), 8 bins, 5x3 frame."""
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    hist, hw_output, output = m.Func("hist"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 5), m.Range(0, 3)], "r")
    hist[b] = m.u16(0)
    hist[m.clamp(m.i32(hw_input[r.x, r.y]) / 32, 0, 7)] += hw_input[r.x, r.y] >> 4
    hw_output[b] = hist[b]
    output[b] = hw_output[b]
    if on_hardware(m):
        bo, bi = m.Var("bo"), m.Var("bi")
        output.bound(b, 0, 8)
        hw_output.compute_root().split(b, bo, bi, 8).hw_accelerate(bi, bo)
        hist.compute_at(hw_output, bo).unroll(b, 4)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8]


def producer_at_pixel(m):
    """A pointwise producer computed at the pixel (compute_at(hw_output, xi)), a stencil producer at xo."""
    inp, x, y, hw_input = _in(m)
    p, s = m.Func("gain"), m.Func("blur_x")
    s[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    p[x, y] = s[x, y] * 3 / 4
    hw_output, output = _out(m, lambda x, y: m.u8(p[x, y] >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
        p.compute_at(hw_output, xi)
    return output, {"input": inp}, [6, 3]


CASES = {f.__name__: f for f in (
    histogram_cdf, update_without_rdom, update_recurrence_along_x, down_avg_two_lanes, up_three_lanes,
    accelerate_yi_compute_var, three_level_calls_reversed, two_outputs_producer_and_consumer, four_dims_intermediate,
    conv33_generator_size, histogram_bins_init_unrolled, producer_at_pixel,
)}
