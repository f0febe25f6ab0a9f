"""Probe19's hand schedules (session 34), part three: `in_()` copies, reorder/fuse/split/tile with tails, boundary
conditions inside, channels unrolled, and small apps (pointwise, unsharp, harris, a camera-like chain, inline
reductions); each in module m (`mainspring`, or `halide`), returning (output or [outputs], {name: ImageParam},
size)."""

from probe19_programs import _box, _in, _out, _sched
from probe_common import on_hardware, vars_of

# ---- in_() copies ---------------------------------------------------------------------------------------------

def in_copy_per_reader(m):
    """hw_input.in_(blur_x): a copy for blur_x alone, computed at xo; the output reads hw_input directly too."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1] + hw_input[x, y]) / 5))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), inner=(bx,), inputs=(hw_input,))
        hw_input.in_(bx).compute_at(hw_output, xo)
    return output, {"input": inp}, [6, 4]


def in_copy_of_intermediate(m):
    """blur_x.in_() computed at xo as a second buffer, blur_x itself at xo."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), inner=(bx,), inputs=(hw_input,))
        bx.in_().compute_at(hw_output, xo)
    return output, {"input": inp}, [6, 4]


def in_copy_of_image_param(m):
    """The ImageParam's own wrapper input.in_() as the accelerator input (no hw_input Func)."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    bx = m.Func("blur_x")
    bx[x, y] = m.u16(inp[x, y]) + m.u16(inp[x + 1, y]) * 2 + m.u16(inp[x + 2, y])
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] / 4))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inner=(bx,))
        inp.in_().compute_root().stream_to_accelerator()
    return output, {"input": inp}, [7, 3]


def in_copy_output_glb_untiled(m):
    """hw_output.in_() as a GLB level over the whole frame, its inner level tiled 4x2; the input's GLB copy."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 8).bound(y, 0, 6)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 4, 2)
        bx.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [8, 6]


# ---- loops: reorder / fuse / split / tails --------------------------------------------------------------------

def reorder_tile_yi_outer_xi_inner_tail(m):
    """Tiles of 4x3 GuardWithIf over 10x7, the host loops reordered (yo inside xo)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (10, 7), tile=(4, 3), inner=(bx,), inputs=(hw_input,),
                                tail=m.TailStrategy.GuardWithIf)
        hw_output.reorder(xi, yi, yo, xo)
    return output, {"input": inp}, [10, 7]


def split_rows_only(m):
    """hw_output.split(y, yo, yi, 3).hw_accelerate(x, yo): whole rows, 3 at a time over 7 (last shifted)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        yo, yi = m.Var("yo"), m.Var("yi")
        output.bound(x, 0, 6).bound(y, 0, 7)
        hw_output.compute_root().split(y, yo, yi, 3).hw_accelerate(x, yo)
        bx.compute_at(hw_output, yo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 7]


