"""Probe20's hand schedules (session 35), part four: harris's, the camera pipeline's and unsharp's structure at small
sizes, each with its schedule changed the way a researcher changes it (buffers dropped or added, lanes, host tiles,
channels serial or unrolled, a GLB level); each in module m (`mainspring`, or `halide`), returning (output,
{name: ImageParam}, size)."""

from probe_common import on_hardware, vars_of

# ---- harris ---------------------------------------------------------------------------------------------------


def _harris(m, rdom_grads=True):
    """harris_generator's algorithm (grads by a kernel RDom or written out, clamped to +-180, products >> 6, 3x3
    box sums, cim = det - trace^2 >> 4, a 3x3 non-maximum suppression, threshold 1), input offset by 3."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    f = {n: m.Func(n) for n in "padded16 grad_x_unclamp grad_y_unclamp grad_x grad_y lxx lyy lxy lgxx lgyy lgxy cim "
                              "kernel_x kernel_y hw_output output".split()}
    f["padded16"][x, y] = m.i16(inp[x + 3, y + 3])
    p = f["padded16"]
    gxu, gyu = f["grad_x_unclamp"], f["grad_y_unclamp"]
    if rdom_grads:
        r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
        kx, ky = f["kernel_x"], f["kernel_y"]
        kx[x, y] = m.i16(0)
        kx[-1, -1], kx[-1, 0], kx[-1, 1] = m.i16(-1), m.i16(-2), m.i16(-1)
        kx[1, -1], kx[1, 0], kx[1, 1] = m.i16(1), m.i16(2), m.i16(1)
        ky[x, y] = m.i16(0)
        ky[-1, 1], ky[0, 1], ky[1, 1] = m.i16(1), m.i16(2), m.i16(1)
        ky[-1, -1], ky[0, -1], ky[1, -1] = m.i16(-1), m.i16(-2), m.i16(-1)
        gxu[x, y] = m.i16(0)
        gxu[x, y] += p[x + r.x, y + r.y] * kx[r.x, r.y]
        gyu[x, y] = m.i16(0)
        gyu[x, y] += p[x + r.x, y + r.y] * ky[r.x, r.y]
    else:
        gxu[x, y] = (-p[x - 1, y - 1] + p[x + 1, y - 1] - 2 * p[x - 1, y] + 2 * p[x + 1, y]
                     - p[x - 1, y + 1] + p[x + 1, y + 1])
        gyu[x, y] = (p[x - 1, y + 1] - p[x - 1, y - 1] + 2 * p[x, y + 1] - 2 * p[x, y - 1]
                     + p[x + 1, y + 1] - p[x + 1, y - 1])
    f["grad_x"][x, y] = m.clamp(gxu[x, y], -180, 180)
    f["grad_y"][x, y] = m.clamp(gyu[x, y], -180, 180)
    gx, gy = f["grad_x"], f["grad_y"]
    prods = {"lxx": (gx, gx), "lyy": (gy, gy), "lxy": (gx, gy)}
    for n, (a, b) in prods.items():
        f[n][x, y] = (a[x, y] * b[x, y]) >> 6
    box = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "box")
    for n in ("xx", "yy", "xy"):
        f["lg" + n][x, y] = m.i16(0)
        f["lg" + n][x, y] += f["l" + n][x + box.x, y + box.y]
    g8 = {n: f["lg" + n][x, y] >> 6 for n in ("xx", "yy", "xy")}
    f["cim"][x, y] = g8["xx"] * g8["yy"] - g8["xy"] * g8["xy"] - (((g8["xx"] + g8["yy"]) * (g8["xx"] + g8["yy"])) >> 4)
    c = f["cim"]
    is_max = c[x, y] > c[x - 1, y - 1]
    for dx, dy in ((0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
        is_max = is_max & (c[x, y] > c[x + dx, y + dy])
    f["hw_output"][x, y] = m.i16(m.select(is_max & (c[x, y] >= 1), 255, 0))
    f["output"][x, y] = m.u8(f["hw_output"][x, y])
    return inp, x, y, f, box


def _harris_sched(m, f, x, y, size, tile=None, lanes=1, buffers=("grad_x", "grad_y", "lxx", "lyy", "lxy", "lgxx",
                                                                  "lgyy", "lgxy", "cim")):
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    f["output"].bound(x, 0, size[0]).bound(y, 0, size[1])
    hw = f["hw_output"]
    hw.compute_root().tile(x, y, xo, yo, xi, yi, *(tile or size)).hw_accelerate(xi, xo)
    for n in buffers:
        f[n].compute_at(hw, xo)
    for n in ("grad_x_unclamp", "grad_y_unclamp"):
        if f[n].has_update_definition():
            f[n].compute_at(hw, xo)
            f[n].update().unroll(f[n].rvars()[0]).unroll(f[n].rvars()[1])
    for n in ("lgxx", "lgyy", "lgxy"):
        if n in buffers:
            f[n].update().unroll(f[n].rvars()[0]).unroll(f[n].rvars()[1])
    f["padded16"].compute_root().stream_to_accelerator()
    if lanes > 1:
        hw.unroll(xi, lanes)
        for n in buffers + ("grad_x_unclamp", "grad_y_unclamp"):
            if n in buffers or f[n].has_update_definition():
                f[n].unroll(x, lanes)
                if f[n].has_update_definition():
                    f[n].update().unroll(x, lanes)
        f["padded16"].unroll(x, lanes)
    return xo, yo, xi, yi


def harris_kernel_rdom_all_buffers(m):
    """harris schedule 0's structure (gradients by kernel RDoms, every stage a buffer at xo), 6x4 output."""
    inp, x, y, f, box = _harris(m)
    if on_hardware(m):
        _harris_sched(m, f, x, y, (6, 4))
        for n in ("kernel_x", "kernel_y"):
            f[n].compute_at(f["hw_output"], m.Var("xo"))
    return f["output"], {"input": inp}, [6, 4]


