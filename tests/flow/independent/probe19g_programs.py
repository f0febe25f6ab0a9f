"""Probe19's hand schedules (session 34), part seven: GLB levels around channels, histograms and tables (seed 002's
hierarchy with the other generators' algorithms); each in module m (`mainspring`, or `halide`), returning (output,
{name: ImageParam}, size)."""

from probe19_programs import _in
from probe_common import on_hardware, vars_of


def _glb(m, hw_output, output, size, glb, tile, hw_input, inner=(), rgb=False):
    """Seed 002's three levels: hw_output.in_() in the GLB tiled by `glb`, hw_output its memory tiles `tile`."""
    xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, *glb).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
    hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, *tile)
    for f in inner:
        f.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return g


def glb_rgb_to_gray(m):
    """A 3-channel input through the GLB, reduced to gray in the memory tiles (channels read in turn)."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    x, y, c = vars_of(m, "x y c")
    hw_input, gray, hw_output, output = m.Func("hw_input"), m.Func("gray"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    gray[x, y] = (hw_input[x, y, 0] * 77 + hw_input[x, y, 1] * 150 + hw_input[x, y, 2] * 29) >> 8
    hw_output[x, y] = m.u8((gray[x, y] + gray[x + 1, y]) / 2)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _glb(m, hw_output, output, (8, 4), (8, 4), (4, 2), hw_input, inner=(gray,))
        hw_input.bound(c, 0, 3)
    return output, {"input": inp}, [8, 4]


def glb_rom_lookup(m):
    """A 64-word table computed in the memory tiles, read at pixel >> 2, through the GLB in tiles of 6x4."""
    inp, x, y, hw_input = _in(m)
    v = m.Var("v")
    curve, hw_output, output = m.Func("curve"), m.Func("hw_output"), m.Func("output")
    curve[v] = m.u8((v * v) >> 4)
    hw_output[x, y] = curve[m.i32(hw_input[x, y] >> 2)]
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _glb(m, hw_output, output, (12, 4), (6, 4), (6, 2), hw_input, inner=(curve,))
        curve.bound(v, 0, 64).unroll(v)
    return output, {"input": inp}, [12, 4]


def glb_conv_two_lanes_odd_glb_tile(m):
    """A 3x3 convolution in the memory tiles, two lanes RoundUp, GLB tiles of 6x4 over 12x8, memory tiles 6x2."""
    inp, x, y, hw_input = _in(m)
    conv, hw_output, output = m.Func("conv"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    conv[x, y] = m.u16(0)
    conv[x, y] += hw_input[x + r.x, y + r.y] * m.u16(1 + (r.x + r.y) % 2)
    hw_output[x, y] = m.u8(conv[x, y] / 13)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        g = _glb(m, hw_output, output, (12, 8), (6, 4), (6, 2), hw_input, inner=(conv,))
        ru = m.TailStrategy.RoundUp
        conv.update().unroll(r.x).unroll(r.y).unroll(x, 2, ru)
        conv.unroll(x, 2, ru)
        hw_output.unroll(m.Var("xii"), 2, ru)
        g.unroll(m.Var("xi"), 2, ru)
        hw_input.in_().in_().unroll(x, 2, ru)
    return output, {"input": inp}, [12, 8]


def glb_i16_signed_output(m):
    """An i16 gradient through the GLB (signed words in the GLB output)."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = hw_input[x + 1, y] - hw_input[x, y] * 2
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _glb(m, hw_output, output, (8, 4), (4, 4), (4, 2), hw_input)
    return output, {"input": inp}, [8, 4]


def _three_level_memory(m, size, gb, cgra):
    """three_level_memory_generator's Clockwork branch (copies input_host, input_gb, hw_input at the host, GLB and
    memory-tile levels, output_gb tiled at the host loop, no store_in) at other sizes."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    names = "kernel conv input_host input_gb hw_input output_gb hw_output output"
    kernel, conv, input_host, input_gb, hw_input, output_gb, hw_output, output = (m.Func(n) for n in names.split())
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    kernel[x, y] = 1 + x * y
    input_host[x, y] = m.u16(inp[x, y])
    input_gb[x, y] = input_host[x, y]
    hw_input[x, y] = input_gb[x, y]
    conv[x, y] = m.u16(0)
    conv[x, y] += m.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    output_gb[x, y] = conv[x, y]
    hw_output[x, y] = output_gb[x, y]
    output[x, y] = m.u8(hw_output[x, y] >> 4)
    if on_hardware(m):
        x_host, y_host, x_gb, y_gb, x_cgra, y_cgra, xi, yi = vars_of(m, "x_host y_host x_gb y_gb x_cgra y_cgra xi yi")
        output.bound(x, 0, size[0]).bound(y, 0, size[1])
        hw_output.compute_root().tile(x, y, x_host, y_host, xi, yi, *gb).hw_accelerate(xi, x_host)
        output_gb.compute_at(hw_output, x_host).tile(x, y, x_gb, y_gb, x_cgra, y_cgra, *cgra)
        conv.update().unroll(r.x).unroll(r.y)
        conv.compute_at(output_gb, x_gb)
        kernel.compute_at(output_gb, x_gb)
        input_host.compute_root().accelerator_input()
        input_gb.compute_at(hw_output, x_host)
        hw_input.compute_at(output_gb, x_gb)
    return output, {"input": inp}, list(size)


def three_level_memory_odd(m):
    """The generator's levels over 10x6: one GLB tile, memory tiles of 5x3."""
    return _three_level_memory(m, (10, 6), (10, 6), (5, 3))


def three_level_memory_host_tiles(m):
    """Host tiles of 6x6 over 12x6 (two accelerator calls), memory tiles of 3x3."""
    return _three_level_memory(m, (12, 6), (6, 6), (3, 3))


CASES = {f.__name__: f for f in (glb_rgb_to_gray, glb_rom_lookup, glb_conv_two_lanes_odd_glb_tile,
                                  glb_i16_signed_output, three_level_memory_odd, three_level_memory_host_tiles)}
