"""Probe20's hand schedules (session 35), part five: down/up-sampling chains, several inputs at different rates,
boundary conditions inside the accelerator (repeat_image among them), select/clamp chains, `in_()` of inputs and
GLB levels at odd sizes; each in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam},
size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of

# ---- down / up sampling chains --------------------------------------------------------------------------------


def pyramid_down_up_residual(m):
    """A 2x2 average down-sample, a nearest up-sample of it, the residual input - up + 128: one level of a
    Laplacian pyramid in one accelerator, 8x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    down, up = m.Func("down"), m.Func("up")
    down[x, y] = (hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y] + hw_input[2 * x, 2 * y + 1]
                  + hw_input[2 * x + 1, 2 * y + 1]) >> 2
    up[x, y] = down[x / 2, y / 2]
    hw_output, output = _out(m, lambda x, y: m.u8(m.clamp(hw_input[x, y] - up[x, y] + 128, 0, 255)))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 4), inner=(down,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def down_twice_chain(m):
    """Two 2x down-samples in a chain (a 2x2 average, then a 2x2 max of it): 12x8 in, 3x2 out."""
    inp, x, y, hw_input = _in(m)
    d1 = m.Func("d1")
    d1[x, y] = (hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y] + hw_input[2 * x, 2 * y + 1]
                + hw_input[2 * x + 1, 2 * y + 1]) >> 2
    hw_output, output = _out(m, lambda x, y: m.u8(m.max(m.max(d1[2 * x, 2 * y], d1[2 * x + 1, 2 * y]),
                                                        m.max(d1[2 * x, 2 * y + 1], d1[2 * x + 1, 2 * y + 1]))))
    if on_hardware(m):
        _sched(m, output, hw_output, (3, 2), inner=(d1,), inputs=(hw_input,))
    return output, {"input": inp}, [3, 2]


def up_twice_chain(m):
    """Two nearest x2 up-samples along y in a chain with a blur between (u1 at xo), 4x8 out of 4x2."""
    inp, x, y, hw_input = _in(m)
    u1 = m.Func("u1")
    u1[x, y] = (hw_input[x, y / 2] * 3 + hw_input[x + 1, y / 2]) >> 2
    hw_output, output = _out(m, lambda x, y: m.u8(u1[x, y / 2] + m.u16(y % 4)))
    if on_hardware(m):
        _sched(m, output, hw_output, (4, 8), inner=(u1,), inputs=(hw_input,))
    return output, {"input": inp}, [4, 8]


