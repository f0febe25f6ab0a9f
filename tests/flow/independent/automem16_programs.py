"""Automem16's programs (session 32): multi-rate algorithms written with no schedule, each in module m (`mainspring`
or `halide`) returning (output, {name: ImageParam}) with estimates set: a Laplacian-style level (the image less its
down-sampled, blurred and up-sampled self), down-down-up (x / 4), half-resolution chroma added to full-resolution
luma, 2x2 binning then a 3x3 blur, a 4x down-sample read back at x / 4, three levels read back at x / 8, 4:1:1
chroma blurred down its rows and added back at x / 4, and two pyramid levels summed back (d2(x / 4) + d1(x / 2)).

The finding fixed: a Func read at fewer than one pixel a cycle (a level read at x / 4 under an output of 2 lanes
makes 1/2 pixel a cycle) refused the lanes asked for ("not a whole number"), and the whole design fell to one lane
(the pyramid at 16x8, 2 lanes asked: 185 cycles); such a Func now keeps one lane, paced to its readers, and its
producers take its own rate (2 * x at 1/2 a cycle: one lane): 95 cycles. Figures: BENCHMARKS.md "Helper automem16,
session 32"."""

from probe_common import estimate, u8_input, xy


def _down2(m, f, name):
    """The 2x2 mean of f (u16 in, u16 out) at half resolution."""
    x, y = xy(m)
    d = m.Func(name)
    d[x, y] = (f[2 * x, 2 * y] + f[2 * x + 1, 2 * y] + f[2 * x, 2 * y + 1] + f[2 * x + 1, 2 * y + 1]) >> 2
    return d


def _wide(m, inp, name="wide"):
    x, y = xy(m)
    w = m.Func(name)
    w[x, y] = m.u16(inp[x, y])
    return w


def laplacian_level(m, w, h):
    """The image less its 2x down-sampled, blurred, 2x up-sampled self (i16)."""
    inp = u8_input(m)
    x, y = xy(m)
    down = _down2(m, _wide(m, inp), "down")
    blur, out = m.Func("blur"), m.Func("lap")
    blur[x, y] = (down[x, y] + 2 * down[x + 1, y] + down[x + 2, y] + down[x + 1, y + 1]) >> 2
    out[x, y] = m.i16(inp[x + 2, y + 2]) - m.i16(blur[x / 2, y / 2])
    estimate(out, w, h)
    return out, {"inp": inp}


def down_down_up(m, w, h):
    """Two 2x down-samples read back at x / 4 (u8)."""
    inp = u8_input(m)
    x, y = xy(m)
    d2 = _down2(m, _down2(m, _wide(m, inp), "d1"), "d2")
    out = m.Func("ddu")
    out[x, y] = m.u8(d2[x / 4, y / 4])
    estimate(out, w, h)
    return out, {"inp": inp}


def half_res_chroma(m, w, h):
    """Full-resolution luma plus a chroma offset computed at half resolution from a second image (u8, saturated)."""
    luma, chroma = u8_input(m, "luma"), u8_input(m, "chroma")
    x, y = xy(m)
    c = _down2(m, _wide(m, chroma, "cw"), "c")
    out = m.Func("yc")
    out[x, y] = m.u8(m.clamp(m.i16(luma[x, y]) + m.i16(c[x / 2, y / 2]) - 128, 0, 255))
    estimate(out, w, h)
    return out, {"luma": luma, "chroma": chroma}


def bin_then_blur(m, w, h):
    """2x2 binning (a u16 sum) then a 3x3 box blur of the bins (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    wide = _wide(m, inp)
    bins, out = m.Func("bins"), m.Func("binblur")
    bins[x, y] = wide[2 * x, 2 * y] + wide[2 * x + 1, 2 * y] + wide[2 * x, 2 * y + 1] + wide[2 * x + 1, 2 * y + 1]
    out[x, y] = sum(bins[x + i, y + j] for i in range(3) for j in range(3)) >> 3
    estimate(out, w, h)
    return out, {"inp": inp}


def down4_up4(m, w, h):
    """A 4x1 mean along x (every other row) read back at x / 4 (u8)."""
    inp = u8_input(m)
    x, y = xy(m)
    d, out = m.Func("d4"), m.Func("up4")
    d[x, y] = (m.u16(inp[4 * x, 2 * y]) + inp[4 * x + 1, 2 * y] + inp[4 * x + 2, 2 * y] + inp[4 * x + 3, 2 * y]) >> 2
    out[x, y] = m.u8(d[x / 4, y / 2])
    estimate(out, w, h)
    return out, {"inp": inp}


def three_levels(m, w, h):
    """Three 2x down-samples read back at x / 8 plus the first at x / 2 (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    d1 = _down2(m, _wide(m, inp), "d1")
    d3 = _down2(m, _down2(m, d1, "d2"), "d3")
    out = m.Func("lv3")
    out[x, y] = d3[x / 8, y / 8] + d1[x / 2, y / 2]
    estimate(out, w, h)
    return out, {"inp": inp}


def chroma_411(m, w, h):
    """4:1:1 chroma: a second image averaged over 4 columns, blurred 1-2-1 down the rows, added back at x / 4 to luma
    (u8, saturated)."""
    luma, chroma = u8_input(m, "luma"), u8_input(m, "chroma")
    x, y = xy(m)
    c4, cb, out = m.Func("c4"), m.Func("cb"), m.Func("c411")
    c4[x, y] = (m.u16(chroma[4 * x, y]) + chroma[4 * x + 1, y] + chroma[4 * x + 2, y] + chroma[4 * x + 3, y]) >> 2
    cb[x, y] = (c4[x, y] + 2 * c4[x, y + 1] + c4[x, y + 2]) >> 2
    out[x, y] = m.u8(m.clamp(m.i16(luma[x, y + 1]) + m.i16(cb[x / 4, y]) - 128, 0, 255))
    estimate(out, w, h)
    return out, {"luma": luma, "chroma": chroma}


def pyramid(m, w, h):
    """Two levels of a pyramid summed back: d2(x / 4) + d1(x / 2), u16 (newcomer_algorithms' pyramid)."""
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = xy(m)
    d1, d2, up = m.Func("d1"), m.Func("d2"), m.Func("up")
    d1[x, y] = (image[2 * x, 2 * y] + image[2 * x + 1, 2 * y + 1]) >> 1
    d2[x, y] = (d1[2 * x, 2 * y] + d1[2 * x + 1, 2 * y + 1]) >> 1
    up[x, y] = d2[x / 4, y / 4] + d1[x / 2, y / 2]
    estimate(up, w, h)
    return up, {"image": image}


# (algorithm, size, autoscheduler keys)
AUTO = {"laplacian_level_32x8_l2": (laplacian_level, (32, 8), {"lanes": "2"}),
        "down_down_up_16x16_l2": (down_down_up, (16, 16), {"lanes": "2"}),
        "half_res_chroma_14x6_l2": (half_res_chroma, (14, 6), {"lanes": "2"}),
        "bin_then_blur_9x5_l2": (bin_then_blur, (9, 5), {"lanes": "2"}),
        "down4_up4_16x6_l2": (down4_up4, (16, 6), {"lanes": "2"}),
        "three_levels_32x16_l4": (three_levels, (32, 16), {"lanes": "4"}),
        "chroma_411_16x6_l2": (chroma_411, (16, 6), {"lanes": "2"}),
        "pyramid_16x8_l2": (pyramid, (16, 8), {"lanes": "2"})}
