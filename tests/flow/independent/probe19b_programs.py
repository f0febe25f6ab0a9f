"""Probe19's hand schedules (session 34), part two: seed 002's schedule style (three-level gaussians with GLB tiles,
unrolled windows, RoundUp lanes), Tuples and several outputs of mixed types, `in_()` copies, reorder/fuse/tile with
tails and boundary conditions inside; each in module m (`mainspring`, or `halide`), returning (output or
[outputs], {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of

GAUSS = ((24, 30, 24), (30, 37, 30), (24, 30, 24))


def _gaussian(m, block=3):
    """Seed 002's gaussian: blur_unnormalized over a block x block window of constant weights, blur its / 256."""
    inp, x, y, hw_input = _in(m)
    kernel, blur_un, blur = m.Func("kernel"), m.Func("blur_unnormalized"), m.Func("blur")
    win = m.RDom([m.Range(0, block), m.Range(0, block)], "win")
    kernel[x, y] = m.u16(0)
    for i in range(block):
        for j in range(block):
            kernel[j, i] = m.u16(GAUSS[i % 3][j % 3])
    blur_un[x, y] = m.u16(0)
    blur_un[x, y] += kernel[win.x, win.y] * hw_input[x + win.x, y + win.y]
    blur[x, y] = blur_un[x, y] / 256
    hw_output, output = _out(m, lambda x, y: blur[x, y], m.u8)
    return inp, x, y, hw_input, kernel, blur_un, blur, hw_output, output, win


def _three_level(m, size, glb, tile, lanes=1, block=3):
    inp, x, y, hw_input, kernel, blur_un, blur, hw_output, output, win = _gaussian(m, block)
    if on_hardware(m):
        xo, yo, xi, yi, xii, yii, xio, yio = vars_of(m, "xo yo xi yi xii yii xio yio")
        output.bound(x, 0, size[0]).bound(y, 0, size[1])
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, *glb).hw_accelerate(xi, xo)
        g.store_in(m.MemoryType.GLB)
        hw_output.tile(x, y, xio, yio, xii, yii, *tile)
        hw_output.compute_at(g, xo)
        blur.compute_at(hw_output, xio)
        blur_un.update().unroll(win.x, block).unroll(win.y, block)
        blur_un.compute_at(hw_output, xio)
        kernel.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, xo)
        hw_input.in_().store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
        if lanes > 1:
            ru = m.TailStrategy.RoundUp
            hw_output.unroll(xii, lanes, ru)
            blur.unroll(x, lanes, ru)
            blur_un.unroll(x, lanes, ru)
            blur_un.update().unroll(x, lanes, ru)
            g.unroll(xi, lanes, ru)
            hw_input.in_().in_().unroll(x, lanes, ru)
    return output, {"input": inp}, list(size)


def seed002_three_level_odd(m):
    """Seed 002's three-level gaussian over 10x6: GLB tiles of 10x6, memory tiles of 5x3."""
    return _three_level(m, (10, 6), (10, 6), (5, 3))


def seed002_three_level_glb_tiles(m):
    """GLB tiles of 8x4 over 16x8 (two host calls per row), memory tiles of 4x4."""
    return _three_level(m, (16, 8), (8, 4), (4, 4))


def seed002_three_level_two_lanes(m):
    """The three levels at two lanes (RoundUp) over 12x4, memory tiles of 6x2."""
    return _three_level(m, (12, 4), (12, 4), (6, 2), lanes=2)


def seed002_block_2(m):
    """blockSize 2 (a 2x2 window) over 9x5, GLB 9x5, memory tiles 3x5."""
    return _three_level(m, (9, 5), (9, 5), (3, 5), block=2)


