"""Probe22's hand schedules (session 36), part one: BoundaryConditions (repeat_edge, mirror_image, mirror_interior,
constant_exterior) inside the accelerator as an h2h user writes them around seed 002's schedule: on the input copy,
on an intermediate Func, wider stencils, sub-window bounds, lanes, host tiles, GLB levels; each in module m
(`mainspring`, or `halide`, which gets no hardware schedule), returning (output or [outputs], {name: ImageParam},
size)."""

from probe19_programs import _in, _out, _sched
from probe20e_programs import _glb3
from probe_common import on_hardware


def frame(inp, w, h):
    """The ImageParam's bounds (the boundary conditions' region): [0, w) x [0, h)."""
    inp.dim(0).set_bounds(0, w)
    inp.dim(1).set_bounds(0, h)


def lanes(m, n, *pairs, tail=None):
    """unroll each (Func, Var) of `pairs` by n (with `tail` if given)."""
    for f, v in pairs:
        f.unroll(v, n, *((tail,) if tail else ()))


def _bc(m, kind):
    """The boundary condition `kind` as a function of (Func, region); constant_exterior with a value after ':'."""
    bcs = m.BoundaryConditions
    if kind.startswith("constant"):
        value = int(kind.split(":")[1])
        return lambda f, b: bcs.constant_exterior(f, m.u16(value), b)
    return getattr(bcs, kind)


def _bc5(m, kind, size, tile=None, n=1, tail=None):
    """A 5-tap horizontal then 3-tap vertical blur of the input under `kind` inside the accelerator."""
    inp, x, y, hw_input = _in(m)
    w, h = size
    c = _bc(m, kind)(hw_input, [(0, w), (0, h)])
    bx = m.Func("blur_x")
    bx[x, y] = c[x - 2, y] + c[x - 1, y] * 4 + c[x, y] * 6 + c[x + 1, y] * 4 + c[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y - 1] + bx[x, y] * 2 + bx[x, y + 1]) >> 6))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, tile=tile, inner=(bx,), inputs=(hw_input,))
        if n > 1:
            lanes(m, n, (hw_output, xi), (bx, x), (hw_input, x), tail=tail)
    frame(inp, w, h)
    return output, {"input": inp}, list(size)


def bc_repeat_edge_five_taps(m):
    """repeat_edge under a 5-tap binomial along x (reach 2 each side), 9x6."""
    return _bc5(m, "repeat_edge", (9, 6))


def bc_mirror_image_five_taps(m):
    """mirror_image under the 5-tap binomial (column -2 reads column 1), 7x5."""
    return _bc5(m, "mirror_image", (7, 5))


def bc_mirror_interior_five_taps(m):
    """mirror_interior under the 5-tap binomial (column -2 reads column 2), 8x4."""
    return _bc5(m, "mirror_interior", (8, 4))


def bc_constant_exterior_five_taps(m):
    """constant_exterior(200) under the 5-tap binomial: the border sees a bright frame, 6x5."""
    return _bc5(m, "constant:200", (6, 5))


def bc_mirror_interior_two_lanes(m):
    """mirror_interior, two lanes through the output, blur_x and the input, 8x3."""
    return _bc5(m, "mirror_interior", (8, 3), n=2)


def bc_mirror_image_three_lanes_guard(m):
    """mirror_image at three lanes GuardWithIf over a 7-wide frame (the last step runs one lane), 7x3."""
    return _bc5(m, "mirror_image", (7, 3), n=3, tail=m.TailStrategy.GuardWithIf)


def bc_repeat_edge_host_tiles_odd(m):
    """repeat_edge inside host tiles of 4x3 over 8x6: the clamp bites at the frame's border only."""
    return _bc5(m, "repeat_edge", (8, 6), tile=(4, 3))


def bc_constant_exterior_host_tiles(m):
    """constant_exterior(0) inside host tiles of 3x2 over 6x4."""
    return _bc5(m, "constant:0", (6, 4), tile=(3, 2))


