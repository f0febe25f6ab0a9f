"""Probe14b's programs (session 30), each written in module m (`mainspring`, or `halide`, which gets no hardware
schedule) and returning (output, {name: ImageParam}, size): host loops unrolled (fully, by a factor over tiles that
do not divide it, and the store loop itself), a lookup at coordinates across host tiles, a GLB level with 2 lanes,
a five-stage multi-rate pipeline, serial and unrolled updates with RDom.where, unroll 3 over 7 columns with
ShiftInwards, a Sobel Tuple in i16, and an RVar split with its inner part unrolled."""

from probe_common import on_hardware, vars_of


def _funcs(m, names):
    return [m.Func(n) for n in names.split()]


def _tile(m, output, hw_output, hw_input, size, tile=None, inner=()):
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *(tile or size)).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return xo, yo, xi, yi


def _box(m):
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, bx, hw_output, output = _funcs(m, "hw_input blur_x hw_output output")
    hw_input[x, y] = m.u16(inp[x, y])
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = m.u8((bx[x, y] + bx[x, y + 1]) >> 2)
    output[x, y] = hw_output[x, y]
    return inp, x, y, hw_input, bx, hw_output, output


def _host_unrolled(m, rows, unroll):
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tile(m, output, hw_output, hw_input, (16, rows), (8, 4), (bx,))
        unroll(m, hw_output, xo, yo)
    return output, {"input": inp}, [16, rows]


def host_yo_unrolled_by_2(m):
    """hw_output.unroll(yo, 2) over 3 row tiles (the split keeps the name yo; compiling it never ended)."""
    return _host_unrolled(m, 12, lambda m, f, xo, yo: f.unroll(yo, 2))


def host_yo_unrolled_whole(m):
    """hw_output.unroll(yo): its extent (8 / 4) is known, as Halide knows it (was refused as not constant)."""
    return _host_unrolled(m, 8, lambda m, f, xo, yo: f.unroll(yo))


def store_loop_unrolled(m):
    """hw_output.unroll(xo, 2, GuardWithIf) of hw_accelerate's store loop itself (was refused)."""
    return _host_unrolled(m, 4, lambda m, f, xo, yo: f.unroll(xo, 2, m.TailStrategy.GuardWithIf))


def lookup_at_coordinates_in_tiles(m):
    """A constant table read at (x + y) % 8 and at data, across 3x2 host tiles of 5x4."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    hw_input, t, hw_output, output = _funcs(m, "hw_input t hw_output output")
    hw_input[x, y] = inp[x, y]
    t[i] = m.u8(i * 29 + 3)
    hw_output[x, y] = t[(x + y) % 8] ^ t[m.i32(hw_input[x, y] >> 5)]
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tile(m, output, hw_output, hw_input, (15, 8), (5, 4), (t,))
    return output, {"input": inp}, [15, 8]


def glb_two_lanes(m):
    """Three-level memory (GLB tile 16x8, memory tiles 8x4) with every array Func at 2 lanes."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 16).bound(y, 0, 8)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 16, 8).hw_accelerate(xi, xo)
        g.store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 8, 4).unroll(xii, 2)
        bx.compute_at(hw_output, xio).unroll(x, 2)
        hw_input.in_().in_().compute_at(hw_output, xio).unroll(x, 2)
        hw_input.in_().compute_at(g, xo)
        hw_input.in_().store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [16, 8]


