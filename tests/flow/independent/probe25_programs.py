"""Probe25's hand schedules (session 38), part one: lanes that differ between producers and consumers, producers
computed at the lanes' loop, and several outputs (a Pipeline, each with its own schedule or GLB copy); each in module
m (`mainspring`, or `halide`, which gets no hardware schedule), returning (output(s), {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of

# ---- lanes between producers and consumers --------------------------------------------------------------------


def producer_four_lanes_consumer_two(m):
    """blur_x at 4 lanes read by hw_output at 2 (a consumer with fewer lanes than its producer), 8x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        bx.unroll(x, 4)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 4)
    return output, {"input": inp}, [8, 4]


def producer_four_lanes_consumer_four(m):
    """producer_four_lanes_consumer_two with its message's fix: hw_output.unroll(xi, 4)."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        bx.unroll(x, 4)
        hw_output.unroll(xi, 4)
        hw_input.unroll(x, 4)
    return output, {"input": inp}, [8, 4]


def producer_two_lanes_consumer_one(m):
    """blur_x at 2 lanes, hw_output at 1, the input at 2, 6x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(bx,), inputs=(hw_input,))
        bx.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [6, 4]


def input_two_lanes_output_one(m, lanes=1):
    """hw_input streamed at 2 lanes into a 1-lane 3-tap stencil (three reads of the stream), 8x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]) / 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        hw_input.unroll(x, 2)
        if lanes > 1:
            hw_output.unroll(xi, lanes)
    return output, {"input": inp}, [8, 3]


def input_two_lanes_output_two(m):
    """input_two_lanes_output_one with its message's fix: hw_output.unroll(xi, 2)."""
    return input_two_lanes_output_one(m, lanes=2)


def producer_one_lane_at_xi_of_two_lane_output(m):
    """blur_x (1 lane) computed at xi of a 2-lane hw_output (inlined per lane in Halide's loop nest), 8x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] * 3 + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
        bx.compute_at(hw_output, xi)
    return output, {"input": inp}, [8, 4]


def producer_at_yi_of_two_lane_output(m):
    """blur_y computed at yi (a row at a time) and stored at xo, hw_output at 2 lanes, 8x4."""
    inp, x, y, hw_input = _in(m)
    by = m.Func("blur_y")
    by[x, y] = hw_input[x, y] + hw_input[x, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8((by[x, y] + by[x + 1, y]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
        by.store_at(hw_output, xo).compute_at(hw_output, yi).unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def producer_three_lanes_consumer_two(m, lanes=2):
    """blur_x at 3 lanes read by hw_output at 2 (lane counts that do not divide each other), 12x3."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x + 1, y]) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (12, 3), inner=(bx,), inputs=(hw_input,))
        bx.unroll(x, 3)
        hw_output.unroll(m.Var("xi"), lanes)
        hw_input.unroll(x, lanes)
    return output, {"input": inp}, [12, 3]


def producer_three_lanes_consumer_three(m):
    """producer_three_lanes_consumer_two with its message's fix: the input and hw_output at 3 lanes."""
    return producer_three_lanes_consumer_two(m, lanes=3)


def split_xi_then_unroll_inner(m):
    """hw_output.split(xi, xii, xiii, 2).unroll(xiii) (in place of unroll(xi, 2)), a 3-tap stencil, 8x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        xii, xiii = vars_of(m, "xii xiii")
        hw_output.split(xi, xii, xiii, 2).unroll(xiii)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def output_unrolled_along_y(m):
    """hw_output.unroll(yi, 2): two rows a cycle from a 1-lane input, a vertical 2-tap mean, 6x4."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x, y + 1]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
        hw_output.unroll(yi, 2)
    return output, {"input": inp}, [6, 4]


def downsample_producer_two_lanes_output_one(m):
    """A 2x2 down-sample: blur_x at 2 lanes over the full width, hw_output at 1 lane reading it at 2x, 8x4 out."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[2 * x, 2 * y] + bx[2 * x, 2 * y + 1]) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (4, 3), inner=(bx,), inputs=(hw_input,))
        bx.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [4, 3]


def upsample_output_two_lanes_producer_one(m):
    """A nearest-neighbour 2x up-sample of a 1-lane blur_x, hw_output at 2 lanes (each pair reads one value), 8x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8(bx[x / 2, y / 2] >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
    return output, {"input": inp}, [8, 4]


def reorder_accelerator_column_major(m):
    """hw_output.reorder(yi, xi, xo, yo) inside the accelerator: columns first, blur_x at xo, 5x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (5, 4), inner=(bx,), inputs=(hw_input,))
        hw_output.reorder(yi, xi, xo, yo)
    return output, {"input": inp}, [5, 4]


def in_copy_of_producer_for_output_two_lanes(m):
    """blur_x.in_(hw_output): a copy of the producer for its consumer, the copy at 2 lanes, 8x3."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(bx,), inputs=(hw_input,))
        bx.in_(hw_output).compute_at(hw_output, xo).unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


# ---- several outputs ----------------------------------------------------------------------------------------------


def _two_outputs(m):
    inp, x, y, hw_input = _in(m)
    hw_a, out_a, hw_b, out_b = m.Func("hw_blur"), m.Func("out_blur"), m.Func("hw_diff"), m.Func("out_diff")
    hw_a[x, y] = m.u8((hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1] + hw_input[x + 1, y + 1]) >> 2)
    hw_b[x, y] = m.i16(hw_input[x + 1, y]) - m.i16(hw_input[x, y])
    out_a[x, y] = hw_a[x, y]
    out_b[x, y] = hw_b[x, y]
    return inp, x, y, hw_input, (hw_a, out_a), (hw_b, out_b)