def bc_repeat_edge_on_intermediate(m):
    """repeat_edge of an intermediate Func (the gradient, a buffered stage), its 3x3 max read beyond it, 6x5."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    grad = m.Func("grad")
    grad[x, y] = hw_input[x + 1, y] - hw_input[x, y]
    cg = m.BoundaryConditions.repeat_edge(grad, [(0, 6), (0, 5)])
    r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
    mx = m.Func("mx")
    mx[x, y] = m.maximum(cg[x + r.x, y + r.y])
    hw_output, output = _out(m, lambda x, y: mx[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 5), inner=(grad, mx), inputs=(hw_input,))
    frame(inp, 7, 5)
    return output, {"input": inp}, [6, 5]


def bc_mirror_on_intermediate_unrolled_window(m):
    """mirror_image of blur_x (buffered), a 3x3 sum of it with the RDom unrolled, 7x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    cb = m.BoundaryConditions.mirror_image(bx, [(0, 7), (0, 4)])
    r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += cb[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 18))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 4), inner=(bx, s), inputs=(hw_input,))
        s.update().unroll(r.x).unroll(r.y)
    frame(inp, 8, 4)
    return output, {"input": inp}, [7, 4]


def bc_sub_window_repeat_edge(m):
    """repeat_edge to a sub-window [1, 5) x [1, 4) of a 6x5 input: the output repeats the window's edge."""
    inp, x, y, hw_input = _in(m)
    c = m.BoundaryConditions.repeat_edge(hw_input, [(1, 4), (1, 3)])
    hw_output, output = _out(m, lambda x, y: m.u8((c[x - 1, y] + c[x + 1, y] + c[x, y - 1] + c[x, y + 1]) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 5), inputs=(hw_input,))
    return output, {"input": inp}, [6, 5]


def bc_constant_exterior_sub_window(m):
    """constant_exterior(255) outside [2, 6) x [1, 3) of an 8x4 input, a 2x2 min of it, 8x4."""
    inp, x, y, hw_input = _in(m)
    c = m.BoundaryConditions.constant_exterior(hw_input, m.u16(255), [(2, 4), (1, 2)])
    hw_output, output = _out(m, lambda x, y: m.u8(m.min(m.min(c[x, y], c[x + 1, y]), m.min(c[x, y + 1],
                                                                                              c[x + 1, y + 1]))))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 4), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def bc_repeat_edge_then_downsample(m):
    """repeat_edge then a 2x2 stride-2 average reaching one past the frame (x * 2 + 1 at the last column), 4x3
    from 7x5."""
    inp, x, y, hw_input = _in(m)
    c = m.BoundaryConditions.repeat_edge(hw_input, [(0, 7), (0, 5)])
    hw_output, output = _out(m, lambda x, y: m.u8((c[2 * x, 2 * y] + c[2 * x + 1, 2 * y] + c[2 * x, 2 * y + 1]
                                                   + c[2 * x + 1, 2 * y + 1]) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (4, 3), inputs=(hw_input,))
    frame(inp, 7, 5)
    return output, {"input": inp}, [4, 3]


def bc_mirror_interior_then_upsample(m, kind="mirror_interior", phase=False, size=(8, 4), n=1, tile=None):
    """mirror_interior of a half-size input then a bilinear x2 up-sample reading (x + 1) / 2 past the edge, 8x4."""
    inp, x, y, hw_input = _in(m)
    w, h = size[0] // 2, size[1] // 2
    c = getattr(m.BoundaryConditions, kind)(hw_input, [(0, w), (0, h)])
    up = m.Func("up")
    if phase:
        up[x, y] = (c[x / 2, y / 2] * 2 + c[x / 2 + x % 2, y / 2] + c[x / 2, y / 2 + y % 2]) >> 2
    else:
        up[x, y] = (c[x / 2, y / 2] * 2 + c[(x + 1) / 2, y / 2] + c[x / 2, (y + 1) / 2]) >> 2
    hw_output, output = _out(m, lambda x, y: m.u8(up[x, y]))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, tile=tile, inner=(up,), inputs=(hw_input,))
        if n > 1:
            lanes(m, n, (hw_output, xi), (up, x))
    frame(inp, w, h)
    return output, {"input": inp}, list(size)


