"""Autorate17's programs (session 33): multi-rate algorithms written with no schedule, each in module m (`mainspring`
or `halide`) returning (output, {name: ImageParam}) with estimates set, at lanes that a chain of divisors reads with
lanes dividing the greatest divisor: a pyramid (x / 2 and x / 4) at 4 lanes and three levels blended back at x / 2,
x / 4 and x / 8 at 4 lanes (x / 2 and x / 8 alone: automem16's three_levels, now at 4 lanes); a band-pass of two
levels (x / 2 less x / 8), whose 3 lanes stay refused (test_autorate17.py).

The finding fixed: 4 lanes over a chain x / 2 and x / 4 (or x / 8) were refused by hwlower/strip_mine.py ("neither a
divisor of 2 nor a multiple of 4 above it"), so the autoscheduler fell back to 2 lanes (the pyramid at 32x8: 183
cycles; automem16's three levels at 32x16: 382). The lanes now split in steps of the smaller divisors (x / 2 = 2 * xo +
xi / 2 over 4 lanes xi), the serial loop in steps of the greatest over the lanes: 94 and 196 cycles. Figures:
BENCHMARKS.md "Helper autorate17, session 33"."""

from automem16_programs import _down2, _wide, pyramid
from probe_common import estimate, u8_input, xy


def band_pass(m, w, h):
    """The first 2x2 level less the third, read back at x / 2 and x / 8 (i16)."""
    inp = u8_input(m)
    x, y = xy(m)
    d1 = _down2(m, _wide(m, inp), "d1")
    d3 = _down2(m, _down2(m, d1, "d2"), "d3")
    out = m.Func("band")
    out[x, y] = m.i16(d1[x / 2, y / 2]) - m.i16(d3[x / 8, y / 8])
    estimate(out, w, h)
    return out, {"inp": inp}


def three_levels_blended(m, w, h):
    """Three 2x2 levels read back at x / 2, x / 4 and x / 8, weighted 2:1:1 (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    d1 = _down2(m, _wide(m, inp), "d1")
    d2 = _down2(m, d1, "d2")
    d3 = _down2(m, d2, "d3")
    out = m.Func("blend3")
    out[x, y] = (2 * d1[x / 2, y / 2] + d2[x / 4, y / 4] + d3[x / 8, y / 8]) >> 2
    estimate(out, w, h)
    return out, {"inp": inp}


# (algorithm, size, autoscheduler keys, bounds: the most predicted cycles and memory tiles measured in session 33)
# the pyramid at 4 lanes holds 71 words for 62 (d1 37 for 32): each buffer within 5 words of its minimum
AUTO = {"pyramid_32x8_l4": (pyramid, (32, 8), {"lanes": "4"}, {"cycles": 94, "mem_tiles": 5, "words_over_min": 5}),
        "three_levels_blended_32x16_l4": (three_levels_blended, (32, 16), {"lanes": "4"},
                                          {"cycles": 198, "mem_tiles": 8})}
