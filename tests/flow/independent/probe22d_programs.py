"""Probe22's hand schedules (session 36), part four: several inputs at different sizes (1-D row and column inputs,
a double-size input read at stride 2, a small kernel input) and several outputs of different types; each
TailStrategy on host tiles and inside the accelerator, host tiles reordered, fused and split again; each in module
m (`mainspring`, or `halide`), returning (output or [outputs], {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of


def _vec(m, name, t):
    """A 1-D ImageParam and its hw_ copy over `v`."""
    p = m.ImageParam(t, 1, name)
    v = m.Var("v")
    f = m.Func(f"hw_{name}")
    f[v] = p[v]
    return p, f


def row_and_column_inputs(m):
    """Three inputs of three shapes: an image, a per-column i16 weight w[x] and a per-row u8 gain g[y], 6x4."""
    a, x, y, hw_a = _in(m, wide=m.i16)
    w, hw_w = _vec(m, "w", m.Int(16))
    g, hw_g = _vec(m, "g", m.UInt(8))
    hw_output, output = _out(m, lambda x, y: (hw_a[x, y] * hw_w[x] + m.i16(hw_g[y]) * 4) >> 2)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_a, hw_w, hw_g))
    return output, {"input": a, "w": w, "g": g}, [6, 4]


def double_size_input_at_stride_two(m):
    """A 6x4 image plus a 12x8 one read at stride 2 (its 2x2 average): the two inputs at two sizes, 6x4."""
    a, x, y, hw_a = _in(m, name="a")
    b, _, _, hw_b = _in(m, name="b")
    hw_output, output = _out(m, lambda x, y: m.u8((hw_a[x, y] * 4 + hw_b[2 * x, 2 * y] + hw_b[2 * x + 1, 2 * y]
                                                   + hw_b[2 * x, 2 * y + 1] + hw_b[2 * x + 1, 2 * y + 1]) >> 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_a, hw_b))
    return output, {"a": a, "b": b}, [6, 4]


def kernel_input_five_taps(m):
    """A 5x1 i16 kernel as its own input (k[r.x]) applied along x to an image, the RDom unrolled, 5x3."""
    a, x, y, hw_a = _in(m, wide=m.i16)
    k, hw_k = _vec(m, "k", m.Int(16))
    r = m.RDom([m.Range(0, 5)], "r")
    s = m.Func("s")
    s[x, y] = m.i16(0)
    s[x, y] += hw_a[x + r.x, y] * hw_k[r.x]
    hw_output, output = _out(m, lambda x, y: s[x, y] >> 3)
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(s,), inputs=(hw_a, hw_k))
        s.update().unroll(r.x)
    k.dim(0).set_bounds(0, 5)
    return output, {"input": a, "k": k}, [5, 3]


def three_inputs_three_sizes_two_lanes(m):
    """An 8x2 image, a 4x1 half-size one (b[x / 2, y / 2]) and a per-column offset o[x], two lanes, 8x2."""
    a, x, y, hw_a = _in(m, name="a")
    b, _, _, hw_b = _in(m, name="b")
    o, hw_o = _vec(m, "o", m.UInt(8))
    hw_output, output = _out(m, lambda x, y: m.u8((hw_a[x, y] + hw_b[x / 2, y / 2] + m.u16(hw_o[x])) / 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 2), inputs=(hw_a, hw_b, hw_o))
        hw_output.unroll(xi, 2)
        hw_a.unroll(x, 2)
    return output, {"a": a, "b": b, "o": o}, [8, 2]


def _three_outs(m, size, lanes=1):
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    names = "hw_min hw_max hw_sum out_min out_max out_sum"
    hmin, hmax, hsum, omin, omax, osum = (m.Func(n) for n in names.split())
    hmin[x, y] = m.u8(m.minimum(hw_input[x + r.x, y + r.y]))
    hmax[x, y] = m.u8(m.maximum(hw_input[x + r.x, y + r.y]))
    hsum[x, y] = m.u32(m.sum(hw_input[x + r.x, y + r.y]))
    for o, h in ((omin, hmin), (omax, hmax), (osum, hsum)):
        o[x, y] = h[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, h in ((omin, hmin), (omax, hmax), (osum, hsum)):
            o.bound(x, 0, size[0]).bound(y, 0, size[1])
            h.compute_root().tile(x, y, xo, yo, xi, yi, *size).hw_accelerate(xi, xo)
            if lanes > 1:
                h.unroll(xi, lanes)
        hw_input.compute_root().stream_to_accelerator()
        if lanes > 1:
            hw_input.unroll(x, lanes)
    return [omin, omax, osum], {"input": inp}, list(size)


def three_outputs_min_max_sum(m):
    """Three outputs (u8 min, u8 max, u32 sum of a 3x3 window) of one accelerator, 5x3."""
    return _three_outs(m, (5, 3))


def three_outputs_two_lanes(m):
    """The three window outputs at two lanes each, 6x2."""
    return _three_outs(m, (6, 2), lanes=2)


def two_outputs_i32_and_u8_shared_producer(m):
    """Two outputs, an i32 energy and a u8 blur, both reading one buffered i16 gradient, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    grad = m.Func("grad")
    grad[x, y] = hw_input[x + 1, y] - hw_input[x, y]
    he, hb, oe, ob = m.Func("hw_energy"), m.Func("hw_blur"), m.Func("energy"), m.Func("blur")
    he[x, y] = m.i32(grad[x, y]) * m.i32(grad[x, y + 1])
    hb[x, y] = m.u8((hw_input[x, y] + hw_input[x, y + 1]) >> 1)
    oe[x, y] = he[x, y]
    ob[x, y] = hb[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, h in ((oe, he), (ob, hb)):
            o.bound(x, 0, 6).bound(y, 0, 3)
            h.compute_root().tile(x, y, xo, yo, xi, yi, 6, 3).hw_accelerate(xi, xo)
        grad.compute_at(he, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [oe, ob], {"input": inp}, [6, 3]


def _blur(m):
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1] * 2 + bx[x, y + 2]) >> 4))
    return inp, x, y, hw_input, bx, hw_output, output


