"""Probe39's hand schedules (session 39), part two: harris, unsharp, mobile and resnet layers re-written small, two
ImageParams, Tuples, boundary conditions and ROM tables inside the accelerator, RDoms partly unrolled, in_() chains
and GLB copies, compute_with; each in module m (`mainspring`, or `halide`, which gets no hardware schedule),
returning (output or [outputs], {name: ImageParam}, size)."""

from probe39_programs import _accel, _hw_in, _outputs
from probe_common import on_hardware, vars_of

# ---- harris -----------------------------------------------------------------------------------------------------


def _harris(m, rdom=False, shiftk=4, threshold=1):
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    padded16 = m.Func("padded16")
    padded16[x, y] = m.i16(inp[x + 3, y + 3])
    gxu, gyu = m.Func("grad_x_unclamp"), m.Func("grad_y_unclamp")
    p = padded16
    r = m.RDom([(-1, 3), (-1, 3)], "r")
    if rdom:
        kx, ky = m.Func("kernel_x"), m.Func("kernel_y")
        kx[x, y] = m.i16(0)
        ky[x, y] = m.i16(0)
        for (i, j), v in {(-1, -1): -1, (-1, 0): -2, (-1, 1): -1, (1, -1): 1, (1, 0): 2, (1, 1): 1}.items():
            kx[i, j] = m.i16(v)
        for (i, j), v in {(-1, 1): 1, (0, 1): 2, (1, 1): 1, (-1, -1): -1, (0, -1): -2, (1, -1): -1}.items():
            ky[i, j] = m.i16(v)
        gxu[x, y] = m.i16(0)
        gxu[x, y] += p[x + r.x, y + r.y] * m.i16(kx[r.x, r.y])
        gyu[x, y] = m.i16(0)
        gyu[x, y] += p[x + r.x, y + r.y] * m.i16(ky[r.x, r.y])
    else:
        gxu[x, y] = m.i16(-p[x - 1, y - 1] + p[x + 1, y - 1] - 2 * p[x - 1, y] + 2 * p[x + 1, y] - p[x - 1, y + 1]
                          + p[x + 1, y + 1])
        gyu[x, y] = m.i16(p[x - 1, y + 1] - p[x - 1, y - 1] + 2 * p[x, y + 1] - 2 * p[x, y - 1] + p[x + 1, y + 1]
                          - p[x + 1, y - 1])
    gx, gy = m.Func("grad_x"), m.Func("grad_y")
    gx[x, y] = m.clamp(gxu[x, y], -180, 180)
    gy[x, y] = m.clamp(gyu[x, y], -180, 180)
    lxx, lyy, lxy = m.Func("lxx"), m.Func("lyy"), m.Func("lxy")
    lxx[x, y] = m.i16(gx[x, y]) * m.i16(gx[x, y]) >> 6
    lyy[x, y] = m.i16(gy[x, y]) * m.i16(gy[x, y]) >> 6
    lxy[x, y] = m.i16(gx[x, y]) * m.i16(gy[x, y]) >> 6
    lg = {n: m.Func("lg" + n[1:]) for n in ("lxx", "lyy", "lxy")}
    box = m.RDom([(-1, 3), (-1, 3)], "box")
    for n, f in (("lxx", lxx), ("lyy", lyy), ("lxy", lxy)):
        if rdom:
            lg[n][x, y] += f[x + box.x, y + box.y]
        else:
            lg[n][x, y] = sum((f[x + i, y + j] for j in (-1, 0, 1) for i in (-1, 0, 1)), m.i16(0))
    a, b, c = (lg[n][x, y] >> 6 for n in ("lxx", "lyy", "lxy"))
    cim = m.Func("cim")
    cim[x, y] = a * b - c * c - ((a + b) * (a + b) >> shiftk)
    is_max = None
    for j in (-1, 0, 1):
        for i in (-1, 0, 1):
            if (i, j) != (0, 0):
                t = cim[x, y] > cim[x + i, y + j]
                is_max = t if is_max is None else is_max & t
    cim_output = m.Func("cim_output")
    cim_output[x, y] = m.i16(m.select(is_max & (cim[x, y] >= threshold), 255, 0))
    hw_output, output = _outputs(m, lambda x, y: cim_output[x, y], m.u8)
    return inp, x, y, padded16, (gxu, gyu), (gx, gy), (lxx, lyy, lxy), lg, box, r, cim, hw_output, output


