"""More of autoprobe24's programs (session 38): reductions over RDoms, histograms, scans, Tuples, several outputs,
channels, written with no schedule (see autoprobe24_programs.py)."""

from probe_common import estimate, u8_input, xy


def hist16(m, w, h):
    """A histogram of 16 bins (the top nibble), u16 counts."""
    inp = u8_input(m)
    b = m.Var("b")
    r = m.RDom([(0, w), (0, h)], "r")
    hist = m.Func("hist16")
    hist[b] = m.u16(0)
    hist[m.i32(inp[r.x, r.y] >> 4)] += m.u16(1)
    hist.set_estimates([(0, 16)])
    return hist, {"inp": inp}


def hist_absdiff(m, w, h):
    """A histogram of 8 bins of two images' absolute difference (>> 5), u16 counts."""
    a, bimg = u8_input(m, "a"), u8_input(m, "b")
    b = m.Var("b")
    r = m.RDom([(0, w), (0, h)], "r")
    hist = m.Func("dhist")
    hist[b] = m.u16(0)
    hist[m.i32(m.absd(a[r.x, r.y], bimg[r.x, r.y]) >> 5)] += m.u16(1)
    hist.set_estimates([(0, 8)])
    return hist, {"a": a, "b": bimg}


def row_max(m, w, h):
    """Each row's largest value by m.maximum over the row: a 1-D output."""
    inp = u8_input(m)
    y = m.Var("y")
    r = m.RDom([(0, w)], "r")
    out = m.Func("rowmax")
    out[y] = m.maximum(inp[r.x, y])
    out.set_estimates([(0, h)])
    return out, {"inp": inp}


def col_sum(m, w, h):
    """Each column's sum (u16) down the image, an update over an RDom: a 1-D output of w."""
    inp = u8_input(m)
    x = m.Var("x")
    r = m.RDom([(0, h)], "r")
    out = m.Func("colsum")
    out[x] = m.u16(0)
    out[x] += m.u16(inp[x, r.x])
    out.set_estimates([(0, w)])
    return out, {"inp": inp}


def frame_sum(m, w, h):
    """The whole frame's sum (u32), an output of no dimensions."""
    inp = u8_input(m)
    r = m.RDom([(0, w), (0, h)], "r")
    out = m.Func("total")
    out[()] = m.u32(0)
    out[()] += m.u32(inp[r.x, r.y])
    return out, {"inp": inp}


def box3_rdom(m, w, h):
    """A 3x3 box by m.sum over an RDom (u16), / 9."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 3), (0, 3)], "r")
    out = m.Func("box3r")
    out[x, y] = m.u8(m.sum(m.u16(inp[x + r.x, y + r.y])) / 9)
    estimate(out, w, h)
    return out, {"inp": inp}


def box5_rdom(m, w, h):
    """A 5x5 box by m.sum over an RDom (u16), / 25: the previous probe's 182 words where 76 suffice at max_pes 20."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 5), (0, 5)], "r")
    out = m.Func("box5r")
    out[x, y] = m.u8(m.sum(m.u16(inp[x + r.x, y + r.y])) / 25)
    estimate(out, w, h)
    return out, {"inp": inp}


def box5_update(m, w, h):
    """A 5x5 box as a Func's pure definition and an update over an RDom (u16), then / 25 in the output."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 5), (0, 5)], "r")
    acc, out = m.Func("acc5"), m.Func("box5u")
    acc[x, y] = m.u16(0)
    acc[x, y] += m.u16(inp[x + r.x, y + r.y])
    out[x, y] = m.u8(acc[x, y] / 25)
    estimate(out, w, h)
    return out, {"inp": inp}


def mean_threshold(m, w, h):
    """Each pixel against the frame's mean: 255 at or above it, else 0 (a u32 sum over the frame first)."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, w), (0, h)], "r")
    tot, out = m.Func("tot"), m.Func("binar")
    tot[()] = m.u32(0)
    tot[()] += m.u32(inp[r.x, r.y])
    out[x, y] = m.select(m.u32(inp[x, y]) * (w * h) >= tot[()], m.u8(255), m.u8(0))
    estimate(out, w, h)
    return out, {"inp": inp}


