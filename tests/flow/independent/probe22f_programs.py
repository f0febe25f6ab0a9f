"""Probe22's hand schedules (session 36), part six: pyramids (two levels down, down then up with residuals, 1-D
pyramids, a masked blend of two inputs, stride 3, host tiles, lanes) and lookup tables (ROMs built from x and
read at pixels, differences, clamped and signed indices, chained tables, tables read at lanes, per-row tables,
an input table); each in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware


def _down(m, name, f, taps=(1, 2, 1)):
    """f down-sampled by 2 in both dimensions under the separable binomial `taps` (weights sum to 4: >> 4)."""
    x, y = m.Var("x"), m.Var("y")
    dx, d = m.Func(f"{name}_x"), m.Func(name)
    n = len(taps)
    dx[x, y] = sum(f[2 * x + k, y] * t for k, t in enumerate(taps))
    d[x, y] = sum(dx[x, 2 * y + k] * t for k, t in enumerate(taps)) >> 4
    return dx, d, n


def pyramid_two_levels_down(m):
    """Two binomial 2x down-samples in one accelerator: 4x2 from 19x11 (a Gaussian pyramid's third level)."""
    inp, x, y, hw_input = _in(m)
    d1x, d1, _ = _down(m, "down1", hw_input)
    d2x, d2, _ = _down(m, "down2", d1)
    hw_output, output = _out(m, lambda x, y: m.u8(d2[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (4, 2), inner=(d1x, d1, d2x, d2), inputs=(hw_input,))
    return output, {"input": inp}, [4, 2]


def _laplacian(m, size, n=1, tile=None):
    """One Laplacian level: down (binomial), nearest up, residual input - up as i16, output i16."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    dx, d, _ = _down(m, "down", hw_input)
    up = m.Func("up")
    up[x, y] = d[x / 2, y / 2]
    hw_output, output = _out(m, lambda x, y: hw_input[x + 1, y + 1] - up[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, tile=tile, inner=(dx, d, up), inputs=(hw_input,))
        if n > 1:
            hw_output.unroll(xi, n)
            up.unroll(x, n)
    return output, {"input": inp}, list(size)


def pyramid_laplacian_level_i16(m):
    """A Laplacian level (input - nearest up of the binomial down) as i16, 8x4."""
    return _laplacian(m, (8, 4))


def pyramid_laplacian_two_lanes(m):
    """The Laplacian level at two lanes of the output and the up-sample, 8x4."""
    return _laplacian(m, (8, 4), n=2)


def pyramid_laplacian_host_tiles(m):
    """The Laplacian level in host tiles of 4x4 over 8x8 (tiles at even origins keep the up-sample's phase)."""
    return _laplacian(m, (8, 8), tile=(4, 4))


def pyramid_down_up_down_up(m):
    """Two levels down, then bilinear-ish up twice (averaging neighbours), the reconstruction's error + 128, 8x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    d1 = m.Func("d1")
    d1[x, y] = (hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y] + hw_input[2 * x, 2 * y + 1]
                + hw_input[2 * x + 1, 2 * y + 1]) >> 2
    d2 = m.Func("d2")
    d2[x, y] = (d1[2 * x, 2 * y] + d1[2 * x + 1, 2 * y + 1]) >> 1
    u1, u2 = m.Func("u1"), m.Func("u2")
    u1[x, y] = (d2[x / 2, y / 2] + d1[x, y]) >> 1
    u2[x, y] = u1[x / 2, y / 2]
    hw_output, output = _out(m, lambda x, y: m.u8(m.clamp(hw_input[x, y] - u2[x, y] + 128, 0, 255)))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 4), inner=(d1, d2, u1, u2), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def pyramid_one_dimensional_x(m):
    """A 1-D pyramid along x only: down by 2 (pairs averaged), up by 2 (linear), the detail as i16, 8x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    d, up = m.Func("down"), m.Func("up")
    d[x, y] = (hw_input[2 * x, y] + hw_input[2 * x + 1, y]) >> 1
    up[x, y] = (d[x / 2, y] + d[(x + 1) / 2, y]) >> 1
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] - up[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 3), inner=(d, up), inputs=(hw_input,))
    return output, {"input": inp}, [8, 3]


def pyramid_blend_two_inputs_mask(m):
    """A two-input blend at the coarse level: both down-sampled by 2, blended by a down-sampled mask, up-sampled
    (nearest) and added to a's detail, 8x4."""
    a, x, y, hw_a = _in(m, name="a", wide=m.i16)
    b, _, _, hw_b = _in(m, name="b", wide=m.i16)
    k, _, _, hw_k = _in(m, name="mask", wide=m.i16)
    da, db, dk = m.Func("da"), m.Func("db"), m.Func("dk")
    for d, h in ((da, hw_a), (db, hw_b), (dk, hw_k)):
        d[x, y] = (h[2 * x, 2 * y] + h[2 * x + 1, 2 * y] + h[2 * x, 2 * y + 1] + h[2 * x + 1, 2 * y + 1]) >> 2
    blend = m.Func("blend")
    blend[x, y] = (da[x, y] * dk[x, y] + db[x, y] * (255 - dk[x, y])) >> 8
    hw_output, output = _out(m, lambda x, y: m.u8(m.clamp(blend[x / 2, y / 2] + hw_a[x, y] - da[x / 2, y / 2], 0,
                                                          255)))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 4), inner=(da, db, dk, blend), inputs=(hw_a, hw_b, hw_k))
    return output, {"a": a, "b": b, "mask": k}, [8, 4]


