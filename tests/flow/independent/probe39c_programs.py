"""Probe39's hand schedules (session 39), part three: tails, partial unrolls and levels at their edges (an odd
width at 2 lanes, an RVar of 3 unrolled by 2, a GLB output level alone, bound_extent, a producer at yi with lanes,
argmax in i32, the stream's lanes given twice or as a vectorize), histogram, rom and three_level_memory; each in
module m (`mainspring`, or `halide`, which gets no hardware schedule), returning (output, {name: ImageParam},
size)."""

from probe39_programs import _accel, _hw_in, _outputs
from probe_common import on_hardware, vars_of


def odd_width_two_lanes_guard(m):
    """A 2-tap mean at 2 lanes over an odd width (9x4), unroll(xi, 2, GuardWithIf)."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 9, 4)
        hw_output.unroll(xi, 2, m.TailStrategy.GuardWithIf)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [9, 4]


def rx_unrolled_by_two_of_three(m):
    """A 3-tap weighted row sum with r.x (extent 3) unrolled by 2 (its tail guarded), 6x3."""
    inp, x, y, hw_input = _hw_in(m)
    r = m.RDom([(0, 3)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y] * m.u16(r.x + 1)
    hw_output, output = _outputs(m, lambda x, y: m.u8(s[x, y] >> 3))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 6, 3)
        s.compute_at(hw_output, xo)
        s.update().unroll(r.x, 2)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 3]


def glb_output_only(m):
    """A GLB copy of the output alone (hw_output.in_() accelerated, array tiles of 4x3), the input streamed, 8x6."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x, y + 1]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 8).bound(y, 0, 6)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 4, 3)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


def argmax_row_i32(m, narrow=False):
    """The argmax of 4 taps of an i32 copy (its index and value), 5x3 (narrow: the value cast to i16 first)."""
    inp, x, y, hw_input = _hw_in(m, cast=m.i32)
    r = m.RDom([(0, 4)], "r")
    am = m.Func("am")
    v = hw_input[x + r.x, y]
    am[x, y] = m.argmax(m.i16(v) if narrow else v)
    hw_output, output = _outputs(m, lambda x, y: m.u8(am[x, y][0] * 64 + (am[x, y][1] >> 2)))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 5, 3)
        am.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 3]


def argmax_row_i16(m):
    """argmax_row_i32 with its message's fix: the value cast to i16 (2 + 16 bits)."""
    return argmax_row_i32(m, narrow=True)


def producer_at_yi_two_lanes_stencil(m):
    """A 3x3 box: blur_x stored at xo, computed at yi, 2 lanes; the stream's lanes through hw_input.in_(), 8x4."""
    inp, x, y, hw_input = _hw_in(m)
    bx = m.Func("bx")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output, output = _outputs(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 4)
        bx.store_at(hw_output, xo).compute_at(hw_output, yi).unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.compute_root().stream_to_accelerator()
        hw_input.in_().unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def bound_extent_output(m):
    """output.bound_extent(x, 6).bound_extent(y, 3) in place of bound, 6x3."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(hw_input[x, y] * 3 >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound_extent(x, 6).bound_extent(y, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 3).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 3]


def stream_wrapper_and_stream_both_unrolled(m, twice=True):
    """The stream's 2 lanes given on hw_input and through hw_input.in_() too, 8x3 (twice=False: on hw_input alone)."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(hw_input[x, y] + 1))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 3)
        hw_output.unroll(xi, 2)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2)
        if twice:
            hw_input.in_().unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def stream_unrolled_once(m):
    """stream_wrapper_and_stream_both_unrolled with its message's fix: hw_input.in_().unroll(x, 2) removed."""
    return stream_wrapper_and_stream_both_unrolled(m, twice=False)