def harris_products_inline(m):
    """The products lxx, lyy, lxy left inline in the box sums (fewer buffers), gradients written out, 7x5."""
    inp, x, y, f, box = _harris(m, rdom_grads=False)
    if on_hardware(m):
        _harris_sched(m, f, x, y, (7, 5), buffers=("grad_x", "grad_y", "lgxx", "lgyy", "lgxy", "cim"))
    return f["output"], {"input": inp}, [7, 5]


def harris_grads_inline(m):
    """The gradients inline in the products, the products, box sums and cim buffers, 5x4."""
    inp, x, y, f, box = _harris(m, rdom_grads=False)
    if on_hardware(m):
        _harris_sched(m, f, x, y, (5, 4), buffers=("lxx", "lyy", "lxy", "lgxx", "lgyy", "lgxy", "cim"))
    return f["output"], {"input": inp}, [5, 4]


def harris_host_tiles(m):
    """Gradients written out, host tiles of 4x3 over 8x6 (four accelerator calls)."""
    inp, x, y, f, box = _harris(m, rdom_grads=False)
    if on_hardware(m):
        _harris_sched(m, f, x, y, (8, 6), tile=(4, 3))
    return f["output"], {"input": inp}, [8, 6]


def harris_two_lanes(m):
    """Gradients written out, every buffer and the output at two lanes, 8x4."""
    inp, x, y, f, box = _harris(m, rdom_grads=False)
    if on_hardware(m):
        _harris_sched(m, f, x, y, (8, 4), lanes=2)
    return f["output"], {"input": inp}, [8, 4]


def harris_glb_level(m):
    """Gradients written out, hw_output.in_() a GLB level of 8x4, memory tiles of 4x4 (seed 002's hierarchy)."""
    inp, x, y, f, box = _harris(m, rdom_grads=False)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        f["output"].bound(x, 0, 8).bound(y, 0, 4)
        hw = f["hw_output"]
        g = hw.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 4, 4)
        for n in ("grad_x", "grad_y", "lgxx", "lgyy", "lgxy", "cim"):
            f[n].compute_at(hw, xio)
        for n in ("lgxx", "lgyy", "lgxy"):
            f[n].update().unroll(f[n].rvars()[0]).unroll(f[n].rvars()[1])
        p = f["padded16"]
        p.in_().in_().compute_at(hw, xio)
        p.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        p.compute_root().accelerator_input()
    return f["output"], {"input": inp}, [8, 4]


# ---- a camera-like pipeline -----------------------------------------------------------------------------------

