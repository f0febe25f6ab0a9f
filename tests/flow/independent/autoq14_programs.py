"""Autoq14's programs (session 30): two algorithms with no schedule whose automatic schedules autoprobe14b found far
from their budgets' best (BENCHMARKS.md "Helper autoprobe14b, session 30"), each in module m (`mainspring` or
`halide`) returning (output, {name: ImageParam}) with estimates set: a Shi-Tomasi-like corner response (products of
central differences in i32, separable 3x3 boxes over constant_exterior) and a local-Laplacian-like remap (4
intensity levels, each pixel blended from the two levels its value picks).

The autoscheduler's budgets used well, and a table of levels inlined (issue 11):
- Shi-Tomasi at 16x8 with lanes 2 and max_mem_tiles 8 took 1,424 cycles in host tiles 1 pixel wide, 1 of its 8
  memory tiles used: the tiles' cycle model counted the image's transfers clipped to the frame (24 for a 1-pixel
  tile), not the 60 firings of `constant_exterior` over the halo, and the memory model's excess under the compiler
  at the frame's width was taken for every width. Tiles are now costed by the busiest buffered Func too, the
  widest tiles whose compiled design fits are searched for (1 lane: 4 pixels wide, 500 cycles in 4 memory tiles),
  and where the model drops lanes under max_mem_tiles the compiled designs decide: 2 lanes, 4 pixels wide, 312
  cycles in 2 memory tiles.
- The local-Laplacian-like remap held its 4 levels of the frame (336 words, 4 memory tiles, 340 cycles) where
  Halide's default, `levels` inlined, reads the level a pixel's value picks: pointwise in x, y, its planes picked at
  a computed k are now an inline candidate (80 cycles, no memory), and the lanes are planned again without it
  where it alone kept them at 1 (2 lanes: 50 cycles; the read at a computed k was taken for a RAM's).
AUTO lists the cases test_autoprobes.py runs (they were test_autoq14.py's). Figures: BENCHMARKS.md "Helper autoq14,
session 30"."""

from probe_common import estimate


def shi_tomasi(m, w, h):
    """min(sxx, syy) - |sxy| >> 6, u16, from central differences (i16) and their products (i32) boxed 3x3."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = m.Var("x"), m.Var("y")
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    gx, gy = m.Func("gx"), m.Func("gy")
    gx[x, y] = m.i16(c[x + 1, y]) - m.i16(c[x - 1, y])
    gy[x, y] = m.i16(c[x, y + 1]) - m.i16(c[x, y - 1])
    sums = {}
    for n, (a, b) in {"xx": (gx, gx), "yy": (gy, gy), "xy": (gx, gy)}.items():
        p, bx, by = m.Func("p" + n), m.Func("h" + n), m.Func("s" + n)
        p[x, y] = m.i32(a[x, y]) * m.i32(b[x, y])
        bx[x, y] = p[x - 1, y] + p[x, y] + p[x + 1, y]
        by[x, y] = bx[x, y - 1] + bx[x, y] + bx[x, y + 1]
        sums[n] = by
    out = m.Func("shi")
    out[x, y] = m.u16(m.clamp((m.min(sums["xx"][x, y], sums["yy"][x, y]) - m.abs(sums["xy"][x, y])) >> 6, 0, 65535))
    estimate(out, w, h)
    return out, {"inp": inp}


def remap_levels(m, w, h):
    """levels(x, y, k): a pixel remapped against intensity k * 64 (i32); the output averages the two levels its
    value picks, read at a computed k."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y, k = m.Var("x"), m.Var("y"), m.Var("k")
    levels = m.Func("levels")
    g = m.i32(inp[x, y])
    levels[x, y, k] = g + ((k * 64 - g) * m.max(0, 64 - m.abs(g - k * 64))) / 128
    out = m.Func("remap")
    at = m.i32(inp[x, y]) / 64
    out[x, y] = m.u8(m.clamp((levels[x, y, m.clamp(at, 0, 3)] + levels[x, y, m.clamp(at + 1, 0, 3)]) / 2, 0, 255))
    estimate(out, w, h)
    return out, {"inp": inp}


# test_autoprobes.py's cases: (algorithm, size, autoscheduler keys, bounds: the most cycles and memory tiles; before,
# 1,424 and 340 cycles). Shi-Tomasi is held to its budget, not to its ideal: 2 lanes in host tiles 4 pixels wide
# take 312 cycles for an ideal of 192, in 93 words for a minimum of 76.
AUTO = {"shi_tomasi_16x8_l2_m8": (shi_tomasi, (16, 8), {"lanes": "2", "max_mem_tiles": "8"},
                                  {"cycles": 320, "mem_tiles": 8, "near_ideal": False}),
        "remap_levels_13x5": (remap_levels, (13, 5), {}, {"cycles": 85, "mem_tiles": 0}),
        "remap_levels_13x5_l2": (remap_levels, (13, 5), {"lanes": "2"}, {"cycles": 55, "mem_tiles": 0})}
