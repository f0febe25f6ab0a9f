"""More of autoprobe22's programs (session 36): several images, reductions and scans over RDoms, other element
types, channels, written with no schedule (see autoprobe22_programs.py)."""

from probe_common import estimate, u8_input, xy


def frame_avg3(m, w, h):
    """The rounded mean of three frames (u16 inside)."""
    a, b, c = (u8_input(m, n) for n in "abc")
    x, y = xy(m)
    out = m.Func("avg3")
    out[x, y] = m.u8((m.u16(a[x, y]) + m.u16(b[x, y]) + m.u16(c[x, y]) + 1) / 3)
    estimate(out, w, h)
    return out, {"a": a, "b": b, "c": c}


def mask_select(m, w, h):
    """Two images merged by a third as a mask: the larger of the two where the mask is over 127, else the smaller,
    less a quarter of the mask's low bits."""
    a, b, k = u8_input(m, "a"), u8_input(m, "b"), u8_input(m, "k")
    x, y = xy(m)
    out = m.Func("merged")
    pick = m.select(k[x, y] > 127, m.max(a[x, y], b[x, y]), m.min(a[x, y], b[x, y]))
    out[x, y] = pick - m.min(pick, (k[x, y] & 63) >> 2)
    estimate(out, w, h)
    return out, {"a": a, "b": b, "k": k}


def sat_sub(m, w, h):
    """One image less another, saturated at 0: select(a > b, a - b, 0)."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    out = m.Func("diff")
    out[x, y] = m.select(a[x, y] > b[x, y], a[x, y] - b[x, y], m.u8(0))
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def mul_hi(m, w, h):
    """The high byte of two images' product: (u16(a) * u16(b)) >> 8."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    out = m.Func("prod")
    out[x, y] = m.u8((m.u16(a[x, y]) * m.u16(b[x, y])) >> 8)
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def div_by_image(m, w, h):
    """One image divided by another, scaled: u16(a) * 64 / (u16(b) + 1), saturated (a division by a variable)."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    out = m.Func("ratio")
    out[x, y] = m.u8(m.min(m.u16(a[x, y]) * 64 / (m.u16(b[x, y]) + 1), 255))
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def ssd3x3(m, w, h):
    """The sum of squared differences of two images over each 3x3 window (u32), >> 8 saturated."""
    a, b = u8_input(m, "a"), u8_input(m, "b")
    x, y = xy(m)
    d, out = m.Func("sq"), m.Func("ssd")
    diff = m.i32(a[x, y]) - m.i32(b[x, y])
    d[x, y] = m.u32(diff * diff)
    out[x, y] = m.u8(m.min(sum(d[x + i, y + j] for i in range(3) for j in range(3)) >> 8, 255))
    estimate(out, w, h)
    return out, {"a": a, "b": b}


def row_total(m, w, h):
    """Each row's sum (u32) over the image's width: a 1-D output, one value a row."""
    inp = u8_input(m)
    y = m.Var("y")
    r = m.RDom([(0, w)], "r")
    out = m.Func("rowsum")
    out[y] = m.u32(0)
    out[y] += m.u32(inp[r.x, y])
    out.set_estimates([(0, h)])
    return out, {"inp": inp}


def col_max(m, w, h):
    """Each column's largest value by m.maximum over an RDom down the image: a 1-D output of w."""
    inp = u8_input(m)
    x = m.Var("x")
    r = m.RDom([(0, h)], "r")
    out = m.Func("colmax")
    out[x] = m.maximum(inp[x, r.x])
    out.set_estimates([(0, w)])
    return out, {"inp": inp}