def seed002_single_level_three_lanes(m):
    """The one-level gaussian of seed 002's 'Duplicating Compute': window unrolled, x by 3 RoundUp, 9x4."""
    inp, x, y, hw_input, kernel, blur_un, blur, hw_output, output, win = _gaussian(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (9, 4), inner=(blur_un, blur, kernel), inputs=(hw_input,))
        ru = m.TailStrategy.RoundUp
        blur_un.update().unroll(win.x).unroll(win.y).unroll(x, 3, ru)
        blur_un.unroll(x, 3, ru)
        blur.unroll(x, 3, ru)
        hw_output.unroll(xi, 3, ru)
        hw_input.unroll(x, 3, ru)
    return output, {"input": inp}, [9, 4]


def seed002_store_at_compute_at(m):
    """blur_x.compute_at(hw_output, xo).store_at(hw_output, xo) and hw_input the same, as seed 002 writes them."""
    inp, x, y, hw_input = _in(m)
    blur_x = m.Func("blur_x")
    blur_x[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 9))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 6), tile=(4, 3))
        blur_x.compute_at(hw_output, xo).store_at(hw_output, xo)
        hw_input.compute_at(hw_output, xo).store_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


# ---- Tuples and several outputs -------------------------------------------------------------------------------

def tuple_mixed_types(m, wide=True):
    """A Tuple of (u8 max, u16 sum, i16 difference) of a 3-tap row, three outputs of their types (40 bits)."""
    inp, x, y, hw_input = _in(m)
    t, hw_output, output = m.Func("stats"), m.Func("hw_output"), m.Func("output")
    a, b, c = hw_input[x, y], hw_input[x + 1, y], hw_input[x + 2, y]
    t[x, y] = (m.u8(m.max(a, b, c)), (a + b + c) if wide else m.u8(a + b + c), m.i16(a) - m.i16(c))
    hw_output[x, y] = (t[x, y][0], t[x, y][1], t[x, y][2])
    output[x, y] = (hw_output[x, y][0], hw_output[x, y][1], hw_output[x, y][2])
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inner=(t,), inputs=(hw_input,))
    return output, {"input": inp}, [7, 3]


def tuple_mixed_types_32_bits(m):
    """The Tuple of (u8 max, u8 sum, i16 difference): 32 bits, the most mainspring packs in one word."""
    return tuple_mixed_types(m, wide=False)


def tuple_update_min_max(m):
    """A Tuple reduction (running min and max over a 3x3 window) in an update, outputs u8 and u8."""
    inp, x, y, hw_input = _in(m)
    mm, hw_output, output = m.Func("minmax"), m.Func("hw_output"), m.Func("output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    mm[x, y] = (m.u16(255), m.u16(0))
    v = hw_input[x + r.x, y + r.y]
    mm[x, y] = (m.min(mm[x, y][0], v), m.max(mm[x, y][1], v))
    hw_output[x, y] = (m.u8(mm[x, y][0]), m.u8(mm[x, y][1] - mm[x, y][0]))
    output[x, y] = (hw_output[x, y][0], hw_output[x, y][1])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(mm,), inputs=(hw_input,))
        mm.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def two_outputs_u8_i16(m):
    """A Pipeline of two outputs of different types from one accelerator: a u8 blur and an i16 gradient."""
    inp, x, y, hw_input = _in(m)
    grad, blur = m.Func("grad"), m.Func("blur")
    grad[x, y] = m.i16(hw_input[x + 2, y]) - m.i16(hw_input[x, y])
    blur[x, y] = (hw_input[x, y] + 2 * hw_input[x + 1, y] + hw_input[x + 2, y]) / 4
    hw_a, out_a = m.Func("hw_blur"), m.Func("out_blur")
    hw_b, out_b = m.Func("hw_grad"), m.Func("out_grad")
    hw_a[x, y] = m.u8(blur[x, y])
    hw_b[x, y] = grad[x, y]
    out_a[x, y] = hw_a[x, y]
    out_b[x, y] = hw_b[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 6).bound(y, 0, 4)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        grad.compute_at(hw_b, xo)
        blur.compute_at(hw_a, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_a, out_b], {"input": inp}, [6, 4]