def _camera(m):
    """A small camera pipeline on a u16 Bayer (GRBG) input offset by 2: hot-pixel suppression, a bilinear
    demosaic by parity selects, white balance, a 3x3 colour matrix (i16, >> 8), a 256-word gamma ROM, output
    (x, y, c) u8."""
    inp = m.ImageParam(m.UInt(16), 2, "input")
    x, y, c, v = vars_of(m, "x y c v")
    names = "hw_input denoised green red blue demosaic corrected curve hw_output output"
    f = {n: m.Func(n) for n in names.split()}
    f["hw_input"][x, y] = m.i16(inp[x + 2, y + 2] >> 6)
    h = f["hw_input"]
    mx = m.max(m.max(h[x - 2, y], h[x + 2, y]), m.max(h[x, y - 2], h[x, y + 2]))
    f["denoised"][x, y] = m.clamp(h[x, y], 0, mx)
    d = f["denoised"]
    even_x, even_y = x % 2 == 0, y % 2 == 0
    cross = (d[x - 1, y] + d[x + 1, y] + d[x, y - 1] + d[x, y + 1]) / 4
    diag = (d[x - 1, y - 1] + d[x + 1, y - 1] + d[x - 1, y + 1] + d[x + 1, y + 1]) / 4
    horiz, vert = (d[x - 1, y] + d[x + 1, y]) / 2, (d[x, y - 1] + d[x, y + 1]) / 2
    green_here = even_x == even_y
    f["green"][x, y] = m.select(green_here, d[x, y], cross)
    f["red"][x, y] = m.select(green_here, m.select(even_y, horiz, vert), m.select(even_y, d[x, y], diag))
    f["blue"][x, y] = m.select(green_here, m.select(even_y, vert, horiz), m.select(even_y, diag, d[x, y]))
    wb = (f["red"][x, y] * 5 / 4, f["green"][x, y], f["blue"][x, y] * 3 / 2)
    f["demosaic"][x, y, c] = m.mux(c, list(wb))
    dm = f["demosaic"]
    mat = ((300, -30, -14), (-20, 290, -14), (-8, -40, 304))
    rows = [sum((m.i16(k) * dm[x, y, j] >> 8) for j, k in enumerate(row)) for row in mat]
    f["corrected"][x, y, c] = m.clamp(m.mux(c, rows), 0, 255)
    f["curve"][v] = m.u8(m.clamp(m.sqrt(m.f32(v) / 255.0) * 255.0, 0.0, 255.0))
    f["hw_output"][x, y, c] = f["curve"][m.i32(f["corrected"][x, y, c])]
    f["output"][x, y, c] = f["hw_output"][x, y, c]
    return inp, x, y, c, f


def _camera_sched(m, f, x, y, c, size, channels="unrolled", tile=None, lanes=1):
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    f["output"].bound(x, 0, size[0]).bound(y, 0, size[1]).bound(c, 0, 3)
    hw = f["hw_output"]
    hw.bound(c, 0, 3)
    hw.compute_root().tile(x, y, xo, yo, xi, yi, *(tile or size))
    if channels == "unrolled":
        hw.reorder(c, xi, yi, xo, yo).unroll(c)
        f["corrected"].compute_at(hw, xo).reorder(c, x, y).unroll(c)
    else:
        hw.reorder(xi, yi, c, xo, yo)
    hw.hw_accelerate(xi, xo)
    for n in ("denoised", "green", "red", "blue"):
        f[n].compute_at(hw, xo)
    f["curve"].compute_at(hw, xo).bound(m.Var("v"), 0, 256).unroll(m.Var("v"))
    f["hw_input"].compute_root().stream_to_accelerator()
    if lanes > 1:
        hw.unroll(xi, lanes)
        for n in ("denoised", "green", "red", "blue", "corrected"):
            f[n].unroll(x, lanes)
        f["hw_input"].unroll(x, lanes)
    return xo, yo, xi, yi


def camera_channels_unrolled(m):
    """The camera-like chain with the three colours a cycle (hw_output.reorder(c, xi, yi).unroll(c)), 6x4."""
    inp, x, y, c, f = _camera(m)
    if on_hardware(m):
        _camera_sched(m, f, x, y, c, (6, 4))
    return f["output"], {"input": inp}, [6, 4, 3]


def camera_channels_serial(m):
    """The colours in turn inside the accelerator (hw_output.reorder(xi, yi, c)), corrected inline, 5x4."""
    inp, x, y, c, f = _camera(m)
    if on_hardware(m):
        _camera_sched(m, f, x, y, c, (5, 4), channels="serial")
    return f["output"], {"input": inp}, [5, 4, 3]


def camera_host_tiles(m):
    """Host tiles of 4x2 over 8x4 (the Bayer phase the same in every tile: even tile sizes)."""
    inp, x, y, c, f = _camera(m)
    if on_hardware(m):
        _camera_sched(m, f, x, y, c, (8, 4), tile=(4, 2))
    return f["output"], {"input": inp}, [8, 4, 3]


