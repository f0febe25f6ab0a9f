"""Probe25's hand schedules (session 38), part four: lanes in two dimensions, serial reductions at lanes, pyramids
at lanes, unsharp masks, blends of several inputs, a Tuple output beside another output and resampling by 3; each
in module m (`mainspring`, or `halide`), returning (output(s), {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of


def lanes_two_by_two(m):
    """hw_output.unroll(xi, 2).unroll(yi, 2): four pixels a cycle in a 2x2 block, a 2x2 mean, 8x4."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]
                                                   + hw_input[x + 1, y + 1]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inputs=(hw_input,))
        hw_output.unroll(xi, 2).unroll(yi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def serial_reduction_two_lanes(m):
    """A 3-tap sum along y by a serial RDom (r.y not unrolled), its pure and update x at 2 lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 3)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x, y + r.x]
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(s,), inputs=(hw_input,))
        s.unroll(x, 2)
        s.update().unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def vertical_five_tap_unrolled_two_lanes(m):
    """A 5-tap vertical filter by an unrolled RDom over y, at 2 lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(-2, 5)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x, y + r.x + 2] * m.u16(3 - m.abs(r.x))
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] / 9))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(s,), inputs=(hw_input,))
        s.update().unroll(r.x).unroll(x, 2)
        s.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def pyramid_down_up_two_lanes(m):
    """A down-sample by 2 (a 2x2 mean) then a nearest up-sample back, added to the input (a Laplacian-like
    residue), the output at 2 lanes, the down level at 1, 8x4."""
    inp, x, y, hw_input = _in(m)
    down = m.Func("down")
    down[x, y] = (hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y] + hw_input[2 * x, 2 * y + 1]
                  + hw_input[2 * x + 1, 2 * y + 1]) >> 2
    hw_output, output = _out(m, lambda x, y: m.i16(hw_input[x, y]) - m.i16(down[x / 2, y / 2]))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(down,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def unsharp_mask_two_lanes(m):
    """An unsharp mask: the input plus (input - 3x3 blur), clamped, blur_x and blur_y at xo, 2 lanes, 8x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    by[x, y] = (bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9
    hw_output, output = _out(m, lambda x, y: m.u8(m.clamp(hw_input[x + 1, y + 1] * 2 - by[x, y], 0, 255)))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(bx, by), inputs=(hw_input,))
        for f in (bx, by):
            f.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def blend_three_inputs_two_lanes(m):
    """A blend of two images by a third (the weight), each input streamed at 2 lanes, 8x3."""
    a, x, y, hw_a = _in(m, name="a")
    b, _, _, hw_b = _in(m, name="b")
    w, _, _, hw_w = _in(m, name="w")
    hw_output, output = _out(m, lambda x, y: m.u8((hw_a[x, y] * hw_w[x, y] + hw_b[x, y] * (255 - hw_w[x, y]))
                                                  / 255))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_a, hw_b, hw_w))
        hw_output.unroll(xi, 2)
        for f in (hw_a, hw_b, hw_w):
            f.unroll(x, 2)
    return output, {"a": a, "b": b, "w": w}, [8, 3]


def tuple_output_beside_plain_output(m):
    """A Pipeline of a 2-Tuple output and a plain output, accelerated alike, 6x4 (refused: fused outputs are values
    of their own, a gap)."""
    inp, x, y, hw_input = _in(m)
    hw_t, out_t, hw_p, out_p = m.Func("hw_t"), m.Func("out_t"), m.Func("hw_p"), m.Func("out_p")
    hw_t[x, y] = m.Tuple([m.u8(hw_input[x, y] >> 1), m.u8(hw_input[x + 1, y] >> 1)])
    hw_p[x, y] = m.u8((hw_input[x, y] + hw_input[x, y + 1]) >> 1)
    out_t[x, y] = m.Tuple([hw_t[x, y][0], hw_t[x, y][1]])
    out_p[x, y] = hw_p[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((out_t, hw_t), (out_p, hw_p)):
            o.bound(x, 0, 6).bound(y, 0, 4)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_t, out_p], {"input": inp}, [6, 4]


def tuple_and_plain_as_one_tuple(m):
    """tuple_output_beside_plain_output with its message's fix: the three values as one Tuple Func's elements."""
    inp, x, y, hw_input = _in(m)
    hw_outputs, out_t, out_p = m.Func("hw_outputs"), m.Func("out_t"), m.Func("out_p")
    hw_outputs[x, y] = m.Tuple([m.u8(hw_input[x, y] >> 1), m.u8(hw_input[x + 1, y] >> 1),
                                m.u8((hw_input[x, y] + hw_input[x, y + 1]) >> 1)])
    out_t[x, y] = m.Tuple([hw_outputs[x, y][0], hw_outputs[x, y][1]])
    out_p[x, y] = hw_outputs[x, y][2]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o in (out_t, out_p):
            o.bound(x, 0, 6).bound(y, 0, 4)
        hw_outputs.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_t, out_p], {"input": inp}, [6, 4]


def upsample_by_three_three_lanes(m):
    """A nearest up-sample by 3 along x (x / 3), hw_output at 3 lanes (one value a cycle), 9x2."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x / 3, y] + hw_input[x / 3 + 1, y]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (9, 2), inputs=(hw_input,))
        hw_output.unroll(xi, 3)
    return output, {"input": inp}, [9, 2]


def downsample_producer_four_lanes_output_two(m):
    """blur_x at 4 lanes over the full width, hw_output at 2 lanes reading it at 2x (4 values a cycle), 8x2."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[2 * x, y] + bx[2 * x + 1, y]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 2), inner=(bx,), inputs=(hw_input,))
        bx.unroll(x, 4)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 4)
    return output, {"input": inp}, [8, 2]


def intermediate_tuple_two_lanes(m):
    """A buffered Tuple producer (min and max of a pair) read by the output (their difference), 2 lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    mm = m.Func("minmax")
    mm[x, y] = m.Tuple([m.min(hw_input[x, y], hw_input[x + 1, y]), m.max(hw_input[x, y], hw_input[x + 1, y])])
    hw_output, output = _out(m, lambda x, y: m.u8(mm[x, y][1] - mm[x, y][0] + (mm[x, y + 1][1] >> 2)))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(mm,), inputs=(hw_input,))
        mm.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def producer_rows_two_lanes_y_output_one(m):
    """blur_y unrolled along y (two rows a cycle) read by a 1-lane output, 6x4."""
    inp, x, y, hw_input = _in(m)
    by = m.Func("blur_y")
    by[x, y] = hw_input[x, y] + hw_input[x, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8((by[x, y] + by[x + 1, y]) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(by,), inputs=(hw_input,))
        by.unroll(y, 2)
    return output, {"input": inp}, [6, 4]


def three_outputs_two_lanes_one_word(m):
    """Three outputs (u8, u8, u16: one 32-bit word) accelerated alike at 2 lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    hws = [m.Func(f"hw_{n}") for n in "abc"]
    outs = [m.Func(f"out_{n}") for n in "abc"]
    hws[0][x, y] = m.u8(hw_input[x, y] >> 1)
    hws[1][x, y] = m.u8(m.max(hw_input[x, y], hw_input[x + 1, y]))
    hws[2][x, y] = hw_input[x, y] * hw_input[x + 1, y]
    for o, hw in zip(outs, hws, strict=True):
        o[x, y] = hw[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in zip(outs, hws, strict=True):
            o.bound(x, 0, 8).bound(y, 0, 3)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 8, 3).hw_accelerate(xi, xo).unroll(xi, 2)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2)
    return outs, {"input": inp}, [8, 3]


def two_outputs_over_one_word_two_lanes(m):
    """Two outputs (u16 and u32: 48 bits, two words a pixel) accelerated alike at 2 lanes, 8x2."""
    inp, x, y, hw_input = _in(m, wide=m.u32)
    hw_a, hw_b, out_a, out_b = m.Func("hw_a"), m.Func("hw_b"), m.Func("out_a"), m.Func("out_b")
    hw_a[x, y] = m.u16(hw_input[x, y] + hw_input[x + 1, y])
    hw_b[x, y] = hw_input[x, y] * hw_input[x + 1, y] * 1000
    out_a[x, y] = hw_a[x, y]
    out_b[x, y] = hw_b[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 8).bound(y, 0, 2)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 8, 2).hw_accelerate(xi, xo).unroll(xi, 2)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2)
    return [out_a, out_b], {"input": inp}, [8, 2]


def input_copy_per_consumer_two_lanes(m):
    """hw_input.in_(blur_x) and hw_input.in_(hw_output): a copy of the input for each consumer, 2 lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1] + hw_input[x + 1, y + 1] * 4) >> 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(bx,), inputs=(hw_input,))
        for c in (bx, hw_output):
            hw_input.in_(c).compute_at(hw_output, xo).unroll(x, 2)
        bx.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def one_dimensional_four_lanes(m):
    """A 1-D pipeline: a 3-tap FIR over a 1-D input at 4 lanes, 16 wide."""
    inp = m.ImageParam(m.UInt(8), 1, "input")
    x = m.Var("x")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x] = m.u16(inp[x])
    hw_output[x] = m.u8((hw_input[x] + hw_input[x + 1] * 2 + hw_input[x + 2]) >> 2)
    output[x] = hw_output[x]
    if on_hardware(m):
        xo, xi = m.Var("xo"), m.Var("xi")
        output.bound(x, 0, 16)
        hw_output.compute_root().split(x, xo, xi, 16).hw_accelerate(xi, xo).unroll(xi, 4)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 4)
    return output, {"input": inp}, [16]


