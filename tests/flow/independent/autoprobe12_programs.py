"""Autoprobe12's programs (session 28): algorithms written with no schedule, as issue 11's acceptance programs are,
each in module m (`mainspring` or `halide`) returning (output or [outputs], {name: ImageParam}) with estimates set:
a median of 3 by a min/max network, an opening, a gamma table in a constant Buffer, block matching by argmin over
disparities, a Laplacian of Gaussian, a Tuple output, two outputs, seed 002's copy Funcs for the GLB, u16 and i32
images, BoundaryConditions computed inside the accelerator. AUTO lists the cases test_autoprobes.py runs.

The three findings: at 2 lanes over a 33-wide `repeat_edge(image)` (or constant_exterior, any boundary condition
computed inside) the image's stream rounded up to 34 columns, past the 33 the schedule binds the image to (the design
needed a 34-wide image, so Halide, given it, clamped elsewhere); a constant `hl.Buffer` read by the algorithm (a
gamma table) got random values from `example_inputs`, not its own; block matching at 2 lanes (a cost read at `x - d`
over a serial loop d) was refused by hwlower, the autoscheduler's own schedule."""

import numpy as np
from probe_common import xy
from shared_programs import sad_match  # test_flow_autoschedule_sweep_tiles.py runs it too

# a gamma of 0.45 as a table: a module constant, since Halide's Buffer views the array without owning it
GAMMA = np.array([int(255 * (k / 255) ** 0.45 + 0.5) for k in range(256)], dtype=np.uint8)


def log_filter(m, w, h):
    """Laplacian of Gaussian: separable 1-2-1 blur then 4-neighbour laplacian, i16, constant_exterior."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    bx, by, lap = m.Func("bx"), m.Func("by"), m.Func("log")
    bx[x, y] = m.i16(c[x-1, y]) + 2*m.i16(c[x, y]) + m.i16(c[x+1, y])
    by[x, y] = (bx[x, y-1] + 2*bx[x, y] + bx[x, y+1]) >> 4
    lap[x, y] = 4*by[x, y] - by[x-1, y] - by[x+1, y] - by[x, y-1] - by[x, y+1]
    lap.set_estimates([(0, w), (0, h)])
    return lap, {"inp": inp}


def med3_separable(m, w, h):
    """Median of 3 horizontally then vertically by a min/max network (u8, repeat_edge)."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp)
    def med(a, b, d):
        return m.max(m.min(a, b), m.min(m.max(a, b), d))
    mh, mv = m.Func("mh"), m.Func("med3")
    mh[x, y] = med(c[x-1, y], c[x, y], c[x+1, y])
    mv[x, y] = med(mh[x, y-1], mh[x, y], mh[x, y+1])
    mv.set_estimates([(0, w), (0, h)])
    return mv, {"inp": inp}


def opening(m, w, h):
    """Morphological opening: erode (RDom minimum 3x3) then dilate (RDom maximum 3x3), u8."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    r = m.RDom([(-1, 3), (-1, 3)], "r")
    s = m.RDom([(-1, 3), (-1, 3)], "s")
    er, di = m.Func("erode"), m.Func("dilate")
    er[x, y] = m.minimum(inp[x + r.x, y + r.y])
    di[x, y] = m.maximum(er[x + s.x, y + s.y])
    di.set_estimates([(0, w), (0, h)])
    return di, {"inp": inp}


def rom_gamma(m, w, h):
    """Gamma by a table from a constant Buffer (a ROM), then a 1x2 average."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y, i = m.Var("x"), m.Var("y"), m.Var("i")
    lut_buf = m.Buffer(GAMMA)
    lut, g, out = m.Func("lut"), m.Func("g"), m.Func("gamma_avg")
    lut[i] = lut_buf[i]
    g[x, y] = m.u16(lut[m.i32(inp[x, y])])
    out[x, y] = m.u8((g[x, y] + g[x + 1, y]) / 2)
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def two_outputs(m, w, h):
    """Two outputs of one image: a 3x3 box blur and a horizontal gradient (Pipeline([a, b]))."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    v, blur, grad = m.Func("v"), m.Func("blur"), m.Func("grad")
    v[x, y] = m.u16(inp[x, y])
    blur[x, y] = m.u8(sum(v[x+i, y+j] for i in (0, 1, 2) for j in (0, 1, 2)) / 9)
    grad[x, y] = m.u8(m.absd(v[x + 2, y + 1], v[x, y + 1]) / 2)
    blur.set_estimates([(0, w), (0, h)])
    grad.set_estimates([(0, w), (0, h)])
    return [blur, grad], {"inp": inp}


def i32_frame_diff(m, w, h):
    """Two i32 frames: their difference's 1x3 vertical sum, shifted right by 1 (arithmetic)."""
    a, b = m.ImageParam(m.Int(32), 2, "a"), m.ImageParam(m.Int(32), 2, "b")
    x, y = xy(m)
    d, out = m.Func("d"), m.Func("dsum")
    d[x, y] = a[x, y] - b[x, y]
    out[x, y] = (d[x, y] + d[x, y + 1] + d[x, y + 2]) >> 1
    out.set_estimates([(0, w), (0, h)])
    return out, {"a": a, "b": b}