def bc_repeat_edge_upsample_phase_two_lanes(m):
    """repeat_edge under the x / 2 + x % 2 up-sample at two lanes (a lane per phase), 8x4."""
    return bc_mirror_interior_then_upsample(m, "repeat_edge", phase=True, n=2)


def bc_mirror_interior_upsample_phase_four_lanes(m):
    """mirror_interior under the x / 2 + x % 2 up-sample at four lanes (two steps a cycle), 8x4."""
    return bc_mirror_interior_then_upsample(m, phase=True, n=4)


def bc_mirror_image_upsample_phase_host_tiles(m):
    """mirror_image under the x / 2 + x % 2 up-sample in host tiles of 4x4 over 8x8 (the condition bites in the
    last tiles only)."""
    return bc_mirror_interior_then_upsample(m, "mirror_image", phase=True, size=(8, 8), tile=(4, 4))


def bc_mirror_interior_upsample_phase_form(m):
    """As bc_mirror_interior_then_upsample with the neighbour written x / 2 + x % 2 (refused as not affine before
    session 36: hwlower/edges.py now takes x % d beside x / d as the up-sample's phase)."""
    return bc_mirror_interior_then_upsample(m, phase=True)


def bc_repeat_edge_upsample_phase_form(m):
    """repeat_edge under the x / 2 + x % 2 up-sample."""
    return bc_mirror_interior_then_upsample(m, "repeat_edge", phase=True)


def bc_mirror_image_upsample_phase_form(m):
    """mirror_image under the x / 2 + x % 2 up-sample."""
    return bc_mirror_interior_then_upsample(m, "mirror_image", phase=True)


def bc_two_conditions_two_inputs(m):
    """Two inputs: a under repeat_edge, b under constant_exterior(0), their 3-tap difference, i16, 6x4."""
    a, x, y, hw_a = _in(m, name="a", wide=m.i16)
    b, _, _, hw_b = _in(m, name="b", wide=m.i16)
    ca = m.BoundaryConditions.repeat_edge(hw_a, [(0, 6), (0, 4)])
    cb = m.BoundaryConditions.constant_exterior(hw_b, m.i16(0), [(0, 6), (0, 4)])
    hw_output, output = _out(m, lambda x, y: ca[x - 1, y] + ca[x + 1, y] - cb[x, y - 1] * 2 + cb[x, y + 1])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_a, hw_b))
    frame(a, 6, 4)
    frame(b, 6, 4)
    return output, {"a": a, "b": b}, [6, 4]


def bc_repeat_edge_of_u8_copy(m):
    """repeat_edge of an 8-bit input copy (no widening): the sum wraps in u8 as written, 7x3."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    c = m.BoundaryConditions.repeat_edge(hw_input, [(0, 7), (0, 3)])
    hw_output, output = _out(m, lambda x, y: c[x - 1, y - 1] + c[x + 1, y + 1] + c[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inputs=(hw_input,))
    frame(inp, 7, 3)
    return output, {"input": inp}, [7, 3]


def bc_constant_exterior_negative_i16(m):
    """constant_exterior(-100) of an i16 difference image, a 3-tap vertical sum of it, output i16, 5x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    d = m.Func("d")
    d[x, y] = hw_input[x, y] - 128
    c = m.BoundaryConditions.constant_exterior(d, m.i16(-100), [(0, 5), (0, 4)])
    hw_output, output = _out(m, lambda x, y: c[x, y - 1] + c[x, y] + c[x, y + 1])
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 4), inner=(d,), inputs=(hw_input,))
    frame(inp, 5, 4)
    return output, {"input": inp}, [5, 4]


