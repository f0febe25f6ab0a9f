"""Probe25's hand schedules (session 38), part two: reductions (unrolled, serial, partly unrolled), kernels as Funcs,
multi-channel inputs and outputs, pooling, bound_extent on intermediates, store_at/compute_at at several loops,
GLB levels with lanes and several GLB tiles; each in module m (`mainspring`, or `halide`), returning
(output(s), {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of

# ---- reductions ---------------------------------------------------------------------------------------------------


def conv3x3_kernel_func_unrolled_two_lanes(m):
    """A 3x3 convolution with its weights a Func (kernel(x, y)), the RDom unrolled, 2 lanes, as seed 002, 8x4."""
    inp, x, y, hw_input = _in(m)
    kernel, conv = m.Func("kernel"), m.Func("conv")
    kernel[x, y] = m.u16(x + 2 * y + 1)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "win")
    conv[x, y] = m.u16(0)
    conv[x, y] += kernel[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(conv[x, y] >> 6))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(conv,), inputs=(hw_input,))
        kernel.compute_at(hw_output, xo)
        conv.update().unroll(r.x).unroll(r.y).unroll(x, 2)
        conv.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def reduction_serial_rdom_row(m):
    """A 4-tap sum along x by a serial (not unrolled) RDom, 6x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 4)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y] * m.u16(r.x + 1)
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] >> 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def reduction_partly_unrolled_split_rvar(m):
    """A 3x2 window sum with r.x unrolled and r.y serial, 6x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 2)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 6))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x)
    return output, {"input": inp}, [6, 3]


def reduction_rvar_split_unroll_inner(m):
    """A 1-D 6-tap sum with its RVar split by 3 and the inner part unrolled (two serial steps of 3 taps), 6x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 6)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 6))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(s,), inputs=(hw_input,))
        ro, ri = m.RVar("ro"), m.RVar("ri")
        s.update().split(r.x, ro, ri, 3).unroll(ri)
    return output, {"input": inp}, [6, 3]


def max_pool_2x2_stride_2(m):
    """A 2x2 max-pool at stride 2 by an unrolled RDom, 4x3 out of 8x6."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 2), m.Range(0, 2)], "r")
    mp = m.Func("mp")
    mp[x, y] = m.u16(0)
    mp[x, y] = m.max(mp[x, y], hw_input[2 * x + r.x, 2 * y + r.y])
    hw_output, output = _out(m, lambda x, y: m.u8(mp[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (4, 3), inner=(mp,), inputs=(hw_input,))
        mp.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [4, 3]


def max_pool_two_lanes_input_four(m):
    """A 2x1 max-pool at stride 2 along x, two outputs a cycle reading four input lanes, 8x2 out of 16x2."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(m.max(hw_input[2 * x, y], hw_input[2 * x + 1, y])))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 2), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 4)
    return output, {"input": inp}, [8, 2]


# ---- channels -----------------------------------------------------------------------------------------------------


def rgb_input_to_gray_channel_unrolled(m):
    """A 3-channel input (x, y, c) to gray with integer weights, the input copy's channels unrolled, 6x3."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    hw_input = m.Func("hw_input")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y, 0] * 77 + hw_input[x, y, 1] * 150
                                                  + hw_input[x, y, 2] * 29) >> 8))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3))
        hw_input.compute_root().stream_to_accelerator().reorder(c, x, y).unroll(c)
        hw_input.bound(c, 0, 3)
    return output, {"input": inp}, [6, 3]


def channel_reduction_serial(m):
    """A weighted sum over 4 input channels by a serial RDom over c, the channels bound on the input copy, 5x3."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    hw_input = m.Func("hw_input")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    r = m.RDom([m.Range(0, 4)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x, y, r.x] * m.u16(r.x + 1)
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] >> 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(s,))
        hw_input.compute_root().stream_to_accelerator().reorder(c, x, y)
        hw_input.bound(c, 0, 4)
    return output, {"input": inp}, [5, 3]


