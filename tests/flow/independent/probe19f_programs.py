"""Probe19's hand schedules (session 34), part six: corners of the language inside the accelerator: odd tiles at
lanes with the default tail, reversed and transposed reads at lanes, coordinates that are products, loaded
coordinates, triangular RDoms, producers tiled or fused, 2x2 lanes, divisions by zero, negative and wide shifts,
reductions over reductions, 1-D weight inputs; each in module m (`mainspring`, or `halide`), returning (output or
[outputs], {name: ImageParam}, size)."""

from probe19_programs import _box, _in, _out, _sched
from probe_common import on_hardware, vars_of


def lanes_default_tail_odd_tile(m):
    """unroll(x, 2) with no tail everywhere over a 7-wide frame (Halide's Auto tail)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (7, 3), inner=(bx,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        bx.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [7, 3]


def flipped_reads_two_lanes(m):
    """A horizontal flip inside the tile (hw_input[7 - x, y]) at two lanes."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[7 - x, y] + hw_input[x, y] / 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def transpose_inside_two_lanes(m):
    """A transposing read (hw_input[y, x]) of a 4x4 tile at two lanes."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[y, x]))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (4, 4), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
    return output, {"input": inp}, [4, 4]


def product_coordinates(m, fixed=False):
    """A read at a product of the coordinates (hw_input[(x * y) % 5, y]): Halide bounds it by the box."""
    inp, x, y, hw_input = _in(m)
    idx = m.Func("idx")
    idx[x, y] = m.clamp((x * y) % 5, 0, 4)  # (the refusal's fix, as it words it)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[idx[x, y] if fixed else (x * y) % 5, y] + hw_input[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inputs=(hw_input,), inner=(idx,) if fixed else ())
    return output, {"input": inp}, [5, 3]


def product_coordinates_in_a_func(m):
    """The index (x * y) % 5 computed in a Func of its own at xo, clamped as the refusal says, hw_input read at it (a
    RAM lookup)."""
    return product_coordinates(m, fixed=True)


def loaded_coordinate_gather(m):
    """A gather: hw_input read at a column given by another pixel (hw_input[hw_input[x, y] % 4, y])."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[m.i32(hw_input[x, y] % 4), y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (4, 3), inputs=(hw_input,))
    return output, {"input": inp}, [4, 3]


def triangular_rdom(m):
    """A triangular window: RDom 3x3 where r.x <= r.y."""
    inp, x, y, hw_input = _in(m)
    acc = m.Func("acc")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r.where(r.x <= r.y)
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(acc[x, y] / 6))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(acc,), inputs=(hw_input,))
        acc.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [5, 3]


def producer_tiled(m):
    """blur_x.tile(x, y, bxo, byo, bxi, byi, 4, 2) inside the accelerator's 8x4 tile."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        bxo, byo, bxi, byi = vars_of(m, "bxo byo bxi byi")
        bx.tile(x, y, bxo, byo, bxi, byi, 4, 2)
    return output, {"input": inp}, [8, 4]


def producer_fused(m):
    """blur_x.fuse(x, y, t): one loop over the producer's pixels."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(bx,), inputs=(hw_input,))
        bx.fuse(x, y, m.Var("t"))
    return output, {"input": inp}, [6, 3]


def lanes_two_by_two(m):
    """2x2 pixels a cycle: hw_output.unroll(xi, 2).unroll(yi, 2), a pointwise chain."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[x, y] * 3 / 4 + 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
        hw_output.unroll(xi, 2).unroll(yi, 2)
    return output, {"input": inp}, [6, 4]


def explicit_split_unroll_inner(m):
    """hw_output.split(xi, xio, xii, 2).unroll(xii) and the input's and producer's split likewise."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(bx,), inputs=(hw_input,))
        xio, xii, a, b, c, d = vars_of(m, "xio xii a b c d")
        hw_output.split(xi, xio, xii, 2).unroll(xii)
        bx.split(x, a, b, 2).unroll(b)
        hw_input.split(x, c, d, 2).unroll(d)
    return output, {"input": inp}, [8, 3]