def split_columns_only_round_up(m):
    """split(x, xo, xi, 4, RoundUp) over 12 columns, hw_accelerate(xi, xo): column strips of all rows."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, xi = m.Var("xo"), m.Var("xi")
        output.bound(x, 0, 12).bound(y, 0, 4)
        hw_output.compute_root().split(x, xo, xi, 4, m.TailStrategy.RoundUp).hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [12, 4]


def fuse_inner_tile_loops(m):
    """hw_output.fuse(xi, yi, t) inside the accelerator (one loop over the tile's pixels)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[x, y] + hw_input[x + 1, y] / 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (4, 4), inputs=(hw_input,))
        hw_output.fuse(xi, yi, m.Var("t"))
    return output, {"input": inp}, [4, 4]


def producer_reordered_columns(m):
    """blur_x.reorder(y, x): the producer computed column by column inside the tile."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(bx,), inputs=(hw_input,))
        bx.reorder(y, x)
    return output, {"input": inp}, [6, 4]


def producer_split_odd(m):
    """blur_x.split(x, xo2, xi2, 3) of an 8-wide tile (a tail of 2: Halide's ShiftInwards)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 3), inner=(bx,), inputs=(hw_input,))
        bx.split(x, m.Var("xo2"), m.Var("xi2"), 3)
    return output, {"input": inp}, [8, 3]


def output_tile_shift_inwards_lanes(m):
    """Host tiles of 6x2 over 14x4 (the last shifted inward) at two lanes."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (14, 4), tile=(6, 2), inner=(bx,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        bx.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [14, 4]


def update_reorder_rvar_outer(m):
    """A 1-D vertical RDom (5 taps) run serially with r outside x (reorder(x, r.x, y))."""
    inp, x, y, hw_input = _in(m)
    acc = m.Func("acc")
    r = m.RDom([m.Range(0, 5)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x, y + r.x]
    hw_output, output = _out(m, lambda x, y: m.u8(acc[x, y] / 5))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(acc,), inputs=(hw_input,))
        acc.update().reorder(x, r.x, y)
    return output, {"input": inp}, [5, 3]


def rdom_negative_min_split_tail(m):
    """An RDom(-2, 5) centred window, split(r.x, ro, ri, 2) with a tail (5 = 2 + 2 + 1), inner unrolled."""
    inp, x, y, hw_input = _in(m)
    acc = m.Func("acc")
    r = m.RDom([m.Range(-2, 5)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x + 2, y] * m.u16(r.x + 3)
    hw_output, output = _out(m, lambda x, y: m.u8(acc[x, y] >> 4))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(acc,), inputs=(hw_input,))
        ro, ri = m.RVar("ro"), m.RVar("ri")
        acc.update().split(r.x, ro, ri, 2).unroll(ri)
    return output, {"input": inp}, [6, 3]


# ---- boundary conditions inside -------------------------------------------------------------------------------

def _bc_blur(m, which, size):
    inp, x, y, hw_input = _in(m)
    w, h = size
    if which == "constant":
        clamped = m.BoundaryConditions.constant_exterior(hw_input, m.u16(7), [(0, w), (0, h)])
    else:
        clamped = getattr(m.BoundaryConditions, which)(hw_input, [(0, w), (0, h)])
    c = m.Func("clamped")
    c[x, y] = clamped[x, y]
    bx = m.Func("blur_x")
    bx[x, y] = c[x - 1, y] + c[x, y] * 2 + c[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y - 1] + bx[x, y] * 2 + bx[x, y + 1]) / 16))
    if on_hardware(m):
        _sched(m, output, hw_output, size, inner=(c, bx), inputs=(hw_input,))
    return output, {"input": inp}, list(size)


def boundary_mirror_interior_inside(m):
    """mirror_interior of hw_input over the frame, a centred 3x3 binomial blur: output as large as the input."""
    return _bc_blur(m, "mirror_interior", (7, 5))


def boundary_mirror_image_inside(m):
    """mirror_image (the edge repeated) inside, 6x4."""
    return _bc_blur(m, "mirror_image", (6, 4))


def boundary_constant_7_inside(m):
    """constant_exterior(hw_input, 7) inside, 5x5."""
    return _bc_blur(m, "constant", (5, 5))


def boundary_repeat_edge_host_tiles(m):
    """repeat_edge of hw_input over the 10x6 frame inside host tiles of 5x3: only the frame's edges clamp."""
    inp, x, y, hw_input = _in(m)
    clamped = m.BoundaryConditions.repeat_edge(hw_input, [(0, 10), (0, 6)])
    c = m.Func("clamped")
    c[x, y] = clamped[x, y]
    hw_output, output = _out(m, lambda x, y: m.u8((c[x - 1, y - 1] + c[x + 1, y + 1] + c[x, y] * 2) / 4))
    if on_hardware(m):
        _sched(m, output, hw_output, (10, 6), tile=(5, 3), inner=(c,), inputs=(hw_input,))
    return output, {"input": inp}, [10, 6]


def clamp_coordinates_inside(m):
    """Clamped coordinates written by hand (hw_input[clamp(x - 1, 0, 5), clamp(y + 1, 0, 3)])."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(
        (hw_input[m.clamp(x - 1, 0, 5), m.clamp(y + 1, 0, 3)] + hw_input[x, y]) / 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


# ---- channels -------------------------------------------------------------------------------------------------

def rgb_to_gray_channels_unrolled(m):
    """A 3-channel planar input (x, y, c), its channels read together (hw_input.reorder(c, x, y).unroll(c))."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input = m.Func("hw_input")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    hw_output, output = _out(m, lambda x, y: m.u8(
        (hw_input[x, y, 0] * 77 + hw_input[x, y, 1] * 150 + hw_input[x, y, 2] * 29) >> 8))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4))
        hw_input.compute_root().reorder(c, x, y).bound(c, 0, 3).unroll(c).stream_to_accelerator()
    return output, {"input": inp}, [6, 4]