def host_tiles_guard_with_if_two_lanes(m):
    """Host tiles of 4x3 GuardWithIf over 10x7 at two lanes (the last tiles 2 wide and 1 high), 10x7."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (10, 7), tile=(4, 3), inner=(bx,), inputs=(hw_input,),
                                tail=m.TailStrategy.GuardWithIf)
        hw_output.unroll(xi, 2)
        bx.unroll(x, 2)
    return output, {"input": inp}, [10, 7]


def host_tiles_round_up_odd_both(m):
    """Host tiles of 3x3 RoundUp over 7x5: hw_output computes 9x6, the output reads 7x5."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 5), tile=(3, 3), inner=(bx,), inputs=(hw_input,),
               tail=m.TailStrategy.RoundUp)
    return output, {"input": inp}, [7, 5]


def host_tiles_shift_inwards_column_major(m):
    """Host tiles of 4x4 ShiftInwards over 9x6, the host walking the tiles column-major (reorder(xi, yi, yo, xo))."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (9, 6), tile=(4, 4), inner=(bx,), inputs=(hw_input,),
                                tail=m.TailStrategy.ShiftInwards)
        hw_output.reorder(xi, yi, yo, xo)
    return output, {"input": inp}, [9, 6]


def host_tiles_fused_accelerated_at_fused(m):
    """Host tiles 3x2 over 6x4, fuse(xo, yo, t) and hw_accelerate(xi, t): one loop of accelerator calls."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi, t = vars_of(m, "xo yo xi yi t")
        output.bound(x, 0, 6).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 3, 2).fuse(xo, yo, t).hw_accelerate(xi, t)
        bx.compute_at(hw_output, t)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 4]


