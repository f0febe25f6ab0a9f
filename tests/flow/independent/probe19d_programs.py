"""Probe19's hand schedules (session 34), part four: edges of the schedule space a new user reaches: unrolls with
GuardWithIf tails, tiny and one-row frames, 1-D signals, producers computed inside their consumer's loops, ROMs read
twice, lookups through Buffers, argmin over a 2-D window, lerp and intrinsics, Params as clamp bounds; each in module
m (`mainspring`, or `halide`), returning (output or [outputs], {name: ImageParam}, size)."""

import numpy as np
from probe19_programs import _box, _in, _out, _sched
from probe_common import on_hardware, vars_of


def unroll_three_guard_with_if(m):
    """unroll(x, 3, GuardWithIf) everywhere over a 10-wide frame (Halide guards the lanes past the edge)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (10, 3), inner=(bx,), inputs=(hw_input,))
        g = m.TailStrategy.GuardWithIf
        hw_output.unroll(xi, 3, g)
        bx.unroll(x, 3, g)
        hw_input.unroll(x, 3, g)
    return output, {"input": inp}, [10, 3]


def unroll_output_only(m):
    """Only the output unrolled by 2 (the producers at one pixel a cycle)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(bx,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
    return output, {"input": inp}, [8, 3]


def one_row_frame(m):
    """A frame one row high (9x1) through a 3x3 box."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (9, 1), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [9, 1]


def one_column_frame(m):
    """A frame one column wide (1x6)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (1, 6), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [1, 6]


def two_by_two_frame_tiles_of_one(m):
    """A 2x2 frame in host tiles of 1x1 (four accelerator calls of one pixel)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (2, 2), tile=(1, 1), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [2, 2]


def signal_1d_fir_tiles(m):
    """A 1-D signal (u8, 1 dimension) through a 4-tap FIR with i16 weights, tiled by 5 over 17 samples."""
    inp = m.ImageParam(m.UInt(8), 1, "signal")
    x = m.Var("x")
    hw_in, fir, hw_output, output = m.Func("hw_signal"), m.Func("fir"), m.Func("hw_output"), m.Func("output")
    hw_in[x] = m.i16(inp[x])
    fir[x] = hw_in[x] * 3 - hw_in[x + 1] * 2 + hw_in[x + 2] * 5 - hw_in[x + 3]
    hw_output[x] = fir[x]
    output[x] = hw_output[x]
    if on_hardware(m):
        xo, xi = m.Var("xo"), m.Var("xi")
        output.bound(x, 0, 17)
        hw_output.compute_root().split(x, xo, xi, 5).hw_accelerate(xi, xo)
        fir.compute_at(hw_output, xo)
        hw_in.compute_root().stream_to_accelerator()
    return output, {"signal": inp}, [17]


def producer_at_consumer_row(m):
    """blur_x computed at blur_y's rows (blur_x.compute_at(blur_y, y)), blur_y at xo."""
    inp, x, y, hw_input = _in(m)
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    by[x, y] = bx[x, y] + bx[x, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8(by[x, y] / 4))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(by,), inputs=(hw_input,))
        bx.compute_at(by, y)
    return output, {"input": inp}, [6, 4]


def store_at_xo_compute_at_consumer_x(m):
    """blur_x.store_at(hw_output, xo).compute_at(blur_y, x): stored over the tile, computed per pixel."""
    inp, x, y, hw_input = _in(m)
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    by[x, y] = bx[x, y] + bx[x, y + 1] + bx[x + 1, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8(by[x, y] / 6))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (5, 4), inner=(by,), inputs=(hw_input,))
        bx.store_at(hw_output, xo).compute_at(by, x)
    return output, {"input": inp}, [5, 4]