def rgb_output_channels_unrolled(m):
    """A colour output (x, y, c) from a gray input, its 3 channels a cycle: hw_output.reorder(c, xi, yi).unroll(c)."""
    inp, x, y, hw_input = _in(m)
    c = m.Var("c")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y, c] = m.u8(m.min(hw_input[x, y] * m.u16(c + 1) + hw_input[x + 1, y] * m.u16(2 - c), 255))
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 5).bound(y, 0, 3).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 5, 3).reorder(c, xi, yi, xo, yo)
        hw_output.hw_accelerate(xi, xo).unroll(c)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 3, 3]


def channels_serial_sum_u32(m):
    """4 channels summed by an RDom over c, serial, u32 accumulator, channels innermost in the input."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input, acc = m.Func("hw_input"), m.Func("acc")
    hw_input[c, x, y] = m.u32(inp[c, x, y])
    r = m.RDom([m.Range(0, 4)], "r")
    acc[x, y] = m.u32(0)
    acc[x, y] += hw_input[r.x, x, y] * hw_input[r.x, x, y]
    hw_output, output = _out(m, lambda x, y: acc[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(acc,))
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [5, 3]


# ---- small apps -----------------------------------------------------------------------------------------------

def pointwise_odd_four_lanes(m):
    """pointwise_generator (x * 2 then + 1 ... ) at 4 lanes RoundUp over 10x3."""
    inp, x, y, hw_input = _in(m)
    mult = m.Func("mult")
    mult[x, y] = hw_input[x, y] * 2
    hw_output, output = _out(m, lambda x, y: m.u8(mult[x, y] + 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (12, 3), inputs=(hw_input,))
        ru = m.TailStrategy.RoundUp
        hw_output.unroll(xi, 4, ru)
        hw_input.unroll(x, 4, ru)
    return output, {"input": inp}, [12, 3]


def unsharp_u16_select(m):
    """unsharp: a 3x3 gaussian, the sharpened value 2*v - blur clamped, selected by a threshold, over 7x5."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    bx, by, sharp = m.Func("blur_x"), m.Func("blur_y"), m.Func("sharpen")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    by[x, y] = (bx[x, y] + bx[x, y + 1] * 2 + bx[x, y + 2]) / 16
    sharp[x, y] = m.clamp(hw_input[x + 1, y + 1] * 2 - by[x, y], 0, 255)
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(
        m.abs(hw_input[x + 1, y + 1] - by[x, y]) > 8, m.i16(sharp[x, y]), m.i16(hw_input[x + 1, y + 1]))))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 5), inner=(bx, by, sharp), inputs=(hw_input,))
    return output, {"input": inp}, [7, 5]