def bc_mirror_image_glb_level(m):
    """mirror_image inside seed 002's three levels: GLB tiles 6x4 over 6x4, memory tiles 3x2, 6x4."""
    inp, x, y, hw_input = _in(m)
    c = m.BoundaryConditions.mirror_image(hw_input, [(0, 6), (0, 4)])
    bx = m.Func("blur_x")
    bx[x, y] = c[x - 1, y] + c[x, y] + c[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y - 1] + bx[x, y + 1]) / 6))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (6, 4), (6, 4), (3, 2), inner=(bx,))
    frame(inp, 6, 4)
    return output, {"input": inp}, [6, 4]


def bc_repeat_edge_blur_at_rows(m):
    """repeat_edge with blur_x computed at the output's rows (yi) and stored at the tile, 7x5."""
    inp, x, y, hw_input = _in(m)
    c = m.BoundaryConditions.repeat_edge(hw_input, [(0, 7), (0, 5)])
    bx = m.Func("blur_x")
    bx[x, y] = c[x - 1, y] + c[x, y] * 2 + c[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y - 1] + bx[x, y] * 2 + bx[x, y + 1]) >> 4))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (7, 5), inputs=(hw_input,))
        bx.store_at(hw_output, xo).compute_at(hw_output, yi)
    frame(inp, 7, 5)
    return output, {"input": inp}, [7, 5]


def bc_mirror_interior_column_order(m):
    """mirror_interior with the tile walked column by column (hw_output.reorder(yi, xi)), 5x6."""
    inp, x, y, hw_input = _in(m)
    c = m.BoundaryConditions.mirror_interior(hw_input, [(0, 5), (0, 6)])
    by = m.Func("blur_y")
    by[x, y] = c[x, y - 1] + c[x, y] * 2 + c[x, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8((by[x - 1, y] + by[x, y] * 2 + by[x + 1, y]) >> 4))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (5, 6), inner=(by,), inputs=(hw_input,))
        hw_output.reorder(yi, xi, xo, yo)
    frame(inp, 5, 6)
    return output, {"input": inp}, [5, 6]


def bc_constant_exterior_in_rdom_max(m):
    """constant_exterior(0) under a 3x3 maximum (a dilation) with the RDom serial, 6x3."""
    inp, x, y, hw_input = _in(m)
    c = m.BoundaryConditions.constant_exterior(hw_input, m.u16(0), [(0, 6), (0, 3)])
    r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
    d = m.Func("dilate")
    d[x, y] = m.u16(0)
    d[x, y] = m.max(d[x, y], c[x + r.x, y + r.y])
    hw_output, output = _out(m, lambda x, y: m.u8(d[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(d,), inputs=(hw_input,))
    frame(inp, 6, 3)
    return output, {"input": inp}, [6, 3]


CASES = {f.__name__: f for f in (
    bc_repeat_edge_five_taps, bc_mirror_image_five_taps, bc_mirror_interior_five_taps, bc_constant_exterior_five_taps,
    bc_mirror_interior_two_lanes, bc_mirror_image_three_lanes_guard, bc_repeat_edge_host_tiles_odd,
    bc_constant_exterior_host_tiles, bc_repeat_edge_on_intermediate, bc_mirror_on_intermediate_unrolled_window,
    bc_sub_window_repeat_edge, bc_constant_exterior_sub_window, bc_repeat_edge_then_downsample,
    bc_mirror_interior_then_upsample, bc_mirror_interior_upsample_phase_form, bc_repeat_edge_upsample_phase_form,
    bc_mirror_image_upsample_phase_form, bc_repeat_edge_upsample_phase_two_lanes,
    bc_mirror_interior_upsample_phase_four_lanes, bc_mirror_image_upsample_phase_host_tiles,
    bc_two_conditions_two_inputs, bc_repeat_edge_of_u8_copy,
    bc_constant_exterior_negative_i16, bc_mirror_image_glb_level, bc_repeat_edge_blur_at_rows,
    bc_mirror_interior_column_order, bc_constant_exterior_in_rdom_max,
)}
