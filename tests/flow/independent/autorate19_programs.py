"""Autorate19's programs (session 34): upsamples by 3 written with no schedule, each in module m (`mainspring` or
`halide`) returning (output, {name: ImageParam}) with estimates set, at 2 lanes: f read at (x / 3, y / 3), and a
linear upsample by 3 along x (f at x / 3 and x / 3 + 1).

The finding fixed: 2 lanes over x / 3 make 2/3 of a pixel of f a cycle, "not a whole number", so the autoscheduler
fell to one lane (152 and 176 cycles at 24x6). hwlower/lane_quotients.py runs the lanes in runs of 3 cycles, each
selecting its word among the run's 2: 82 and 96 cycles for 72. Figures: BENCHMARKS.md "Helper autorate19, session
34"."""

from probe_common import estimate, u8_input, xy


def pair_up3(m, w, h):
    """A horizontal pair sum read back at (x / 3, y / 3) (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    f, up = m.Func("f"), m.Func("up")
    f[x, y] = m.u16(inp[x, y]) + inp[x + 1, y]
    up[x, y] = f[x / 3, y / 3] * 2 + m.u16(x)
    estimate(up, w, h)
    return up, {"inp": inp}


def linear_up3(m, w, h):
    """A vertical pair read back at x / 3 and x / 3 + 1, weighted 2:1 (u16)."""
    inp = u8_input(m)
    x, y = xy(m)
    f, up = m.Func("f"), m.Func("up")
    f[x, y] = m.u16(inp[x, y]) * 3 + inp[x, y + 1]
    up[x, y] = (f[x / 3, y] * 2 + f[x / 3 + 1, y]) / 3
    estimate(up, w, h)
    return up, {"inp": inp}


# (algorithm, size, autoscheduler keys, bounds: the most predicted cycles measured in session 34)
AUTO = {"pair_up3_24x6_l2": (pair_up3, (24, 6), {"lanes": "2"}, {"cycles": 82}),
        "linear_up3_24x6_l2": (linear_up3, (24, 6), {"lanes": "2"}, {"cycles": 96})}