def harris_sums_written_out_10x8(m):
    """harris's schedule 1 (sums written out) at 10x8: every stage at xo, padded16 the stream."""
    inp, x, y, padded16, gu, g, ls, lg, box, r, cim, hw_output, output = _harris(m)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 10, 8)
        for f in (*gu, *ls, *lg.values(), cim):
            f.compute_at(hw_output, xo)
        padded16.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [10, 8]


def harris_rdoms_unrolled_two_lanes(m):
    """harris's RDom form (kernel tables, box sums) at 2 lanes, 8x5, every RDom unrolled."""
    inp, x, y, padded16, gu, g, ls, lg, box, r, cim, hw_output, output = _harris(m, rdom=True)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 5)
        for f in gu:
            f.compute_at(hw_output, xo).unroll(x, 2)
            f.update().unroll(r.x).unroll(r.y).unroll(x, 2)
        for f in lg.values():
            f.compute_at(hw_output, xo).unroll(x, 2)
            f.update().unroll(box.x).unroll(box.y).unroll(x, 2)
        cim.compute_at(hw_output, xo).unroll(x, 2)
        hw_output.unroll(xi, 2)
        padded16.compute_root().stream_to_accelerator().unroll(x, 2)
    return output, {"input": inp}, [8, 5]


# ---- unsharp ----------------------------------------------------------------------------------------------------