def harris_small_i32(m):
    """harris-like: i16 Sobel gradients, i32 products summed over 3x3, det - k*trace^2 >> shift, threshold."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    gx, gy, ixx, iyy, ixy, sxx, syy, sxy = (m.Func(n) for n in "gx gy ixx iyy ixy sxx syy sxy".split())
    gx[x, y] = hw_input[x + 2, y + 1] - hw_input[x, y + 1]
    gy[x, y] = hw_input[x + 1, y + 2] - hw_input[x + 1, y]
    ixx[x, y] = m.i32(gx[x, y]) * gx[x, y]
    iyy[x, y] = m.i32(gy[x, y]) * gy[x, y]
    ixy[x, y] = m.i32(gx[x, y]) * gy[x, y]
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    for s, i in ((sxx, ixx), (syy, iyy), (sxy, ixy)):
        s[x, y] = m.i32(0)
        s[x, y] += i[x + r.x, y + r.y]
    det = sxx[x, y] * 1 // 1
    resp = (sxx[x, y] >> 6) * (syy[x, y] >> 6) - (sxy[x, y] >> 6) * (sxy[x, y] >> 6) - (
        ((sxx[x, y] + syy[x, y]) >> 6) * ((sxx[x, y] + syy[x, y]) >> 6)) / 16
    del det
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(resp > 100, 255, 0)))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 4), inner=(gx, gy, ixx, iyy, ixy, sxx, syy, sxy), inputs=(hw_input,))
        for s in (sxx, syy, sxy):
            s.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [5, 4]


def camera_like_chain(m):
    """A camera-like chain: black level (saturating), white balance by position parity, a gamma ROM, 8x4."""
    inp, x, y, hw_input = _in(m)
    black, wb, curve = m.Func("black"), m.Func("wb"), m.Func("curve")
    black[x, y] = m.saturating_sub(hw_input[x, y], m.u16(16))
    wb[x, y] = m.min(m.select((x % 2) == (y % 2), black[x, y] * 3 / 2, black[x, y]), 255)
    v = m.Var("v")
    curve[v] = m.u8(m.clamp(m.sqrt(m.f32(v) / 255.0) * 255.0, 0.0, 255.0))
    hw_output, output = _out(m, lambda x, y: curve[m.i32(wb[x, y])])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inputs=(hw_input,))
        curve.compute_at(hw_output, xo).unroll(v)
        curve.bound(v, 0, 256)
    return output, {"input": inp}, [8, 4]


def inline_minimum_and_sum(m):
    """Inline reductions m.minimum and m.sum over a 2x3 window, the output their difference."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 2), m.Range(0, 3)], "r")
    hw_output, output = _out(m, lambda x, y: m.u8(
        m.sum(hw_input[x + r.x, y + r.y]) / 6 - m.minimum(hw_input[x + r.x, y + r.y])))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 4), inputs=(hw_input,))
    return output, {"input": inp}, [5, 4]


def median_of_three_rows(m):
    """A vertical median of three by min/max, then a horizontal max of two, over 7x3."""
    inp, x, y, hw_input = _in(m)
    med = m.Func("median")
    a, b, c = hw_input[x, y], hw_input[x, y + 1], hw_input[x, y + 2]
    med[x, y] = m.max(m.min(a, b), m.min(m.max(a, b), c))
    hw_output, output = _out(m, lambda x, y: m.u8(m.max(med[x, y], med[x + 1, y])))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inner=(med,), inputs=(hw_input,))
    return output, {"input": inp}, [7, 3]


def bool_mask_func_buffered(m):
    """A Bool Func (a local maximum mask) buffered at xo, then selected on."""
    inp, x, y, hw_input = _in(m)
    mask = m.Func("mask")
    mask[x, y] = (hw_input[x + 1, y] > hw_input[x, y]) & (hw_input[x + 1, y] >= hw_input[x + 2, y])
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(mask[x, y] | mask[x, y + 1], hw_input[x + 1, y], 0)))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(mask,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def three_d_intermediate_k_unrolled(m):
    """An intermediate of three dims (x, y, k) for 3 shifts, unrolled over k, summed by the output."""
    inp, x, y, hw_input = _in(m)
    k = m.Var("k")
    sh = m.Func("shifted")
    sh[x, y, k] = hw_input[x + k, y] * m.u16(k + 1)
    hw_output, output = _out(m, lambda x, y: m.u8((sh[x, y, 0] + sh[x, y, 1] + sh[x, y, 2]) / 6))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(sh,), inputs=(hw_input,))
        sh.bound(k, 0, 3).reorder(k, x, y).unroll(k)
    return output, {"input": inp}, [6, 3]


CASES = {f.__name__: f for f in (
    in_copy_per_reader, in_copy_of_intermediate, in_copy_of_image_param, in_copy_output_glb_untiled,
    reorder_tile_yi_outer_xi_inner_tail, split_rows_only, split_columns_only_round_up, fuse_inner_tile_loops,
    producer_reordered_columns, producer_split_odd, output_tile_shift_inwards_lanes, update_reorder_rvar_outer,
    rdom_negative_min_split_tail, boundary_mirror_interior_inside, boundary_mirror_image_inside,
    boundary_constant_7_inside, boundary_repeat_edge_host_tiles, clamp_coordinates_inside,
    rgb_to_gray_channels_unrolled, rgb_output_channels_unrolled, channels_serial_sum_u32, pointwise_odd_four_lanes,
    unsharp_u16_select, harris_small_i32, camera_like_chain, inline_minimum_and_sum, median_of_three_rows,
    bool_mask_func_buffered, three_d_intermediate_k_unrolled,
)}