def up_bilinear_2d(m):
    """A bilinear x2 up-sample in both dimensions (parity selects over 1, 2 or 4 neighbours), 8x6."""
    inp, x, y, hw_input = _in(m)
    a = hw_input[x / 2, y / 2]
    bx = hw_input[x / 2 + 1, y / 2]
    by = hw_input[x / 2, y / 2 + 1]
    bxy = hw_input[x / 2 + 1, y / 2 + 1]
    ex, ey = x % 2 == 0, y % 2 == 0
    val = m.select(ex & ey, a, ex, (a + by + 1) / 2, ey, (a + bx + 1) / 2, (a + bx + by + bxy + 2) / 4)
    hw_output, output = _out(m, lambda x, y: m.u8(val))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 6), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def blur_then_decimate(m):
    """A 3x3 box blur at full rate (a buffer at xo), its even pixels taken (blur[2x, 2y]), 4x3 out of 10x8."""
    inp, x, y, hw_input = _in(m)
    bl = m.Func("blur")
    bl[x, y] = (hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y] + hw_input[x, y + 1] + hw_input[x + 1, y + 1]
                + hw_input[x + 2, y + 1] + hw_input[x, y + 2] + hw_input[x + 1, y + 2] + hw_input[x + 2, y + 2]) / 9
    hw_output, output = _out(m, lambda x, y: m.u8(bl[2 * x, 2 * y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (4, 3), inner=(bl,), inputs=(hw_input,))
    return output, {"input": inp}, [4, 3]


def up_then_down_identity_two_lanes(m):
    """A nearest x2 up-sample (a buffer) then a 2x1 average down of it, at two output lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    up = m.Func("up")
    up[x, y] = hw_input[x / 2, y] * 2 + m.u16(x % 2)
    hw_output, output = _out(m, lambda x, y: m.u8((up[2 * x, y] + up[2 * x + 1, y]) / 4))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(up,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        up.unroll(x, 4)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


# ---- several inputs at different rates ------------------------------------------------------------------------

def two_inputs_full_and_half_resolution(m):
    """A full-resolution image plus a half-resolution one up-sampled (b[x / 2, y / 2]), 8x4."""
    a, x, y, hw_a = _in(m, name="a")
    b, _, _, hw_b = _in(m, name="b")
    hw_output, output = _out(m, lambda x, y: m.u8((hw_a[x, y] + hw_b[x / 2, y / 2] * 3) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 4), inputs=(hw_a, hw_b))
    return output, {"a": a, "b": b}, [8, 4]


def image_times_column_weights(m):
    """An image times a 1-D per-column weight input (w[x], i16), summed over 2 rows, output i16, 6x3."""
    a, x, y, hw_a = _in(m, wide=m.i16)
    w = m.ImageParam(m.Int(16), 1, "w")
    hw_w = m.Func("hw_w")
    hw_w[x] = w[x]
    hw_output, output = _out(m, lambda x, y: (hw_a[x, y] + hw_a[x, y + 1]) * hw_w[x] >> 3)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_a, hw_w))
    return output, {"input": a, "w": w}, [6, 3]


def two_inputs_at_two_and_one_lanes(m):
    """Two same-size inputs, one streamed two pixels a cycle and one a pixel a cycle, the output at two lanes,
    6x2."""
    a, x, y, hw_a = _in(m, name="a")
    b, _, _, hw_b = _in(m, name="b")
    hw_output, output = _out(m, lambda x, y: m.u8(m.absd(hw_a[x, y], hw_b[x, y])))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 2), inputs=(hw_a, hw_b))
        hw_output.unroll(xi, 2)
        hw_a.unroll(x, 2)
    return output, {"a": a, "b": b}, [6, 2]


def three_inputs_select(m):
    """Three inputs: a mask chooses between two images pixel by pixel (select(mask > 127, a, b)), 7x3."""
    a, x, y, hw_a = _in(m, name="a")
    b, _, _, hw_b = _in(m, name="b")
    k, _, _, hw_k = _in(m, name="mask")
    hw_output, output = _out(m, lambda x, y: m.select(hw_k[x, y] > 127, hw_a[x, y], hw_b[x + 1, y]), m.u8)
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inputs=(hw_a, hw_b, hw_k))
    return output, {"a": a, "b": b, "mask": k}, [7, 3]


# ---- boundary conditions inside the accelerator ---------------------------------------------------------------

def _bc_blur(m, bc, size, lanes=1, tile=None):
    inp, x, y, hw_input = _in(m)
    w, h = size
    clamped = bc(hw_input, [(0, w), (0, h)])
    bx = m.Func("blur_x")
    bx[x, y] = clamped[x - 1, y] + clamped[x, y] * 2 + clamped[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y - 1] + bx[x, y] * 2 + bx[x, y + 1]) >> 4))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, tile=tile, inner=(bx,), inputs=(hw_input,))
        if lanes > 1:
            hw_output.unroll(xi, lanes)
            bx.unroll(x, lanes)
            hw_input.unroll(x, lanes)
    inp.dim(0).set_bounds(0, w)
    inp.dim(1).set_bounds(0, h)
    return output, {"input": inp}, list(size)


def bc_repeat_image_wraps(m):
    """BoundaryConditions.repeat_image (the frame tiled: the left neighbour of column 0 is the last column) inside,
    7x5."""
    return _bc_blur(m, m.BoundaryConditions.repeat_image, (7, 5))


def bc_repeat_edge_two_lanes(m):
    """repeat_edge inside at two lanes over 8x4."""
    return _bc_blur(m, m.BoundaryConditions.repeat_edge, (8, 4), lanes=2)


def bc_mirror_image_host_tiles(m):
    """mirror_image inside host tiles of 3x2 over 6x4 (the edges mirror only at the frame's border)."""
    return _bc_blur(m, m.BoundaryConditions.mirror_image, (6, 4), tile=(3, 2))


def bc_constant_exterior_zero_odd(m):
    """constant_exterior(0) over a 5x3 frame: the border pixels see zeros."""
    return _bc_blur(m, lambda f, b: m.BoundaryConditions.constant_exterior(f, m.u16(0), b), (5, 3))


def bc_clamped_by_hand_min_max(m):
    """Coordinates clamped by hand with min and max (hw_input[min(max(x - 2, 0), 6), y]) over a 7x3 frame."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[m.min(m.max(x - 2, 0), 6), y]
                                                   + hw_input[m.min(x + 2, 6), y]) / 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inputs=(hw_input,))
    inp.dim(0).set_bounds(0, 7)
    inp.dim(1).set_bounds(0, 3)
    return output, {"input": inp}, [7, 3]


# ---- select / clamp -------------------------------------------------------------------------------------------

def select_chain_three_lanes_guard(m):
    """A three-way select by value bands and a clamp to [16, 240], three lanes GuardWithIf over 8x2."""
    inp, x, y, hw_input = _in(m)
    v = hw_input[x, y]
    val = m.select(v < 64, v * 2, v < 192, v + 64, m.u16(255))
    hw_output, output = _out(m, lambda x, y: m.u8(m.clamp(val, m.u16(16), m.u16(240))))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 2), inputs=(hw_input,))
        g = m.TailStrategy.GuardWithIf
        hw_output.unroll(xi, 3, g)
        hw_input.unroll(x, 3, g)
    return output, {"input": inp}, [8, 2]


def select_on_coordinates_border(m):
    """select on the coordinates: the frame's border pixels 0, the interior a 3x3 max, 6x5."""
    inp, x, y, hw_input = _in(m)
    mx = m.Func("mx")
    r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
    mx[x, y] = m.maximum(hw_input[x + r.x + 1, y + r.y + 1])
    border = (x == 0) | (y == 0) | (x == 5) | (y == 4)
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(border, m.u16(0), mx[x, y])))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 5), inner=(mx,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 5]


