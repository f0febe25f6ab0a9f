"""Probe17's hand schedules (session 33) after Halide-to-Hardware style apps not probed before: stereo block matching
(SAD over a disparity RDom, argmin), FAST-style corner counts, Sobel with non-maximum suppression, a 3x3 median by
min/max networks, demosaic variants, gemm over two inputs of different shapes, a Laplacian level, Tuples and
BoundaryConditions inside the accelerator; each in module m (`mainspring`, or `halide`, which gets no hardware
schedule), returning (output, {name: ImageParam}, size)."""

from probe_common import on_hardware, vars_of


def _funcs(m, names):
    return [m.Func(n) for n in names.split()]


def _input(m, name="input", t=None, wide=None):
    """An ImageParam and its copy hw_input in `wide` (u16 unless given)."""
    inp = m.ImageParam(t or m.UInt(8), 2, name)
    x, y = m.Var("x"), m.Var("y")
    hw_input = m.Func(f"hw_{name}")
    hw_input[x, y] = (wide or m.u16)(inp[x, y])
    return inp, x, y, hw_input


def _tiled(m, output, hw_output, size, tile=None, inner=(), inputs=()):
    """Bound the output, tile hw_output (host tiles `tile`), compute `inner` at xo and stream `inputs`."""
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *(tile or size)).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    for f in inputs:
        f.compute_root().stream_to_accelerator()
    return xo, yo, xi, yi


# ---- stereo block matching -----------------------------------------------------------------------------------

def _stereo(m, disparities=4, unroll_d=False, unroll_win=False, size=(8, 4)):
    left, x, y, hw_left = _input(m, "left")
    right, _, _, hw_right = _input(m, "right")
    d = m.Var("d")
    cost, disp, hw_output, output = _funcs(m, "cost disparity hw_output output")
    r = m.RDom([m.Range(0, 3)], "r")
    rd = m.RDom([m.Range(0, disparities)], "rd")
    cost[x, y, d] = m.u16(0)
    cost[x, y, d] += m.absd(hw_left[x + r.x + disparities, y], hw_right[x + r.x + disparities - d, y])
    disp[x, y] = m.argmin(cost[x, y, rd])
    hw_output[x, y] = m.u8(disp[x, y][0] * 16 + m.min(disp[x, y][1], 15))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, size, inner=(cost, disp), inputs=(hw_left, hw_right))
        if unroll_win:
            cost.update().unroll(r.x)
        if unroll_d:
            cost.unroll(d).update().unroll(d)
    return output, {"left": left, "right": right}, list(size)


def stereo_sad_serial(m):
    """SAD over a 3-pixel window for 4 disparities (cost(x, y, d)), its argmin per pixel: all serial."""
    return _stereo(m)


def stereo_sad_window_unrolled(m):
    """The same with the window unrolled (3 absolute differences summed per step)."""
    return _stereo(m, unroll_win=True)


def stereo_sad_disparities_unrolled(m):
    """Window and disparities unrolled: the 4 costs of a pixel computed in one step."""
    return _stereo(m, unroll_d=True, unroll_win=True)


# ---- corners, edges --------------------------------------------------------------------------------------------

CIRCLE = ((3, 0), (4, 0), (5, 1), (6, 2), (6, 3), (6, 4), (5, 5), (4, 6), (3, 6), (2, 6), (1, 5), (0, 4), (0, 3),
          (0, 2), (1, 1), (2, 0))