def five_stages_multirate(m):
    """stencil -> pointwise -> 2x2 downsample -> 2x2 stencil at low resolution -> nearest upsample + detail."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, bx, g, down, lo, hw_output, output = _funcs(m, "hw_input bx g down lo hw_output output")
    hw_input[x, y] = m.u16(inp[x, y])
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    g[x, y] = m.min(bx[x, y], 400) >> 1
    down[x, y] = (g[2 * x, 2 * y] + g[2 * x + 1, 2 * y] + g[2 * x, 2 * y + 1] + g[2 * x + 1, 2 * y + 1]) >> 2
    lo[x, y] = (down[x, y] + down[x + 1, y] + down[x, y + 1] + down[x + 1, y + 1]) >> 2
    hw_output[x, y] = m.u8_sat(lo[x / 2, y / 2] + (g[x, y] >> 3))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tile(m, output, hw_output, hw_input, (8, 6), inner=(bx, g, down, lo))
    return output, {"input": inp}, [8, 6]


def where_serial_then_unrolled(m):
    """A serial 3x3 cross (RDom.where), then a second update over another RDom, unrolled."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    r.where((r.x == 1) | (r.y == 1))
    q = m.RDom([m.Range(0, 2)], "q")
    hw_input, acc, hw_output, output = _funcs(m, "hw_input acc hw_output output")
    hw_input[x, y] = m.u16(inp[x, y])
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y]
    acc[x, y] += hw_input[x + q.x, y + 3]
    hw_output[x, y] = m.u8(acc[x, y] / 7)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tile(m, output, hw_output, hw_input, (6, 4), inner=(acc,))
        acc.update(1).unroll(q.x)
    return output, {"input": inp}, [6, 4]


def unroll3_shift_inwards(m):
    """unroll 3 over 7 columns with TailStrategy.ShiftInwards on the output, the producer and the input copy."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, bx, hw_output, output = _funcs(m, "hw_input blur_x hw_output output")
    hw_input[x, y] = m.u16(inp[x, y])
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output[x, y] = m.u8(bx[x, y] / 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = _tile(m, output, hw_output, hw_input, (7, 4), inner=(bx,))
        shift = m.TailStrategy.ShiftInwards
        hw_output.unroll(xi, 3, shift)
        bx.unroll(x, 3, shift)
        hw_input.unroll(x, 3, shift)
    return output, {"input": inp}, [7, 4]


def sobel_tuple_i16(m):
    """Sobel gx, gy in i16 as a buffered Tuple Func; |gx| + |gy| saturated to u8 with a direction bit."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, g, hw_output, output = _funcs(m, "hw_input g hw_output output")
    hw_input[x, y] = m.i16(inp[x, y])

    def p(dx, dy):
        return hw_input[x + dx, y + dy]

    gx = p(2, 0) + 2 * p(2, 1) + p(2, 2) - p(0, 0) - 2 * p(0, 1) - p(0, 2)
    gy = p(0, 2) + 2 * p(1, 2) + p(2, 2) - p(0, 0) - 2 * p(1, 0) - p(2, 0)
    g[x, y] = (gx, gy)
    mag = m.u8_sat(m.abs(g[x, y][0]) + m.abs(g[x, y][1]))
    hw_output[x, y] = (mag & 0xfe) | m.u8(g[x, y][0] > g[x, y][1])
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tile(m, output, hw_output, hw_input, (6, 4), inner=(g,))
    return output, {"input": inp}, [6, 4]


def rvar_split_inner_unrolled(m):
    """A 1x6 weighted sum whose r.x is split by 3, the inner part unrolled: 2 serial steps of 3 taps."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 6)], "r")
    hw_input, acc, hw_output, output = _funcs(m, "hw_input acc hw_output output")
    hw_input[x, y] = m.u16(inp[x, y])
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y] * m.u16(r.x + 1)
    hw_output[x, y] = m.u8(acc[x, y] >> 4)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tile(m, output, hw_output, hw_input, (6, 4), inner=(acc,))
        rxo, rxi = m.RVar("rxo"), m.RVar("rxi")
        acc.update().split(r.x, rxo, rxi, 3).unroll(rxi)
    return output, {"input": inp}, [6, 4]


CASES = {f.__name__: f for f in (host_yo_unrolled_by_2, host_yo_unrolled_whole, store_loop_unrolled,
                                 lookup_at_coordinates_in_tiles, glb_two_lanes, five_stages_multirate,
                                 where_serial_then_unrolled, unroll3_shift_inwards, sobel_tuple_i16,
                                 rvar_split_inner_unrolled)}