def glb_two_outputs_own_copies_reordered_tiles(m):
    """Two outputs each through its own GLB copy, the memory tiles visited column-major (reorder(yii, xii)),
    GLB 6x4, memory tiles 3x4."""
    inp, x, y, hw_input = _in(m)
    hw_a, hw_b, out_a, out_b = m.Func("hw_a"), m.Func("hw_b"), m.Func("out_a"), m.Func("out_b")
    hw_a[x, y] = m.u8((hw_input[x, y] + hw_input[x + 1, y]) >> 1)
    hw_b[x, y] = m.u8(hw_input[x, y + 1] >> 1)
    out_a[x, y] = hw_a[x, y]
    out_b[x, y] = hw_b[x, y]
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        gs = []
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 6).bound(y, 0, 4)
            g = hw.in_()
            g.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
            hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 3, 4).reorder(yii, xii, xio, yio)
            gs.append(g)
        hw_input.in_().in_().compute_at(hw_a, xio)
        hw_input.in_().compute_at(gs[0], xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return [out_a, out_b], {"input": inp}, [6, 4]


CASES = {f.__name__: f for f in (
    lanes_two_by_two,
    serial_reduction_two_lanes,
    vertical_five_tap_unrolled_two_lanes,
    pyramid_down_up_two_lanes,
    unsharp_mask_two_lanes,
    blend_three_inputs_two_lanes,
    tuple_output_beside_plain_output,
    tuple_and_plain_as_one_tuple,
    upsample_by_three_three_lanes,
    downsample_producer_four_lanes_output_two,
    intermediate_tuple_two_lanes,
    producer_rows_two_lanes_y_output_one,
    three_outputs_two_lanes_one_word,
    two_outputs_over_one_word_two_lanes,
    input_copy_per_consumer_two_lanes,
    one_dimensional_four_lanes,
    glb_two_outputs_own_copies_reordered_tiles)}