def unsharp_three_channels_rom_divide(m):
    """unsharp at 6x4 x 3 channels: gray, a 3x3 blur (u16 weights 16-32-16...), sharpen, a 256-word reciprocal
    ROM; hw_output(c, x, y) with c innermost and unrolled."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    hw_input = m.Func("hw_input")
    hw_input[c, x, y] = m.u16(inp[x + 1, y + 1, c])
    gray = m.Func("gray")
    gray[x, y] = m.u16((77 * hw_input[0, x, y] + 150 * hw_input[1, x, y] + 29 * hw_input[2, x, y]) >> 8)
    kernel = m.Func("kernel")
    kernel[x, y] = m.u16(16 * (2 - m.abs(x)) * (2 - m.abs(y)))
    win = m.RDom([(-1, 3), (-1, 3)], "win")
    bu, blur, sharpen = m.Func("blur_unnormalized"), m.Func("blur"), m.Func("sharpen")
    bu[x, y] += m.u16(kernel[win.x, win.y] * gray[x + win.x, y + win.y])
    blur[x, y] = m.u16(m.clamp(m.u8(bu[x, y] / 256), 0, 255))
    sharpen[x, y] = m.u16(m.clamp(2 * m.i16(gray[x, y]) - m.i16(blur[x, y]), 0, 255))
    rom_div = m.Func("rom_div_lookup")
    rom_div[x] = m.u16(m.u32(1 << 8) / m.u32(x))
    ratio = m.Func("ratio")
    ratio[x, y] = sharpen[x, y] * rom_div[m.max(gray[x, y], m.u16(1))]
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[c, x, y] = m.u16((m.u32(ratio[x, y]) * m.u32(hw_input[c, x, y])) >> 8)
    output[x, y, c] = m.u8(m.min(hw_output[c, x, y], 255))
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 4).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
        hw_output.unroll(c)
        for f in (gray, bu, blur, sharpen, ratio):
            f.compute_at(hw_output, xo)
        bu.update().unroll(win.x).unroll(win.y)
        rom_div.compute_at(hw_output, xo).unroll(x)
        kernel.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator().reorder(c, x, y).unroll(c)
    return output, {"input": inp}, [6, 4, 3]


# ---- mobile and resnet layers -----------------------------------------------------------------------------------


def mobile_depthwise_pointwise_5x4(m, ci=3, co=2):
    """conv_layer_mobile shrunk: 3 input channels, 2 output channels, 5x4, a 3x3 depthwise then pointwise in i16,
    weights from small tables, ReLU; pointwise channel reduction unrolled."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c, k = m.Var("x"), m.Var("y"), m.Var("c"), m.Var("k")
    hw_input, fdw, fpw = m.Func("hw_input"), m.Func("filter_dw"), m.Func("filter_pw")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    fdw[x, y, c] = m.u16(1 + (x + y + c) % 3)
    fpw[c, k] = m.u16(3 - c + k)
    r_dw, r_pw = m.RDom([(0, 3), (0, 3)], "r_dw"), m.RDom([(0, ci)], "r_pw")
    dw, pw = m.Func("dw_conv"), m.Func("pw_conv_reduction")
    dw[x, y, c] = m.i16(0)
    dw[x, y, c] += m.i16(fdw[r_dw.x, r_dw.y, c] * hw_input[x + r_dw.x, y + r_dw.y, c])
    pw[k, x, y] = m.i16(0)
    pw[k, x, y] += m.i16(fpw[r_pw.x, k]) * (dw[x, y, r_pw.x] - m.i16(300))
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y, k] = m.max(0, pw[k, x, y])
    output[x, y, k] = m.u8(hw_output[x, y, k] >> 4)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 5).bound(y, 0, 4).bound(k, 0, co)
        hw_input.bound(c, 0, ci)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 4).reorder(k, xi, yi, xo, yo).hw_accelerate(xi, xo)
        dw.compute_at(hw_output, xo).reorder(c, x, y)
        dw.update().unroll(r_dw.x).unroll(r_dw.y).reorder(c, x, y)
        pw.compute_at(hw_output, xo)
        pw.update().unroll(r_pw.x)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 4, co]


def resnet_channels_partly_unrolled(m):
    """A resnet-style layer: 4 input channels, 2 output channels, 3x3, u16; r.x and r.y unrolled, the channel
    RVar split by 2 and its inner part unrolled (2 cycles a pixel), 4x4 out."""
    inp, wt = m.ImageParam(m.UInt(8), 3, "input"), m.ImageParam(m.UInt(8), 4, "weights")
    x, y, k = m.Var("x"), m.Var("y"), m.Var("k")
    hw_input, hw_w = m.Func("hw_input"), m.Func("hw_weights")
    hw_input[x, y, k] = m.u16(inp[x, y, k])
    hw_w[x, y, k, m.Var("w")] = m.u16(wt[x, y, k, m.Var("w")])
    r = m.RDom([(0, 3), (0, 3), (0, 4)], "r")
    conv = m.Func("conv")
    conv[x, y, k] = m.u16(0)
    conv[x, y, k] += hw_w[r.x, r.y, r.z, k] * hw_input[x + r.x, y + r.y, r.z]
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y, k] = conv[x, y, k]
    output[x, y, k] = m.u8(hw_output[x, y, k] >> 6)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        rzo, rzi = m.RVar("rzo"), m.RVar("rzi")
        output.bound(x, 0, 4).bound(y, 0, 4).bound(k, 0, 2)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 4).reorder(k, xi, yi, xo, yo).hw_accelerate(xi, xo)
        conv.compute_at(hw_output, xo).reorder(k, x, y)
        conv.update().split(r.z, rzo, rzi, 2).reorder(rzi, r.x, r.y, rzo, k, x, y).unroll(r.x).unroll(r.y) \
            .unroll(rzi)
        hw_input.compute_root().stream_to_accelerator()
        hw_w.compute_root().stream_to_accelerator()
    return output, {"input": inp, "weights": wt}, [4, 4, 2]