def host_tiles_fused_then_split(m, factor=4, tail=()):
    """Host tiles 2x2 over 8x4 fused (t) and split again by 4 (to, ti), hw_accelerate(xi, ti) (an internal
    ValueError in hwlower/tiling.py before session 36)."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi, t, to, ti = vars_of(m, "xo yo xi yi t to ti")
        output.bound(x, 0, 8).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 2, 2).fuse(xo, yo, t).split(t, to, ti, factor, *tail)
        hw_output.hw_accelerate(xi, ti)
        bx.compute_at(hw_output, ti)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 4]


def host_tiles_fused_split_guard_not_dividing(m):
    """The 8 fused host tiles split by 3 GuardWithIf (the last step runs 2 tiles)."""
    return host_tiles_fused_then_split(m, 3, (m.TailStrategy.GuardWithIf,))


def host_tiles_fused_split_round_up_not_dividing(m):
    """The 8 fused host tiles split by 3 RoundUp (Halide runs a step past the tiles; the output reads 8x4)."""
    return host_tiles_fused_then_split(m, 3, (m.TailStrategy.RoundUp,))


def host_yo_split_reordered(m):
    """Host tiles 3x2 over 6x8, the host's yo split by 2 (yoo, yoi) and reorder(xi, yi, yoi, xo, yoo)."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi, yoo, yoi = vars_of(m, "xo yo xi yi yoo yoi")
        output.bound(x, 0, 6).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 3, 2).split(yo, yoo, yoi, 2)
        hw_output.reorder(xi, yi, yoi, xo, yoo).hw_accelerate(xi, yoi)
        bx.compute_at(hw_output, yoi)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 8]


def inner_split_round_up_producer(m):
    """blur_x split(x, xo2, xi2, 4, RoundUp) inside a 6-wide tile (it computes 8 columns), 6x3."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(bx,), inputs=(hw_input,))
        a, b = m.Var("xa"), m.Var("xb")
        bx.split(x, a, b, 4, m.TailStrategy.RoundUp)
    return output, {"input": inp}, [6, 3]


def inner_split_guard_lanes_output(m):
    """hw_output's xi split by 4 GuardWithIf with the inner unrolled (4 lanes, the last step 3) over 7x3."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (7, 3), inner=(bx,), inputs=(hw_input,))
        a, b = m.Var("xa"), m.Var("xb")
        hw_output.split(xi, a, b, 4, m.TailStrategy.GuardWithIf).unroll(b)
    return output, {"input": inp}, [7, 3]


def inner_split_shift_inwards_y(m):
    """blur_x split along y by 3 ShiftInwards inside a 5-high tile (its 7 rows as 3 + 3 + shifted 3), 6x5."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 5), inner=(bx,), inputs=(hw_input,))
        a, b = m.Var("ya"), m.Var("yb")
        bx.split(y, a, b, 3, m.TailStrategy.ShiftInwards)
    return output, {"input": inp}, [6, 5]


def host_tiles_and_lanes_shift_inwards(m):
    """Host tiles of 5x2 ShiftInwards over 8x4 and inside them three lanes ShiftInwards, 8x4."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        s = m.TailStrategy.ShiftInwards
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), tile=(5, 2), inner=(bx,), inputs=(hw_input,), tail=s)
        hw_output.unroll(xi, 3, s)
    return output, {"input": inp}, [8, 4]


def host_split_x_only_round_up(m):
    """hw_output.split(x, xo, xi, 4, RoundUp) only (whole columns of tiles, all rows in each call) over 10x3."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, xi = m.Var("xo"), m.Var("xi")
        output.bound(x, 0, 10).bound(y, 0, 3)
        hw_output.compute_root().split(x, xo, xi, 4, m.TailStrategy.RoundUp).reorder(xi, y, xo)
        hw_output.hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [10, 3]


CASES = {f.__name__: f for f in (
    row_and_column_inputs, double_size_input_at_stride_two, kernel_input_five_taps, three_inputs_three_sizes_two_lanes,
    three_outputs_min_max_sum, three_outputs_two_lanes, two_outputs_i32_and_u8_shared_producer,
    host_tiles_guard_with_if_two_lanes, host_tiles_round_up_odd_both, host_tiles_shift_inwards_column_major,
    host_tiles_fused_accelerated_at_fused, host_tiles_fused_then_split, host_tiles_fused_split_guard_not_dividing,
    host_tiles_fused_split_round_up_not_dividing, host_yo_split_reordered,
    inner_split_round_up_producer, inner_split_guard_lanes_output, inner_split_shift_inwards_y,
    host_tiles_and_lanes_shift_inwards, host_split_x_only_round_up,
)}
