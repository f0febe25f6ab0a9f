"""camera_pipeline_generator.cpp (camera_pipeline_2x2 in the reference's CI): default schedule 0."""

import numpy as np
import pytest
from h2h_generator_ports_big import bayer_demosaic
from porting import params, rand_image, run

import mainspring as hl

u8, u16, i16, i32 = hl.u8, hl.u16, hl.i16, hl.i32
BLOCK = 9
MATRIX = [[549, -103, 7, -10221], [-96, 373, 62, -7254], [-31, -261, 883, -5563]]


def camera_pipeline(out_size=56, schedule=0, gamma=2.0, contrast=50.0, glb=(3, 4), unroll_c=True, cc_matrix_i16=False,
                    fix=False):
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input = hl.ImageParam(hl.UInt(16), 2, "input")

    def interleave_x(a, b):
        out = hl.Func()
        out[x, y] = hl.select((x % 2) == 0, a[x // 2, y], b[x // 2, y])
        return out

    def interleave_y(a, b):
        out = hl.Func()
        out[x, y] = hl.select((y % 2) == 0, a[x, y // 2], b[x, y // 2])
        return out

    def hot_pixel_suppression(inp):
        denoised = hl.Func("denoised")
        max_value = hl.max(hl.max(inp[x - 2, y], inp[x + 2, y]), hl.max(inp[x, y - 2], inp[x, y + 2]))
        denoised[x, y] = hl.clamp(inp[x, y], 0, max_value)
        return denoised

    def mul1(a, b):
        return i16((i32(a) * i32(b)) >> 8)

    def color_correct(inp, m):
        ir = hl.clamp(inp[x, y, 0], 0, 10000)
        ig = hl.clamp(inp[x, y, 1], 0, 10000)
        ib = hl.clamp(inp[x, y, 2], 0, 10000)
        k = (lambda v: i16(v)) if cc_matrix_i16 else (lambda v: v)
        r = (m[0][3] >> 8) + mul1(k(m[0][0]), ir) + mul1(k(m[0][1]), ig) + mul1(k(m[0][2]), ib)
        g = (m[1][3] >> 8) + mul1(k(m[1][0]), ir) + mul1(k(m[1][1]), ig) + mul1(k(m[1][2]), ib)
        b = (m[2][3] >> 8) + mul1(k(m[2][0]), ir) + mul1(k(m[2][1]), ig) + mul1(k(m[2][2]), ib)
        corrected = hl.Func("corrected")
        corrected[x, y, c] = hl.select(c == 0, r, c == 1, g, b)
        return corrected

    def apply_curve(inp, curve):
        curved = hl.Func("curved")
        in_val = hl.clamp(inp[x, y, c], u16(0), u16(1023))
        curved[x, y, c] = curve[u16(in_val)]
        return curved

    hw_input = hl.Func("hw_input")
    hw_input[x, y] = u16(input[x + (BLOCK - 1) // 2, y + (BLOCK - 1) // 2])
    denoised = hot_pixel_suppression(hw_input)
    r_r, g_gr, g_gb, b_b = hl.Func("r_r"), hl.Func("g_gr"), hl.Func("g_gb"), hl.Func("b_b")
    g_gr[x, y] = denoised[2 * x, 2 * y]
    r_r[x, y] = denoised[2 * x + 1, 2 * y]
    b_b[x, y] = denoised[2 * x, 2 * y + 1]
    g_gb[x, y] = denoised[2 * x + 1, 2 * y + 1]
    b_r, g_r, b_gr, r_gr = hl.Func("b_r"), hl.Func("g_r"), hl.Func("b_gr"), hl.Func("r_gr")
    b_gb, r_gb, r_b, g_b = hl.Func("b_gb"), hl.Func("r_gb"), hl.Func("r_b"), hl.Func("g_b")
    demosaicked = bayer_demosaic(hl, x, y, c, interleave_x, interleave_y,
                                 (g_gr, r_r, b_b, g_gb, b_r, g_r, b_gr, r_gr, b_gb, r_gb, r_b, g_b))
    color_corrected = color_correct(demosaicked, MATRIX)
    curve = hl.Func("curve")
    xf = hl.clamp(hl.cast(hl.Float(32), x) / 1024.0, 0.0, 1.0)
    g = hl.pow(xf, float(np.float32(1.0) / np.float32(gamma)))
    bb = float(np.float32(2.0) - np.float32(np.power(np.float32(2.0), np.float32(contrast) / np.float32(100.0))))
    a = 2.0 - 2.0 * bb
    val = hl.select(g > 0.5, 1.0 - (a * (1.0 - g) * (1.0 - g) + bb * (1.0 - g)), a * g * g + bb * g)
    curve[x] = u16(hl.clamp(val * 256.0, 0.0, 255.0))
    hw_output = hl.Func("hw_output")
    curve_out = apply_curve(color_corrected, curve)
    hw_output[c, x, y] = curve_out[x, y, c]
    output = hl.Func("output")
    output[x, y, c] = u8(hw_output[c, x, y])
    output.bound(c, 0, 3)

    if schedule == 3:
        U, RU = 2, hl.TailStrategy.RoundUp
        tw, th = out_size
        host_tiles = glb
        output.bound(x, 0, host_tiles * tw)
        output.bound(y, 0, host_tiles * th)
        hw_output.in_().compute_root()
        hw_output.in_().tile(x, y, xo, yo, xi, yi, tw, th).reorder(c, xi, yi, xo, yo).hw_accelerate(xi, xo)
        hw_output.in_().unroll(c).unroll(xi, U, RU)
        hw_output.tile(x, y, xo, yo, xi, yi, tw, th).reorder(c, xi, yi, xo, yo)
        hw_output.compute_at(hw_output.in_(), xo)
        hw_output.store_in(hl.MemoryType.GLB)
        hw_output.unroll(c).unroll(xi, U, RU)
        curve_out.compute_at(hw_output, xo)
        curve_out.unroll(c).unroll(x, U, RU)
        color_corrected.compute_at(hw_output, xo)
        color_corrected.unroll(c).unroll(x, U, RU)
        demosaicked.compute_at(hw_output, xo)
        demosaicked.reorder(c, x, y).unroll(c).unroll(x, U, RU)
        denoised.compute_at(hw_output, xo).unroll(x, U)
        for f in (b_r, g_r, b_gr, r_gr, b_gb, r_gb, r_b, g_b, g_gr, r_r, b_b, g_gb):
            f.compute_at(hw_output, xo)
        for f in (b_r, g_r, b_gr, r_gr, b_gb, r_gb, r_b, g_b):
            f.unroll(x, U, RU)
        if fix:  # the refusal's suggested fix
            for f in (g_gr, r_r, b_b, g_gb):
                f.unroll(x, U, RU)
        curve.compute_at(hw_output, xo).unroll(x)
        curve.store_in(hl.MemoryType.ROM)
        hw_input.in_().in_().compute_at(hw_output, xo)
        hw_input.in_().in_().unroll(x, U, RU)
        hw_input.in_().compute_at(hw_output.in_(), xo)
        hw_input.in_().store_in(hl.MemoryType.GLB)
        hw_input.in_().unroll(x, U, RU)
        hw_input.compute_root().accelerator_input()
        # RoundUp tails read past the halo: 2 columns more, 4 with the Bayer planes unrolled too (as in Halide)
        n = max(host_tiles * tw, host_tiles * th) + BLOCK - 1 + (4 if fix else 2)
    elif schedule == 1:
        num_tiles, host_tiles = glb
        tile = out_size
        glb_size = tile * num_tiles
        osz = host_tiles * glb_size
        output.bound(x, 0, osz)
        output.bound(y, 0, osz)
        hw_output.in_().compute_root()
        hw_output.in_().tile(x, y, xo, yo, xi, yi, glb_size, glb_size).reorder(c, xi, yi, xo, yo) \
            .hw_accelerate(xi, xo)
        hw_output.in_().unroll(c)
        hw_output.tile(x, y, xo, yo, xi, yi, tile, tile).reorder(c, xi, yi, xo, yo)
        hw_output.compute_at(hw_output.in_(), xo)
        hw_output.store_in(hl.MemoryType.GLB)
        hw_output.unroll(c)
        curve_out.compute_at(hw_output, xo)
        curve_out.unroll(c)
        color_corrected.compute_at(hw_output, xo)
        color_corrected.unroll(c)
        demosaicked.compute_at(hw_output, xo)
        demosaicked.reorder(c, x, y).unroll(c)
        denoised.compute_at(hw_output, xo)
        g_gr.compute_at(hw_output, xo)
        r_r.compute_at(hw_output, xo)
        b_b.compute_at(hw_output, xo)
        g_gb.compute_at(hw_output, xo)
        curve.compute_at(hw_output, xo).unroll(x)
        hw_input.in_().compute_at(hw_output.in_(), xo)
        hw_input.in_().store_in(hl.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
        n = osz + BLOCK - 1
    else:
        output.bound(x, 0, out_size)
        output.bound(y, 0, out_size)
        hw_output.compute_root()
        hw_output.tile(x, y, xo, yo, xi, yi, out_size, out_size).reorder(c, xi, yi, xo, yo) \
            .reorder_storage(c, x, y).hw_accelerate(xi, xo)
        if unroll_c:
            hw_output.unroll(c)
        curve_out.compute_at(hw_output, xo)
        if unroll_c:
            curve_out.unroll(c)
        color_corrected.compute_at(hw_output, xo)
        if unroll_c:
            color_corrected.unroll(c)
        demosaicked.compute_at(hw_output, xo)
        if unroll_c:
            demosaicked.unroll(c)
        denoised.compute_at(hw_output, xo)
        g_gr.compute_at(hw_output, xo)
        r_r.compute_at(hw_output, xo)
        b_b.compute_at(hw_output, xo)
        g_gb.compute_at(hw_output, xo)
        curve.compute_at(hw_output, xo).unroll(x)
        hw_input.stream_to_accelerator()
        n = out_size + BLOCK - 1
    return output, {"input": rand_image(n, n, seed=13, dtype=np.uint16, hi=1024)}, hl.CGRA(num_pes=1024)


def camera_default():
    return camera_pipeline(56)


def camera_small():
    return camera_pipeline(16)


def camera_full_range_input():  # 16-bit raw values over the whole range, not just 10 bits
    out, inputs, t = camera_pipeline(16)
    inputs["input"] = rand_image(24, 24, seed=14, dtype=np.uint16, hi=65536)
    return out, inputs, t


def camera_gamma_contrast():
    return camera_pipeline(16, gamma=2.2, contrast=30.0)


def camera_sched1_host_glb():
    return camera_pipeline(8, schedule=1, glb=(2, 2))


def camera_no_channel_unroll():
    return camera_pipeline(16, unroll_c=False)


def camera_sched3_unroll2():
    return camera_pipeline((16, 8), schedule=3, glb=1)


def camera_sched3_unroll2_fixed():
    return camera_pipeline((16, 8), schedule=3, glb=1, fix=True)


CASES = {f.__name__: f for f in (camera_default, camera_small, camera_full_range_input, camera_gamma_contrast,
                                 camera_sched1_host_glb, camera_no_channel_unroll, camera_sched3_unroll2,
                                 camera_sched3_unroll2_fixed)}
XFAIL: dict[str, str] = {}
SLOW = ("camera_default", "camera_small", "camera_full_range_input", "camera_gamma_contrast", "camera_sched1_host_glb",
        "camera_no_channel_unroll")


@pytest.mark.parametrize("case,simulator", params(CASES, XFAIL, SLOW), indirect=["simulator"])
def test_camera(case, simulator):
    run(case, CASES[case], simulator)
