"""Probe22's hand schedules (session 36), part two: update definitions with where-clauses and RDoms with
predicates (cross and ring shaped windows, a census transform, similar-neighbour means, conditional taps at the
frame's border, two where calls, where on a pure Var, where over channels, partial RVar unrolls); each in module m
(`mainspring`, or `halide`), returning (output or [outputs], {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe22_programs import frame
from probe_common import on_hardware


def _window(m, name, lo, n, where=None):
    r = m.RDom([m.Range(lo, n), m.Range(lo, n)], name)
    if where is not None:
        r.where(where(r))
    return r


def _acc(m, size, init, step, finish, wide=None, unroll=True, inner_extra=(), predicate=None, lo=-1, n=3,
         frame_to=None):
    """s = init; s = step(s, r, reader) over an n x n window from lo with `predicate`; output finish(s)."""
    inp, x, y, hw_input = _in(m, wide=wide)
    r = _window(m, "r", lo, n, predicate and (lambda r: predicate(r, x, y, hw_input)))
    s = m.Func("s")
    s[x, y] = init
    s[x, y] = step(s[x, y], r, x, y, hw_input)
    hw_output, output = _out(m, lambda x, y: finish(s[x, y], x, y, hw_input))
    if on_hardware(m):
        _sched(m, output, hw_output, size, inner=(s, *inner_extra), inputs=(hw_input,))
        if unroll:
            s.update().unroll(r.x).unroll(r.y)
    if frame_to:
        frame(inp, *frame_to)
    return output, {"input": inp}, list(size)


def where_cross_erosion(m):
    """A cross-shaped erosion: min over the 3x3 taps with |r.x| + |r.y| <= 1 (r.where), unrolled, 6x4."""
    return _acc(m, (6, 4), m.u16(255), lambda s, r, x, y, h: m.min(s, h[x + r.x + 1, y + r.y + 1]),
                lambda s, x, y, h: m.u8(s), predicate=lambda r, x, y, h: m.abs(r.x) + m.abs(r.y) <= 1)


def where_ring_max_serial(m):
    """The max over the 3x3 ring (the centre excluded by (r.x != 0) | (r.y != 0)), the RDom serial, 5x4."""
    return _acc(m, (5, 4), m.u16(0), lambda s, r, x, y, h: m.max(s, h[x + r.x + 1, y + r.y + 1]),
                lambda s, x, y, h: m.u8(s), unroll=False,
                predicate=lambda r, x, y, h: (r.x != 0) | (r.y != 0))


def where_two_calls_conjunction(m):
    """Two r.where calls (r.x > r.y, then r.x + r.y != 1): their conjunction picks 2 of the 9 taps, 6x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r.where(r.x > r.y)
    r.where(r.x + r.y != 1)
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y + r.y] * m.u16(3)
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] >> 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 3]


def where_sum_below_darker_neighbours(m):
    """How far the 8 neighbours darker than the centre lie below it (a where on two loaded values), 6x4."""
    return _acc(m, (6, 4), m.u16(0), lambda s, r, x, y, h: s + (h[x + 1, y + 1] - h[x + r.x + 1, y + r.y + 1]),
                lambda s, x, y, h: m.u8(m.min(s >> 2, m.u16(255))),
                predicate=lambda r, x, y, h: ((r.x != 0) | (r.y != 0))
                & (h[x + r.x + 1, y + r.y + 1] < h[x + 1, y + 1]))


def where_similar_neighbour_mean(m):
    """A sigma filter: the mean of the 3x3 taps within 20 of the centre (sum and count as a Tuple), 5x4."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r.where(m.absd(hw_input[x + r.x, y + r.y], hw_input[x + 1, y + 1]) < 20)
    s = m.Func("s")
    s[x, y] = (m.u16(0), m.u16(0))
    s[x, y] = (s[x, y][0] + hw_input[x + r.x, y + r.y], s[x, y][1] + m.u16(1))
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y][0] / s[x, y][1]))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 4), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [5, 4]


def where_census_bits(m):
    """A census transform: bit (3 * r.y + r.x) set where the tap is darker than the centre, the centre tap
    skipped by r.where; a variable shift by an RVar expression, u16, 6x3."""
    return _acc(m, (6, 3), m.u16(0),
                lambda s, r, x, y, h: s | m.select(h[x + r.x + 1, y + r.y + 1] < h[x + 1, y + 1],
                                                   m.u16(1) << m.u16(3 * (r.y + 1) + r.x + 1), m.u16(0)),
                lambda s, x, y, h: s, predicate=lambda r, x, y, h: (r.x != 0) | (r.y != 0))


def where_border_taps_skipped(m):
    """Taps outside the frame skipped by r.where on the pure x and y (0 <= x + r.x < 6), the mean of the rest,
    a user's hand-written boundary condition, 6x4."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
    r.where((x + r.x >= 0) & (x + r.x < 6) & (y + r.y >= 0) & (y + r.y < 4))
    s = m.Func("s")
    s[x, y] = (m.u16(0), m.u16(0))
    s[x, y] = (s[x, y][0] + hw_input[x + r.x, y + r.y], s[x, y][1] + m.u16(1))
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y][0] / s[x, y][1]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def where_on_pure_y_rows_parity(m):
    """Even output rows sum three taps, odd rows one (r.where(y % 2 == 0 | r.x == 0)), 6x4."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3)], "r")
    r.where((y % 2 == 0) | (r.x == 0))
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x)
    return output, {"input": inp}, [6, 4]


def where_inline_sum_excluding_centre(m):
    """m.sum over an RDom with a where (no Func of the user's: the inline reduction), 7x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
    r.where((r.x != 0) | (r.y != 0))
    hw_output, output = _out(m, lambda x, y: m.u8(m.sum(hw_input[x + r.x + 1, y + r.y + 1]) >> 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inputs=(hw_input,))
    return output, {"input": inp}, [7, 3]


def where_argmin_ring(m):
    """The argmin (its index 0..8) over the ring of the 3x3 window (centre skipped), as a Tuple, 5x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r.where((r.x != 1) | (r.y != 1))
    s = m.Func("s")
    s[x, y] = (m.u16(65535), m.u8(9))
    v = hw_input[x + r.x, y + r.y]
    better = v < s[x, y][0]
    s[x, y] = (m.select(better, v, s[x, y][0]), m.select(better, m.u8(r.x + 3 * r.y), s[x, y][1]))
    hw_output, output = _out(m, lambda x, y: s[x, y][1])
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [5, 3]


def where_rvar_split_partial_unroll(m):
    """A 1x6 horizontal window with the odd taps only (r.where(r.x % 2 == 1)), r.x split by 2 and the inner
    unrolled (the outer serial), 5x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 6)], "r")
    r.where(r.x % 2 == 1)
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(s,), inputs=(hw_input,))
        ro, ri = m.RVar("ro"), m.RVar("ri")
        s.update().split(r.x, ro, ri, 2).unroll(ri)
    return output, {"input": inp}, [5, 3]