def camera_odd_host_tiles(m):
    """Host tiles of 3x3 over 6x6: tiles start at odd coordinates, so the Bayer phase changes from tile to tile."""
    inp, x, y, c, f = _camera(m)
    if on_hardware(m):
        _camera_sched(m, f, x, y, c, (6, 6), tile=(3, 3))
    return f["output"], {"input": inp}, [6, 6, 3]


def camera_two_lanes(m):
    """The camera-like chain at two pixels a cycle (both Bayer phases of a row pair at once), 8x2."""
    inp, x, y, c, f = _camera(m)
    if on_hardware(m):
        _camera_sched(m, f, x, y, c, (8, 2), lanes=2)
    return f["output"], {"input": inp}, [8, 2, 3]


def camera_demosaic_buffered(m):
    """The white-balanced demosaic (x, y, c) a buffer of its own with its channels unrolled, colours a cycle, 6x4."""
    inp, x, y, c, f = _camera(m)
    if on_hardware(m):
        _camera_sched(m, f, x, y, c, (6, 4))
        f["demosaic"].compute_at(f["hw_output"], m.Var("xo")).reorder(c, x, y).unroll(c)
    return f["output"], {"input": inp}, [6, 4, 3]


# ---- unsharp --------------------------------------------------------------------------------------------------

def _unsharp(m):
    """unsharp_generator's structure: gray from RGB, a 5x5 binomial blur (separable), sharpen = 2 gray - blur,
    ratio = sharpen * 32 / (gray + 1), output = ratio * input >> 5 per channel, clamped."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    f = {n: m.Func(n) for n in "hw_input gray blur_x blur_y sharpen ratio hw_output output".split()}
    f["hw_input"][x, y, c] = m.u16(inp[x + 2, y + 2, c])
    h = f["hw_input"]
    f["gray"][x, y] = (77 * h[x, y, 0] + 150 * h[x, y, 1] + 29 * h[x, y, 2]) >> 8
    g = f["gray"]
    f["blur_x"][x, y] = g[x - 2, y] + 4 * g[x - 1, y] + 6 * g[x, y] + 4 * g[x + 1, y] + g[x + 2, y]
    bx = f["blur_x"]
    f["blur_y"][x, y] = (bx[x, y - 2] + 4 * bx[x, y - 1] + 6 * bx[x, y] + 4 * bx[x, y + 1] + bx[x, y + 2]) >> 8
    f["sharpen"][x, y] = m.i16(m.clamp(m.i32(2 * g[x, y]) - m.i32(f["blur_y"][x, y]), 0, 255))
    f["ratio"][x, y] = m.u16(f["sharpen"][x, y]) * 32 / (g[x, y] + 1)
    f["hw_output"][x, y, c] = m.u8(m.min(f["ratio"][x, y] * h[x, y, c] >> 5, 255))
    f["output"][x, y, c] = f["hw_output"][x, y, c]
    return inp, x, y, c, f


def _unsharp_sched(m, f, x, y, c, size, tile=None, lanes=1):
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    f["output"].bound(x, 0, size[0]).bound(y, 0, size[1]).bound(c, 0, 3)
    hw = f["hw_output"]
    f["hw_input"].bound(c, 0, 3)
    hw.compute_root().tile(x, y, xo, yo, xi, yi, *(tile or size)).reorder(c, xi, yi, xo, yo).unroll(c)
    hw.hw_accelerate(xi, xo)
    for n in ("gray", "blur_x", "blur_y", "ratio"):
        f[n].compute_at(hw, xo)
    f["hw_input"].compute_root().reorder(c, x, y).unroll(c).stream_to_accelerator()
    if lanes > 1:
        hw.unroll(xi, lanes)
        for n in ("gray", "blur_x", "blur_y", "ratio"):
            f[n].unroll(x, lanes)
        f["hw_input"].unroll(x, lanes)
    return xo, yo, xi, yi


def unsharp_channels_unrolled(m):
    """unsharp's structure with its buffers at xo, colours a cycle, 6x4."""
    inp, x, y, c, f = _unsharp(m)
    if on_hardware(m):
        _unsharp_sched(m, f, x, y, c, (6, 4))
    return f["output"], {"input": inp}, [6, 4, 3]


def unsharp_two_lanes(m):
    """unsharp at two pixels a cycle (six words a cycle in and out), 8x3."""
    inp, x, y, c, f = _unsharp(m)
    if on_hardware(m):
        _unsharp_sched(m, f, x, y, c, (8, 3), lanes=2)
    return f["output"], {"input": inp}, [8, 3, 3]


