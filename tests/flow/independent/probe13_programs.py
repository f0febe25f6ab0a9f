"""Probe13's programs (session 29), each written in module m (`mainspring`, or `halide`, which gets no hardware
schedule) and returning (output, {name: ImageParam}, size): a host tile loop split again with its parts apart,
store_at != compute_at at a consumer's innermost loop with reorder_storage, u8 saturating and halving
intrinsics, i8 arithmetic, a pure definition with two updates, RDom.where on a pure Var, constant_exterior with a
Param border, a 2-D constant table in ROM, h2h histogram and accumulation at other GeneratorParams (12x12 image,
ksize 2), and two outputs of one accelerator."""

from probe_common import on_hardware, vars_of


def _one_tile(m, output, hw_output, hw_input, size, inner=(), stream=True):
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *size).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    if stream:
        hw_input.compute_root().stream_to_accelerator()
    return xo, yo, xi, yi


def _blur3(m):
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, bx, by, hw_output, output = (m.Func(n) for n in ("hw_input", "blur_x", "blur_y", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    by[x, y] = (bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9
    hw_output[x, y] = by[x, y] + (hw_input[x + 1, y + 1] >> 2)
    output[x, y] = m.u8(hw_output[x, y])
    return inp, x, y, hw_input, bx, by, hw_output, output


def split_of_split_host_apart(m):
    """host loop xo split again with its parts apart (xoi inside yo, xoo outside), 5 tiles split by 2."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi, xoo, xoi = vars_of(m, "xo yo xi yi xoo xoi")
        output.bound(x, 0, 30).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).split(xo, xoo, xoi, 2)
        hw_output.reorder(xi, yi, xoi, yo, xoo).hw_accelerate(xi, xoi)
        bx.compute_at(hw_output, xoi)
        by.compute_at(hw_output, xoi)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [30, 8]


def consumer_loop_storage_order(m):
    """blur_x computed at blur_y's innermost loop x, stored at the tile (store_at != compute_at); blur_y stored
    column-major (reorder_storage(y, x))."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (11, 7), (by,))
        xo = m.Var("xo")
        bx.store_at(hw_output, xo).compute_at(by, x)
        by.reorder_storage(y, x)
    return output, {"input": inp}, [11, 7]


def u8_saturating(m):
    """u8 throughout: saturating_add/sub, halving_add, rounding_halving_add, absd, u8 min/max."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, a, hw_output, output = (m.Func(n) for n in ("hw_input", "a", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    p, q, r = hw_input[x, y], hw_input[x + 1, y], hw_input[x, y + 1]
    a[x, y] = m.saturating_add(m.halving_add(p, q), m.absd(q, r))
    hw_output[x, y] = m.saturating_sub(m.rounding_halving_add(a[x, y], r), m.min(p, 40)) | m.max(q & 7, 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (9, 6), (a,))
    return output, {"input": inp}, [9, 6]


def i8_signed(m):
    """i8 input: i16 differences, abs (unsigned result), i8_sat, rounding_shift_right, signed compare."""
    inp = m.ImageParam(m.Int(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, d, hw_output, output = (m.Func(n) for n in ("hw_input", "d", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    d[x, y] = m.i16(hw_input[x + 1, y]) * 3 - m.i16(hw_input[x, y + 1]) * 2
    hw_output[x, y] = m.select(d[x, y] < -50, m.i8_sat(d[x, y]),
                               m.i8(m.rounding_shift_right(d[x, y], 2)) + m.i8(m.abs(hw_input[x, y]) >> 1))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (9, 6), (d,))
    return output, {"input": inp}, [9, 6]


def two_updates(m):
    """A pure definition and two updates: += an unrolled 3-tap sum, then f = f * 2 - centre."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3)], "r")
    hw_input, f, hw_output, output = (m.Func(n) for n in ("hw_input", "f", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    f[x, y] = hw_input[x + 1, y + 1]
    f[x, y] += hw_input[x + r.x, y]
    f[x, y] = f[x, y] * 2 - hw_input[x + 1, y + 2]
    hw_output[x, y] = m.u8(f[x, y] >> 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (9, 6), (f,))
        f.update(0).unroll(r.x)
    return output, {"input": inp}, [9, 6]


def where_on_pure_var(m):
    """RDom.where depending on the pure var x (a triangle window whose width depends on x % 3)."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3)], "r")
    r.where(r.x <= x % 3)
    hw_input, s, hw_output, output = (m.Func(n) for n in ("hw_input", "s", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y]
    hw_output[x, y] = m.u8(s[x, y] / 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (9, 4), (s,))
        s.update().unroll(r.x)
    return output, {"input": inp}, [9, 4]


def constant_exterior_param(m):
    """constant_exterior with a Param value (the border colour) inside the accelerator, 3x3 max."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    border = m.Param(m.UInt(8), "border")
    border.set(77)
    x, y = m.Var("x"), m.Var("y")
    hw_input, hw_output, output = (m.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    cl = m.BoundaryConditions.constant_exterior(hw_input, border, [(0, 8), (0, 5)])
    hw_output[x, y] = m.max(m.max(cl[x - 1, y - 1], cl[x + 1, y + 1]), cl[x, y] / 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (8, 5))
    return output, {"input": inp}, [8, 5]


def lut_2d(m):
    """A 16x16 constant table read at (a >> 4, b >> 4), computed at the tile, stored in ROM."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, t, hw_output, output = (m.Func(n) for n in ("hw_input", "t", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    t[x, y] = m.u8(x * y + x)
    hw_output[x, y] = t[m.i32(hw_input[x, y] >> 4), m.i32(hw_input[x, y + 1] >> 4)]
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = _one_tile(m, output, hw_output, hw_input, (8, 5))
        t.compute_at(hw_output, xo).store_in(m.MemoryType.ROM)
    return output, {"input": inp}, [8, 5]


def histogram_h2h(m, size=12):
    """h2h histogram at another image size (12x12): low 4 bits, bound_extent(b, 16), split(b, 16)."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    hw_input, binf, hist, hw_output, output = (m.Func(n) for n in ("hw_input", "bin", "histogram", "hw_output",
                                                                    "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    r = m.RDom([m.Range(0, size), m.Range(0, size)], "r")
    binf[x, y] = m.clamp(m.i32(hw_input[x, y] & 0xf), 0, 15)
    hist[b] = m.u16(0)
    hist[binf[r.x, r.y]] += m.u16(1)
    hw_output[b] = hist[b]
    output[b] = m.u8(hw_output[b])
    if on_hardware(m):
        bo, bi = vars_of(m, "bo bi")
        hist.bound_extent(b, 16)
        output.bound(b, 0, 16)
        hw_output.compute_root().split(b, bo, bi, 16).hw_accelerate(bi, bo)
        binf.compute_at(hw_output, bo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [16]


def accumulation_h2h(m, ksize=2, size=9):
    """h2h accumulation with ksize 2 (kernel(r.x + 3*r.y) as written), kernel.compute_at(conv, x).unroll(x, 9)."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    kernel, conv, hw_input, hw_output, output = (m.Func(n) for n in ("kernel", "conv", "hw_input", "hw_output",
                                                                      "output"))
    r = m.RDom([m.Range(0, ksize), m.Range(0, ksize)], "r")
    kernel[x] = x
    conv[x, y] = m.u16(0)
    hw_input[x, y] = m.u16(inp[x, y])
    conv[x, y] += m.u16(kernel[r.x + 3 * r.y]) * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(conv[x, y])
    output[x, y] = m.u8(hw_output[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        n = size - ksize + 1
        output.bound(x, 0, n).bound(y, 0, n)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, n, n).hw_accelerate(xi, xo)
        conv.store_at(hw_output, xo).compute_at(hw_output, xo)
        kernel.compute_at(conv, x)
        kernel.unroll(x, 9)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [size - ksize + 1] * 2


def two_outputs_pipeline(m):
    """Two output Funcs from one accelerated Tuple-free pair: blur and gradient, hl.compile([a, b])."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, blur, grad, out_a, out_b = (m.Func(n) for n in ("hw_input", "blur", "grad", "out_a", "out_b"))
    hw_input[x, y] = m.u16(inp[x, y])
    blur[x, y] = (hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]) / 3
    grad[x, y] = m.absd(hw_input[x + 1, y], hw_input[x, y])
    out_a[x, y] = m.u8(blur[x, y])
    out_b[x, y] = m.u8(grad[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for f in (out_a, out_b):
            f.bound(x, 0, 8).bound(y, 0, 5)
        blur.compute_root().tile(x, y, xo, yo, xi, yi, 8, 5).hw_accelerate(xi, xo)
        grad.compute_root().tile(x, y, xo, yo, xi, yi, 8, 5).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_a, out_b], {"input": inp}, [8, 5]


def inner_of_its_readers(m, fixed=False, stored=False):
    """blur_x computed at hw_output's xi while blur_y, which reads it, is computed at xo: refused as Halide refuses
    it (it compiled before); fixed as the message's second fix says, blur_y computed at xi too. `stored`: blur_x
    stored at xo (Halide then shows the store_at with the compute_at)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    xo, yo, xi, yi = _one_tile(m, output, hw_output, hw_input, (11, 7), (by,))
    if fixed:
        by.compute_at(hw_output, xi)
    if stored:
        bx.store_at(hw_output, xo)
    bx.compute_at(hw_output, xi)
    return output, {"input": inp}, [11, 7]


CASES = {f.__name__: f for f in (split_of_split_host_apart, consumer_loop_storage_order, u8_saturating, i8_signed,
                                 two_updates, where_on_pure_var, constant_exterior_param, lut_2d, histogram_h2h,
                                 accumulation_h2h, two_outputs_pipeline)}