def rom_read_twice(m):
    """One table read at two coordinates per pixel (the pixel and its right neighbour), summed."""
    inp, x, y, hw_input = _in(m)
    t = m.Func("table")
    v = m.Var("v")
    t[v] = m.u16((v * 37) % 101)
    hw_output, output = _out(m, lambda x, y: m.u8((t[m.i32(hw_input[x, y])] + t[m.i32(hw_input[x + 1, y])]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
        t.compute_at(hw_output, xo).bound(v, 0, 256).unroll(v)
    return output, {"input": inp}, [6, 3]


def buffer_lut_i16_clamped_index(m):
    """An hl.Buffer of 16 u8 values (named 'lut') read at a clamped i16 difference."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    lut = m.Buffer(np.array([(i * 13 + 5) % 256 for i in range(16)], dtype=np.uint8), "lut")
    hw_output, output = _out(m, lambda x, y: lut[m.i32(m.clamp(hw_input[x + 1, y] - hw_input[x, y], -8, 7)) + 8])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def argmin_2d_window(m):
    """argmin over a 3x2 window: the output packs the winning coordinates and the minimum."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 2)], "r")
    am = m.Func("am")
    am[x, y] = m.argmin(hw_input[x + r.x, y + r.y])
    hw_output, output = _out(m, lambda x, y: m.u8(am[x, y][0] * 64 + am[x, y][1] * 16 + m.min(am[x, y][2], 15)))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(am,), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def lerp_and_intrinsics(m):
    """lerp of two u8 neighbours by a third, halving_add, rounding_shift_right and absd."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    hw_output, output = _out(m, lambda x, y: m.lerp(hw_input[x, y], hw_input[x + 1, y], hw_input[x, y + 1])
                             + m.halving_add(hw_input[x, y], hw_input[x + 2, y])
                             + m.u8(m.rounding_shift_right(m.absd(hw_input[x, y], hw_input[x, y + 1]), 2)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def params_as_clamp_bounds(m):
    """A clamp to two u16 Params (lo, hi) and a select on a Bool of a third (an i32 threshold)."""
    inp, x, y, hw_input = _in(m)
    lo, hi, th = m.Param(m.UInt(16), "lo", 30), m.Param(m.UInt(16), "hi", 200), m.Param(m.Int(32), "th", 300)
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(
        m.i32(hw_input[x, y] + hw_input[x + 1, y]) > th, m.clamp(hw_input[x, y], lo, hi), hi - hw_input[x, y] / 2)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def i8_input_saturating_cast(m):
    """An i8 input, i16 products, saturating_cast to u8 at the output."""
    inp, x, y, hw_input = _in(m, t=m.Int(8), wide=m.i16)
    hw_output, output = _out(m, lambda x, y: m.saturating_cast(m.UInt(8), hw_input[x, y] * hw_input[x + 1, y] / 4))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def piecewise_select_chain(m):
    """A piecewise-linear tone curve by a chain of four selects on the pixel."""
    inp, x, y, hw_input = _in(m)
    v = hw_input[x, y]
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(
        v < 32, v * 2, v < 96, v + 32, v < 192, v / 2 + 80, m.min(v, m.u16(240)))))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def diamond_two_lanes(m):
    """One producer read by two consumers at other offsets, both read by the output, at two lanes."""
    inp, x, y, hw_input = _in(m)
    p, a, b = m.Func("p"), m.Func("a"), m.Func("b")
    p[x, y] = hw_input[x, y] + hw_input[x + 1, y + 1]
    a[x, y] = p[x, y] + p[x + 2, y]
    b[x, y] = p[x, y + 1] * 2
    hw_output, output = _out(m, lambda x, y: m.u8((a[x, y] + b[x + 1, y]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(p, a, b), inputs=(hw_input,))
        for f in (p, a, b, hw_input):
            f.unroll(x, 2)
        hw_output.unroll(xi, 2)
    return output, {"input": inp}, [8, 3]


def histogram_256_u8_index_u32(m):
    """A 256-bin histogram indexed by the pixel itself (no clamp), u32 counts, 5x4 frame."""
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    histogram, hw_output, output = m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 5), m.Range(0, 4)], "r")
    histogram[b] = m.u32(0)
    histogram[m.i32(hw_input[r.x, r.y])] += m.u32(1)
    hw_output[b] = histogram[b]
    output[b] = hw_output[b]
    if on_hardware(m):
        bo, bi = m.Var("bo"), m.Var("bi")
        output.bound(b, 0, 256)
        hw_output.compute_root().split(b, bo, bi, 256).hw_accelerate(bi, bo)
        histogram.compute_at(hw_output, bo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [256]


def glb_guard_with_if_tiles(m):
    """A GLB level tiled 6x4 GuardWithIf over 10x6, memory tiles 3x2, seed 002's copies."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 10).bound(y, 0, 6)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4, m.TailStrategy.GuardWithIf).hw_accelerate(xi, xo)
        g.store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 3, 2)
        bx.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [10, 6]


def rows_unrolled_by_two_odd_height(m):
    """hw_output.split(yi, yo2, yi2, 2).unroll(yi2) on a 7-row tile with RoundUp (two rows a cycle)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x, y + 1]) / 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (4, 8), inputs=(hw_input,))
        hw_output.unroll(yi, 2)
    return output, {"input": inp}, [4, 8]


CASES = {f.__name__: f for f in (
    unroll_three_guard_with_if, unroll_output_only, one_row_frame, one_column_frame, two_by_two_frame_tiles_of_one,
    signal_1d_fir_tiles, producer_at_consumer_row, store_at_xo_compute_at_consumer_x, rom_read_twice,
    buffer_lut_i16_clamped_index, argmin_2d_window, lerp_and_intrinsics, params_as_clamp_bounds,
    i8_input_saturating_cast, piecewise_select_chain, diamond_two_lanes, histogram_256_u8_index_u32,
    glb_guard_with_if_tiles, rows_unrolled_by_two_odd_height,
)}
