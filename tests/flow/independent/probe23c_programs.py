"""Probe23's hand schedules (session 36), part three: schedules inside the accelerator earlier probes touched least:
specialize, in_(f) for one consumer only, rename, split + fuse, reorder_storage of inner Funcs, compute_at at an
inner loop of an unrolled consumer, chains of six and more stencils (as Halide's tutorials write them) and RDoms over
1-D strips; each in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe22d_programs import _blur
from probe_common import on_hardware

# ---- specialize, in_, rename, split + fuse, reorder_storage ------------------------------------------------------


def _blur_then(m, size, more):
    """probe22d's 3x3 binomial blur (blur_x at xo) over `size`, then more(blur_x, hw_output, xi, yi) on hardware."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, inner=(bx,), inputs=(hw_input,))
        more(bx, hw_output, xi, yi)
    return output, {"input": inp}, list(size)


def specialize_on_param_host_versions(m):
    """hw_output specialized on a Bool Param (a host-side version that unrolls nothing), the accelerator built
    from the generic schedule, 6x4."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    fast = m.Param(m.Bool(), "fast", True)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), inner=(bx,), inputs=(hw_input,))
        output.specialize(fast)
    return output, {"input": inp}, [6, 4]


def specialize_of_the_output_on_width(m):
    """The host output specialized on the input's width being even (its vectorize-free split), 6x3."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inner=(bx,), inputs=(hw_input,))
        xo2, xi2 = m.Var("xo2"), m.Var("xi2")
        output.specialize(inp.width() % 2 == 0).split(x, xo2, xi2, 2)
    return output, {"input": inp}, [6, 3]


def in_for_one_consumer_only(m):
    """hw_input.in_(blur_x): a copy read by blur_x alone (computed at xo), the output reading hw_input itself, 6x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1] + hw_input[x + 1, y + 1] * 4) >> 3))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), inner=(bx,), inputs=(hw_input,))
        hw_input.in_(bx).compute_at(hw_output, xo)
    return output, {"input": inp}, [6, 4]


def in_of_intermediate_for_one_consumer(m):
    """blur_x.in_(blur_y) buffered for blur_y only while the output reads blur_x directly, 6x4."""
    inp, x, y, hw_input = _in(m)
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    by[x, y] = bx[x, y] + bx[x, y + 1]
    hw_output, output = _out(m, lambda x, y: by[x, y] - bx[x + 1, y + 1] / 2)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), inner=(bx, by), inputs=(hw_input,))
        bx.in_(by).compute_at(hw_output, xo)
    return output, {"input": inp}, [6, 4]


def rename_inside_accelerator(m):
    """blur_x's x renamed to c before it is buffered at xo, hw_output's yi renamed to row, 6x4."""
    return _blur_then(m, (6, 4), lambda bx, hw_output, xi, yi: (bx.rename(m.Var("x"), m.Var("c")),
                                                                hw_output.rename(yi, m.Var("row"))))


def split_then_fuse_inside(m):
    """blur_x split by 3 along x then its x pieces fused back (a flat loop), in the accelerator, 6x4."""
    return _blur_then(m, (6, 4), lambda bx, hw_output, xi, yi: bx.split(m.Var("x"), m.Var("bxo"), m.Var("bxi"), 3)
                      .fuse(m.Var("bxi"), m.Var("bxo"), m.Var("f")))


def fuse_x_y_of_producer_inside(m):
    """blur_x's x and y fused into one loop inside the accelerator, 6x4."""
    return _blur_then(m, (6, 4), lambda bx, hw_output, xi, yi: bx.fuse(m.Var("x"), m.Var("y"), m.Var("xy")))


def split_fuse_of_output_tile(m):
    """hw_output's xi split by 2 and its pieces fused with yi (a single loop over the tile), 6x4."""
    return _blur_then(m, (6, 4), lambda bx, hw_output, xi, yi: hw_output.split(xi, m.Var("xio"), m.Var("xii"), 2)
                      .fuse(m.Var("xii"), m.Var("xio"), m.Var("t")))


def reorder_storage_inner_funcs(m):
    """reorder_storage(y, x) on blur_x (a column-major buffer), 7x4."""
    return _blur_then(m, (7, 4), lambda bx, hw_output, xi, yi: bx.reorder_storage(m.Var("y"), m.Var("x")))