def fast_corner_count(m):
    """FAST: how many of the 16 pixels on a radius-3 circle are brighter than the centre + 20 or darker than it
    - 20; a corner where at least 9 are (the count kept where it is one, 0 elsewhere)."""
    inp, x, y, hw_input = _input(m, wide=m.i16)
    bright, dark, hw_output, output = _funcs(m, "bright dark hw_output output")
    c = hw_input[x + 3, y + 3]
    bright[x, y] = sum(m.select(hw_input[x + i, y + j] > c + 20, m.u8(1), m.u8(0)) for i, j in CIRCLE)
    dark[x, y] = sum(m.select(hw_input[x + i, y + j] < c - 20, m.u8(1), m.u8(0)) for i, j in CIRCLE)
    best = m.max(bright[x, y], dark[x, y])
    hw_output[x, y] = m.select(best >= 9, best, m.u8(0))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inner=(bright, dark), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def fast_corner_serial_circle(m):
    """The brighter-pixel count as an RDom over a 16-entry table of circle offsets, summed serially."""
    inp, x, y, hw_input = _input(m, wide=m.i16)
    dx, dy, count, hw_output, output = _funcs(m, "dx dy count hw_output output")
    k = m.Var("k")
    dx[k] = 0
    dy[k] = 0
    for i, (a, b) in enumerate(CIRCLE):
        dx[i] = a
        dy[i] = b
    r = m.RDom([m.Range(0, 16)], "r")
    count[x, y] = m.u8(0)
    count[x, y] += m.select(hw_input[x + m.clamp(dx[r.x], 0, 6), y + m.clamp(dy[r.x], 0, 6)]
                            > hw_input[x + 3, y + 3] + 20, m.u8(1), m.u8(0))
    hw_output[x, y] = count[x, y]
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo = _tiled(m, output, hw_output, (6, 4), inner=(count,), inputs=(hw_input,))[0]
        dx.compute_at(hw_output, xo)
        dy.compute_at(hw_output, xo)
    return output, {"input": inp}, [6, 4]


def sobel_nms(m):
    """Sobel magnitude |gx| + |gy| (i16), then non-maximum suppression along x and y: a pixel kept where it is
    at least its four neighbours."""
    inp, x, y, hw_input = _input(m, wide=m.i16)
    gx, gy, mag, hw_output, output = _funcs(m, "gx gy mag hw_output output")
    i = hw_input
    gx[x, y] = (i[x + 2, y] + 2 * i[x + 2, y + 1] + i[x + 2, y + 2]) - (i[x, y] + 2 * i[x, y + 1] + i[x, y + 2])
    gy[x, y] = (i[x, y + 2] + 2 * i[x + 1, y + 2] + i[x + 2, y + 2]) - (i[x, y] + 2 * i[x + 1, y] + i[x + 2, y])
    mag[x, y] = m.u16(m.abs(gx[x, y]) + m.abs(gy[x, y]))
    c = mag[x + 1, y + 1]
    keep = (c >= mag[x, y + 1]) & (c >= mag[x + 2, y + 1]) & (c >= mag[x + 1, y]) & (c >= mag[x + 1, y + 2])
    hw_output[x, y] = m.u8(m.select(keep, m.min(c, 255), 0))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), inner=(gx, gy, mag), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def sobel_nms_two_lanes(m):
    """The same at 2 pixels a cycle, host tiles of 8x3."""
    inp, x, y, hw_input = _input(m, wide=m.i16)
    gx, gy, mag, hw_output, output = _funcs(m, "gx gy mag hw_output output")
    i = hw_input
    gx[x, y] = i[x + 2, y + 1] - i[x, y + 1]
    gy[x, y] = i[x + 1, y + 2] - i[x + 1, y]
    mag[x, y] = m.u16(m.abs(gx[x, y]) + m.abs(gy[x, y]))
    c = mag[x + 1, y]
    hw_output[x, y] = m.u8(m.select((c > mag[x, y]) & (c >= mag[x + 2, y]), m.min(c, 255), 0))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 6), (8, 3), inner=(gx, gy, mag), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        for f in (gx, gy, mag, hw_input):
            f.unroll(x, 2)
    return output, {"input": inp}, [8, 6]


# ---- median by min/max networks --------------------------------------------------------------------------------

def _sort3(m, a, b, c):
    lo, hi = m.min(a, b), m.max(a, b)
    return m.min(lo, c), m.max(lo, m.min(hi, c)), m.max(hi, c)


