"""Probe12's programs (session 28), each written in module m (`mainspring`, or `halide`, which gets no hardware
schedule) and returning (output, {name: ImageParam}, size): seed 002's schedule calls in combinations the suite
lacked (split + reorder + fuse of the host tile loops, ShiftInwards tiles that do not divide, chained in_()
copies and in_(g), boundary conditions computed inside a 4-lane accelerator, a GLB level whose memory tiles do not
divide it), mixed types (i16 abs/absd/shifts/%/saturating casts, a diamond RDom.where, argmax over a 3x2 window,
a weighted histogram) and h2h down_sample at stride 3 and an odd size."""

from probe_common import on_hardware, vars_of


def _blur3(m):
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, bx, by, hw_output, output = (m.Func(n) for n in ("hw_input", "blur_x", "blur_y", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    by[x, y] = (bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9
    hw_output[x, y] = by[x, y] * 2 - hw_input[x + 1, y + 1]
    output[x, y] = m.u8(hw_output[x, y])
    return inp, x, y, hw_input, bx, by, hw_output, output


def split_reorder_fuse(m):
    """split + split + reorder, the host tile loops fused into one (t), hw_accelerate(xi, t): 4 tiles of 8x6."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi, t = vars_of(m, "xo yo xi yi t")
        output.bound(x, 0, 16).bound(y, 0, 12)
        hw_output.compute_root().split(x, xo, xi, 8).split(y, yo, yi, 6).reorder(xi, yi, xo, yo).fuse(xo, yo, t)
        hw_output.hw_accelerate(xi, t)
        bx.compute_at(hw_output, t)
        by.compute_at(hw_output, t)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [16, 12]


def tail_shift_inwards(m):
    """Host tiles of 8x6 over 19x13 with TailStrategy.ShiftInwards (the last tiles overlap the ones before)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 19).bound(y, 0, 13)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6, m.TailStrategy.ShiftInwards)
        hw_output.hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        by.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [19, 13]


def in_chain(m):
    """hw_input.in_().in_() chained copies and blur_x.in_(blur_y), every one buffered in the accelerator."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 13).bound(y, 0, 7)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 13, 7).hw_accelerate(xi, xo)
        by.compute_at(hw_output, xo)
        bx.compute_at(hw_output, xo)
        bx.in_(by).compute_at(hw_output, xo)
        hw_input.in_().in_().compute_at(hw_output, xo)
        hw_input.in_().compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [13, 7]


def glb_memory_tiles_not_dividing(m, fixed=True):
    """A GLB tile of 13x10 (the output's copy in the GLB) of memory tiles of 5x4; unfixed, the input has no GLB
    copy (refused), fixed as the message says (hw_input.in_() in the GLB, hw_input.in_().in_() per memory tile)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 13).bound(y, 0, 10)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 13, 10).hw_accelerate(xi, xo)
        g.store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 5, 4)
        by.compute_at(hw_output, xio)
        bx.compute_at(hw_output, xio)
        hw_input.in_().compute_at(hw_output, xio)
        hw_input.compute_root().accelerator_input()
        if fixed:
            hw_input.in_().in_().compute_at(hw_output, xio)
            hw_input.in_().compute_at(hw_output.in_(), xo)
            hw_input.in_().store_in(m.MemoryType.GLB)
    return output, {"input": inp}, [13, 10]


def mirror_interior_unroll4(m, w=18, h=7, lanes=4):
    """mirror_interior of the accelerator's copy of the input, a 1-2-1 filter both ways, 4 lanes (RoundUp)."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, hw_output, output, bx = (m.Func(n) for n in ("hw_input", "hw_output", "output", "bx"))
    hw_input[x, y] = m.u16(inp[x, y])
    c = m.BoundaryConditions.mirror_interior(hw_input, [(0, w), (0, h)])
    bx[x, y] = c[x - 1, y] + 2 * c[x, y] + c[x + 1, y]
    hw_output[x, y] = (bx[x, y - 1] + bx[x, y] * 2 + bx[x, y + 1]) >> 4
    output[x, y] = m.u8(hw_output[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        r = m.TailStrategy.RoundUp
        output.bound(x, 0, w).bound(y, 0, h)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        hw_output.unroll(xi, lanes, r)
        bx.compute_at(hw_output, xo).unroll(x, lanes, r)
        hw_input.compute_root().stream_to_accelerator()
        hw_input.unroll(x, lanes, r)
    return output, {"input": inp}, [w, h]


def rows_two_per_cycle(m, stream_rows=False):
    """Two rows a cycle (unroll(yi, 2) and unroll(y, 2) on every stage) over 9x8; with stream_rows the input is
    unrolled along y too (refused until session 36; now two rows per transfer)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 9).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 9, 8).hw_accelerate(xi, xo).unroll(yi, 2)
        bx.compute_at(hw_output, xo).unroll(y, 2)
        by.compute_at(hw_output, xo).unroll(y, 2)
        hw_input.compute_root().stream_to_accelerator()
        if stream_rows:
            hw_input.unroll(y, 2)
    return output, {"input": inp}, [9, 8]


