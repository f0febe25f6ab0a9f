"""Probe10's programs (session 26): hand schedules a hardware researcher writes (store_at outside compute_at,
reordered host tiles, RoundUp host tiles, loops reordered inside the tile, an in_() copy, channels bound and
unrolled, serial and half-unrolled RDoms in i32 and u16, a boundary condition in the array, three levels in i16,
4 lanes of u16), each written in module m (`mainspring`, or `halide` without the hardware schedule) and
returning (output, inputs, ImageParams, realize size); and unscheduled pipelines of 3-6 stages with reductions
for the autoscheduler, returning (output, realize size, ImageParams)."""

import numpy as np
from probe_common import image, vars_of


def _blur_parts(m, t=None):
    t = t or m.UInt(16)
    x, y = m.Var("x"), m.Var("y")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, blur_x, hw_output, output = (m.Func(n) for n in ("hw_input", "blur_x", "hw_output", "output"))
    hw_input[x, y] = m.cast(t, inp[x, y])
    blur_x[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output[x, y] = (blur_x[x, y] + blur_x[x, y + 1] * 2 + blur_x[x, y + 2]) >> 4
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    return x, y, inp, hw_input, blur_x, hw_output, output


def store_outer_compute_inner(m):
    """blur_x stored at the host tile, computed per row of it (store_at xo, compute_at yi), 13x8 host tiles
    over 37x23 (the last ones shift inward)."""
    x, y, inp, hw_input, blur_x, hw_output, output = _blur_parts(m)
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    output.bound(x, 0, 37).bound(y, 0, 23)
    if m.__name__ == "mainspring":
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 13, 8).hw_accelerate(xi, xo)
        blur_x.store_at(hw_output, xo).compute_at(hw_output, yi)
        hw_input.stream_to_accelerator()
    return output, {"input": image(39, 25, seed=1)}, {"input": inp}, [37, 23]


def tiles_reordered_column_major(m):
    """Host tiles visited down the columns first: tile(...).reorder(xi, yi, yo, xo), 10x6 tiles of 30x17."""
    x, y, inp, hw_input, blur_x, hw_output, output = _blur_parts(m)
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    output.bound(x, 0, 30).bound(y, 0, 17)
    if m.__name__ == "mainspring":
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 10, 6, m.TailStrategy.ShiftInwards)
        hw_output.reorder(xi, yi, yo, xo).hw_accelerate(xi, xo)
        blur_x.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(32, 19, seed=2)}, {"input": inp}, [30, 17]


def tile_roundup_host(m):
    """tile(..., RoundUp) of the accelerator's output over an odd frame: the host computes whole tiles."""
    x, y, inp, hw_input, blur_x, hw_output, output = _blur_parts(m, m.Int(16))
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    output.bound(x, 0, 23).bound(y, 0, 13)
    if m.__name__ == "mainspring":
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8, m.TailStrategy.RoundUp).hw_accelerate(xi, xo)
        blur_x.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(26, 18, seed=3)}, {"input": inp}, [23, 13]


def inner_reorder_yx(m):
    """The accelerator's loops reordered inside the tile (reorder(yi, xi, ...)): columns stream down first."""
    x, y, inp, hw_input, blur_x, hw_output, output = _blur_parts(m)
    xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
    output.bound(x, 0, 9).bound(y, 0, 7)
    if m.__name__ == "mainspring":
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 9, 7).reorder(yi, xi, xo, yo).hw_accelerate(xi, xo)
        blur_x.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(11, 9, seed=4)}, {"input": inp}, [9, 7]


