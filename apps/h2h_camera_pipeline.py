"""Port of the reference system's `camera_pipeline` generator (Halide-to-Hardware, apps/hardware_benchmarks/apps/
camera_pipeline, camera_pipeline_2x2 in its CI; see ../shared/h2h/README.md): hot-pixel suppression, demosaicking
of a Bayer mosaic through four half-resolution planes, color correction and a gamma/contrast curve, 64x64 raw in,
56x56x3 out, with the default hardware schedule (Clockwork target, GeneratorParam schedule = 0).

As the reference writes it: the Bayer planes (g_gr(x, y) = denoised(2x, 2y), ...) are half resolution and the
demosaic interleaves them back (select on x % 2 and y % 2); the curve is computed in float (pow) into a table of
1024 integers, read at the corrected value as a ROM; the channels of demosaicked, color_corrected, curve_out and
hw_output are unrolled.
"""

from __future__ import annotations

import numpy as np

import mainspring as hl

from .common import input_extent, parrot_output

NAME = "h2h_camera_pipeline"
DEFAULT_SIZE = (56, 56)
# Each channel's lane computes the whole demosaic of its color (the interleaves and corrections are inline, as
# the schedule leaves them): 785 PE ops, more than the default array's 384 (the reference maps 1070 PEs).
TARGET = hl.CGRA(num_pes=1024)
BLOCK = 9
MATRIX = ((549, -103, 7, -10221), (-96, 373, 62, -7254), (-31, -261, 883, -5563))


def output_size(in_width: int, in_height: int) -> tuple[int, int]:
    return in_width - BLOCK + 1, in_height - BLOCK + 1


def _mul1(a, b):
    return hl.i16((hl.i32(a) * hl.i32(b)) >> 8)


def _avg(a, b):
    return (a + b) >> 1


def _interleave_x(a, b, x, y):
    out = hl.Func(f"ix_{a.name()}_{b.name()}")
    out[x, y] = hl.select((x % 2) == 0, a[x / 2, y], b[x / 2, y])
    return out


def _interleave_y(a, b, x, y):
    out = hl.Func(f"iy_{a.name()}_{b.name()}")
    out[x, y] = hl.select((y % 2) == 0, a[x, y / 2], b[x, y / 2])
    return out


def _demosaic(g_gr, r_r, b_b, g_gb, x, y, c):
    names = ("b_r", "g_r", "b_gr", "r_gr", "b_gb", "r_gb", "r_b", "g_b")
    b_r, g_r, b_gr, r_gr, b_gb, r_gb, r_b, g_b = (hl.Func(n) for n in names)
    gv_r, gvd_r = _avg(g_gb[x, y - 1], g_gb[x, y]), hl.absd(g_gb[x, y - 1], g_gb[x, y])
    gh_r, ghd_r = _avg(g_gr[x + 1, y], g_gr[x, y]), hl.absd(g_gr[x + 1, y], g_gr[x, y])
    g_r[x, y] = hl.select(ghd_r < gvd_r, gh_r, gv_r)
    gv_b, gvd_b = _avg(g_gr[x, y + 1], g_gr[x, y]), hl.absd(g_gr[x, y + 1], g_gr[x, y])
    gh_b, ghd_b = _avg(g_gb[x - 1, y], g_gb[x, y]), hl.absd(g_gb[x - 1, y], g_gb[x, y])
    g_b[x, y] = hl.select(ghd_b < gvd_b, gh_b, gv_b)

    r_gr[x, y] = g_gr[x, y] - _avg(g_r[x, y], g_r[x - 1, y]) + _avg(r_r[x - 1, y], r_r[x, y])
    b_gr[x, y] = g_gr[x, y] - _avg(g_b[x, y], g_b[x, y - 1]) + _avg(b_b[x, y], b_b[x, y - 1])
    r_gb[x, y] = g_gb[x, y] - _avg(g_r[x, y], g_r[x, y + 1]) + _avg(r_r[x, y], r_r[x, y + 1])
    b_gb[x, y] = g_gb[x, y] - _avg(g_b[x, y], g_b[x + 1, y]) + _avg(b_b[x, y], b_b[x + 1, y])

    rp_b = g_b[x, y] - _avg(g_r[x, y], g_r[x - 1, y + 1]) + _avg(r_r[x, y], r_r[x - 1, y + 1])
    rpd_b = hl.absd(r_r[x, y], r_r[x - 1, y + 1])
    rn_b = g_b[x, y] - _avg(g_r[x - 1, y], g_r[x, y + 1]) + _avg(r_r[x - 1, y], r_r[x, y + 1])
    rnd_b = hl.absd(r_r[x - 1, y], r_r[x, y + 1])
    r_b[x, y] = hl.select(rpd_b < rnd_b, rp_b, rn_b)

    bp_r = g_r[x, y] - _avg(g_b[x, y], g_b[x + 1, y - 1]) + _avg(b_b[x, y], b_b[x + 1, y - 1])
    bpd_r = hl.absd(b_b[x, y], b_b[x + 1, y - 1])
    bn_r = g_r[x, y] - _avg(g_b[x + 1, y], g_b[x, y - 1]) + _avg(b_b[x + 1, y], b_b[x, y - 1])
    bnd_r = hl.absd(b_b[x + 1, y], b_b[x, y - 1])
    b_r[x, y] = hl.select(bpd_r < bnd_r, bp_r, bn_r)

    r = _interleave_y(_interleave_x(r_gr, r_r, x, y), _interleave_x(r_b, r_gb, x, y), x, y)
    g = _interleave_y(_interleave_x(g_gr, g_r, x, y), _interleave_x(g_b, g_gb, x, y), x, y)
    b = _interleave_y(_interleave_x(b_gr, b_r, x, y), _interleave_x(b_b, b_gb, x, y), x, y)
    demosaicked = hl.Func("demosaicked")
    demosaicked[x, y, c] = hl.select(c == 0, r[x, y], c == 1, g[x, y], b[x, y])
    return demosaicked, (b_r, g_r, b_gr, r_gr, b_gb, r_gb, r_b, g_b)