def col_prefix_max(m, w, h):
    """The running maximum down each column, an RDom scan over y."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(1, h - 1)], "r")
    out = m.Func("cummax")
    out[x, y] = inp[x, y]
    out[x, r.x] = m.max(out[x, r.x - 1], inp[x, r.x])
    estimate(out, w, h)
    return out, {"inp": inp}


def row_prefix_sum(m, w, h):
    """The running sum along each row (u16), an RDom scan over x."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(1, w - 1)], "r")
    out = m.Func("cumsum")
    out[x, y] = m.u16(inp[x, y])
    out[r.x, y] = out[r.x - 1, y] + m.u16(inp[r.x, y])
    estimate(out, w, h)
    return out, {"inp": inp}


def argmax_row(m, w, h):
    """Each row's largest value and its last column, a Tuple (u8, u8) updated over an RDom along the row."""
    inp = u8_input(m)
    y = m.Var("y")
    r = m.RDom([(0, w)], "r")
    out = m.Func("amax")
    out[y] = (m.u8(0), m.u8(0))
    more = inp[r.x, y] >= out[y][0]
    out[y] = (m.select(more, inp[r.x, y], out[y][0]), m.select(more, m.u8(r.x), out[y][1]))
    out.set_estimates([(0, h)])
    return out, {"inp": inp}


def frame_minmax(m, w, h):
    """The frame's smallest and largest values, a Tuple of no dimensions updated over the frame."""
    inp = u8_input(m)
    r = m.RDom([(0, w), (0, h)], "r")
    out = m.Func("mm")
    out[()] = (m.u8(255), m.u8(0))
    v = inp[r.x, r.y]
    out[()] = (m.min(out[()][0], v), m.max(out[()][1], v))
    return out, {"inp": inp}


def sum_diff_tuple(m, w, h):
    """A Tuple output: each pixel's sum with its right neighbour (u16) and their difference (i16)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("sd")
    out[x, y] = (m.u16(inp[x, y]) + m.u16(inp[x + 1, y]), m.i16(inp[x + 1, y]) - m.i16(inp[x, y]))
    estimate(out, w, h)
    return out, {"inp": inp}


def blur_and_edge(m, w, h):
    """Two outputs of one image: a 3x3 box (u8) and a horizontal edge magnitude (u8)."""
    inp = u8_input(m)
    x, y = xy(m)
    blur, edge = m.Func("blur"), m.Func("edge")
    blur[x, y] = m.u8(sum(m.u16(inp[x + i, y + j]) for i in range(3) for j in range(3)) / 9)
    edge[x, y] = m.absd(inp[x + 2, y + 1], inp[x, y + 1])
    estimate(blur, w, h)
    estimate(edge, w, h)
    return [blur, edge], {"inp": inp}


def three_outputs(m, w, h):
    """Three outputs of one image, each a pointwise map of a shared 1x2 mean: the mean, its inverse, its square."""
    inp = u8_input(m)
    x, y = xy(m)
    mean, o1, o2, o3 = m.Func("mean2"), m.Func("o_mean"), m.Func("o_inv"), m.Func("o_sq")
    mean[x, y] = m.u8((m.u16(inp[x, y]) + m.u16(inp[x + 1, y]) + 1) >> 1)
    o1[x, y] = mean[x, y]
    o2[x, y] = 255 - mean[x, y]
    o3[x, y] = m.u8((m.u16(mean[x, y]) * m.u16(mean[x, y])) >> 8)
    for f in (o1, o2, o3):
        estimate(f, w, h)
    return [o1, o2, o3], {"inp": inp}


def stats4_tuple(m, w, h):
    """A wide Tuple output: each 3x3 window's min, max, sum (u16) and centre."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("stats4")
    vals = [inp[x + i, y + j] for i in range(3) for j in range(3)]
    mn, mx = vals[0], vals[0]
    for v in vals[1:]:
        mn, mx = m.min(mn, v), m.max(mx, v)
    out[x, y] = (mn, mx, sum(m.u16(v) for v in vals), inp[x + 1, y + 1])
    estimate(out, w, h)
    return out, {"inp": inp}