# ---- two ImageParams ----------------------------------------------------------------------------------------------


def blend_u8_and_i16_inputs(m):
    """Two ImageParams of different types (u8 image, i16 offsets): out = clamp(a + (b >> 1), 0, 255), 7x5."""
    a_in, x, y, hw_a = _hw_in(m, name="a", cast=m.i16)
    b_in, _, _, hw_b = _hw_in(m, t=m.Int(16), name="b", cast=m.i16)
    hw_output, output = _outputs(m, lambda x, y: m.clamp(hw_a[x, y] + (hw_b[x, y] >> 1), 0, 255), m.u8)
    if on_hardware(m):
        _accel(m, output, hw_output, 7, 5)
        hw_a.stream_to_accelerator()
        hw_b.stream_to_accelerator()
    return output, {"a": a_in, "b": b_in}, [7, 5]


def absdiff_of_two_blurred_inputs_two_lanes(m):
    """Two u8 inputs each blurred 3 wide, their absd at 2 lanes, blurs at xo, 8x3."""
    a_in, x, y, hw_a = _hw_in(m, name="a")
    b_in, _, _, hw_b = _hw_in(m, name="b")
    ba, bb = m.Func("blur_a"), m.Func("blur_b")
    ba[x, y] = hw_a[x, y] + hw_a[x + 1, y] + hw_a[x + 2, y]
    bb[x, y] = hw_b[x, y] + 2 * hw_b[x + 1, y] + hw_b[x + 2, y]
    hw_output, output = _outputs(m, lambda x, y: m.u8(m.absd(ba[x, y], bb[x, y]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 3)
        ba.compute_at(hw_output, xo).unroll(x, 2)
        bb.compute_at(hw_output, xo).unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_a.stream_to_accelerator().unroll(x, 2)
        hw_b.stream_to_accelerator().unroll(x, 2)
    return output, {"a": a_in, "b": b_in}, [8, 3]


# ---- Tuples -------------------------------------------------------------------------------------------------------


def tuple_min_max_range_3x3(m):
    """A Tuple Func (min, max) over a 3x3 window (an update of both), the output their difference, 6x5."""
    inp, x, y, hw_input = _hw_in(m, cast=m.u8)
    r = m.RDom([(0, 3), (0, 3)], "r")
    mm = m.Func("minmax")
    mm[x, y] = (m.u8(255), m.u8(0))
    v = hw_input[x + r.x, y + r.y]
    mm[x, y] = (m.min(mm[x, y][0], v), m.max(mm[x, y][1], v))
    hw_output, output = _outputs(m, lambda x, y: mm[x, y][1] - mm[x, y][0])
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 6, 5)
        mm.compute_at(hw_output, xo)
        mm.update().unroll(r.x).unroll(r.y)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [6, 5]


def tuple_output_sum_and_difference(m):
    """hw_output a Tuple (u16 sum, i16 difference) of neighbours, realized as two outputs, 6x4."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = (hw_input[x, y] + hw_input[x + 1, y], m.i16(hw_input[x + 1, y]) - m.i16(hw_input[x, y]))
    output[x, y] = (hw_output[x, y][0], hw_output[x, y][1])
    if on_hardware(m):
        _accel(m, output, hw_output, 6, 4)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [6, 4]


# ---- boundary conditions and ROMs inside the accelerator ----------------------------------------------------------


def _bounded_blur(m, condition, w=7, h=5):
    inp, x, y, hw_input = _hw_in(m)
    clamped = condition(hw_input)
    hw_output, output = _outputs(m, lambda x, y: m.u8((clamped[x - 1, y] + 2 * clamped[x, y] + clamped[x + 1, y]
                                                       + clamped[x, y - 1] + clamped[x, y + 1]) / 6))
    if on_hardware(m):
        _accel(m, output, hw_output, w, h)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [w, h]


def repeat_edge_inside_accelerator(m):
    """BoundaryConditions.repeat_edge of hw_input over the frame (7x5) inside the accelerator: a plus blur of the
    whole frame."""
    return _bounded_blur(m, lambda f: m.BoundaryConditions.repeat_edge(f, [(0, 7), (0, 5)]))


def constant_exterior_inside_accelerator(m):
    """BoundaryConditions.constant_exterior (17) of hw_input over the frame, 7x5."""
    return _bounded_blur(m, lambda f: m.BoundaryConditions.constant_exterior(f, m.u16(17), [(0, 7), (0, 5)]))


def mirror_interior_inside_accelerator(m):
    """BoundaryConditions.mirror_interior of hw_input over the frame, 6x6."""
    return _bounded_blur(m, lambda f: m.BoundaryConditions.mirror_interior(f, [(0, 6), (0, 6)]), 6, 6)


def ordered_dither_rom_4x4(m):
    """An ordered dither: a 4x4 Bayer threshold table (a 2-D ROM) read at (x % 4, y % 4), 8x6."""
    inp, x, y, hw_input = _hw_in(m)
    bayer = m.Func("bayer")
    bayer[x, y] = m.u16(0)
    for j, row in enumerate(((0, 8, 2, 10), (12, 4, 14, 6), (3, 11, 1, 9), (15, 7, 13, 5))):
        for i, v in enumerate(row):
            bayer[i, j] = m.u16(v * 16 + 8)
    hw_output, output = _outputs(m, lambda x, y: m.select(hw_input[x, y] > bayer[x % 4, y % 4], m.u8(255),
                                                          m.u8(0)))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 6)
        bayer.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


# ---- RDoms partly unrolled ------------------------------------------------------------------------------------------


def eight_tap_row_filter_unrolled_by_four(m):
    """An 8-tap row sum with r.x split 4 (unroll(r.x, 4)): 2 cycles a pixel, 6x3."""
    inp, x, y, hw_input = _hw_in(m)
    r = m.RDom([(0, 8)], "r")
    s = m.Func("row_sum")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y] * m.u16(r.x + 1)
    hw_output, output = _outputs(m, lambda x, y: m.u8(s[x, y] >> 5))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 6, 3)
        s.compute_at(hw_output, xo)
        s.update().unroll(r.x, 4)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [6, 3]


def box_4x4_ry_unrolled_by_two(m):
    """A 4x4 box sum, r.x unrolled, r.y split by 2 and unrolled inside (2 cycles a pixel), 5x4."""
    inp, x, y, hw_input = _hw_in(m)
    r = m.RDom([(0, 4), (0, 4)], "r")
    s = m.Func("box")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y + r.y]
    hw_output, output = _outputs(m, lambda x, y: m.u8(s[x, y] >> 4))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 5, 4)
        s.compute_at(hw_output, xo)
        s.update().unroll(r.x).unroll(r.y, 2)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [5, 4]


def rdom_where_cross_i32(m):
    """A 5x5 RDom where |r.x| + |r.y| <= 2 (13 taps), accumulated in i32, unrolled, 5x5."""
    inp, x, y, hw_input = _hw_in(m, cast=m.i32)
    r = m.RDom([(-2, 5), (-2, 5)], "r")
    r.where(m.abs(r.x) + m.abs(r.y) <= 2)
    s = m.Func("diamond")
    s[x, y] = 0
    s[x, y] += hw_input[x + r.x + 2, y + r.y + 2]
    hw_output, output = _outputs(m, lambda x, y: m.u8(s[x, y] / 13))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 5, 5)
        s.compute_at(hw_output, xo)
        s.update().unroll(r.x).unroll(r.y)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [5, 5]


# ---- GLB copies, in_() chains and compute_with ----------------------------------------------------------------------


def _glb_two_outputs(m):
    inp, x, y, hw_input = _hw_in(m)
    hw_a, hw_b, out_a, out_b = m.Func("hw_a"), m.Func("hw_b"), m.Func("out_a"), m.Func("out_b")
    hw_a[x, y] = (hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]) / 3
    hw_b[x, y] = m.i16(hw_input[x, y + 1]) - m.i16(hw_input[x, y])
    out_a[x, y] = m.u8(hw_a[x, y])
    out_b[x, y] = hw_b[x, y]
    return inp, x, y, hw_input, hw_a, hw_b, out_a, out_b


def compute_with_array_func_under_glb_copy(m):
    """hw_a under a GLB copy (hw_a.in_() accelerated), a second output hw_b compute_root and compute_with hw_a at
    its array tile loop (Halide refuses: the compute levels differ; it ran on the host unannounced), 6x4."""
    inp, x, y, hw_input, hw_a, hw_b, out_a, out_b = _glb_two_outputs(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        for o in (out_a, out_b):
            o.bound(x, 0, 6).bound(y, 0, 4)
        g = hw_a.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_a.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 3, 4)
        hw_b.compute_root().tile(x, y, xio, yio, xii, yii, 3, 4)
        hw_b.compute_with(hw_a, xio)
        hw_input.in_().in_().compute_at(hw_a, xio)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return [out_a, out_b], {"input": inp}, [6, 4]


def glb_copies_of_both_outputs(m):
    """compute_with_array_func_under_glb_copy with a fix: hw_b under a GLB copy of its own scheduled as hw_a's."""
    inp, x, y, hw_input, hw_a, hw_b, out_a, out_b = _glb_two_outputs(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        gs = []
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 6).bound(y, 0, 4)
            g = hw.in_()
            g.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
            hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 3, 4)
            gs.append(g)
        hw_input.in_().in_().compute_at(hw_a, xio)
        hw_input.in_().compute_at(gs[0], xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return [out_a, out_b], {"input": inp}, [6, 4]


def compute_with_host_output_beside_accelerated(m):
    """A host output fused with the accelerated hw_a's copy on the host: out_b.compute_with(out_a, y), the
    accelerator's own hw_a alone; both outputs compute_root, 6x4."""
    inp, x, y, hw_input, hw_a, hw_b, out_a, out_b = _glb_two_outputs(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o in (out_a, out_b):
            o.bound(x, 0, 6).bound(y, 0, 4)
        hw_a.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
        out_b.compute_with(out_a, y)
    return [out_a, out_b], {"input": inp}, [6, 4]


def input_in_chain_no_glb(m):
    """hw_input.in_() as the memory tile at xo, no GLB (hw_input compute_root, accelerator_input), a 2x2 box, 7x5."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]
                                                       + hw_input[x + 1, y + 1]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 7, 5)
        hw_input.in_().compute_at(hw_output, xo)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [7, 5]


def glb_input_only_host_tiles(m):
    """A GLB copy of the input only (the output streams to the host), 2 host tiles of 5x4 (10x4), a 3-tap sum."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y])
                                                      / 3))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 10, 4, 5, 4)
        hw_input.in_().compute_at(hw_output, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [10, 4]


# ---- coordinates, orders and types -----------------------------------------------------------------------------


def horizontal_flip_in_frame(m):
    """A horizontal flip (hw_input[7 - x, y]) inside the accelerator: reads from the row's far end, 8x4."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(hw_input[7 - x, y]))
    if on_hardware(m):
        _accel(m, output, hw_output, 8, 4)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 4]


def transpose_in_frame(m):
    """A transpose (hw_input[y, x]) of a 6x6 frame inside the accelerator."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(hw_input[y, x] + 1))
    if on_hardware(m):
        _accel(m, output, hw_output, 6, 6)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 6]