def _color_correct(demosaicked, x, y, c):
    ir_, ig, ib = (hl.clamp(demosaicked[x, y, k], 0, 10000) for k in range(3))
    rows = [hl.i16(m[3] >> 8) + _mul1(hl.i16(m[0]), ir_) + _mul1(hl.i16(m[1]), ig) + _mul1(hl.i16(m[2]), ib)
            for m in MATRIX]
    corrected = hl.Func("corrected")
    corrected[x, y, c] = hl.select(c == 0, rows[0], c == 1, rows[1], rows[2])
    return corrected


def _curve(x, gamma: float = 2.0, contrast: float = 50.0):
    # The generator's C++ floats: 1 / gamma, and b and a from std::pow(float, float), in float.
    f32 = np.float32
    b = f32(2.0) - f32(np.power(f32(2.0), f32(contrast) / f32(100.0)))
    a = f32(2.0) - f32(2.0) * b
    xf = hl.clamp(hl.f32(x) / hl.f32(1024.0), hl.f32(0.0), hl.f32(1.0))
    g = hl.pow(xf, hl.f32(float(f32(1.0) / f32(gamma))))
    fa, fb, one = hl.f32(float(a)), hl.f32(float(b)), hl.f32(1.0)
    val = hl.select(g > hl.f32(0.5), one - (fa * (one - g) * (one - g) + fb * (one - g)), fa * g * g + fb * g)
    curve = hl.Func("curve")
    curve[x] = hl.u16(hl.clamp(val * hl.f32(256.0), hl.f32(0.0), hl.f32(255.0)))
    return curve