def unsharp_host_tiles_odd(m):
    """unsharp in host tiles of 4x3 over 7x5 (shifted inward), 5-row blur windows across tile edges."""
    inp, x, y, c, f = _unsharp(m)
    if on_hardware(m):
        _unsharp_sched(m, f, x, y, c, (7, 5), tile=(4, 3))
    return f["output"], {"input": inp}, [7, 5, 3]


def unsharp_blur_x_at_blur_y_rows(m):
    """blur_x computed at blur_y's rows and stored at xo (a sliding window), sharpen a buffer too, 6x4."""
    inp, x, y, c, f = _unsharp(m)
    if on_hardware(m):
        _unsharp_sched(m, f, x, y, c, (6, 4))
        f["blur_x"].store_at(f["hw_output"], m.Var("xo")).compute_at(f["blur_y"], y)
        f["sharpen"].compute_at(f["hw_output"], m.Var("xo"))
    return f["output"], {"input": inp}, [6, 4, 3]



# ---- the three under a GLB level ----------------------------------------------------------------------------------

def harris_glb_two_lanes(m):
    """harris (gradients written out) under a GLB of 8x4, memory tile 8x4, two lanes through all three levels."""
    inp, x, y, f, box = _harris(m, rdom_grads=False)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        f["output"].bound(x, 0, 8).bound(y, 0, 4)
        hw = f["hw_output"]
        g = hw.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        g.unroll(xi, 2)
        hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 8, 4).unroll(xii, 2)
        for n in ("grad_x", "grad_y", "lgxx", "lgyy", "lgxy", "cim"):
            f[n].compute_at(hw, xio).unroll(x, 2)
        for n in ("lgxx", "lgyy", "lgxy"):
            f[n].update().unroll(f[n].rvars()[0]).unroll(f[n].rvars()[1]).unroll(x, 2)
        p = f["padded16"]
        p.in_().in_().compute_at(hw, xio).unroll(x, 2)
        p.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        p.compute_root().accelerator_input()
    return f["output"], {"input": inp}, [8, 4]

def camera_glb_serial_channels(m):
    """The camera-like chain under a GLB of 6x4, the colours in turn at both levels (reorder(xi, yi, c))."""
    inp, x, y, c, f = _camera(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        f["output"].bound(x, 0, 6).bound(y, 0, 4).bound(c, 0, 3)
        hw = f["hw_output"]
        hw.bound(c, 0, 3)
        g = hw.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(xi, yi, c, xo, yo).hw_accelerate(xi, xo)
        g.store_in(m.MemoryType.GLB)
        hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 6, 4).reorder(xii, yii, c, xio, yio)
        for n in ("denoised", "green", "red", "blue"):
            f[n].compute_at(hw, xio)
        f["curve"].compute_at(hw, xio).bound(m.Var("v"), 0, 256).unroll(m.Var("v"))
        p = f["hw_input"]
        p.in_().in_().compute_at(hw, xio)
        p.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        p.compute_root().accelerator_input()
    return f["output"], {"input": inp}, [6, 4, 3]

def unsharp_glb_level(m):
    """unsharp under a GLB of 6x4, colours in turn, the memory tile's input copy reading a pixel's channels
    together."""
    inp, x, y, c, f = _unsharp(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        f["output"].bound(x, 0, 6).bound(y, 0, 4).bound(c, 0, 3)
        h = f["hw_input"]
        h.bound(c, 0, 3)
        hw = f["hw_output"]
        g = hw.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(xi, yi, c, xo, yo).hw_accelerate(xi, xo)
        g.store_in(m.MemoryType.GLB)
        hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 6, 4).reorder(xii, yii, c, xio, yio)
        for n in ("gray", "blur_x", "blur_y", "ratio"):
            f[n].compute_at(hw, xio)
        h.in_().in_().compute_at(hw, xio).reorder(c, x, y).unroll(c)
        h.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        h.compute_root().accelerator_input()
    return f["output"], {"input": inp}, [6, 4, 3]


CASES = {f.__name__: f for f in (
    harris_kernel_rdom_all_buffers, harris_products_inline, harris_grads_inline, harris_host_tiles,
    harris_two_lanes, harris_glb_level, camera_channels_unrolled, camera_channels_serial, camera_host_tiles,
    camera_odd_host_tiles, camera_two_lanes, camera_demosaic_buffered, unsharp_channels_unrolled, unsharp_two_lanes,
    unsharp_host_tiles_odd, unsharp_blur_x_at_blur_y_rows, harris_glb_two_lanes, camera_glb_serial_channels,
    unsharp_glb_level,
)}