def median3x3_network(m):
    """The median of each 3x3 window: each column sorted (3 compare-exchanges), then the max of the mins, the
    median of the medians and the min of the maxes, and their median."""
    inp, x, y, hw_input = _input(m, wide=m.u8)
    lo, mid, hi, hw_output, output = _funcs(m, "col_lo col_mid col_hi hw_output output")
    s = _sort3(m, hw_input[x, y], hw_input[x, y + 1], hw_input[x, y + 2])
    lo[x, y], mid[x, y], hi[x, y] = s[0], s[1], s[2]
    a = m.max(m.max(lo[x, y], lo[x + 1, y]), lo[x + 2, y])
    b = _sort3(m, mid[x, y], mid[x + 1, y], mid[x + 2, y])[1]
    c = m.min(m.min(hi[x, y], hi[x + 1, y]), hi[x + 2, y])
    hw_output[x, y] = _sort3(m, a, b, c)[1]
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), inner=(lo, mid, hi), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def median3x3_tuple_columns(m):
    """The same with the sorted columns one Tuple Func (lo, mid, hi) buffered once."""
    inp, x, y, hw_input = _input(m, wide=m.u8)
    cols, hw_output, output = _funcs(m, "cols hw_output output")
    cols[x, y] = _sort3(m, hw_input[x, y], hw_input[x, y + 1], hw_input[x, y + 2])
    a = m.max(m.max(cols[x, y][0], cols[x + 1, y][0]), cols[x + 2, y][0])
    b = _sort3(m, cols[x, y][1], cols[x + 1, y][1], cols[x + 2, y][1])[1]
    c = m.min(m.min(cols[x, y][2], cols[x + 1, y][2]), cols[x + 2, y][2])
    hw_output[x, y] = _sort3(m, a, b, c)[1]
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inner=(cols,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


# ---- demosaic --------------------------------------------------------------------------------------------------

def demosaic_rgb_channels(m):
    """A 3-channel output (x, y, c) from an RGGB mosaic: each channel a select on (x % 2, y % 2) of the pixel or
    the mean of two or four neighbours; the channel chosen by select on c."""
    inp, x, y, hw_input = _input(m)
    c = m.Var("c")
    red, green, blue, hw_output, output = _funcs(m, "red green blue hw_output output")
    i = hw_input
    px, py = x + 1, y + 1
    cross = (i[px - 1, py] + i[px + 1, py] + i[px, py - 1] + i[px, py + 1]) >> 2
    diag = (i[px - 1, py - 1] + i[px + 1, py - 1] + i[px - 1, py + 1] + i[px + 1, py + 1]) >> 2
    horiz = (i[px - 1, py] + i[px + 1, py]) >> 1
    vert = (i[px, py - 1] + i[px, py + 1]) >> 1
    ex, ey = (x % 2) == 0, (y % 2) == 0
    red[x, y] = m.select(ex & ey, i[px, py], ~ex & ~ey, diag, ey, horiz, vert)
    green[x, y] = m.select(ex == ey, cross, i[px, py])
    blue[x, y] = m.select(~ex & ~ey, i[px, py], ex & ey, diag, ey, vert, horiz)
    hw_output[x, y, c] = m.select(c == 0, m.u8(red[x, y]), c == 1, m.u8(green[x, y]), m.u8(blue[x, y]))
    output[x, y, c] = hw_output[x, y, c]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 8).bound(y, 0, 4).bound(c, 0, 3)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
        hw_output.unroll(c)
        for f in (red, green, blue):
            f.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 4, 3]


def demosaic_tuple(m):
    """The demosaic's three channels as a Tuple Func (r, g, b), the host's output the Tuple's elements."""
    inp, x, y, hw_input = _input(m)
    rgb, hw_output, output = _funcs(m, "rgb hw_output output")
    i = hw_input
    px, py = x + 1, y + 1
    cross = (i[px - 1, py] + i[px + 1, py] + i[px, py - 1] + i[px, py + 1]) >> 2
    diag = (i[px - 1, py - 1] + i[px + 1, py - 1] + i[px - 1, py + 1] + i[px + 1, py + 1]) >> 2
    odd = (x % 2) + 2 * (y % 2)
    rgb[x, y] = (m.u8(m.select(odd == 0, i[px, py], odd == 3, diag, cross)),
                 m.u8(m.select((odd == 0) | (odd == 3), cross, i[px, py])),
                 m.u8(m.select(odd == 3, i[px, py], odd == 0, diag, cross)))
    hw_output[x, y] = rgb[x, y]
    output[x, y] = (hw_output[x, y][0], hw_output[x, y][1], hw_output[x, y][2])
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inner=(rgb,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 4]