def build(width: int = 56, height: int = 56, schedule: int = 0, tile: tuple[int, int] = (58, 58), tiles: int = 3,
          unroll: int = 2, auto: bool = False):
    """The generator's Clockwork schedules. 0: the default (one accelerator tile, 3 channels per cycle); 1 and 2:
    host and GLB tiling, GLB tiles of `tiles` x `tiles` memory tiles of `tile` pixels (schedule 1: 58x58 and 3,
    for a 696x696 output; schedule 2: 64x56 and 3); 3: host tiles of one GLB tile of `tile` pixels (the
    generator's 248x184), `unroll` pixels per cycle (default 2). `auto`: no schedule, mainspring's automatic
    one."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x + (BLOCK - 1) // 2, y + (BLOCK - 1) // 2])
    denoised = hl.Func("denoised")
    max_value = hl.max(hl.max(hw_input[x - 2, y], hw_input[x + 2, y]), hl.max(hw_input[x, y - 2], hw_input[x, y + 2]))
    denoised[x, y] = hl.clamp(hw_input[x, y], 0, max_value)

    g_gr, r_r, b_b, g_gb = (hl.Func(n) for n in ("g_gr", "r_r", "b_b", "g_gb"))
    g_gr[x, y] = denoised[2 * x, 2 * y]
    r_r[x, y] = denoised[2 * x + 1, 2 * y]
    b_b[x, y] = denoised[2 * x, 2 * y + 1]
    g_gb[x, y] = denoised[2 * x + 1, 2 * y + 1]
    demosaicked, planes = _demosaic(g_gr, r_r, b_b, g_gb, x, y, c)
    color_corrected = _color_correct(demosaicked, x, y, c)
    curve = _curve(x)
    curve_out = hl.Func("curved")
    curve_out[x, y, c] = curve[hl.u16(hl.clamp(color_corrected[x, y, c], hl.u16(0), hl.u16(1023)))]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[c, x, y] = curve_out[x, y, c]
    output[x, y, c] = hl.u8(hw_output[c, x, y])

    buffered = (denoised, g_gr, r_r, b_b, g_gb)
    if auto:  # the algorithm as written, scheduled by mainspring/autoschedule.py
        output.set_estimates([(0, width), (0, height), (0, 3)])
        hl.Pipeline(output).apply_autoscheduler(hl.CGRA(num_pes=1024), hl.AutoschedulerParams("Mainspring"))
    else:
        output.bound(c, 0, 3).bound(x, 0, width).bound(y, 0, height)
    if auto:
        pass
    elif schedule == 0:  # as the generator writes it (Clockwork target, schedule 0)
        hw_output.compute_root()
        hw_output.tile(x, y, xo, yo, xi, yi, width, height).reorder(c, xi, yi, xo, yo).reorder_storage(c, x, y) \
            .hw_accelerate(xi, xo)
        hw_output.unroll(c)
        for f in (curve_out, color_corrected, demosaicked):
            f.compute_at(hw_output, xo)
            f.unroll(c)
        for f in buffered:
            f.compute_at(hw_output, xo)
        curve.compute_at(hw_output, xo).unroll(x)
        hw_input.stream_to_accelerator()
    elif schedule in (1, 2):  # host and GLB tiling: the same calls, the generator's sizes differ
        glb_out = hw_output.in_()
        glb_out.compute_root()
        glb_out.tile(x, y, xo, yo, xi, yi, tile[0] * tiles, tile[1] * tiles).reorder(c, xi, yi, xo, yo) \
            .hw_accelerate(xi, xo)
        glb_out.unroll(c)
        hw_output.tile(x, y, xo, yo, xi, yi, tile[0], tile[1]).reorder(c, xi, yi, xo, yo)
        hw_output.compute_at(glb_out, xo)
        hw_output.store_in(hl.MemoryType.GLB)
        hw_output.unroll(c)
        for f in (curve_out, color_corrected):
            f.compute_at(hw_output, xo).unroll(c)
        demosaicked.compute_at(hw_output, xo)
        demosaicked.reorder(c, x, y).unroll(c)
        for f in buffered:
            f.compute_at(hw_output, xo)
        curve.compute_at(hw_output, xo).unroll(x)
        hw_input.in_().compute_at(glb_out, xo)
        hw_input.in_().store_in(hl.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    elif schedule == 3:
        _schedule_unrolled(hw_input, hw_output, (curve_out, color_corrected, demosaicked, denoised),
                           (g_gr, r_r, b_b, g_gb) + planes, curve, tile, unroll)
    else:
        raise ValueError(f"h2h_camera_pipeline has schedules 0 to 3, not {schedule}")
    rng = np.random.default_rng(23)
    # what the schedule reads (height + BLOCK - 1 rows at an even size; Halide's intervals of x / 2 take one more
    # at an odd one)
    in_width, in_height = input_extent(output, "input")
    raw = rng.integers(0, 1024, size=(in_height, in_width), dtype=np.uint16)
    return output, {"input": raw}


def _schedule_unrolled(hw_input, hw_output, full, planes, curve, tile, unroll):
    """The generator's Clockwork schedule 3 ("big parrot with unroll"): host tiles of one GLB tile of one
    memory tile of `tile` pixels (the generator's 248x184), `unroll` pixels of x per cycle (default 2)."""
    x, y, c, xo = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("xo")
    up = hl.TailStrategy.RoundUp
    curve_out, color_corrected, demosaicked, denoised = full
    glb_out = parrot_output(hw_output, tile, unroll)
    for f in (curve_out, color_corrected):
        f.compute_at(hw_output, xo).unroll(c).unroll(x, unroll, up)
    demosaicked.compute_at(hw_output, xo)
    demosaicked.reorder(c, x, y).unroll(c).unroll(x, unroll, up)
    denoised.compute_at(hw_output, xo).unroll(x, unroll)
    for f in planes:
        f.compute_at(hw_output, xo)
    # The generator also unrolls the eight interpolated half-resolution planes by `unroll`: 2 of their pixels per
    # firing, where the full-resolution output reads one per cycle. mainspring accepts that and narrows them to one
    # lane (hwlower/narrow.py; tests/flow/independent/test_camera.py's camera_sched3_unroll2); here they compute one
    # pixel per cycle as written, which spares their RoundUp tails' extra columns.
    curve.compute_at(hw_output, xo).unroll(x)
    curve.store_in(hl.MemoryType.ROM)
    mem_copy = hw_input.in_().in_()  # the memory tile
    mem_copy.compute_at(hw_output, xo).unroll(x, unroll, up)
    hw_input.in_().compute_at(glb_out, xo)  # the GLB level
    hw_input.in_().store_in(hl.MemoryType.GLB)
    hw_input.in_().unroll(x, unroll, up)
    hw_input.compute_root().accelerator_input()