def vignette_select_on_coordinates(m):
    """select on the coordinates (a 1-pixel border set to 0, a gradient x + y added), host tiles 4x3 of 8x6."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.select((x == 0) | (y == 0) | (x == 7) | (y == 5), m.u16(0),
                                                          hw_input[x, y] + m.u16(x + y)), m.u8)
    if on_hardware(m):
        _accel(m, output, hw_output, 8, 6, 4, 3)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


def lerp_and_saturating_ops(m):
    """Intrinsics in the array: lerp of two neighbours by an 8-bit weight, saturating_add, halving_add, 6x3."""
    inp, x, y, hw_input = _hw_in(m, cast=m.u8)
    hw_output, output = _outputs(m, lambda x, y: m.saturating_add(
        m.lerp(hw_input[x, y], hw_input[x + 1, y], m.u8(96)), m.halving_add(hw_input[x, y + 1], m.u8(40))))
    if on_hardware(m):
        _accel(m, output, hw_output, 6, 3)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 3]


def difference_of_boxes_i32_out(m):
    """u8 in, i32 out: a 3x3 box minus a 1x3 row, blur_x at yi stored at xo, 7x5."""
    inp, x, y, hw_input = _hw_in(m, cast=m.i32)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output, output = _outputs(m, lambda x, y: bx[x, y] + bx[x, y + 1] + bx[x, y + 2] - 3 * bx[x, y + 1])
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 7, 5)
        bx.store_at(hw_output, xo).compute_at(hw_output, yi)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [7, 5]


def one_dimensional_five_tap(m):
    """A 1-D pipeline: a 5-tap [1 4 6 4 1] filter over 12 samples at 2 lanes."""
    inp = m.ImageParam(m.UInt(8), 1, "input")
    x = m.Var("x")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x] = m.u16(inp[x])
    hw_output[x] = (hw_input[x] + 4 * hw_input[x + 1] + 6 * hw_input[x + 2] + 4 * hw_input[x + 3]
                    + hw_input[x + 4]) >> 4
    output[x] = m.u8(hw_output[x])
    if on_hardware(m):
        xo, xi = vars_of(m, "xo xi")
        output.bound(x, 0, 12)
        hw_output.compute_root().split(x, xo, xi, 12).hw_accelerate(xi, xo).unroll(xi, 2)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2)
    return output, {"input": inp}, [12]


def host_tiles_column_major(m):
    """Host tiles 3x2 of 4x3 (12x6) visited column-major: reorder(xi, yi, yo, xo), a vertical 3-tap sum."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x, y + 1] + hw_input[x, y + 2])
                                                      / 3))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 12, 6, 4, 3)
        hw_output.reorder(xi, yi, yo, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [12, 6]


CASES = {f.__name__: f for f in (
    harris_sums_written_out_10x8,
    harris_rdoms_unrolled_two_lanes,
    unsharp_three_channels_rom_divide,
    mobile_depthwise_pointwise_5x4,
    resnet_channels_partly_unrolled,
    blend_u8_and_i16_inputs,
    absdiff_of_two_blurred_inputs_two_lanes,
    tuple_min_max_range_3x3,
    tuple_output_sum_and_difference,
    repeat_edge_inside_accelerator,
    constant_exterior_inside_accelerator,
    mirror_interior_inside_accelerator,
    ordered_dither_rom_4x4,
    eight_tap_row_filter_unrolled_by_four,
    box_4x4_ry_unrolled_by_two,
    rdom_where_cross_i32,
    compute_with_array_func_under_glb_copy,
    glb_copies_of_both_outputs,
    compute_with_host_output_beside_accelerated,
    input_in_chain_no_glb,
    glb_input_only_host_tiles,
    horizontal_flip_in_frame,
    transpose_in_frame,
    vignette_select_on_coordinates,
    lerp_and_saturating_ops,
    difference_of_boxes_i32_out,
    one_dimensional_five_tap,
    host_tiles_column_major)}