def in_copy_of_producer(m):
    """A producer read by two stages through its in_() wrapper, the wrapper buffered, u16 at 19x11."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, sq, hw_output, output = (m.Func(n) for n in ("hw_input", "sq", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    sq[x, y] = hw_input[x, y] * hw_input[x, y] / 16
    w = sq.in_()
    hw_output[x, y] = m.max(w[x, y], w[x + 1, y + 1]) - m.min(w[x + 1, y], w[x, y + 1])
    output[x, y] = m.u8(m.min(hw_output[x, y], 255))
    output.bound(x, 0, 19).bound(y, 0, 11)
    if m.__name__ == "mainspring":
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 19, 11).hw_accelerate(xi, xo)
        w.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(20, 12, seed=5)}, {"input": inp}, [19, 11]


def channels_bound_unroll(m):
    """An RGB output (c innermost, bound 3, unrolled) of per-channel gains over a 2x2 box of an interleaved
    input, odd frame 15x9."""
    x, y, c, xo, yo, xi, yi = vars_of(m, "x y c xo yo xi yi")
    inp = m.ImageParam(m.UInt(8), 3, "input")
    hw_input, box, hw_output, output = (m.Func(n) for n in ("hw_input", "box", "hw_output", "output"))
    hw_input[c, x, y] = m.u16(inp[c, x, y])
    box[c, x, y] = hw_input[c, x, y] + hw_input[c, x + 1, y] + hw_input[c, x, y + 1] + hw_input[c, x + 1, y + 1]
    hw_output[c, x, y] = m.u8(m.min(box[c, x, y] * (c + 1) / 4, 255))
    output[c, x, y] = hw_output[c, x, y]
    output.bound(c, 0, 3).bound(x, 0, 15).bound(y, 0, 9)
    if m.__name__ == "mainspring":
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 15, 9).reorder(c, xi, yi, xo, yo)
        hw_output.unroll(c).hw_accelerate(xi, xo)
        box.compute_at(hw_output, xo).reorder(c, x, y).unroll(c)
        hw_input.stream_to_accelerator().reorder(c, x, y).unroll(c)
    return output, {"input": image(16, 10, seed=6, c=3)}, {"input": inp}, [3, 15, 9]


def serial_rdom_2d_i32(m):
    """A 3x3 weighted sum in i32, both RVars serial (9 cycles a pixel), over 11x7."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    hw_input[x, y] = m.i32(inp[x, y])
    acc[x, y] = m.i32(0)
    acc[x, y] += hw_input[x + r.x, y + r.y] * (r.x * 3 - r.y)
    hw_output[x, y] = acc[x, y]
    output[x, y] = m.i32(hw_output[x, y])
    output.bound(x, 0, 11).bound(y, 0, 7)
    if m.__name__ == "mainspring":
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 11, 7).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(13, 9, seed=7)}, {"input": inp}, [11, 7]


def rdom_unrolled_x_serial_y(m):
    """A 5x3 window: r.x unrolled, r.y serial, u16 at 17x9."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    r = m.RDom([m.Range(0, 5), m.Range(0, 3)], "r")
    hw_input[x, y] = m.u16(inp[x, y])
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y]
    hw_output[x, y] = acc[x, y] / 15
    output[x, y] = m.u8(hw_output[x, y])
    output.bound(x, 0, 17).bound(y, 0, 9)
    if m.__name__ == "mainspring":
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 17, 9).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        acc.update().unroll(r.x)
        hw_input.stream_to_accelerator()
    return output, {"input": image(21, 11, seed=8)}, {"input": inp}, [17, 9]


def constant_exterior_in_array(m):
    """BoundaryConditions.constant_exterior on the accelerator's copy of the input, i16, 30x17 one tile."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.Int(16), 2, "input")
    hw_input, padded, lap, hw_output, output = (m.Func(n) for n in ("hw_input", "padded", "lap", "hw_output",
                                                                       "output"))
    hw_input[x, y] = inp[x, y]
    padded = m.BoundaryConditions.constant_exterior(hw_input, m.i16(-7), [(0, 30), (0, 17)])
    lap[x, y] = padded[x, y] * 4 - padded[x - 1, y] - padded[x + 1, y] - padded[x, y - 1] - padded[x, y + 1]
    hw_output[x, y] = lap[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 30).bound(y, 0, 17)
    if m.__name__ == "mainspring":
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 30, 17).hw_accelerate(xi, xo)
        lap.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": image(30, 17, seed=9, dtype=np.int16, lo=-500, hi=500)}, {"input": inp}, [30, 17]