def rgb_output_channels_unrolled_two_lanes(m):
    """A 3-channel output (x, y, c) from a 1-channel stencil, c unrolled and x at 2 lanes, 6x2x3."""
    inp, x, y, hw_input = _in(m)
    c = m.Var("c")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y, c] = m.u8((hw_input[x, y] * m.u16(c + 1) + hw_input[x + 1, y] * m.u16(3 - c)) >> 2)
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 6).bound(y, 0, 2).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 2).reorder(c, xi, yi, xo, yo)
        hw_output.hw_accelerate(xi, xo).unroll(c).unroll(xi, 2)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2)
    return output, {"input": inp}, [6, 2, 3]


# ---- placement and bounds -------------------------------------------------------------------------------------


def store_at_xo_compute_at_yi_two_rows(m):
    """blur_y stored at xo and computed at yi (a row of blur_y a row of the output), 1 lane, 6x4."""
    inp, x, y, hw_input = _in(m)
    by = m.Func("blur_y")
    by[x, y] = hw_input[x, y] + hw_input[x, y + 1] + hw_input[x, y + 2]
    hw_output, output = _out(m, lambda x, y: m.u8((by[x, y] + by[x + 1, y]) / 6))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
        by.store_at(hw_output, xo).compute_at(hw_output, yi)
    return output, {"input": inp}, [6, 4]


def chain_of_three_each_at_xo_mixed_lanes(m):
    """a -> b -> hw_output, each at xo, a at 2 lanes, b at 2 lanes, the output at 2 lanes, a 5-tap reach, 8x4."""
    inp, x, y, hw_input = _in(m)
    a, b = m.Func("a"), m.Func("b")
    a[x, y] = hw_input[x, y] + hw_input[x + 2, y]
    b[x, y] = a[x, y] + a[x, y + 2]
    hw_output, output = _out(m, lambda x, y: m.u8((b[x, y] + b[x + 1, y]) >> 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(a, b), inputs=(hw_input,))
        for f in (a, b):
            f.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def bound_extent_on_intermediate(m):
    """blur_x.bound_extent(x, 8) (as big as the output needs, given) beside the output's bound, 7x3."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x + 1, y] + bx[x, y + 1]) / 6))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inner=(bx,), inputs=(hw_input,))
        bx.bound_extent(x, 8)
    return output, {"input": inp}, [7, 3]


def bound_on_hw_output_and_input_set_bounds(m):
    """hw_output.bound(x, 0, 6) and the input's dims set_bounds to exactly what the stencil reads, 6x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] + hw_input[x + 2, y + 1])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
        hw_output.bound(x, 0, 6).bound(y, 0, 3)
    inp.dim(0).set_bounds(0, 8)
    inp.dim(1).set_bounds(0, 4)
    return output, {"input": inp}, [6, 3]


def host_tiles_2x2_producer_at_xo(m):
    """Four accelerator calls (tiles of 4x3 over 8x6), blur_x at xo, 2 lanes in each tile."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) / 6))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 6), tile=(4, 3), inner=(bx,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        bx.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 6]


# ---- GLB levels -------------------------------------------------------------------------------------------------


def _glb(m, hw_output, output, hw_input, size, glb, tile, inner=(), lanes=1):
    xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, *glb).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
    hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, *tile)
    for f in inner:
        f.compute_at(hw_output, xio)
    copy = hw_input.in_().in_()
    copy.compute_at(hw_output, xio)
    hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    if lanes > 1:
        g.unroll(xi, lanes)
        hw_output.unroll(xii, lanes)
        copy.unroll(x, lanes)
        for f in inner:
            f.unroll(x, lanes)
    return g


def glb_two_lanes_with_producer(m):
    """A GLB level (8x4 over 16x4: two GLB tiles) with memory tiles of 4x4, blur_x at xio, 2 lanes throughout."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 3))
    if on_hardware(m):
        _glb(m, hw_output, output, hw_input, (16, 4), (8, 4), (4, 4), inner=(bx,), lanes=2)
    return output, {"input": inp}, [16, 4]


def glb_reduction_unrolled(m):
    """A 3x3 unrolled window sum under a GLB level, GLB 8x4 (the frame), memory tiles 4x2."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 9))
    if on_hardware(m):
        _glb(m, hw_output, output, hw_input, (8, 4), (8, 4), (4, 2), inner=(s,))
        s.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [8, 4]


def glb_tuple_output_two_lanes(m):
    """A 2-Tuple output (u8 mean, i16 difference) through the GLB at 2 lanes, GLB 8x2, memory tiles 4x2."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = m.Tuple([m.u8((hw_input[x, y] + hw_input[x + 1, y]) >> 1),
                               m.i16(hw_input[x + 1, y]) - m.i16(hw_input[x, y])])
    output[x, y] = m.Tuple([hw_output[x, y][0], hw_output[x, y][1]])
    if on_hardware(m):
        _glb(m, hw_output, output, hw_input, (8, 2), (8, 2), (4, 2), lanes=2)
    return output, {"input": inp}, [8, 2]


