"""Autoq14's programs (session 30): two algorithms with no schedule whose automatic schedules autoprobe14b found far
from their budgets' best (BENCHMARKS.md "Helper autoprobe14b, session 30"), each in module m (`mainspring` or
`halide`) returning (output, {name: ImageParam}) with estimates set: a Shi-Tomasi-like corner response (products of
central differences in i32, separable 3x3 boxes over constant_exterior) and a local-Laplacian-like remap (4
intensity levels, each pixel blended from the two levels its value picks)."""


def _est(f, w, h):
    f.set_estimates([(0, w), (0, h)])


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
    _est(out, w, h)
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
    _est(out, w, h)
    return out, {"inp": inp}
