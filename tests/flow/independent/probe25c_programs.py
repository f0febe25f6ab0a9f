"""Probe25's hand schedules (session 38), part three: lanes over parity selects and resampling, inputs slower than
their readers, producers at the lanes' loop with lanes of their own, compute_with and outputs reading outputs,
Tuple reductions and Register stores; each in module m (`mainspring`, or `halide`), returning (output(s),
{name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import on_hardware, vars_of


def demosaic_parity_select_two_lanes(m):
    """A Bayer-like select on x % 2 and y % 2 (each lane a different branch) at 2 lanes, 8x4."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(m.select(
        (x % 2 == 0) & (y % 2 == 0), hw_input[x + 1, y + 1],
        (x % 2 == 1) & (y % 2 == 1), (hw_input[x, y] + hw_input[x + 2, y + 2]) >> 1,
        (hw_input[x + 1, y] + hw_input[x, y + 1]) >> 1)))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def upsample_producer_two_lanes_output_four(m):
    """A 2x up-sample along x: blur_x at 2 lanes, hw_output at 4 (each pair of lanes one value), 16x2."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x / 2, y] + bx[(x + 1) / 2, y]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (16, 2), inner=(bx,), inputs=(hw_input,))
        bx.unroll(x, 2)
        hw_output.unroll(xi, 4)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [16, 2]


def input_two_lanes_output_four(m):
    """hw_input at 2 lanes read by hw_output at 4 (the input slower than its reader), a 2-tap mean, 8x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        hw_output.unroll(xi, 4)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def output_three_lanes_odd_width_input_one(m):
    """hw_output at 3 lanes over 9 (exactly 3 steps) from a 1-lane input, a 3-tap stencil, 9x2."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y])
                                                  >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (9, 2), inputs=(hw_input,))
        hw_output.unroll(xi, 3)
    return output, {"input": inp}, [9, 2]


def producer_at_xi_two_lanes_each(m):
    """blur_x stored at xo and computed at xi of a 2-lane hw_output, blur_x itself unrolled by 2, 8x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
        bx.store_at(hw_output, xo).compute_at(hw_output, xi).unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def producer_at_xi_one_lane_output_two_reads_along_x(m, lanes=1):
    """A 1-lane blur_x computed at xi of a 2-lane output that reads it at x and x + 1, 8x3 (refused: the stream's
    2 lanes a cycle against blur_x's 1)."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] * 2 + hw_input[x, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x + 1, y]) >> 2))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
        bx.compute_at(hw_output, xi)
        if lanes > 1:
            bx.unroll(x, lanes)
    return output, {"input": inp}, [8, 3]


def producer_at_xi_two_lanes_output_two_reads_along_x(m):
    """producer_at_xi_one_lane_output_two_reads_along_x with its message's fix: blur_x.unroll(x, 2)."""
    return producer_at_xi_one_lane_output_two_reads_along_x(m, lanes=2)


def two_outputs_compute_with(m):
    """Two outputs, the second compute_with the first at xo (Halide's fused loop nest), 6x4."""
    inp, x, y = m.ImageParam(m.UInt(8), 2, "input"), m.Var("x"), m.Var("y")
    hw_input = m.Func("hw_input")
    hw_input[x, y] = m.u16(inp[x, y])
    hw_a, hw_b, out_a, out_b = m.Func("hw_a"), m.Func("hw_b"), m.Func("out_a"), m.Func("out_b")
    hw_a[x, y] = m.u8((hw_input[x, y] + hw_input[x + 1, y + 1]) >> 1)
    hw_b[x, y] = m.u8(m.max(hw_input[x + 1, y], hw_input[x, y + 1]))
    out_a[x, y] = hw_a[x, y]
    out_b[x, y] = hw_b[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 6).bound(y, 0, 4)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4)
        hw_a.hw_accelerate(xi, xo)
        hw_b.compute_with(hw_a, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_a, out_b], {"input": inp}, [6, 4]


def second_output_reads_first(m, split=False, fused=False):
    """Two outputs where the second reads the first (hw_b = hw_a + a neighbour), both accelerated alike, 6x4
    (refused: one accelerated region; `fused`: hw_b.compute_with(hw_a, xo) in place of its hw_accelerate, refused
    too)."""
    inp, x, y, hw_input = _in(m)
    hw_a, hw_b, out_a, out_b = m.Func("hw_a"), m.Func("hw_b"), m.Func("out_a"), m.Func("out_b")
    if split:
        mid = m.Func("mid")
        mid[x, y] = (hw_input[x, y] + hw_input[x + 1, y]) >> 1
        hw_a[x, y] = mid[x, y]
        hw_b[x, y] = m.u8(mid[x, y] + hw_input[x, y + 1])
    else:
        hw_a[x, y] = (hw_input[x, y] + hw_input[x + 1, y]) >> 1
        hw_b[x, y] = m.u8(hw_a[x, y] + hw_input[x, y + 1])
    out_a[x, y] = m.u8(hw_a[x, y])
    out_b[x, y] = hw_b[x, y]
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        for o, hw in ((out_a, hw_a), (out_b, hw_b)):
            o.bound(x, 0, 6).bound(y, 0, 4)
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4)
        hw_a.hw_accelerate(xi, xo)
        hw_b.compute_with(hw_a, xo) if fused else hw_b.hw_accelerate(xi, xo)
        if split:
            mid.compute_at(hw_a, xo)
        hw_input.compute_root().stream_to_accelerator()
    return [out_a, out_b], {"input": inp}, [6, 4]