def stream_wrapper_vectorize(m):
    """The stream's 4 lanes as hw_input.in_().vectorize(x, 4) beside stream_to_accelerator(), 8x3."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(hw_input[x, y] + 1))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 3)
        hw_output.unroll(xi, 4)
        hw_input.stream_to_accelerator()
        hw_input.in_().vectorize(x, 4)
    return output, {"input": inp}, [8, 3]



# ---- histogram and rom --------------------------------------------------------------------------------------------


def histogram_h2h_8x8_input(m, bins=16, mask=0xF, out_t=None):
    """histogram's Clockwork branch over an 8x8 input: 16 bins of the low 4 bits, split b by 16."""
    inp, x, y, hw_input = _hw_in(m)
    b = m.Var("b")
    r = m.RDom([(0, 8), (0, 8)], "r")
    bin_, histogram = m.Func("bin"), m.Func("histogram")
    bin_[x, y] = m.clamp(m.i32(hw_input[x, y] & mask), 0, bins - 1)
    histogram[b] = m.u16(0)
    histogram[bin_[r.x, r.y]] += m.u16(1)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[b] = histogram[b]
    output[b] = (out_t or m.u8)(hw_output[b])
    if on_hardware(m):
        bo, bi = vars_of(m, "bo bi")
        histogram.bound_extent(b, bins)
        output.bound(b, 0, bins)
        hw_output.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
        bin_.compute_at(hw_output, bo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [bins]


def histogram_eight_bins_u16_out(m):
    """histogram with 8 bins (the low 3 bits), output u16, 8x8 input."""
    return histogram_h2h_8x8_input(m, 8, 0x7, m.u16)


def _curve(m, n, gamma=2.0, contrast=50.0):
    x = m.Var("x")
    curve = m.Func("curve")
    xf = x / float(n)
    g = m.pow(xf, 1.0 / gamma)
    bv = 2.0 - 2.0 ** (contrast / 100.0)
    b, a = m.f32(bv), m.f32(2.0 - 2.0 * bv)
    val = m.select(g > 0.5, 1.0 - (a * (1.0 - g) * (1.0 - g) + b * (1.0 - g)), a * g * g + b * g)
    curve[x] = m.u16(m.clamp(val * 256.0, 0.0, 255.0))
    return curve


def rom_small_512_clockwork_9x5(m):
    """rom's small-ROM variant (hw_input = i16(input), 512 entries, clamp to 511), the Clockwork branch, 9x5."""
    inp, x, y, hw_input = _hw_in(m, cast=m.i16)
    curve = _curve(m, 512)
    hw_output, output = _outputs(m, lambda x, y: curve[m.clamp(hw_input[x, y] * m.i16(2), m.i16(0),
                                                                m.i16(511))], m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 9, 5)
        curve.compute_at(hw_output, yi).unroll(x)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [9, 5]


def rom_integer_table_at_xo_two_lanes(m):
    """An integer ROM (square >> 8 of 256 entries) computed at xo, read by 2 lanes, 8x4."""
    inp, x, y, hw_input = _hw_in(m)
    lut = m.Func("lut")
    lut[x] = m.u16((x * x) >> 8)
    hw_output, output = _outputs(m, lambda x, y: lut[hw_input[x, y]], m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 4)
        lut.compute_at(hw_output, xo).unroll(x)
        hw_output.unroll(xi, 2)
        hw_input.stream_to_accelerator()
        hw_input.in_().unroll(x, 2)
    return output, {"input": inp}, [8, 4]


# ---- three_level_memory -----------------------------------------------------------------------------------------


def three_level_memory_clockwork_small(m):
    """three_level_memory's Clockwork branch shrunk: input_host -> input_gb (at x_host) -> hw_input (at x_gb),
    output_gb tiled 4x3 at x_host, conv unrolled at x_gb; an 8x6 output in one host tile."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(0, 3), (0, 3)], "r")
    kernel, conv = m.Func("kernel"), m.Func("conv")
    kernel[x, y] = 1
    input_host, input_gb, hw_input = m.Func("input_host"), m.Func("input_gb"), m.Func("hw_input")
    input_host[x, y] = m.u16(inp[x, y])
    input_gb[x, y] = input_host[x, y]
    hw_input[x, y] = input_gb[x, y]
    conv[x, y] += hw_input[x + r.x, y + r.y]
    output_gb, hw_output, output = m.Func("output_gb"), m.Func("hw_output"), m.Func("output")
    output_gb[x, y] = conv[x, y]
    hw_output[x, y] = output_gb[x, y]
    output[x, y] = m.u8(hw_output[x, y])
    if on_hardware(m):
        x_host, y_host, x_gb, y_gb, x_cgra, y_cgra, xi, yi = vars_of(m, "x_host y_host x_gb y_gb x_cgra y_cgra xi yi")
        hw_output.compute_root()
        output.bound(x, 0, 8).bound(y, 0, 6)
        hw_output.tile(x, y, x_host, y_host, xi, yi, 8, 6).hw_accelerate(xi, x_host)
        output_gb.compute_at(hw_output, x_host)
        output_gb.tile(x, y, x_gb, y_gb, x_cgra, y_cgra, 4, 3)
        conv.update().unroll(r.x).unroll(r.y)
        conv.compute_at(output_gb, x_gb)
        kernel.compute_at(output_gb, x_gb)
        input_host.compute_root()
        input_host.accelerator_input()
        input_gb.compute_at(hw_output, x_host)
        hw_input.compute_at(output_gb, x_gb)
    return output, {"input": inp}, [8, 6]

CASES = {f.__name__: f for f in (
    odd_width_two_lanes_guard,
    rx_unrolled_by_two_of_three,
    glb_output_only,
    argmax_row_i32,
    argmax_row_i16,
    producer_at_yi_two_lanes_stencil,
    bound_extent_output,
    stream_wrapper_and_stream_both_unrolled,
    stream_unrolled_once,
    stream_wrapper_vectorize,
    histogram_h2h_8x8_input,
    histogram_eight_bins_u16_out,
    rom_small_512_clockwork_9x5,
    rom_integer_table_at_xo_two_lanes,
    three_level_memory_clockwork_small)}