def pyramid_stride_three_down_up(m):
    """Down by 3 (a 3x3 mean), up by 3 (nearest), the residual's absolute value, 9x6."""
    inp, x, y, hw_input = _in(m)
    d, up = m.Func("down"), m.Func("up")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    d[x, y] = m.sum(hw_input[3 * x + r.x, 3 * y + r.y]) / 9
    up[x, y] = d[x / 3, y / 3]
    hw_output, output = _out(m, lambda x, y: m.u8(m.absd(hw_input[x, y], up[x, y])))
    if on_hardware(m):
        _sched(m, output, hw_output, (9, 6), inner=(d, up), inputs=(hw_input,))
    return output, {"input": inp}, [9, 6]


def pyramid_remap_lut_on_level(m):
    """A local-Laplacian flavour: the down-sampled level remapped through a 64-word contrast table, up-sampled and
    added to the detail, 8x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    t = m.Func("remap")
    t[x] = m.i16((x - 32) * (x - 32) / 16 - 32)
    d, up = m.Func("down"), m.Func("up")
    d[x, y] = (hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y + 1]) >> 1
    up[x, y] = t[m.i32(d[x / 2, y / 2] >> 2)]
    hw_output, output = _out(m, lambda x, y: m.u8(m.clamp(hw_input[x, y] + up[x, y], 0, 255)))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 4), inner=(d, up), inputs=(hw_input,))
        t.compute_at(hw_output, m.Var("xo")).unroll(x)
    return output, {"input": inp}, [8, 4]


# ---- lookup tables --------------------------------------------------------------------------------------------

def _lut(m, size, n_words, table, index, n=1, t=None, wide=None, unroll_table=True):
    """hw_output = table[index(hw_input, x, y)]; `table(m, x)` a Func's definition over n_words."""
    inp, x, y, hw_input = _in(m, wide=wide)
    lut = m.Func("lut")
    lut[x] = table(m, x)
    hw_output, output = _out(m, lambda x, y: lut[index(hw_input, x, y)], t)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, inputs=(hw_input,))
        lut.compute_at(hw_output, xo)
        if unroll_table:
            lut.unroll(x)
        lut.bound(x, 0, n_words)
        if n > 1:
            hw_output.unroll(xi, n)
            hw_input.unroll(x, n)
    return output, {"input": inp}, list(size)


def lut_inverse_table(m):
    """A 256-word table 255 - x read at each pixel (an inversion a user writes as a table), 7x3."""
    return _lut(m, (7, 3), 256, lambda m, x: m.u8(255 - x), lambda h, x, y: m.i32(h[x, y]))


def lut_threshold_steps_two_lanes(m):
    """A 16-word posterize table (x * 17) read at v >> 4, two lanes, 8x2."""
    return _lut(m, (8, 2), 16, lambda m, x: m.u8(x * 17), lambda h, x, y: m.i32(h[x, y] >> 4), n=2)


def lut_signed_difference_index(m):
    """A 33-word table of a soft threshold of d in [-16, 16] read at clamp(b - a, -16, 16) + 16, i16 values, 6x3."""
    def table(m, x):
        d = x - 16
        return m.i16(m.select(d > 4, d - 4, d < -4, d + 4, 0) * 8)
    return _lut(m, (6, 3), 33, table, lambda h, x, y: m.i32(m.clamp(h[x + 1, y] - h[x, y], -16, 16)) + 16,
                wide=m.i16)