def second_output_reads_first_compute_with(m):
    """second_output_reads_first with hw_b.compute_with(hw_a, xo): refused (hw_b reads hw_a, so the two cannot be
    one Tuple Func, and hw_b would run on the host unannounced; Halide refuses the dependency too)."""
    return second_output_reads_first(m, fused=True)


def second_output_reads_shared_producer(m):
    """second_output_reads_first with its message's fix: both outputs read a producer `mid` computed at hw_a's xo,
    scheduled alike (Halide would want hw_b.compute_with(hw_a, xo); one accelerator computes outputs scheduled alike
    in one loop nest)."""
    return second_output_reads_first(m, split=True)


def second_output_reads_shared_producer_compute_with(m):
    """second_output_reads_shared_producer with hw_b.compute_with(hw_a, xo) (Halide's way; fused in the
    accelerator)."""
    return second_output_reads_first(m, split=True, fused=True)


def tuple_argmax_reduction_unrolled(m):
    """A Tuple reduction (argmax over 4 taps along x: the index and the value), unrolled, 6x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 4)], "r")
    am = m.Func("am")
    am[x, y] = m.Tuple([m.u8(0), m.u16(0)])
    better = hw_input[x + r.x, y] > am[x, y][1]
    am[x, y] = m.Tuple([m.select(better, m.u8(r.x), am[x, y][0]), m.select(better, hw_input[x + r.x, y],
                                                                             am[x, y][1])])
    hw_output, output = _out(m, lambda x, y: m.u8(am[x, y][0] * 64) + m.u8(am[x, y][1] >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(am,), inputs=(hw_input,))
        am.update().unroll(r.x)
    return output, {"input": inp}, [6, 3]


def store_in_register_producer(m):
    """blur_x.store_in(MemoryType.Register) at xo (a CPU hint: the hardware buffers it as it would), 6x3."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1]) >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(bx,), inputs=(hw_input,))
        bx.store_in(m.MemoryType.Register)
    return output, {"input": inp}, [6, 3]


def unroll_guard_with_if_odd_width(m):
    """hw_output.unroll(xi, 2, GuardWithIf) over a 7-wide tile (the last step one lane), 7x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (7, 3), inputs=(hw_input,))
        hw_output.unroll(xi, 2, m.TailStrategy.GuardWithIf)
    return output, {"input": inp}, [7, 3]


def producer_compute_at_producer(m):
    """blur_x computed at blur_y's y loop, blur_y at hw_output's xo (a producer placed at another producer), 6x4."""
    inp, x, y, hw_input = _in(m)
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    by[x, y] = bx[x, y] + bx[x, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8(by[x, y] >> 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(by,), inputs=(hw_input,))
        bx.compute_at(by, y)
    return output, {"input": inp}, [6, 4]


def fuse_xi_yi_inside_accelerator(m):
    """hw_output.fuse(xi, yi, t) inside the accelerator (one loop over the tile), a 2x2 stencil, 6x3."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x + 1, y + 1]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
        hw_output.fuse(xi, yi, m.Var("t"))
    return output, {"input": inp}, [6, 3]


def host_reorder_yo_inner(m):
    """Host tiles visited column by column (reorder(xi, yi, yo, xo)), 2x2 tiles of 4x2 over 8x4."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8((hw_input[x, y] + hw_input[x, y + 1]) >> 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), tile=(4, 2), inputs=(hw_input,))
        hw_output.reorder(xi, yi, yo, xo)
    return output, {"input": inp}, [8, 4]


CASES = {f.__name__: f for f in (
    demosaic_parity_select_two_lanes,
    upsample_producer_two_lanes_output_four,
    input_two_lanes_output_four,
    output_three_lanes_odd_width_input_one,
    producer_at_xi_two_lanes_each,
    producer_at_xi_one_lane_output_two_reads_along_x,
    producer_at_xi_two_lanes_output_two_reads_along_x,
    two_outputs_compute_with,
    second_output_reads_first,
    second_output_reads_first_compute_with,
    second_output_reads_shared_producer,
    second_output_reads_shared_producer_compute_with,
    tuple_argmax_reduction_unrolled,
    store_in_register_producer,
    unroll_guard_with_if_odd_width,
    producer_compute_at_producer,
    fuse_xi_yi_inside_accelerator,
    host_reorder_yo_inner)}