def _one_tile(m, output, hw_output, hw_input, size, inner=()):
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *size).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()


def mixed_i16_ops(m):
    """u8 in; an i16 difference, abs, absd, << and >>, select, min/max, / and % by constants, u8_sat out."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, d, e, hw_output, output = (m.Func(n) for n in ("hw_input", "d", "e", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    d[x, y] = m.i16(hw_input[x + 1, y]) - m.i16(hw_input[x, y + 1])
    e[x, y] = m.select(d[x, y] > 10, m.i16(m.abs(d[x, y])) * 3,
                       m.i16(m.absd(hw_input[x, y], hw_input[x + 1, y + 1])) << 2)
    hw_output[x, y] = m.u8_sat(m.max(m.min(e[x, y] / 3 + (d[x, y] % 7), 300), -20) + (e[x, y] >> 1) / 5)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (13, 7), (d, e))
    return output, {"input": inp}, [13, 7]


def diamond_where(m):
    """A 5x5 RDom restricted by where to a diamond (13 taps), unrolled, summed in u16."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(-2, 5), m.Range(-2, 5)], "r")
    r.where(m.abs(r.x) + m.abs(r.y) <= 2)
    hw_input, s, hw_output, output = (m.Func(n) for n in ("hw_input", "s", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x + 2, y + 2])
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(s[x, y] / 13)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (12, 8), (s,))
        s.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [12, 8]


def argmax_window(m):
    """hl.argmax over a 3x2 window (no update to schedule: the accelerator computes it whole)."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3), m.Range(0, 2)], "r")
    hw_input, am, hw_output, output = (m.Func(n) for n in ("hw_input", "am", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    am[x, y] = m.argmax(hw_input[x + r.x, y + r.y])
    hw_output[x, y] = m.u8(am[x, y][0] + 3 * am[x, y][1]) + am[x, y][2] / 16
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (10, 6), (am,))
    return output, {"input": inp}, [10, 6]


def weighted_histogram(m, w=7, h=5, lanes=1, bins=8):
    """A histogram of 8 (or 4) bins of the upper bits, each pixel adding its low 2 bits + 1, computed at the bin
    loop; lanes > 1 unrolls r.x (refused in session 28, compiled since session 29: test_probes.py)."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    hw_input, hist, hw_output, output = (m.Func(n) for n in ("hw_input", "histogram", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    r = m.RDom([m.Range(0, w), m.Range(0, h)], "r")
    hist[b] = m.u16(0)
    hist[m.i32(hw_input[r.x, r.y] >> (8 - bins.bit_length() + 1))] += (hw_input[r.x, r.y] & 3) + 1
    hw_output[b] = hist[b] * 2
    output[b] = hw_output[b]
    if on_hardware(m):
        bo, bi = vars_of(m, "bo bi")
        output.bound(b, 0, bins)
        hw_output.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
        hist.compute_at(hw_output, bo)
        if lanes > 1:
            hist.update().unroll(r.x, lanes)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [bins]


def down_sample_stride3(m, w=13, h=7, stride=3):
    """h2h down_sample (max pool by hl.maximum) with stride 3 at 13x7, one host tile."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, stride), m.Range(0, stride)])
    hw_input, max_pool, hw_output, output = (m.Func(n) for n in ("hw_input", "max_pool", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    max_pool[x, y] = m.maximum(hw_input[x * stride + r.x, y * stride + r.y])
    hw_output[x, y] = max_pool[x, y]
    output[x, y] = m.u8(hw_output[x, y])
    if on_hardware(m):
        _one_tile(m, output, hw_output, hw_input, (w, h), (max_pool,))
    return output, {"input": inp}, [w, h]


CASES = {f.__name__: f for f in (split_reorder_fuse, tail_shift_inwards, in_chain, glb_memory_tiles_not_dividing,
                                 mirror_interior_unroll4, mixed_i16_ops, diamond_where, argmax_window,
                                 weighted_histogram, down_sample_stride3, rows_two_per_cycle)}