def demosaic_unrolled_by_2(m):
    """Green from a mosaic at 2 pixels a cycle: each lane a fixed parity (the select on x % 2 folds per lane)."""
    inp, x, y, hw_input = _input(m)
    green, hw_output, output = _funcs(m, "green hw_output output")
    i = hw_input
    cross = (i[x, y + 1] + i[x + 2, y + 1] + i[x + 1, y] + i[x + 1, y + 2]) >> 2
    green[x, y] = m.select((x + y) % 2 == 0, cross, i[x + 1, y + 1])
    hw_output[x, y] = m.u8(green[x, y])
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 6), (8, 3), inner=(green,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        green.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 6]


# ---- gemm, two inputs of different shapes -------------------------------------------------------------------------

def _gemm(m, n=4, kk=6, mm=4):
    """C(i, j) = sum_k A(k, j) * B(i, k): A is kk x n (k fastest), B mm x kk."""
    a = m.ImageParam(m.UInt(8), 2, "a")
    b = m.ImageParam(m.UInt(8), 2, "b")
    i, j = m.Var("x"), m.Var("y")
    hw_a, hw_b, prod, hw_output, output = _funcs(m, "hw_a hw_b prod hw_output output")
    hw_a[i, j] = m.u16(a[i, j])
    hw_b[i, j] = m.u16(b[i, j])
    r = m.RDom([m.Range(0, kk)], "r")
    prod[i, j] = m.u16(0)
    prod[i, j] += hw_a[r.x, j] * hw_b[i, r.x]
    hw_output[i, j] = prod[i, j]
    output[i, j] = hw_output[i, j]
    return (a, b, i, j, hw_a, hw_b, prod, hw_output, output, r), [mm, n]


def gemm_serial(m):
    """gemm 4x4 from A (6x4) and B (4x6), the k reduction serial, both inputs streamed."""
    (a, b, i, j, hw_a, hw_b, prod, hw_output, output, r), size = _gemm(m)
    if on_hardware(m):
        _tiled(m, output, hw_output, size, inner=(prod,), inputs=(hw_a, hw_b))
    return output, {"a": a, "b": b}, size


def gemm_k_unrolled(m):
    """gemm with the k reduction unrolled: a dot product of 6 per output word."""
    (a, b, i, j, hw_a, hw_b, prod, hw_output, output, r), size = _gemm(m)
    if on_hardware(m):
        _tiled(m, output, hw_output, size, inner=(prod,), inputs=(hw_a, hw_b))
        prod.update().unroll(r.x)
    return output, {"a": a, "b": b}, size


def gemm_glb_tiles(m):
    """gemm over a GLB level: output 8x4 in GLB tiles of 4x4, memory tiles of 4x2, both inputs through GLB copies."""
    (a, b, i, j, hw_a, hw_b, prod, hw_output, output, r), size = _gemm(m, n=4, kk=4, mm=8)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(i, 0, 8).bound(j, 0, 4)
        g = hw_output.in_()
        g.compute_root().tile(i, j, xo, yo, xi, yi, 4, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(i, j, xio, yio, xii, yii, 4, 2)
        prod.compute_at(hw_output, xio).update().unroll(r.x)
        for f in (hw_a, hw_b):
            f.in_().in_().compute_at(hw_output, xio)
            f.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
            f.compute_root().accelerator_input()
    return output, {"a": a, "b": b}, size


def row_gain_two_shapes(m):
    """An image (8x4) and a 1-D gain per column (8), both streamed: out = (in * gain(x)) >> 4."""
    inp, x, y, hw_input = _input(m)
    gain = m.ImageParam(m.UInt(8), 1, "gain")
    hw_gain, hw_output, output = _funcs(m, "hw_gain hw_output output")
    hw_gain[x] = m.u16(gain[x])
    hw_output[x, y] = m.u8(m.min((hw_input[x, y] * hw_gain[x]) >> 4, 255))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inputs=(hw_input, hw_gain))
    return output, {"input": inp, "gain": gain}, [8, 4]


# ---- pyramids, Tuples, boundary conditions ------------------------------------------------------------------------