def global_min_sub(m, w, h):
    """The image less its smallest pixel (a whole-frame m.minimum), then doubled with saturation."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, w), (0, h)], "r")
    lo, out = m.Func("lo"), m.Func("shifted")
    lo[()] = m.minimum(inp[r.x, r.y])
    out[x, y] = m.u8(m.min(2 * m.u16(inp[x, y] - lo[()]), 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def hist8_weighted(m, w, h):
    """A histogram of 8 bins (the top 3 bits), each pixel adding its low 5 bits plus 1 (u16 counts)."""
    inp = u8_input(m)
    b = m.Var("b")
    r = m.RDom([(0, w), (0, h)], "r")
    hist = m.Func("hist8")
    hist[b] = m.u16(0)
    v = inp[r.x, r.y]
    hist[m.i32(v >> 5)] += m.u16(v & 31) + 1
    hist.set_estimates([(0, 8)])
    return hist, {"inp": inp}


def row_runmax(m, w, h):
    """The running maximum along each row, an RDom scan over x."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(1, w - 1)], "r")
    out = m.Func("runmax")
    out[x, y] = inp[x, y]
    out[r.x, y] = m.max(out[r.x - 1, y], inp[r.x, y])
    estimate(out, w, h)
    return out, {"inp": inp}


def row_iir(m, w, h):
    """A first-order recursive smooth along each row: s(x) = (3 s(x - 1) + in(x)) / 4 (u16), an RDom scan over x."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(1, w - 1)], "r")
    s = m.Func("iir")
    s[x, y] = m.u16(inp[x, y])
    s[r.x, y] = (3 * s[r.x - 1, y] + m.u16(inp[r.x, y])) / 4
    estimate(s, w, h)
    return s, {"inp": inp}


def rdom_count3x3(m, w, h):
    """How many of each 3x3 window exceed its centre, by m.sum over an RDom, times 28."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 3), (0, 3)], "r")
    out = m.Func("count")
    out[x, y] = m.u8(m.sum(m.select(inp[x + r.x, y + r.y] > inp[x + 1, y + 1], m.u8(1), m.u8(0))) * 28)
    estimate(out, w, h)
    return out, {"inp": inp}