def glb_i16_two_host_rows(m):
    """Three levels, i16, GLB tiles 15x9 in two host rows (30x18), memory tiles 5x9, one lane."""
    x, y, xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "x y xo yo xi yi xio yio xii yii")
    inp = m.ImageParam(m.Int(16), 2, "input")
    hw_input, g, hw_output, output = (m.Func(n) for n in ("hw_input", "g", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    g[x, y] = hw_input[x + 1, y] - hw_input[x, y] + (hw_input[x, y + 1] >> 1)
    hw_output[x, y] = m.abs(g[x, y]) + m.select(g[x, y] > 0, m.i16(1), m.i16(-1))
    output[x, y] = m.i16(hw_output[x, y])
    output.bound(x, 0, 30).bound(y, 0, 18)
    if m.__name__ == "mainspring":
        hw_output.in_().compute_root()
        hw_output.in_().tile(x, y, xo, yo, xi, yi, 15, 9).hw_accelerate(xi, xo)
        hw_output.in_().store_in(m.MemoryType.GLB)
        hw_output.tile(x, y, xio, yio, xii, yii, 5, 9)
        hw_output.compute_at(hw_output.in_(), xo)
        g.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(hw_output.in_(), xo)
        hw_input.in_().store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": image(31, 19, seed=10, dtype=np.int16, lo=-2000, hi=2000)}, {"input": inp}, [30, 18]


def u16_output_unroll4(m):
    """4 pixels a cycle of a u16 output (unroll 4 on every stage, RoundUp) over 30 columns."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, d, hw_output, output = (m.Func(n) for n in ("hw_input", "d", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    d[x, y] = m.absd(hw_input[x + 1, y], hw_input[x, y]) + m.absd(hw_input[x, y + 1], hw_input[x, y])
    hw_output[x, y] = d[x, y] / 2 + d[x + 1, y] / 2
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 30).bound(y, 0, 5)
    if m.__name__ == "mainspring":
        rup = m.TailStrategy.RoundUp
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 30, 5).hw_accelerate(xi, xo)
        hw_output.unroll(xi, 4, rup)
        d.compute_at(hw_output, xo).unroll(x, 4, rup)
        hw_input.stream_to_accelerator().unroll(x, 4, rup)
    return output, {"input": image(40, 7, seed=11, dtype=np.uint16, hi=60000)}, {"input": inp}, [30, 5]


CASES = {f.__name__: f for f in (store_outer_compute_inner, tiles_reordered_column_major, tile_roundup_host,
                                    inner_reorder_yx, in_copy_of_producer, channels_bound_unroll,
                                    serial_rdom_2d_i32, rdom_unrolled_x_serial_y, constant_exterior_in_array,
                                    glb_i16_two_host_rows, u16_output_unroll4)}


# ---- unscheduled, for the autoscheduler ----


def five_stage_sharpen(m, w, h):
    """u16 box blur 3x3 (RDom) -> difference -> clamp -> 3-tap vertical smoothing -> u8."""
    im = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(-1, 3), m.Range(-1, 3)], "r")
    box, detail, sharp, smooth, out = (m.Func(n) for n in ("box", "detail", "sharp", "smooth", "out"))
    box[x, y] = m.u16(0)
    box[x, y] += m.u16(im[x + r.x, y + r.y])
    detail[x, y] = m.i16(im[x, y]) * 9 - m.i16(box[x, y])
    sharp[x, y] = m.clamp(m.i16(im[x, y]) + detail[x, y] / 4, 0, 255)
    smooth[x, y] = (sharp[x, y - 1] + 2 * sharp[x, y] + sharp[x, y + 1]) / 4
    out[x, y] = m.u8(smooth[x, y])
    out.set_estimates([(0, w), (0, h)])
    return out, [w, h], [im]


def i32_energy(m, w, h):
    """i32 gradient energy summed over a 5x1 serial-ish window, then normalized: 4 stages."""
    im = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 5)], "k")
    gx, e, tot, out = (m.Func(n) for n in ("gx", "e", "tot", "out"))
    gx[x, y] = m.i32(im[x + 1, y]) - m.i32(im[x - 1, y])
    e[x, y] = gx[x, y] * gx[x, y]
    tot[x, y] = 0
    tot[x, y] += e[x + r.x - 2, y]
    out[x, y] = m.u16(m.min(tot[x, y] >> 4, 65535))
    out.set_estimates([(0, w), (0, h)])
    return out, [w, h], [im]


def six_stage_chain(m, w, h):
    """Six stages: copy-like gain, horizontal 3-tap, vertical 3-tap, max of 2x2, minus, u8."""
    im = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    g, bx, by, mx, df, out = (m.Func(n) for n in ("g", "bx", "by", "mx", "df", "out"))
    g[x, y] = m.u16(im[x, y]) * 3
    bx[x, y] = g[x - 1, y] + g[x, y] + g[x + 1, y]
    by[x, y] = (bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 9
    mx[x, y] = m.max(m.max(by[x, y], by[x + 1, y]), m.max(by[x, y + 1], by[x + 1, y + 1]))
    df[x, y] = mx[x, y] - m.min(by[x, y], mx[x, y])
    out[x, y] = m.u8(m.min(df[x, y] * 4 + by[x, y] / 3, 255))
    out.set_estimates([(0, w), (0, h)])
    return out, [w, h], [im]


def i16_seed_copies(m, w, h):
    """Seed 002 style with copies: i16 input, 3x3 weighted RDom conv, an offset and shift, copy out."""
    im = m.ImageParam(m.Int(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "win")
    hw_input, k, conv, hw_output, out = (m.Func(n) for n in ("hw_input", "kernel", "conv", "hw_output", "out"))
    hw_input[x, y] = im[x, y]
    k[x, y] = m.i16(x - y + 2)
    conv[x, y] = m.i16(0)
    conv[x, y] += k[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = (conv[x, y] + 7) >> 3
    out[x, y] = hw_output[x, y]
    out.set_estimates([(0, w), (0, h)])
    return out, [w, h], [im]


def u16_minmax_serial(m, w, h):
    """u16 image, a serial 1x9 max-min range reduction (tuple-free), then scale: 3 stages."""
    im = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 9)], "t")
    hi, lo, out = m.Func("hi"), m.Func("lo"), m.Func("out")
    hi[x, y] = m.u16(0)
    hi[x, y] = m.max(hi[x, y], im[x, y + r.x])
    lo[x, y] = m.u16(65535)
    lo[x, y] = m.min(lo[x, y], im[x, y + r.x])
    out[x, y] = (hi[x, y] - lo[x, y]) / 2
    out.set_estimates([(0, w), (0, h)])
    return out, [w, h], [im]


ALL = [five_stage_sharpen, i32_energy, six_stage_chain, i16_seed_copies, u16_minmax_serial]


def i32_energy_copy(m, w, h):
    """i32_energy with the fix use_glb's refusal suggests: the last stage as hw_output, the output its copy."""
    im = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([m.Range(0, 5)], "k")
    gx, e, tot, hw_output, out = (m.Func(n) for n in ("gx", "e", "tot", "hw_output", "out"))
    gx[x, y] = m.i32(im[x + 1, y]) - m.i32(im[x - 1, y])
    e[x, y] = gx[x, y] * gx[x, y]
    tot[x, y] = 0
    tot[x, y] += e[x + r.x - 2, y]
    hw_output[x, y] = m.u16(m.min(tot[x, y] >> 4, 65535))
    out[x, y] = hw_output[x, y]
    out.set_estimates([(0, w), (0, h)])
    return out, [w, h], [im]


def clamped_rgb_conv(m, w, h):
    """repeat_edge over an interleaved RGB image, a 3x3 unweighted window summed over channels by an RDom, then
    a per-pixel gain and a u8 output: 4 stages."""
    im = m.ImageParam(m.UInt(8), 3, "image")
    x, y, c = m.Var("x"), m.Var("y"), m.Var("c")
    r = m.RDom([m.Range(0, 3), m.Range(-1, 3), m.Range(-1, 3)], "r")
    cl = m.BoundaryConditions.repeat_edge(im)
    wide, acc, out = m.Func("wide"), m.Func("acc"), m.Func("out")
    wide[c, x, y] = m.u16(cl[c, x, y])
    acc[x, y] = m.u16(0)
    acc[x, y] += wide[r.x, x + r.y, y + r.z]
    out[x, y] = m.u8(m.min(acc[x, y] / 27 * 2, 255))
    out.set_estimates([(0, w), (0, h)])
    im.set_estimates([(0, 3), (0, w), (0, h)])
    return out, [w, h], [im]