# ---- in_() of inputs ------------------------------------------------------------------------------------------

def input_in_for_two_consumers(m):
    """hw_input.in_(blur_x) and hw_input.in_(blur_y) (two copies, one per reader) both at xo, 6x4."""
    inp, x, y, hw_input = _in(m)
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    by[x, y] = hw_input[x, y] + hw_input[x, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + by[x, y]) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(bx, by), inputs=(hw_input,))
        hw_input.in_(bx).compute_at(hw_output, m.Var("xo"))
        hw_input.in_(by).compute_at(hw_output, m.Var("xo"))
    return output, {"input": inp}, [6, 4]


def image_param_in_with_producer_glb(m):
    """The ImageParam's input.in_() as accelerator input, a GLB copy of it (.in_() again, store_in GLB) at the
    output's GLB level, 8x4 in memory tiles of 4x4."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    bx = m.Func("blur_x")
    bx[x, y] = m.u16(inp[x, y]) + m.u16(inp[x + 1, y]) + m.u16(inp[x, y + 1])
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] / 3))
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 8).bound(y, 0, 4)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 4, 4)
        bx.compute_at(hw_output, xio)
        wrapper = inp.in_()
        wrapper.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        wrapper.compute_root().accelerator_input()
    return output, {"input": inp}, [8, 4]


# ---- GLB levels -----------------------------------------------------------------------------------------------

def _glb3(m, hw_output, output, hw_input, size, glb, tile, inner=(), mem_at_xo=False):
    xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, *glb).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
    if tile:
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, *tile)
    else:
        hw_output.compute_at(g, xo)
    at = xio if tile and not mem_at_xo else None
    for f in inner:
        f.compute_at(hw_output, at) if at is not None else f.compute_at(g, xo)
    hw_input.in_().in_().compute_at(hw_output, at) if at is not None else hw_input.in_().in_().compute_at(g, xo)
    hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return g


def glb_odd_host_tiles_5x3(m):
    """GLB tiles of 5x3 over 10x6 (four accelerator calls), memory tiles of 5x3 (one per GLB tile)."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 3))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (10, 6), (5, 3), (5, 3), inner=(bx,))
    return output, {"input": inp}, [10, 6]


def glb_memory_tiles_odd_in_even(m):
    """A GLB tile of 9x6 (the frame) with memory tiles of 4x4 (a 9x6 tile is not a multiple: shifted inward)."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1] + hw_input[x + 1, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] >> 2))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (9, 6), (9, 6), (4, 4), inner=(bx,))
    return output, {"input": inp}, [9, 6]


def glb_untiled_inner_level(m):
    """A GLB level whose inner hw_output is not tiled (compute_at(g, xo) alone), the producer at the GLB loop."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] * 3 + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x, y] >> 2))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, (7, 4), (7, 4), None, inner=(bx,))
    return output, {"input": inp}, [7, 4]