def laplacian_level(m):
    """One Laplacian pyramid level: a 2x2 mean down, a linear (1/2, 1/2) up along x and y, the detail
    in - up + 128 saturated to u8."""
    inp, x, y, hw_input = _input(m, wide=m.i16)
    down, up_x, up, hw_output, output = _funcs(m, "down up_x up hw_output output")
    down[x, y] = (hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y] + hw_input[2 * x, 2 * y + 1]
                  + hw_input[2 * x + 1, 2 * y + 1]) >> 2
    up_x[x, y] = (down[x / 2, y] + down[(x + 1) / 2, y]) >> 1
    up[x, y] = (up_x[x, y / 2] + up_x[x, (y + 1) / 2]) >> 1
    hw_output[x, y] = m.u8(m.clamp(hw_input[x, y] - up[x, y] + 128, 0, 255))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 8), inner=(down, up_x, up), inputs=(hw_input,))
    return output, {"input": inp}, [8, 8]


def brighten_and_blur_tuple(m):
    """A Tuple (brightened, 2-tap blurred) computed once and buffered; the output their saturated sum."""
    inp, x, y, hw_input = _input(m)
    both, hw_output, output = _funcs(m, "both hw_output output")
    both[x, y] = (m.u16(m.min(hw_input[x, y] * 3 / 2, 255)), (hw_input[x, y] + hw_input[x + 1, y]) >> 1)
    hw_output[x, y] = m.u8(m.min((both[x, y][0] + both[x, y + 1][1]) >> 1, 255))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), (4, 6), inner=(both,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def boundary_repeat_edge_inside(m):
    """hl.BoundaryConditions.repeat_edge on hw_input inside the accelerator: a 3x3 box over the whole 8x6 frame,
    its edge pixels read clamped."""
    inp, x, y, hw_input = _input(m)
    clamped, bx, hw_output, output = _funcs(m, "clamped blur_x hw_output output")
    clamped = m.BoundaryConditions.repeat_edge(hw_input, [m.Range(0, 8), m.Range(0, 6)])
    bx[x, y] = clamped[x - 1, y] + clamped[x, y] + clamped[x + 1, y]
    hw_output[x, y] = m.u8((bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 9)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def boundary_constant_exterior_inside(m):
    """BoundaryConditions.constant_exterior (0) on a 2-tap stencil inside the accelerator, tiles of 4x3."""
    inp, x, y, hw_input = _input(m)
    padded, hw_output, output = _funcs(m, "padded hw_output output")
    padded = m.BoundaryConditions.constant_exterior(hw_input, 0, [m.Range(0, 8), m.Range(0, 6)])
    hw_output[x, y] = m.u8((padded[x - 1, y] + padded[x + 1, y] + padded[x, y - 1] + padded[x, y + 1]) >> 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), (4, 3), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def boundary_mirror_on_buffered_func(m):
    """mirror_interior on a buffered intermediate (blur_x computed at xo), read at -1 and +1 in y."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = _funcs(m, "blur_x hw_output output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    mirrored = m.BoundaryConditions.mirror_interior(bx, [m.Range(0, 8), m.Range(0, 6)])
    hw_output[x, y] = m.u8((mirrored[x, y - 1] + 2 * mirrored[x, y] + mirrored[x, y + 1]) >> 3)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), inner=(bx,), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


CASES = {f.__name__: f for f in (
    stereo_sad_serial, stereo_sad_window_unrolled, stereo_sad_disparities_unrolled, fast_corner_count,
    fast_corner_serial_circle, sobel_nms, sobel_nms_two_lanes, median3x3_network, median3x3_tuple_columns,
    demosaic_rgb_channels, demosaic_tuple, demosaic_unrolled_by_2, gemm_serial, gemm_k_unrolled, gemm_glb_tiles,
    row_gain_two_shapes, laplacian_level, brighten_and_blur_tuple, boundary_repeat_edge_inside,
    boundary_constant_exterior_inside, boundary_mirror_on_buffered_func,
)}
# small designs all, but Verilator's builds take seconds each: one case checks it, Icarus the rest
ICARUS_ONLY = tuple(c for c in CASES if c != "stereo_sad_disparities_unrolled")