def where_histogram_in_band(m):
    """8 bins of the pixels in [32, 224) (two where calls on the loaded value), bin (v - 32) >> 5, u16, 6x4."""
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    histogram, hw_output, output = m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    r.where(hw_input[r.x, r.y] >= 32)
    r.where(hw_input[r.x, r.y] < 224)
    histogram[b] = m.u16(0)
    histogram[m.i32((hw_input[r.x, r.y] - 32) >> 5)] += m.u16(1)
    hw_output[b] = histogram[b]
    output[b] = hw_output[b]
    if on_hardware(m):
        bo, bi = m.Var("bo"), m.Var("bi")
        output.bound(b, 0, 6)
        hw_output.compute_root().split(b, bo, bi, 6).hw_accelerate(bi, bo)
        histogram.bound_extent(b, 6)
        hw_input.compute_root().stream_to_accelerator()
    frame(inp, 6, 4)
    return output, {"input": inp}, [6]


def where_two_updates_first_masked(m):
    """Two updates: the first adds the right neighbour where it is brighter, the second subtracts a quarter of
    the left, i16, 6x3."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    r = m.RDom([m.Range(0, 1)], "r")
    r.where(hw_input[x + 2, y] > hw_input[x + 1, y])
    s = m.Func("s")
    s[x, y] = hw_input[x + 1, y]
    s[x, y] += hw_input[x + 2 + r.x, y]
    s[x, y] -= hw_input[x, y] >> 2
    hw_output, output = _out(m, lambda x, y: s[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def where_over_channels(m):
    """A 3-channel input, the sum over the channels whose value exceeds 50 (an RDom over c with a where), 5x3."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    hw_input = m.Func("hw_input")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    r = m.RDom([m.Range(0, 3)], "r")
    r.where(hw_input[x, y, r.x] > 50)
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x, y, r.x]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x)
        inp.dim(2).set_bounds(0, 3)
    return output, {"input": inp}, [5, 3]


def where_update_at_pure_column(m):
    """An update over the pure x at a fixed RDom of rows with r.where(x % 3 == 0): every third column gets the
    two rows below added, 6x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(1, 2)], "r")
    r.where(x % 3 == 0)
    s = m.Func("s")
    s[x, y] = hw_input[x, y]
    s[x, y] += hw_input[x, y + r.x]
    hw_output, output = _out(m, lambda x, y: m.u8(m.min(s[x, y], m.u16(255))))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x)
    return output, {"input": inp}, [6, 3]


def where_two_lanes_cross(m):
    """The cross-shaped sum (|r.x| + |r.y| <= 1) at two lanes through every stage, 8x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
    r.where(m.abs(r.x) + m.abs(r.y) <= 1)
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x + 1, y + r.y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 5))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x).unroll(r.y).unroll(x, 2)
        s.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def where_max_minus_min_masked(m):
    """The local contrast max - min over the taps brighter than 10 (two Funcs over one predicated RDom), 5x4."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r.where(hw_input[x + r.x, y + r.y] > 10)
    hi, lo = m.Func("hi"), m.Func("lo")
    hi[x, y] = m.u16(0)
    hi[x, y] = m.max(hi[x, y], hw_input[x + r.x, y + r.y])
    lo[x, y] = m.u16(255)
    lo[x, y] = m.min(lo[x, y], hw_input[x + r.x, y + r.y])
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(hi[x, y] >= lo[x, y], hi[x, y] - lo[x, y], 0)))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 4), inner=(hi, lo), inputs=(hw_input,))
        hi.update().unroll(r.x).unroll(r.y)
        lo.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [5, 4]


CASES = {f.__name__: f for f in (
    where_cross_erosion, where_ring_max_serial, where_two_calls_conjunction, where_sum_below_darker_neighbours,
    where_similar_neighbour_mean, where_census_bits, where_border_taps_skipped, where_on_pure_y_rows_parity,
    where_inline_sum_excluding_centre, where_argmin_ring, where_rvar_split_partial_unroll, where_histogram_in_band,
    where_two_updates_first_masked, where_over_channels, where_update_at_pure_column, where_two_lanes_cross,
    where_max_minus_min_masked,
)}