def rdom_max5x5(m, w, h):
    """A dilation by a 5x5 square, m.maximum over an RDom, over the image's interior."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 5), (0, 5)], "r")
    out = m.Func("dil5")
    out[x, y] = m.maximum(inp[x + r.x, y + r.y])
    estimate(out, w, h)
    return out, {"inp": inp}


def i8_scale(m, w, h):
    """A signed 8-bit image scaled by 3/2 with an arithmetic shift (i16 inside), then its 1x2 difference."""
    inp = m.ImageParam(m.Int(8), 2, "inp")
    x, y = xy(m)
    s, out = m.Func("s"), m.Func("ds")
    s[x, y] = (m.i16(inp[x, y]) * 3) >> 1
    out[x, y] = s[x + 1, y] - s[x, y]
    estimate(out, w, h)
    return out, {"inp": inp}


def u16_input_top(m, w, h):
    """A 16-bit image's top byte, rounded: (v + 128) >> 8, saturated to u8."""
    inp = m.ImageParam(m.UInt(16), 2, "inp")
    x, y = xy(m)
    out = m.Func("top")
    out[x, y] = m.u8(m.min((m.u32(inp[x, y]) + 128) >> 8, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def wrap_cast(m, w, h):
    """u8 arithmetic that wraps: v * 3 + neighbour, kept in 8 bits as Halide's does."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("wrapped")
    out[x, y] = inp[x, y] * 3 + inp[x + 1, y]
    estimate(out, w, h)
    return out, {"inp": inp}


def lbp_cross(m, w, h):
    """A 4-neighbour local binary pattern: one bit each for the neighbours at least the centre, scaled by 16."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("lbp")
    c = inp[x + 1, y + 1]
    nbrs = (inp[x + 1, y], inp[x + 2, y + 1], inp[x + 1, y + 2], inp[x, y + 1])
    out[x, y] = sum(m.select(n >= c, m.u8(1 << k), m.u8(0)) for k, n in enumerate(nbrs)) * m.u8(16)
    estimate(out, w, h)
    return out, {"inp": inp}


def rgb_chroma(m, w, h):
    """Chroma of a planar RGB image: the largest channel less the smallest."""
    rgb = u8_input(m, "rgb", 3)
    x, y = xy(m)
    out = m.Func("chroma")
    r, g, b = rgb[x, y, 0], rgb[x, y, 1], rgb[x, y, 2]
    out[x, y] = m.max(m.max(r, g), b) - m.min(m.min(r, g), b)
    estimate(out, w, h)
    return out, {"rgb": rgb}


def rgb_luma_blur(m, w, h):
    """Luma from planar RGB ((77 r + 150 g + 29 b) >> 8), then a 3x3 box of it (u16)."""
    rgb = u8_input(m, "rgb", 3)
    x, y = xy(m)
    luma, out = m.Func("luma"), m.Func("lblur")
    luma[x, y] = m.u8((77 * m.u16(rgb[x, y, 0]) + 150 * m.u16(rgb[x, y, 1]) + 29 * m.u16(rgb[x, y, 2])) >> 8)
    out[x, y] = m.u8(sum(m.u16(luma[x + i, y + j]) for i in range(3) for j in range(3)) / 9)
    estimate(out, w, h)
    return out, {"rgb": rgb}


def channel_swap(m, w, h):
    """RGB to BGR: out(x, y, c) = in(x, y, 2 - c), over 3 planes."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("bgr")
    out[x, y, c] = rgb[x, y, 2 - c]
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def interleave_uv(m, w, h):
    """Two half-width planes interleaved along rows: u at even columns, v at odd."""
    u, v = u8_input(m, "u"), u8_input(m, "v")
    x, y = xy(m)
    out = m.Func("uv")
    out[x, y] = m.select(x % 2 == 0, u[x / 2, y], v[x / 2, y])
    estimate(out, w, h)
    return out, {"u": u, "v": v}


def chroma_up2(m, w, h):
    """A full-size luma plus a half-size chroma read at (x / 2, y / 2), offset by 128 (i16 inside, saturated)."""
    luma, chroma = u8_input(m, "luma"), u8_input(m, "chroma")
    x, y = xy(m)
    out = m.Func("tinted")
    out[x, y] = m.u8(m.clamp(m.i16(luma[x, y]) + m.i16(chroma[x / 2, y / 2]) - 128, 0, 255))
    estimate(out, w, h)
    return out, {"luma": luma, "chroma": chroma}


def argb_to_rgb(m, w, h):
    """A planar ARGB image's colour planes, alpha dropped: out(x, y, c) = argb(x, y, c + 1), premultiplied by alpha
    (u16 inside, rounded)."""
    argb = u8_input(m, "argb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("rgb")
    out[x, y, c] = m.u8((m.u16(argb[x, y, c + 1]) * m.u16(argb[x, y, 0]) + 127) / 255)
    estimate(out, w, h, 3)
    return out, {"argb": argb}


def plane_mirror_diff(m, w, h):
    """Each plane's difference from its mirror across the middle plane, |in(x, y, c) - in(x, y, 2 - c)|, plus a 1x2
    mean of it along the row."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("mdiff")
    d0 = m.u16(m.absd(rgb[x, y, c], rgb[x, y, 2 - c]))
    d1 = m.u16(m.absd(rgb[x + 1, y, c], rgb[x + 1, y, 2 - c]))
    out[x, y, c] = m.u8((d0 + d1) >> 1)
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def per_plane_filters(m, w, h):
    """One gray image to three planes, each its own 3-tap filter: a 1-2-1 blur, a vertical sharpen, a horizontal
    edge magnitude (i16 inside, clamped to u8), chosen by the plane."""
    inp = u8_input(m)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("three")

    def v(i, j):
        return m.i16(inp[x + i, y + j])

    blur = (v(0, 1) + 2 * v(1, 1) + v(2, 1)) >> 2
    sharp = 2 * v(1, 1) - ((v(1, 0) + v(1, 2)) >> 1)
    edge = m.i16(m.abs(v(2, 1) - v(0, 1)))
    out[x, y, c] = m.u8(m.clamp(m.select(c == 0, blur, c == 1, sharp, edge), 0, 255))
    estimate(out, w, h, 3)
    return out, {"inp": inp}


def rdom_where_ring(m, w, h):
    """The mean of each 3x3 window's ring (its centre left out by RDom.where), u16 sum >> 3."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, 3), (0, 3)], "r")
    r.where((r.x != 1) | (r.y != 1))
    out = m.Func("ring")
    out[x, y] = m.u8(m.sum(m.u16(inp[x + r.x, y + r.y])) >> 3)
    estimate(out, w, h)
    return out, {"inp": inp}


def row_mean_sub(m, w, h):
    """Each pixel less its row's mean (a u16 sum over the row, then a second pass), offset by 128, clamped."""
    inp = u8_input(m)
    x, y = xy(m)
    r = m.RDom([(0, w)], "r")
    tot, out = m.Func("tot"), m.Func("centred")
    tot[y] = m.u16(0)
    tot[y] += m.u16(inp[r.x, y])
    out[x, y] = m.u8(m.clamp(m.i16(inp[x, y]) - m.i16(tot[y] / w) + 128, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


def up3_nearest(m, w, h):
    """A nearest-neighbour upsample by 3 both ways, in(x / 3, y / 3)."""
    inp = u8_input(m)
    x, y = xy(m)
    out = m.Func("up3")
    out[x, y] = inp[x / 3, y / 3]
    estimate(out, w, h)
    return out, {"inp": inp}


def down3_max(m, w, h):
    """A 3x3 max pool of stride 3 over a 1-2-1 row blur (u16 inside): each output the largest of its 9 blurred."""
    inp = u8_input(m)
    x, y = xy(m)
    bx, out = m.Func("bx"), m.Func("pool3")
    bx[x, y] = m.u8((m.u16(inp[x, y]) + 2 * m.u16(inp[x + 1, y]) + m.u16(inp[x + 2, y]) + 2) >> 2)
    v = bx[3 * x, 3 * y]
    for i in range(3):
        for j in range(3):
            v = m.max(v, bx[3 * x + i, 3 * y + j])
    out[x, y] = v
    estimate(out, w, h)
    return out, {"inp": inp}


def i32_input_sum(m, w, h):
    """A signed 32-bit image: in(x, y) + in(x + 1, y) - (in(x, y + 1) >> 2), wrapping in 32 bits."""
    inp = m.ImageParam(m.Int(32), 2, "inp")
    x, y = xy(m)
    out = m.Func("s")
    out[x, y] = inp[x, y] + inp[x + 1, y] - (inp[x, y + 1] >> 2)
    estimate(out, w, h)
    return out, {"inp": inp}


def argmin_tuple_row(m, w, h):
    """Each row's smallest value and its first column, a Tuple (u8, i16) updated over an RDom along the row."""
    inp = u8_input(m)
    y = m.Var("y")
    r = m.RDom([(0, w)], "r")
    out = m.Func("amin")
    out[y] = (m.u8(255), m.i16(0))
    less = inp[r.x, y] < out[y][0]
    out[y] = (m.select(less, inp[r.x, y], out[y][0]), m.select(less, m.i16(r.x), out[y][1]))
    out.set_estimates([(0, h)])
    return out, {"inp": inp}


def two_rates(m, w, h):
    """A Func read at its own pixel and at half the column, f(x, y) + f(x / 2, y) / 2."""
    inp = u8_input(m)
    x, y = xy(m)
    f, out = m.Func("f"), m.Func("mix2")
    f[x, y] = inp[x, y] >> 1
    out[x, y] = f[x, y] + (f[x / 2, y] >> 1)
    estimate(out, w, h)
    return out, {"inp": inp}


def plane_rotate(m, w, h):
    """RGB to GBR by a rotated plane, rgb(x, y, (c + 1) % 3), averaged with the plane itself."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("rot")
    out[x, y, c] = m.u8((m.u16(rgb[x, y, c]) + m.u16(rgb[x, y, (c + 1) % 3]) + 1) >> 1)
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}


def plane_neighbours(m, w, h):
    """A 1-2-1 blur across a planar image's planes, its ends clamped: in(max(c - 1, 0)) + 2 in(c) + in(min(c + 1,
    2)), rounded (u16 inside)."""
    rgb = u8_input(m, "rgb", 3)
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    out = m.Func("across")
    s = m.u16(rgb[x, y, m.max(c - 1, 0)]) + 2 * m.u16(rgb[x, y, c]) + m.u16(rgb[x, y, m.min(c + 1, 2)])
    out[x, y, c] = m.u8((s + 2) >> 2)
    estimate(out, w, h, 3)
    return out, {"rgb": rgb}