def glb_two_inputs(m):
    """Two inputs each through its own GLB copy and memory-tile copy, their weighted sum, GLB 8x4, tiles 4x2."""
    a, x, y, hw_a = _in(m, name="a")
    b, _, _, hw_b = _in(m, name="b")
    hw_output, output = _out(m, lambda x, y: m.u8((hw_a[x, y] * 3 + hw_b[x + 1, y]) >> 2))
    if on_hardware(m):
        g = _glb3(m, hw_output, output, hw_a, (8, 4), (8, 4), (4, 2))
        hw_b.in_().in_().compute_at(hw_output, m.Var("xio"))
        hw_b.in_().compute_at(g, m.Var("xo")).store_in(m.MemoryType.GLB)
        hw_b.compute_root().accelerator_input()
    return output, {"a": a, "b": b}, [8, 4]


def glb_histogram(m, glb=True):
    """An 8-bin histogram whose input copy hw_input.in_() is computed at the accelerator's host loop bo and
    store_in(GLB), with no GLB level of the output (refused before session 36; the output's tiles pass through the
    GLB too, hwlower/glb_input_level.py)."""
    inp, x, y, hw_input = _in(m)
    b = m.Var("b")
    histogram, hw_output, output = m.Func("histogram"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    histogram[b] = m.u16(0)
    histogram[m.i32(hw_input[r.x, r.y] >> 5)] += m.u16(1)
    hw_output[b] = histogram[b]
    output[b] = hw_output[b]
    if on_hardware(m):
        bo, bi = m.Var("bo"), m.Var("bi")
        output.bound(b, 0, 8)
        histogram.bound_extent(b, 8)
        hw_output.compute_root().split(b, bo, bi, 8).hw_accelerate(bi, bo)
        histogram.compute_at(hw_output, bo)
        hw_input.in_().compute_at(hw_output, bo)
        if glb:
            hw_input.in_().store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    inp.dim(0).set_bounds(0, 6)
    inp.dim(1).set_bounds(0, 4)
    return output, {"input": inp}, [8]


def histogram_input_copy_in_memory_tile(m):
    """glb_histogram with the refusal's fix: the store_in call removed (the copy a memory tile)."""
    return glb_histogram(m, glb=False)


def glb_channels_two_lanes(m, unroll_c=True):
    """A 3-channel output (x, y, c) through the GLB, colours a cycle in the memory tiles, two lanes, 8x2 (this reached
    an internal assert before session 35, refused in session 35: the lanes of c were a plane apart in the GLB tile;
    since session 36 the GLB stores the channels innermost)."""
    inp, x, y, hw_input = _in(m)
    c = m.Var("c")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y, c] = m.u8((hw_input[x, y] * m.u16(c + 1) + hw_input[x + 1, y]) >> 2)
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 8).bound(y, 0, 2).bound(c, 0, 3)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 2).reorder(c, xi, yi, xo, yo)
        g.hw_accelerate(xi, xo).store_in(m.MemoryType.GLB).unroll(xi, 2)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 8, 2).reorder(c, xii, yii, xio, yio)
        hw_output.unroll(xii, 2)
        if unroll_c:
            g.unroll(c)
            hw_output.unroll(c)
        hw_input.in_().in_().compute_at(hw_output, xio).unroll(x, 2)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [8, 2, 3]


def glb_channels_in_turn(m):
    """The refusal's fix for glb_channels_two_lanes: the colours computed in turn, two lanes of x."""
    return glb_channels_two_lanes(m, unroll_c=False)


CASES = {f.__name__: f for f in (
    pyramid_down_up_residual, down_twice_chain, up_twice_chain, up_bilinear_2d, blur_then_decimate,
    up_then_down_identity_two_lanes, two_inputs_full_and_half_resolution, image_times_column_weights,
    two_inputs_at_two_and_one_lanes, three_inputs_select, bc_repeat_image_wraps, bc_repeat_edge_two_lanes,
    bc_mirror_image_host_tiles, bc_constant_exterior_zero_odd, bc_clamped_by_hand_min_max,
    select_chain_three_lanes_guard, select_on_coordinates_border, input_in_for_two_consumers,
    image_param_in_with_producer_glb, glb_odd_host_tiles_5x3, glb_memory_tiles_odd_in_even, glb_untiled_inner_level,
    glb_two_inputs, glb_histogram, histogram_input_copy_in_memory_tile, glb_channels_two_lanes, glb_channels_in_turn,
)}