def tuple_output_two_lanes_odd(m):
    """A 2-Tuple output (u8, u16) at two lanes RoundUp over 7x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = (m.u8(hw_input[x, y] >> 1), hw_input[x, y] * hw_input[x + 1, y])
    output[x, y] = (hw_output[x, y][0], hw_output[x, y][1])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


# ---- mixed types ----------------------------------------------------------------------------------------------

def i16_floor_division_and_modulo(m):
    """Signed i16 values divided by 3 and 7 and taken modulo 5 (Halide's floor semantics on negatives)."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    d = m.Func("d")
    d[x, y] = hw_input[x, y] - hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: d[x, y] / 3 + d[x, y] % 5 - d[x, y] / 7)
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 4), inner=(d,), inputs=(hw_input,))
    return output, {"input": inp}, [7, 4]


def i16_input_signed_ops(m):
    """An i16 ImageParam (negative pixels): arithmetic right shift, abs, min/max, output i16."""
    inp, x, y, hw_input = _in(m, t=m.Int(16), wide=m.i16)
    hw_output, output = _out(m, lambda x, y: m.max(hw_input[x, y] >> 2, m.i16(-100)) + m.i16(
        m.abs(hw_input[x + 1, y]) >> 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


def u16_input_u32_products(m):
    """A u16 ImageParam, products of neighbours in u32, output u32."""
    inp, x, y, hw_input = _in(m, t=m.UInt(16), wide=m.u32)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] * hw_input[x, y + 1] + (hw_input[x + 1, y] << 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 4), inputs=(hw_input,))
    return output, {"input": inp}, [5, 4]


def u8_arithmetic_wraps(m):
    """u8 arithmetic kept in u8: a product and a sum that wrap, a saturating add beside."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] * hw_input[x + 1, y] + m.saturating_add(
        hw_input[x, y], hw_input[x, y + 1]))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def mixed_u8_u16_i16_chain(m):
    """u8 input to i16 centred values, u16 squares, u32 sum over 3 taps, u8 output by a shift and a clamp."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    c, sq = m.Func("centred"), m.Func("sq")
    c[x, y] = m.i16(hw_input[x, y]) - m.i16(128)
    sq[x, y] = m.u16(c[x, y] * c[x, y])
    hw_output, output = _out(m, lambda x, y: m.u8(m.min((m.u32(sq[x, y]) + sq[x + 1, y] + sq[x + 2, y]) >> 8, 255)))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 3), inner=(c, sq), inputs=(hw_input,))
    return output, {"input": inp}, [7, 3]


def two_inputs_u8_u16(m):
    """Two inputs of different types (u8 and u16), their weighted sum as u16."""
    a, x, y, hw_a = _in(m, "a")
    b, _, _, hw_b = _in(m, "b", t=m.UInt(16))
    hw_output, output = _out(m, lambda x, y: hw_a[x, y] * m.u16(3) + (hw_b[x, y] >> 2) + hw_a[x + 1, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_a, hw_b))
    return output, {"a": a, "b": b}, [6, 4]


def scalar_params(m):
    """Two scalar Params (u8 offset, i16 gain) in the algorithm."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    off, gain = m.Param(m.UInt(8), "offset", 9), m.Param(m.Int(16), "gain", -3)
    hw_output, output = _out(m, lambda x, y: (hw_input[x, y] - m.i16(off)) * gain + hw_input[x + 1, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
    return output, {"input": inp}, [6, 3]


CASES = {f.__name__: f for f in (
    seed002_three_level_odd, seed002_three_level_glb_tiles, seed002_three_level_two_lanes, seed002_block_2,
    seed002_single_level_three_lanes, seed002_store_at_compute_at, tuple_mixed_types, tuple_mixed_types_32_bits,
    tuple_update_min_max,
    two_outputs_u8_i16, tuple_output_two_lanes_odd, i16_floor_division_and_modulo, i16_input_signed_ops,
    u16_input_u32_products, u8_arithmetic_wraps, mixed_u8_u16_i16_chain, two_inputs_u8_u16, scalar_params,
)}
