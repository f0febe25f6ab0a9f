"""More of autoprobe39's programs (session 39): multi-stage pipelines with reductions over RDoms, histograms, scans,
Tuples, channels, and the autoscheduler's budgets and GLB keys, written with no schedule (see
autoprobe39_programs.py)."""

from probe_common import estimate, u8_input, xy


def median_hist(m, w, h):
    """A histogram of 8 bins of the 1x3 row median of the 3x1 column mean (3 stages feeding a scatter)."""
    inp = u8_input(m)
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    col, med, hist = m.Func("colm"), m.Func("med3"), m.Func("mhist")
    col[x, y] = m.u8((m.u16(inp[x, y]) + m.u16(inp[x, y + 1]) + m.u16(inp[x, y + 2])) / 3)
    lo, hi = m.min(col[x, y], col[x + 1, y]), m.max(col[x, y], col[x + 1, y])
    med[x, y] = m.max(lo, m.min(hi, col[x + 2, y]))
    r = m.RDom([(0, w - 2), (0, h - 2)], "r")
    hist[b] = m.u16(0)
    hist[m.i32(med[r.x, r.y] >> 5)] += m.u16(1)
    hist.set_estimates([(0, 8)])
    return hist, {"inp": inp}


def row_normalise(m, w, h):
    """Each row's sum over an RDom, then each pixel of a 1x3 blur scaled by 64 / (the row's mean + 1) (4 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, w + 2)], "r")
    rowsum, blur, out = m.Func("rowsum"), m.Func("rblur"), m.Func("rnorm")
    rowsum[y] = m.u32(0)
    rowsum[y] += m.u32(inp[r.x, y])
    blur[x, y] = (m.u32(inp[x, y]) + m.u32(inp[x + 1, y]) + m.u32(inp[x + 2, y])) / 3
    out[x, y] = m.u8(m.min(blur[x, y] * 64 / (rowsum[y] / (w + 2) + 1), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def col_max_stretch(m, w, h):
    """Each column's maximum by m.maximum, then each pixel of a 3x1 column mean stretched to it (u16 inside)."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, h + 2)], "r")
    colmax, cmean, out = m.Func("colmax"), m.Func("cmean"), m.Func("cstretch")
    colmax[x] = m.maximum(m.u16(inp[x, r.x]))
    cmean[x, y] = (m.u16(inp[x, y]) + m.u16(inp[x, y + 1]) + m.u16(inp[x, y + 2])) / 3
    out[x, y] = m.u8(m.min(cmean[x, y] * 255 / (colmax[x] + 1), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def frame_mean_center(m, w, h):
    """The frame's u32 sum, then a 3x3 box less the frame's mean, offset by 128 and clamped (4 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, w + 2), (0, h + 2)], "r")
    total, box, out = m.Func("ftotal"), m.Func("fbox"), m.Func("centred")
    total[()] = m.u32(0)
    total[()] += m.u32(inp[r.x, r.y])
    box[x, y] = sum(m.i32(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9
    out[x, y] = m.u8(m.clamp(box[x, y] - m.i32(total[()] / ((w + 2) * (h + 2))) + 128, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def harris_tuple(m, w, h):
    """Harris-like: central differences, their products as one Tuple Func (ixx, iyy, ixy), 3x3 sums of each, then
    det - trace^2 / 16 (i32) thresholded (5 stages, a Tuple of three)."""
    inp = u8_input(m)
    x, y = xy(m)
    gx, gy, prod, sums, out = (m.Func(n) for n in ("hgx", "hgy", "prods", "psums", "corner"))
    gx[x, y] = (m.i16(inp[x + 2, y + 1]) - m.i16(inp[x, y + 1])) / 2
    gy[x, y] = (m.i16(inp[x + 1, y + 2]) - m.i16(inp[x + 1, y])) / 2
    prod[x, y] = (m.i32(gx[x, y]) * m.i32(gx[x, y]), m.i32(gy[x, y]) * m.i32(gy[x, y]),
                  m.i32(gx[x, y]) * m.i32(gy[x, y]))
    sums[x, y] = tuple(sum(prod[x + i, y + j][k] for i in range(3) for j in range(3)) for k in range(3))
    sxx, syy, sxy = sums[x, y][0], sums[x, y][1], sums[x, y][2]
    resp = sxx * syy - sxy * sxy - (sxx + syy) * (sxx + syy) / 16
    out[x, y] = m.select(resp > 5000, m.u8(255), m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def grad_dir_tuple(m, w, h):
    """Sobel (gx, gy) as a Tuple Func, the magnitude |gx| + |gy| / 4, zeroed where the direction is mostly vertical
    (4 stages, a Tuple of two)."""
    inp = u8_input(m)
    x, y = xy(m)
    g, mag, out = m.Func("sob"), m.Func("smag"), m.Func("hedges")

    def v(i, j):
        return m.i16(inp[x + i, y + j])

    g[x, y] = (v(2, 0) + 2 * v(2, 1) + v(2, 2) - v(0, 0) - 2 * v(0, 1) - v(0, 2),
               v(0, 2) + 2 * v(1, 2) + v(2, 2) - v(0, 0) - 2 * v(1, 0) - v(2, 0))
    mag[x, y] = (m.abs(g[x, y][0]) + m.abs(g[x, y][1])) / 4
    out[x, y] = m.u8(m.select(m.abs(g[x, y][0]) > m.abs(g[x, y][1]), m.min(mag[x, y], 255), 0))
    estimate(out, w, h)
    return out, {"inp": inp}


def planar_gray_sharpen(m, w, h):
    """A planar RGB image (x, y, c) to gray by a sum over an RDom of its 3 planes with weights from a Func, then a
    3x3 box and unsharp masking of the gray (5 stages)."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    r = m.RDom([(0, 3)], "rc")
    wts, gray, box, out = m.Func("cw"), m.Func("gray"), m.Func("gbox"), m.Func("gsharp3")
    wts[c] = m.u16(m.select(c == 0, 77, c == 1, 150, 29))
    gray[x, y] = m.u16(0)
    gray[x, y] += m.u16(rgb[x, y, r]) * wts[r]
    box[x, y] = sum(gray[x + i, y + j] >> 8 for i in range(3) for j in range(3)) / 9
    out[x, y] = m.u8(m.clamp(2 * m.i16(gray[x + 1, y + 1] >> 8) - m.i16(box[x, y]), 0, 255))
    estimate(out, w, h)
    return out, {"rgb": rgb}


def interleaved_max_blur(m, w, h):
    """An interleaved image (c, x, y) of 3 channels: each pixel's largest channel by m.maximum over an RDom, then a
    1-2-1 blur along x and y of it (4 stages)."""
    img = u8_input(m, "img", 3)
    x, y = xy(m)
    r = m.RDom([(0, 3)], "rk")
    vmax, bx, out = m.Func("vmax"), m.Func("vbx"), m.Func("vblur")
    vmax[x, y] = m.maximum(m.u16(img[r, x, y]))
    bx[x, y] = vmax[x, y] + 2 * vmax[x + 1, y] + vmax[x + 2, y]
    out[x, y] = m.u8((bx[x, y] + 2 * bx[x, y + 1] + bx[x, y + 2]) / 16)
    estimate(out, w, h)
    return out, {"img": img}


def row_iir_then_col(m, w, h):
    """A causal IIR along each row (s(x) = (s(x - 1) * 3 + in(x)) / 4, a scan over an RDom), then a 3x1 column mean
    of it and a clamp (4 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(1, w - 1)], "rs")
    s, col, out = m.Func("iir"), m.Func("icol"), m.Func("smooth")
    s[x, y] = m.u16(inp[x, y]) * 4
    s[r, y] = (s[r - 1, y] * 3 + m.u16(inp[r, y]) * 4) / 4
    col[x, y] = (s[x, y] + s[x, y + 1] + s[x, y + 2]) / 12
    out[x, y] = m.u8(m.min(col[x, y], 255))
    estimate(out, w, h - 2)
    return out, {"inp": inp}


def orient_hist(m, w, h):
    """A 4-bin histogram of gradient quadrants weighted by the gradient's magnitude (u32 bins; 3 stages feeding a
    weighted scatter)."""
    inp = u8_input(m)
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    gx, gy, hist = m.Func("ogx"), m.Func("ogy"), m.Func("ohist")
    gx[x, y] = m.i16(inp[x + 1, y]) - m.i16(inp[x, y])
    gy[x, y] = m.i16(inp[x, y + 1]) - m.i16(inp[x, y])
    r = m.RDom([(0, w - 1), (0, h - 1)], "r")
    quad = m.select(gx[r.x, r.y] >= 0, 0, 1) + m.select(gy[r.x, r.y] >= 0, 0, 2)
    hist[b] = m.u32(0)
    hist[quad] += m.u32(m.abs(gx[r.x, r.y]) + m.abs(gy[r.x, r.y]))
    hist.set_estimates([(0, 4)])
    return hist, {"inp": inp}


def box5_rdom_serial(m, w, h):
    """A 5x5 box by m.sum over an RDom then a 1x2 mean: the RDom box at a PE budget (its taps partly serial)."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 5), (0, 5)], "r")
    box, out = m.Func("b5"), m.Func("b5m")
    box[x, y] = m.sum(m.u16(inp[x + r.x, y + r.y])) / 25
    out[x, y] = m.u8((box[x, y] + box[x + 1, y] + 1) / 2)
    estimate(out, w, h)
    return out, {"inp": inp}


def cascade5(m, w, h):
    """Five 1-2-1 blurs, alternately along x and y, then a saturating gain of 3 / 2 (6 stages)."""
    inp = u8_input(m)
    x, y = xy(m)
    stages = [m.Func(f"c{k}") for k in range(5)]
    prev = lambda u, v: m.u16(inp[u, v])  # noqa: E731
    for k, f in enumerate(stages):
        p = prev
        if k % 2 == 0:
            f[x, y] = (p(x, y) + 2 * p(x + 1, y) + p(x + 2, y)) / 4
        else:
            f[x, y] = (p(x, y) + 2 * p(x, y + 1) + p(x, y + 2)) / 4
        prev = lambda u, v, f=f: f[u, v]  # noqa: E731
    out = m.Func("c5out")
    out[x, y] = m.u8(m.min(stages[-1][x, y] * 3 / 2, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


MORE = {
    "median_hist_13x7": (median_hist, (13, 7), {}),
    "row_normalise_13x5": (row_normalise, (13, 5), {}),
    "col_max_stretch_11x5": (col_max_stretch, (11, 5), {}),
    "frame_mean_center_11x5": (frame_mean_center, (11, 5), {}),
    "harris_tuple_13x7": (harris_tuple, (13, 7), {}),
    "grad_dir_tuple_13x7_l2": (grad_dir_tuple, (13, 7), {"lanes": "2"}),
    "planar_gray_sharpen_11x7": (planar_gray_sharpen, (11, 7), {}),
    "interleaved_max_blur_13x5": (interleaved_max_blur, (13, 5), {}),
    "row_iir_then_col_13x7": (row_iir_then_col, (13, 9), {}),
    # gap: the image's stream holds 29 words for a minimum of 19 (its rows read by gx and gy at once)
    "orient_hist_13x7": (orient_hist, (13, 7), {}, {"words_over_min": 10}),
    "box5_rdom_serial_13x9_pes12": (box5_rdom_serial, (13, 9), {"max_pes": "12"}),
    "cascade5_16x12_glb": (cascade5, (16, 12), {"use_glb": "true", "glb_tile": "8x6"}),
    # at max_mem_tiles 1: refused, "about 2 memory tiles" even in tiles a pixel wide (three y blurs of two lines)
    "cascade5_15x9_tiles2": (cascade5, (15, 9), {"max_mem_tiles": "2"}),
}