def reorder_storage_three_dims(m):
    """A three-dimensional intermediate (two channels of gradients) with reorder_storage(c, y, x), 6x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    c = m.Var("c")
    g = m.Func("grad")
    g[x, y, c] = m.select(c == 0, hw_input[x + 1, y] - hw_input[x, y], hw_input[x, y + 1] - hw_input[x, y])
    hw_output, output = _out(m, lambda x, y: g[x, y, 0] * g[x, y, 0] + g[x, y, 1] * g[x, y, 1])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(g,), inputs=(hw_input,))
        g.bound(c, 0, 2).reorder_storage(c, y, x).reorder(c, x, y).unroll(c)
    return output, {"input": inp}, [6, 4]


# ---- compute_at an inner loop of an unrolled consumer --------------------------------------------------------------


def producer_at_inner_loop_of_unrolled_consumer(m):
    """hw_output unrolled by 2 along xi (split into xl, lanes) and blur_x computed at its xl loop, 8x3."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inputs=(hw_input,))
        xl, lane = m.Var("xl"), m.Var("lane")
        hw_output.split(xi, xl, lane, 2).unroll(lane)
        bx.compute_at(hw_output, xl).store_at(hw_output, xo)
    return output, {"input": inp}, [8, 3]


def producer_at_yi_of_unrolled_xi(m):
    """hw_output's xi unrolled whole (4 lanes), blur_x computed at yi (the row loop, inside the accelerator), 4x4."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (4, 4), inputs=(hw_input,))
        hw_output.unroll(xi)
        bx.compute_at(hw_output, yi).store_at(hw_output, xo).unroll(x)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [4, 4]


def producer_at_inner_of_unrolled_rows(m):
    """hw_output's yi unrolled by 2 (two rows at once) and blur_x computed at xi inside them, 6x4."""
    inp, x, y, hw_input, bx, hw_output, output = _blur(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
        hw_output.unroll(yi, 2)
        bx.compute_at(hw_output, xi).store_at(hw_output, xo)
    return output, {"input": inp}, [6, 4]


# ---- chains of six and more stencils ---------------------------------------------------------------------------


def _chain(m, n, taps, size, lanes=1, tile=None):
    """n stencils in a chain, each the rounded mean of `taps` neighbours along x then y alternately of the last."""
    inp, x, y, hw_input = _in(m)
    stages, prev = [], hw_input
    for i in range(n):
        s, p = m.Func(f"s{i}"), prev
        if i % 2 == 0:
            s[x, y] = (sum((p[x + k, y] for k in range(1, taps)), p[x, y]) + taps // 2) / taps
        else:
            s[x, y] = (sum((p[x, y + k] for k in range(1, taps)), p[x, y]) + taps // 2) / taps
        stages.append(s)
        prev = s
    hw_output, output = _out(m, lambda x, y: m.u8(prev[x, y]))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, tile=tile, inner=stages, inputs=(hw_input,))
        if lanes > 1:
            hw_output.unroll(xi, lanes)
            for s in stages:
                s.unroll(x, lanes)
            hw_input.unroll(x, lanes)
    return output, {"input": inp}, list(size)


def chain_six_two_tap_means(m):
    """Six 2-tap means alternating x and y (a tutorial-like smoothing chain), 6x4."""
    return _chain(m, 6, 2, (6, 4))


def chain_seven_three_tap_means(m):
    """Seven 3-tap means alternating x and y, 5x3."""
    return _chain(m, 7, 3, (5, 3))


def chain_eight_two_tap_two_lanes(m):
    """Eight 2-tap means, two lanes through every stage, 6x3."""
    return _chain(m, 8, 2, (6, 3), lanes=2)


def chain_mixed_ops_six_stages(m):
    """Six stages of different kinds in a chain: gradient (i16), abs, 3-tap max, threshold, 2x2 count and an
    inverted scale, 6x4."""
    inp, x, y, hw_input = _in(m, wide=m.i16)
    g, a, mx, th, cnt = (m.Func(n) for n in ("grad", "mag", "maxed", "thresh", "count"))
    g[x, y] = hw_input[x + 1, y] - hw_input[x, y]
    a[x, y] = m.abs(g[x, y])
    mx[x, y] = m.max(a[x, y], m.max(a[x + 1, y], a[x, y + 1]))
    th[x, y] = m.select(mx[x, y] > 40, m.u8(1), m.u8(0))
    cnt[x, y] = th[x, y] + th[x + 1, y] + th[x, y + 1] + th[x + 1, y + 1]
    hw_output, output = _out(m, lambda x, y: m.u8(255) - cnt[x, y] * 60)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(g, a, mx, th, cnt), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def chain_six_host_tiles(m):
    """Six 2-tap means in host tiles of 3x2 over 6x4 (each tile re-reads its halo)."""
    return _chain(m, 6, 2, (6, 4), tile=(3, 2))


def chain_six_host_tiles_two_lanes(m):
    """Six 2-tap means in host tiles of 4x2 over 8x4, two lanes through every stage."""
    return _chain(m, 6, 2, (8, 4), lanes=2, tile=(4, 2))


# ---- RDoms over 1-D strips ----------------------------------------------------------------------------------------


def _strip(m, n, t=None):
    inp = m.ImageParam(t or m.UInt(8), 1, "signal")
    x = m.Var("x")
    hw_in, hw_output, output = m.Func("hw_signal"), m.Func("hw_output"), m.Func("output")
    return inp, x, hw_in, hw_output, output


def _strip_sched(m, output, hw_output, hw_in, n, split, inner=()):
    x, xo, xi = m.Var("x"), m.Var("xo"), m.Var("xi")
    output.bound(x, 0, n)
    hw_output.compute_root().split(x, xo, xi, split).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_in.compute_root().stream_to_accelerator()
    return xo, xi


def _strip_fir(m, n, split, unrolled):
    """A 1-D strip of n samples through a 5-tap FIR written as an RDom with i16 weights, in tiles of `split`."""
    inp, x, hw_in, hw_output, output = _strip(m, n)
    hw_in[x] = m.i16(inp[x])
    r = m.RDom([m.Range(0, 5)], "r")
    fir = m.Func("fir")
    fir[x] = m.i16(0)
    fir[x] += hw_in[x + r.x] * m.i16(r.x * 2 - 4)
    hw_output[x] = fir[x]
    output[x] = hw_output[x]
    if on_hardware(m):
        _strip_sched(m, output, hw_output, hw_in, n, split, inner=(fir,))
        if unrolled:
            fir.update().unroll(r.x)
    return output, {"signal": inp}, [n]


def strip_rdom_fir_serial(m):
    """The 1-D 5-tap RDom FIR, serial taps, 12 samples in tiles of 4."""
    return _strip_fir(m, 12, 4, False)


def strip_rdom_fir_unrolled(m):
    """The 1-D 5-tap RDom FIR with its taps unrolled, 10 samples in one tile."""
    return _strip_fir(m, 10, 10, True)


def strip_whole_sum_and_max(m):
    """The sum and the max of a whole 1-D strip of 9 samples (an RDom over the strip), a 1-sample output."""
    inp, x, hw_in, hw_output, output = _strip(m, 1)
    hw_in[x] = m.u16(inp[x])
    r = m.RDom([m.Range(0, 9)], "r")
    acc = m.Func("acc")
    acc[x] = m.u16(0)
    acc[x] = acc[x] + hw_in[r.x] + m.u16(m.maximum(hw_in[r.x]) * 0)
    hw_output[x] = acc[x] + m.maximum(hw_in[r.x])
    output[x] = hw_output[x]
    if on_hardware(m):
        _strip_sched(m, output, hw_output, hw_in, 1, 1, inner=(acc,))
    return output, {"signal": inp}, [1]


def strip_prefix_sum(m):
    """A running (prefix) sum along a 1-D strip of 8 samples, an RDom recurrence in u16."""
    inp, x, hw_in, hw_output, output = _strip(m, 8)
    hw_in[x] = m.u16(inp[x])
    r = m.RDom([m.Range(1, 7)], "r")
    ps = m.Func("ps")
    ps[x] = hw_in[x]
    ps[r.x] = ps[r.x - 1] + hw_in[r.x]
    hw_output[x] = ps[x]
    output[x] = hw_output[x]
    if on_hardware(m):
        _strip_sched(m, output, hw_output, hw_in, 8, 8, inner=(ps,))
    return output, {"signal": inp}, [8]


def strip_histogram_of_a_strip(m):
    """A 4-bin histogram of a 1-D strip of 16 samples (bin = sample >> 6), u8 counts."""
    inp, x, hw_in, hw_output, output = _strip(m, 4)
    hw_in[x] = m.u8(inp[x])
    r = m.RDom([m.Range(0, 16)], "r")
    h = m.Func("hist")
    h[x] = m.u8(0)
    h[m.i32(hw_in[r.x] >> 6)] += m.u8(1)
    hw_output[x] = h[x]
    output[x] = hw_output[x]
    if on_hardware(m):
        _strip_sched(m, output, hw_output, hw_in, 4, 4, inner=(h,))
    return output, {"signal": inp}, [4]


def strip_of_a_2d_image_rows(m):
    """An RDom over a 1-D strip of a 2-D image: each output row sums 5 samples of its row, u16, 4x3."""
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, 5)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y] * m.u16(r.x + 1)
    hw_output, output = _out(m, lambda x, y: s[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (4, 3), inner=(s,), inputs=(hw_input,))
    return output, {"input": inp}, [4, 3]


def rename_xi_before_accelerate(m):
    """hw_output's xi renamed to px before hw_accelerate(px, xo), 6x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: bx[x, y] + bx[x, y + 1])
    if on_hardware(m):
        xo, yo, xi, yi = m.Var("xo"), m.Var("yo"), m.Var("xi"), m.Var("yi")
        px = m.Var("px")
        output.bound(x, 0, 6).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).rename(xi, px)
        hw_output.hw_accelerate(px, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6, 4]


def reorder_storage_hw_output(m):
    """reorder_storage(y, x) on hw_output itself (the accelerator's output buffer), 6x4."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] + hw_input[x + 1, y + 1])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
        hw_output.reorder_storage(y, x)
    return output, {"input": inp}, [6, 4]


def in_for_one_consumer_lanes(m):
    """hw_input.in_(blur_x) at two lanes, the output reading hw_input directly, 8x4."""
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output, output = _out(m, lambda x, y: bx[x, y] + bx[x, y + 1] + hw_input[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        hw_input.in_(bx).compute_at(hw_output, xo).unroll(x, 2)
        hw_output.unroll(xi, 2)
        bx.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def producer_at_inner_of_unrolled_rdom(m):
    """A producer computed at r.y of a reduction whose r.x is unrolled, 6x3."""
    inp, x, y, hw_input = _in(m)
    k = m.Func("k")
    k[x, y] = hw_input[x, y] * 2 + 1
    r = m.RDom([m.Range(0, 3), m.Range(0, 2)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += k[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: s[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 3), inner=(s, k), inputs=(hw_input,))
        s.update().unroll(r.x)
        k.compute_at(s, r.y)
    return output, {"input": inp}, [6, 3]


def specialize_unroll_inside(m):
    """hw_output.specialize(p).unroll(xi, 2) on a Bool Param: the accelerator built from the generic schedule, 6x3."""
    inp, x, y, hw_input = _in(m)
    p = m.Param(m.Bool(), "p", True)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] + hw_input[x + 1, y])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
        hw_output.specialize(p).unroll(xi, 2)
    return output, {"input": inp}, [6, 3]


def fuse_then_split_inside(m):
    """blur_x's x and y fused, the fused loop split by 5 (refused: a gap; the fix split_then_fuse_inside splits
    first), 6x4."""
    return _blur_then(m, (6, 4), lambda bx, hw_output, xi, yi: bx.fuse(m.Var("x"), m.Var("y"), m.Var("f"))
                      .split(m.Var("f"), m.Var("fo"), m.Var("fi"), 5))


def specialize_fail_on_param(m):
    """hw_output specialized on a Bool Param with specialize_fail for the generic version (the Param is true), 6x3."""
    inp, x, y, hw_input = _in(m)
    p = m.Param(m.Bool(), "p", True)
    hw_output, output = _out(m, lambda x, y: hw_input[x, y] + hw_input[x + 1, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 3), inputs=(hw_input,))
        output.specialize(p)
        output.specialize_fail("p must be true")
    return output, {"input": inp}, [6, 3]


def strip_where_rdom(m):
    """A 1-D strip sum over an RDom with a where on the sample (only even samples), 4 outputs of 3 taps."""
    inp = m.ImageParam(m.UInt(8), 1, "signal")
    x = m.Var("x")
    hw_in, s, hw_output, output = m.Func("hw_signal"), m.Func("s"), m.Func("hw_output"), m.Func("output")
    hw_in[x] = m.u16(inp[x])
    r = m.RDom([m.Range(0, 3)], "r")
    r.where(hw_in[x + r.x] % 2 == 0)
    s[x] = m.u16(0)
    s[x] += hw_in[x + r.x]
    hw_output[x] = s[x]
    output[x] = hw_output[x]
    if on_hardware(m):
        xo, xi = m.Var("xo"), m.Var("xi")
        output.bound(x, 0, 8)
        hw_output.compute_root().split(x, xo, xi, 8).hw_accelerate(xi, xo)
        s.compute_at(hw_output, xo)
        hw_in.compute_root().stream_to_accelerator()
    return output, {"signal": inp}, [8]


CASES = {f.__name__: f for f in (
    specialize_on_param_host_versions, specialize_of_the_output_on_width, in_for_one_consumer_only,
    in_of_intermediate_for_one_consumer, rename_inside_accelerator, split_then_fuse_inside,
    fuse_x_y_of_producer_inside, split_fuse_of_output_tile, reorder_storage_inner_funcs, reorder_storage_three_dims,
    producer_at_inner_loop_of_unrolled_consumer, producer_at_yi_of_unrolled_xi, producer_at_inner_of_unrolled_rows,
    chain_six_two_tap_means, chain_seven_three_tap_means, chain_eight_two_tap_two_lanes, chain_mixed_ops_six_stages,
    chain_six_host_tiles, chain_six_host_tiles_two_lanes, strip_rdom_fir_serial, strip_rdom_fir_unrolled,
    strip_whole_sum_and_max, strip_prefix_sum,
    strip_histogram_of_a_strip, strip_of_a_2d_image_rows,
    rename_xi_before_accelerate, reorder_storage_hw_output, in_for_one_consumer_lanes,
    producer_at_inner_of_unrolled_rdom, specialize_unroll_inside, fuse_then_split_inside,
    specialize_fail_on_param, strip_where_rdom,
)}