def lut_chained_two_tables(m):
    """Two tables chained: a 64-word gamma-like square then a 16-word quantiser of its result, 6x3."""
    inp, x, y, hw_input = _in(m)
    t1, t2 = m.Func("t1"), m.Func("t2")
    t1[x] = m.u8((x * x) >> 4)
    t2[x] = m.u8(x * 16 + 8)
    hw_output, output = _out(m, lambda x, y: t2[m.i32(t1[m.i32(hw_input[x, y] >> 2)] >> 4)])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
        t1.compute_at(hw_output, xo).unroll(x).bound(x, 0, 64)
        t2.compute_at(hw_output, xo).unroll(x).bound(x, 0, 16)
    return output, {"input": inp}, [6, 3]


def lut_per_row_gain(m):
    """A per-row gain table g[y] (a vignetting correction written as a Func of y), 6x4."""
    inp, x, y, hw_input = _in(m)
    g = m.Func("gain")
    g[y] = m.u16(16 + (y - 2) * (y - 2))
    hw_output, output = _out(m, lambda x, y: m.u8(m.min((hw_input[x, y] * g[y]) >> 4, m.u16(255))))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(g,), inputs=(hw_input,))
        g.bound(y, 0, 4)
    return output, {"input": inp}, [6, 4]


def lut_read_at_neighbour_sum(m):
    """A 128-word table read at (a + b) >> 2 of two neighbours (the index from a stencil), 7x3."""
    return _lut(m, (7, 3), 128, lambda m, x: m.u8(m.select(x < 64, x * 2, 255 - (x - 64))),
                lambda h, x, y: m.i32((h[x, y] + h[x + 1, y + 1]) >> 2))


def lut_table_buffered_not_unrolled(m):
    """A 32-word table compute_at the tile without unroll (a buffered ROM), read at v >> 3, 6x3."""
    return _lut(m, (6, 3), 32, lambda m, x: m.u8(x * x / 4), lambda h, x, y: m.i32(h[x, y] >> 3),
                unroll_table=False)


def lut_input_table_streamed(m):
    """The table as an input (a 16-entry u8 ImageParam curve) read at v >> 4, 6x3."""
    inp, x, y, hw_input = _in(m)
    curve = m.ImageParam(m.UInt(8), 1, "curve")
    hw_curve = m.Func("hw_curve")
    hw_curve[x] = curve[x]
    hw_output, output = _out(m, lambda x, y: hw_curve[m.i32(hw_input[x, y] >> 4)])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input, hw_curve))
    curve.dim(0).set_bounds(0, 16)
    return output, {"input": inp, "curve": curve}, [6, 3]


def lut_after_boundary_condition(m):
    """repeat_edge then a 3-tap max, the max read through a 64-word log-like table, 6x3."""
    inp, x, y, hw_input = _in(m)
    c = m.BoundaryConditions.repeat_edge(hw_input, [(0, 6), (0, 3)])
    mx = m.Func("mx")
    mx[x, y] = m.max(m.max(c[x - 1, y], c[x, y]), c[x + 1, y])
    lut = m.Func("lut")
    lut[x] = m.u8(m.select(x < 8, x * 8, x < 24, 64 + (x - 8) * 4, 128 + (x - 24) * 3))
    hw_output, output = _out(m, lambda x, y: lut[m.i32(mx[x, y] >> 2)])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 3), inner=(mx,), inputs=(hw_input,))
        lut.compute_at(hw_output, xo).unroll(x).bound(x, 0, 64)
    inp.dim(0).set_bounds(0, 6)
    inp.dim(1).set_bounds(0, 3)
    return output, {"input": inp}, [6, 3]


CASES = {f.__name__: f for f in (
    pyramid_two_levels_down, pyramid_laplacian_level_i16, pyramid_laplacian_two_lanes, pyramid_laplacian_host_tiles,
    pyramid_down_up_down_up, pyramid_one_dimensional_x, pyramid_blend_two_inputs_mask, pyramid_stride_three_down_up,
    pyramid_remap_lut_on_level, lut_inverse_table, lut_threshold_steps_two_lanes, lut_signed_difference_index,
    lut_chained_two_tables, lut_per_row_gain, lut_read_at_neighbour_sum, lut_table_buffered_not_unrolled,
    lut_input_table_streamed, lut_after_boundary_condition,
)}