def tuple_stage(m, w, h):
    """A Tuple stage (the 1x2 min and max) read by the output: max - min, doubled, saturated."""
    inp = u8_input(m)
    x, y = xy(m)
    mm, out = m.Func("mm2"), m.Func("range2")
    mm[x, y] = (m.min(inp[x, y], inp[x + 1, y]), m.max(inp[x, y], inp[x + 1, y]))
    out[x, y] = m.u8(m.min(2 * m.u16(mm[x, y + 1][1] - mm[x, y][0] % 128), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def rgb_box3(m, w, h):
    """A 3x3 box of each plane of a planar RGB image (u16 / 9)."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("rgbbox")
    out[x, y, c] = m.u8(sum(m.u16(rgb[x + i, y + j, c]) for i in range(3) for j in range(3)) / 9)
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def saturate_boost(m, w, h):
    """Saturation boost: each plane pushed away from the pixel's gray, 2 c - gray, clamped (gray a Func)."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    gray, out = m.Func("gray"), m.Func("vivid")
    gray[x, y] = (m.i16(rgb[x, y, 0]) + m.i16(rgb[x, y, 1]) + m.i16(rgb[x, y, 2])) / 3
    out[x, y, c] = m.u8(m.clamp(2 * m.i16(rgb[x, y, c]) - gray[x, y], 0, 255))
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def rgb_to_yuv(m, w, h):
    """Planar RGB to planar YUV (BT.601 integer approximations), each plane chosen by select on c."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("yuv")
    r, g, b = (m.i32(rgb[x, y, k]) for k in range(3))
    yy = (66 * r + 129 * g + 25 * b + 128) >> 8
    uu = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128
    vv = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128
    out[x, y, c] = m.u8(m.clamp(m.select(c == 0, yy + 16, c == 1, uu, vv), 0, 255))
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def false_rgb(m, w, h):
    """A gray image to three planes by a colour map: red rises, green peaks in the middle, blue falls."""
    inp = u8_input(m)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("cmap")
    v = m.i16(inp[x, y])
    green = 255 - m.i16(m.abs(2 * v - 255))
    out[x, y, c] = m.u8(m.clamp(m.select(c == 0, v, c == 1, green, 255 - v), 0, 255))
    estimate(out, w, h, 3)
    return out, {"inp": inp}


def planes4_sum(m, w, h):
    """The rounded mean of a 4-plane image's planes, one plane out."""
    img = u8_input(m, "img", 3)
    x, y = xy(m)
    out = m.Func("mean4")
    out[x, y] = m.u8((sum(m.u16(img[x, y, k]) for k in range(4)) + 2) >> 2)
    estimate(out, w, h)
    return out, {"img": img}


def interleaved_to_planar(m, w, h):
    """An interleaved RGB image (c, x, y) to planar (x, y, c), each plane less a tenth of the next."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("planar")
    v = rgb[c, x, y]
    out[x, y, c] = v - v / 10
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def hist_then_scale(m, w, h):
    """A 4-bin histogram of the top 2 bits, then each pixel scaled by how common its bin is (count * 255 / n)."""
    inp = u8_input(m)
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    r = m.RDom([(0, w), (0, h)], "r")
    hist, out = m.Func("hist4"), m.Func("common")
    hist[b] = m.u16(0)
    hist[m.i32(inp[r.x, r.y] >> 6)] += m.u16(1)
    out[x, y] = m.u8(m.u32(hist[m.i32(inp[x, y] >> 6)]) * 255 / (w * h))
    estimate(out, w, h)
    return out, {"inp": inp}


def wide_tuple5(m, w, h):
    """A wide Tuple output of five 1x3 taps' derivatives (u8 and i16), at a small PE budget."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("wide5")
    a, b, c = (m.i16(inp[x + i, y]) for i in range(3))
    out[x, y] = (m.u8(m.max(a, m.max(b, c))), b - a, c - b, c - a, a + c - 2 * b)
    estimate(out, w, h)
    return out, {"inp": inp}


def argmax2_tuple(m, w, h):
    """A Tuple output of one word with a stencil inside: the larger of a 1x2 pair's 1-2-1 blurs and which (u8, u8)."""
    inp = u8_input(m)
    x, y = xy(m)
    blur, out = m.Func("blur"), m.Func("pick")
    blur[x, y] = m.u8((m.u16(inp[x, y]) + 2 * m.u16(inp[x, y + 1]) + m.u16(inp[x, y + 2]) + 2) >> 2)
    right = blur[x + 1, y] > blur[x, y]
    out[x, y] = (m.max(blur[x, y], blur[x + 1, y]), m.select(right, m.u8(1), m.u8(0)))
    estimate(out, w, h)
    return out, {"inp": inp}


MORE = {
    "hist16_13x5": (hist16, (13, 5), {}),
    "hist_absdiff_11x5": (hist_absdiff, (11, 5), {}),
    "row_max_13x5": (row_max, (13, 5), {}),
    "col_sum_9x7": (col_sum, (9, 7), {}),
    "frame_sum_13x5": (frame_sum, (13, 5), {}),
    "box3_rdom_13x7": (box3_rdom, (13, 7), {}),
    "box3_rdom_13x7_l2": (box3_rdom, (13, 7), {"lanes": "2"}),
    # r.x unrolled, r.y serial: 5 reads a cycle of an addressed memory (the stream is paced, in two pieces), whose
    # banks are replicated for their read ports, 3 copies of about 60 words; the minimum (76) counts one
    "box5_rdom_13x9_pes20": (box5_rdom, (13, 9), {"max_pes": "20"}, {"words_over_min": 7}),
    "box5_update_13x9": (box5_update, (13, 9), {}),
    "mean_threshold_11x5": (mean_threshold, (11, 5), {}),
    "col_prefix_max_9x7": (col_prefix_max, (9, 7), {}),
    "row_prefix_sum_13x5": (row_prefix_sum, (13, 5), {}),
    "argmax_row_13x5": (argmax_row, (13, 5), {}),
    "frame_minmax_11x5": (frame_minmax, (11, 5), {}),
    "sum_diff_tuple_13x5": (sum_diff_tuple, (13, 5), {}),
    "sum_diff_tuple_13x5_l2": (sum_diff_tuple, (13, 5), {"lanes": "2"}),
    "blur_and_edge_13x7": (blur_and_edge, (13, 7), {}),
    "three_outputs_13x5": (three_outputs, (13, 5), {}),
    "stats4_tuple_13x7": (stats4_tuple, (13, 7), {}),
    "stats4_tuple_13x7_pes64": (stats4_tuple, (13, 7), {"max_pes": "64"}),
    "tuple_stage_13x7": (tuple_stage, (13, 7), {}),
    "rgb_box3_13x7": (rgb_box3, (13, 7), {}),
    "saturate_boost_13x5": (saturate_boost, (13, 5), {}),
    "rgb_to_yuv_11x5": (rgb_to_yuv, (11, 5), {}),
    "false_rgb_13x5": (false_rgb, (13, 5), {}),
    "planes4_sum_13x5_l2": (planes4_sum, (13, 5), {"lanes": "2"}),
    "interleaved_to_planar_11x5": (interleaved_to_planar, (11, 5), {}),
    "hist_then_scale_11x5": (hist_then_scale, (11, 5), {}),
    "wide_tuple5_13x5": (wide_tuple5, (13, 5), {}),
    "wide_tuple5_13x5_pes60": (wide_tuple5, (13, 5), {"max_pes": "60"}),
    # a Tuple of one word made a copy of its value for the GLB level (refused before)
    "sum_diff_tuple_16x8_glb": (sum_diff_tuple, (16, 8), {"use_glb": "true", "glb_tile": "8x8"}),
    "argmax2_tuple_16x8_glb": (argmax2_tuple, (16, 8), {"use_glb": "true", "glb_tile": "8x4"}),
}