def copies_glb(m, w, h):
    """Seed 002 style with copy Funcs: hw_input (u16), a 3x3 weighted conv, >> 4, hw_output, output its u8 copy."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    hw_in, conv, hw_out, out = m.Func("hw_input"), m.Func("conv"), m.Func("hw_output"), m.Func("output")
    hw_in[x, y] = m.u16(inp[x, y])
    wts = ((1, 2, 1), (2, 4, 2), (1, 2, 1))
    conv[x, y] = sum(hw_in[x + i, y + j] * wts[j][i] for i in range(3) for j in range(3))
    hw_out[x, y] = conv[x, y] >> 4
    out[x, y] = m.u8(hw_out[x, y])
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def tuple_output(m, w, h):
    """A Tuple output: (2x1 sum in u16, 1x2 absd in u8) of one image: two Buffers from realize."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    out = m.Func("pair")
    out[x, y] = (m.u16(inp[x, y]) + inp[x + 1, y], m.absd(inp[x, y], inp[x, y + 1]))
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def u16_gradient_lanes(m, w, h):
    """u16 input, constant_exterior, central differences squared in u32, >> 8, saturating to u16."""
    inp = m.ImageParam(m.UInt(16), 2, "inp")
    x, y = xy(m)
    c = m.BoundaryConditions.constant_exterior(inp, 0)
    dx, dy, out = m.Func("dx"), m.Func("dy"), m.Func("grad2")
    dx[x, y] = m.i32(c[x + 1, y] >> 4) - m.i32(c[x - 1, y] >> 4)
    dy[x, y] = m.i32(c[x, y + 1] >> 4) - m.i32(c[x, y - 1] >> 4)
    out[x, y] = m.u16(m.min((dx[x, y] * dx[x, y] + dy[x, y] * dy[x, y]) >> 8, 65535))
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


# (algorithm, size, autoscheduler keys), for test_autoprobes.py
AUTO = {"med3_33x9_l2": (med3_separable, (33, 9), {"lanes": "2"}),
        "rom_gamma_64x1_l4": (rom_gamma, (64, 1), {"lanes": "4"}),
        "sad_match_33x9_l2": (sad_match, (33, 9), {"lanes": "2"}),
        "opening_17x3": (opening, (17, 3), {}),
        "tuple_output_17x3_l2": (tuple_output, (17, 3), {"lanes": "2"}),
        "two_outputs_17x3_l3": (two_outputs, (17, 3), {"lanes": "3"}),
        "log_17x9_l2": (log_filter, (17, 9), {"lanes": "2"}),
        "u16_gradient_17x9_l4": (u16_gradient_lanes, (17, 9), {"lanes": "4"}),
        "i32_frame_diff_17x3": (i32_frame_diff, (17, 3), {}),
        "copies_glb_33x17_glb11x17": (copies_glb, (33, 17), {"glb_tile": "11x17"})}