def two_outputs_one_two_lanes_other_one(m, alike=False):
    """A Pipeline of two outputs scheduled differently: the blur at 2 lanes, the difference at 1, 8x4."""
    inp, x, y, hw_input, (hw_a, out_a), (hw_b, out_b) = _two_outputs(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 8).bound(y, 0, 4)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
        for hw in (hw_a, hw_b) if alike else (hw_a,):
            hw.unroll(xi, 2)
        hw_input.compute_root().stream_to_accelerator().unroll(x, 2)
    return [out_a, out_b], {"input": inp}, [8, 4]


def two_outputs_both_two_lanes(m):
    """two_outputs_one_two_lanes_other_one with its message's fix: hw_diff scheduled as hw_blur (2 lanes)."""
    return two_outputs_one_two_lanes_other_one(m, alike=True)


def two_outputs_as_one_tuple_column_major(m):
    """two_outputs_same_lanes_different_loop_order with its message's other fix: one Tuple Func of the two values,
    accelerated column-major, 6x4."""
    inp, x, y, hw_input = _in(m)
    hw_outputs, out_a, out_b = m.Func("hw_outputs"), m.Func("out_blur"), m.Func("out_diff")
    hw_outputs[x, y] = m.Tuple([
        m.u8((hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1] + hw_input[x + 1, y + 1]) >> 2),
        m.i16(hw_input[x + 1, y]) - m.i16(hw_input[x, y])])
    out_a[x, y] = hw_outputs[x, y][0]
    out_b[x, y] = hw_outputs[x, y][1]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o in (out_a, out_b):
            o.bound(x, 0, 6).bound(y, 0, 4)
        hw_outputs.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).reorder(yi, xi, xo, yo).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_a, out_b], {"input": inp}, [6, 4]


def two_outputs_same_lanes_different_loop_order(m):
    """Two outputs, one tiled row-major and one column-major (reorder(yi, xi)), 6x4."""
    inp, x, y, hw_input, (hw_a, out_a), (hw_b, out_b) = _two_outputs(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 6).bound(y, 0, 4)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        hw_b.reorder(yi, xi, xo, yo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_a, out_b], {"input": inp}, [6, 4]


def two_outputs_each_own_glb_copy(m, per_output=False):
    """Two outputs each through its own GLB copy (hw.in_().store_in(GLB)), the input through one GLB copy and one
    memory-tile copy computed at the first output's tile loop, which the second output reads too (the compiler computes
    the two outputs' tiles as one Tuple Func, so both read it there), GLB 8x4, memory tiles 4x4 (an assert, a cycle
    of Funcs, before session 38)."""
    inp, x, y, hw_input, (hw_a, out_a), (hw_b, out_b) = _two_outputs(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        gs = []
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 8).bound(y, 0, 4)
            g = hw.in_()
            g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
            hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 4, 4)
            gs.append(g)
        if per_output:
            for hw in (hw_a, hw_b):
                hw_input.in_().in_(hw).compute_at(hw, xio)
        else:
            hw_input.in_().in_().compute_at(hw_a, xio)
        hw_input.in_().compute_at(gs[0], xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return [out_a, out_b], {"input": inp}, [8, 4]


def two_outputs_each_own_glb_copy_and_input_copy(m):
    """two_outputs_each_own_glb_copy with a memory-tile copy of the input for each output (hw_input.in_().in_(hw))."""
    return two_outputs_each_own_glb_copy(m, per_output=True)


def tuple_output_two_lanes_with_producer(m):
    """A 2-Tuple output (a fused pair: the 2x2 mean and the gradient) over a buffered producer, at 2 lanes, 8x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = m.Tuple([m.u8((bx[x, y] + bx[x, y + 1]) >> 2), m.i16(bx[x, y + 1]) - m.i16(bx[x, y])])
    output[x, y] = m.Tuple([hw_output[x, y][0], hw_output[x, y][1]])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        bx.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def two_outputs_sharing_producer(m):
    """Two outputs reading one buffered producer (a vertical blur), each output its own accelerator output, 6x4."""
    inp, x, y, hw_input = _in(m)
    by = m.Func("blur_y")
    by[x, y] = hw_input[x, y] + hw_input[x, y + 1] + hw_input[x, y + 2]
    hw_a, out_a, hw_b, out_b = m.Func("hw_a"), m.Func("out_a"), m.Func("hw_b"), m.Func("out_b")
    hw_a[x, y] = m.u8(by[x, y] / 3)
    hw_b[x, y] = m.u8((by[x, y] + by[x + 1, y]) / 6)
    out_a[x, y] = hw_a[x, y]
    out_b[x, y] = hw_b[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 6).bound(y, 0, 4)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        by.compute_at(hw_b, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_a, out_b], {"input": inp}, [6, 4]


CASES = {f.__name__: f for f in (
    producer_four_lanes_consumer_two,
    producer_four_lanes_consumer_four,
    producer_two_lanes_consumer_one,
    input_two_lanes_output_one,
    input_two_lanes_output_two,
    producer_one_lane_at_xi_of_two_lane_output,
    producer_at_yi_of_two_lane_output,
    producer_three_lanes_consumer_two,
    producer_three_lanes_consumer_three,
    split_xi_then_unroll_inner,
    output_unrolled_along_y,
    downsample_producer_two_lanes_output_one,
    upsample_output_two_lanes_producer_one,
    reorder_accelerator_column_major,
    in_copy_of_producer_for_output_two_lanes,
    two_outputs_one_two_lanes_other_one,
    two_outputs_both_two_lanes,
    two_outputs_as_one_tuple_column_major,
    two_outputs_same_lanes_different_loop_order,
    two_outputs_each_own_glb_copy,
    two_outputs_each_own_glb_copy_and_input_copy,
    tuple_output_two_lanes_with_producer,
    two_outputs_sharing_producer)}