def division_by_zero(m):
    """u16 and i16 divisions and modulos by loaded values that are often zero (Halide: x / 0 == 0, x % 0 == 0)."""
    inp, x, y, hw_input = _in(m)
    s = m.Func("signed")
    s[x, y] = m.i16(hw_input[x, y]) - m.i16(hw_input[x + 1, y])
    hw_output, output = _out(m, lambda x, y: m.i16(hw_input[x, y] / (hw_input[x, y + 1] % 3))
                             + s[x, y] / (s[x, y + 1] % 4) + s[x, y] % (s[x, y + 1] % 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(s,), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def shifts_negative_and_wide(m):
    """Shifts by loaded signed amounts from -3 to 20 (negative shifts the other way; 16 and more clear a u16)."""
    inp, x, y, hw_input = _in(m)
    amt = m.Func("amount")
    amt[x, y] = m.i16(hw_input[x, y] % 24) - m.i16(3)
    hw_output, output = _out(m, lambda x, y: (hw_input[x + 1, y] << amt[x, y]) + (
        m.i16(hw_input[x + 1, y]) >> amt[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(amt,), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def stencil_over_a_reduction(m):
    """A 3-tap vertical sum (a reduction) read again at x and x + 1 by the output."""
    inp, x, y, hw_input = _in(m)
    acc = m.Func("acc")
    r = m.RDom([m.Range(0, 3)], "r")
    acc[x, y] = hw_input[x, y]
    acc[x, y] += hw_input[x, y + r.x + 1]
    hw_output, output = _out(m, lambda x, y: m.u8((acc[x, y] + acc[x + 1, y]) / 8))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(acc,), inputs=(hw_input,))
        acc.update().unroll(r.x)
    return output, {"input": inp}, [6, 3]


def weights_as_1d_input(m):
    """A 1-D ImageParam of 5 i16 weights streamed beside the image, a 5-tap FIR along x, output i16."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    wts = m.ImageParam(m.Int(16), 1, "weights")
    i = m.Var("i")
    hw_w, acc = m.Func("hw_weights"), m.Func("acc")
    hw_w[i] = wts[i]
    r = m.RDom([m.Range(0, 5)], "r")
    acc[x, y] = m.i16(0)
    acc[x, y] += hw_w[r.x] * hw_input[x + r.x, y]
    hw_output, output = _out(m, lambda x, y: acc[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (4, 3), inner=(acc,), inputs=(hw_input,))
        acc.update().unroll(r.x)
        hw_w.compute_root().stream_to_accelerator()
    return output, {"input": inp, "weights": wts}, [4, 3]


def mux_over_position(m):
    """hl.mux choosing one of four expressions by x % 4."""
    inp, x, y, hw_input = _in(m)
    v = hw_input[x, y]
    hw_output, output = _out(m, lambda x, y: m.u8(m.mux(x % 4, [v, v / 2, v * 3 / 4, 255 - v])))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 2), inputs=(hw_input,))
    return output, {"input": inp}, [8, 2]


def bool_output(m):
    """A Bool output (a threshold mask)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] + hw_input[x + 1, y] > 255)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def u32_input_wraps(m):
    """A u32 input (values to 2^32), sums that wrap, output u32."""
    inp, x, y, hw_input = _in(m, t=m.UInt(32), wide=m.u32)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] + hw_input[x + 1, y] * m.u32(3))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def negative_to_u8_wraps(m):
    """An i16 difference cast to u8 (negative values wrap)."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[x, y] - hw_input[x + 1, y] * 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def tuple_select_of_tuples(m):
    """select of two Tuples (min first or max first) by a coordinate parity, a 2-Tuple of u8."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    t, hw_output, output = m.Func("pair"), m.Func("hw_output"), m.Func("output")
    a, b = hw_input[x, y], hw_input[x + 1, y]
    t[x, y] = m.select((x + y) % 2 == 0, m.Tuple([m.min(a, b), m.max(a, b)]), m.Tuple([m.max(a, b), m.min(a, b)]))
    hw_output[x, y] = (t[x, y][0], t[x, y][1] / 2)
    output[x, y] = (hw_output[x, y][0], hw_output[x, y][1])
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(t,), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def reduction_init_reads_input(m):
    """acc = the pixel, then += 4 taps of an RDom of two dims with r.y serial and r.x unrolled."""
    inp, x, y, hw_input = _in(m)
    acc = m.Func("acc")
    r = m.RDom([m.Range(1, 2), m.Range(0, 2)], "r")
    acc[x, y] = hw_input[x, y] * 2
    acc[x, y] += hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(acc[x, y] / 6))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(acc,), inputs=(hw_input,))
        acc.update().unroll(r.x)
    return output, {"input": inp}, [5, 3]


def four_level_input_copies(m):
    """hw_input.in_().in_() both computed at xo (a chain of two copies) before blur_x."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 3), inner=(bx,), inputs=(hw_input,))
        hw_input.in_().compute_at(hw_output, xo)
        hw_input.in_().in_().compute_at(hw_output, xo)
    return output, {"input": inp}, [6, 3]


def output_reorder_storage(m):
    """hw_output.reorder_storage(y, x) (column-major storage of the accelerator's output)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 4), inner=(bx,), inputs=(hw_input,))
        hw_output.reorder_storage(y, x)
    return output, {"input": inp}, [5, 4]


def rvar_unrolled_three_lanes_round_up(m):
    """A 3-tap RDom unrolled and x at 3 lanes RoundUp over 8 columns (the update's lanes too)."""
    inp, x, y, hw_input = _in(m)
    acc = m.Func("acc")
    r = m.RDom([m.Range(0, 3)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y] * m.u16(3 - r.x)
    hw_output, output = _out(m, lambda x, y: m.u8(acc[x, y] / 6))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 2), inner=(acc,), inputs=(hw_input,))
        ru = m.TailStrategy.RoundUp
        acc.unroll(x, 3, ru)
        acc.update().unroll(r.x).unroll(x, 3, ru)
        hw_output.unroll(xi, 3, ru)
        hw_input.unroll(x, 3, ru)
    return output, {"input": inp}, [8, 2]


CASES = {f.__name__: f for f in (
    lanes_default_tail_odd_tile, flipped_reads_two_lanes, transpose_inside_two_lanes, product_coordinates,
    product_coordinates_in_a_func,
    loaded_coordinate_gather, triangular_rdom, producer_tiled, producer_fused, lanes_two_by_two,
    explicit_split_unroll_inner, division_by_zero, shifts_negative_and_wide, stencil_over_a_reduction,
    weights_as_1d_input, mux_over_position, bool_output, u32_input_wraps, negative_to_u8_wraps,
    tuple_select_of_tuples, reduction_init_reads_input, four_level_input_copies, output_reorder_storage,
    rvar_unrolled_three_lanes_round_up,
)}


def product_index_clamped(m, clamp=True):
    """The fix the refusal of hw_input[x * y, y] names: idx[x, y] = clamp(x * y, 0, 49) at xo, read at it (8x8)."""
    inp, x, y, hw_input = _in(m)
    idx = m.Func("idx")
    idx[x, y] = m.clamp(x * y, 0, 49) if clamp else x * y
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[idx[x, y], y] + 1))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 8), inputs=(hw_input,), inner=(idx,))
    return output, {"input": inp}, [8, 8]


CASES[product_index_clamped.__name__] = product_index_clamped