def glb_downsample(m):
    """A 2x2 mean down-sample under a GLB level: the input's GLB tile twice the output's, GLB 4x2, tiles 2x2."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y]
                                                   + hw_input[2 * x, 2 * y + 1] + hw_input[2 * x + 1, 2 * y + 1])
                                                  >> 2))
    if on_hardware(m):
        _glb(m, hw_output, output, hw_input, (4, 2), (4, 2), (2, 2))
    return output, {"input": inp}, [4, 2]


def glb_three_outputs_each_own_copy(m):
    """Three outputs each through its own GLB copy, GLB 6x4 (the frame), memory tiles 3x4, the input's copies
    shared."""
    inp, x, y, hw_input = _in(m)
    hws = [m.Func(f"hw_{n}") for n in ("a", "b", "c")]
    outs = [m.Func(f"out_{n}") for n in ("a", "b", "c")]
    hws[0][x, y] = m.u8((hw_input[x, y] + hw_input[x + 1, y]) >> 1)
    hws[1][x, y] = m.u8(m.max(hw_input[x, y], hw_input[x, y + 1]))
    hws[2][x, y] = m.u8(m.min(hw_input[x + 1, y + 1], hw_input[x, y]))
    for o, hw in zip(outs, hws, strict=True):
        o[x, y] = hw[x, y]
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        gs = []
        for o, hw in zip(outs, hws, strict=True):
            o.bound(x, 0, 6).bound(y, 0, 4)
            g = hw.in_()
            g.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
            hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 3, 4)
            gs.append(g)
        hw_input.in_().in_().compute_at(hws[0], xio)
        hw_input.in_().compute_at(gs[0], xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return outs, {"input": inp}, [6, 4]


def glb_two_outputs_own_copies_two_lanes_host_tiles(m):
    """Two outputs each through its own GLB copy at 2 lanes, two GLB tiles (8x2 over 8x4), memory tiles 4x2."""
    inp, x, y, hw_input = _in(m)
    hw_a, hw_b, out_a, out_b = m.Func("hw_a"), m.Func("hw_b"), m.Func("out_a"), m.Func("out_b")
    hw_a[x, y] = m.u8((hw_input[x, y] + hw_input[x + 1, y] * 3) >> 2)
    hw_b[x, y] = m.u8(m.absd(hw_input[x, y], hw_input[x, y + 1]))
    out_a[x, y] = hw_a[x, y]
    out_b[x, y] = hw_b[x, y]
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        gs = []
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 8).bound(y, 0, 4)
            g = hw.in_()
            g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 2).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
            g.unroll(xi, 2)
            hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 4, 2).unroll(xii, 2)
            gs.append(g)
        hw_input.in_().in_().compute_at(hw_a, xio).unroll(x, 2)
        hw_input.in_().compute_at(gs[0], xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return [out_a, out_b], {"input": inp}, [8, 4]


CASES = {f.__name__: f for f in (
    conv3x3_kernel_func_unrolled_two_lanes, reduction_serial_rdom_row, reduction_partly_unrolled_split_rvar,
    reduction_rvar_split_unroll_inner, max_pool_2x2_stride_2, max_pool_two_lanes_input_four,
    rgb_input_to_gray_channel_unrolled, channel_reduction_serial, rgb_output_channels_unrolled_two_lanes,
    store_at_xo_compute_at_yi_two_rows, chain_of_three_each_at_xo_mixed_lanes, bound_extent_on_intermediate,
    bound_on_hw_output_and_input_set_bounds, host_tiles_2x2_producer_at_xo, glb_two_lanes_with_producer,
    glb_reduction_unrolled, glb_tuple_output_two_lanes, glb_downsample, glb_three_outputs_each_own_copy,
    glb_two_outputs_own_copies_two_lanes_host_tiles)}
