"""Probe39's hand schedules (session 39), part one: the h2h generators (../../../../shared/h2h) re-written from
their .cpp by a researcher who varies them: odd and non-square sizes, other lane counts and types, renamed or
reordered loops, compute_at at other levels, store_at apart from compute_at, tail strategies, set_estimates in
place of bound; each in module m (`mainspring`, or `halide`, which gets no hardware schedule), returning
(output or [outputs], {name: ImageParam}, size)."""

from probe_common import on_hardware, vars_of


def _hw_in(m, t=None, name="input", cast=None):
    """ImageParam `name` (u8 unless `t`) and hw_input, its copy cast by `cast` (u16 unless given)."""
    inp = m.ImageParam(t or m.UInt(8), 2, name)
    x, y = m.Var("x"), m.Var("y")
    hw = m.Func("hw_" + name)
    hw[x, y] = (cast or m.u16)(inp[x, y])
    return inp, x, y, hw


def _outputs(m, value, cast=None):
    """hw_output = value(x, y), and output its copy (cast by `cast` when given)."""
    x, y = m.Var("x"), m.Var("y")
    hw_output, output = m.Func("hw_output"), m.Func("output")
    hw_output[x, y] = value(x, y)
    output[x, y] = cast(hw_output[x, y]) if cast else hw_output[x, y]
    return hw_output, output


def _accel(m, output, hw_output, w, h, tw=None, th=None, names="xo yo xi yi", tail=None):
    """output bounded to w x h, hw_output tiled tw x th (the frame unless given) and accelerated at (xi, xo)."""
    xo, yo, xi, yi = vars_of(m, names)
    x, y = m.Var("x"), m.Var("y")
    output.bound(x, 0, w).bound(y, 0, h)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, tw or w, th or h, *((tail,) if tail else ()))
    hw_output.hw_accelerate(xi, xo)
    return xo, yo, xi, yi


# ---- pointwise --------------------------------------------------------------------------------------------------


def pointwise_u16_out_two_lanes_10x7(m):
    """pointwise (mult = hw_input * 2) at 2 lanes, 10x7, the output kept u16 (u8 in, u16 out)."""
    inp, x, y, hw_input = _hw_in(m)
    mult = m.Func("mult")
    mult[x, y] = hw_input[x, y] * 2 + 1
    hw_output, output = _outputs(m, lambda x, y: mult[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 10, 7)
        hw_output.unroll(xi, 2)
        mult.compute_at(hw_output, xo).unroll(x, 2)
        hw_input.stream_to_accelerator()
        hw_input.in_().unroll(x, 2)
    return output, {"input": inp}, [10, 7]


def pointwise_three_lanes_round_up_9x5(m):
    """pointwise at 3 lanes with TailStrategy.RoundUp on every unroll (as seed 002 writes it), 9x5."""
    inp, x, y, hw_input = _hw_in(m)
    mult = m.Func("mult")
    mult[x, y] = hw_input[x, y] * 3
    hw_output, output = _outputs(m, lambda x, y: mult[x, y], m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 9, 5)
        rup = m.TailStrategy.RoundUp
        hw_output.unroll(xi, 3, rup)
        mult.compute_at(hw_output, xo).unroll(x, 3, rup)
        hw_input.stream_to_accelerator()
        hw_input.in_().unroll(x, 3, rup)
    return output, {"input": inp}, [9, 5]


def pointwise_signed_shift_i16(m):
    """An i16 copy minus 100, shifted right by 2 (arithmetic, negative values), output i16, 7x6."""
    inp, x, y, hw_input = _hw_in(m, cast=m.i16)
    hw_output, output = _outputs(m, lambda x, y: (hw_input[x, y] - m.i16(100)) >> 2)
    if on_hardware(m):
        _accel(m, output, hw_output, 7, 6)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [7, 6]


def pointwise_renamed_tile_vars_host_tiles(m):
    """Tile variables named x_host/y_host/x_cgra/y_cgra, 3 x 2 host tiles of 5x4 (15x8)."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(hw_input[x, y] * 5 >> 2))
    if on_hardware(m):
        _accel(m, output, hw_output, 15, 8, 5, 4, names="x_host y_host x_cgra y_cgra")
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [15, 8]


def pointwise_split_reorder_in_place_of_tile(m):
    """split x, split y, reorder(xi, yi, xo, yo) (tile spelled out, seed 002), 2 host tiles of 6x5 (12x5)."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: hw_input[x, y] + 7, m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 12).bound(y, 0, 5)
        hw_output.compute_root().split(x, xo, xi, 6).split(y, yo, yi, 5).reorder(xi, yi, xo, yo)
        hw_output.hw_accelerate(xi, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [12, 5]


def pointwise_guard_with_if_tiles(m):
    """Host tiles 4x4 over a 10x6 output with TailStrategy.GuardWithIf (the last tiles partial)."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(hw_input[x, y] / 3))
    if on_hardware(m):
        _accel(m, output, hw_output, 10, 6, 4, 4, tail=m.TailStrategy.GuardWithIf)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [10, 6]


def pointwise_shift_inwards_tiles(m):
    """Host tiles 4x4 over a 10x6 output with TailStrategy.ShiftInwards."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(255 - hw_input[x, y]))
    if on_hardware(m):
        _accel(m, output, hw_output, 10, 6, 4, 4, tail=m.TailStrategy.ShiftInwards)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [10, 6]


def pointwise_set_estimates_no_bound(m, bound=False):
    """The output given set_estimates (no bound): the frame is realize's size, 8x5."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(hw_input[x, y] ^ 0x55))
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.set_estimates([(0, 8), (0, 5)])
        if bound:
            output.bound(x, 0, 8).bound(y, 0, 5)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 5).hw_accelerate(xi, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [8, 5]


def pointwise_set_estimates_and_bound(m):
    """pointwise_set_estimates_no_bound with its message's fix: output.bound(x, 0, 8).bound(y, 0, 5)."""
    return pointwise_set_estimates_no_bound(m, bound=True)


# ---- conv_3_3 ---------------------------------------------------------------------------------------------------

_K33 = ((0, 0, 11), (0, 1, 12), (0, 2, 13), (1, 0, 0), (1, 1, 0), (1, 2, 16), (2, 0, 17), (2, 1, 18), (2, 2, 19))


def _kernel33(m, t=None):
    x, y = m.Var("x"), m.Var("y")
    kernel = m.Func("kernel")
    kernel[x, y] = (t or m.i32)(0)
    for i, j, v in _K33:
        kernel[i, j] = (t or m.i32)(v)
    return kernel


def _conv33(m, acc=None, w=9, h=7, k_t=None):
    inp, x, y, hw_input = _hw_in(m)
    kernel = _kernel33(m, k_t)
    r = m.RDom([(0, 3), (0, 3)], "r")
    conv = m.Func("conv")
    acc = acc or m.u16
    conv[x, y] = acc(0)
    conv[x, y] += acc(kernel[r.x, r.y]) * acc(hw_input[x + r.x, y + r.y])
    return inp, x, y, hw_input, kernel, r, conv


def conv33_i32_accumulator_9x7(m):
    """conv_3_3 accumulated in i32 (the kernel's own type), output u8 of acc >> 4, 9x7, the Clockwork branch."""
    inp, x, y, hw_input, kernel, r, conv = _conv33(m, m.i32)
    hw_output, output = _outputs(m, lambda x, y: m.u8(conv[x, y] >> 4))
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 9, 7)
        kernel.compute_at(hw_output, xo)
        conv.compute_at(hw_output, xo)
        conv.update().unroll(r.x, 3).unroll(r.y, 3)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [9, 7]


def conv33_only_rx_unrolled(m):
    """conv_3_3 with r.x unrolled and r.y serial (3 cycles a pixel), 6x5."""
    inp, x, y, hw_input, kernel, r, conv = _conv33(m)
    hw_output, output = _outputs(m, lambda x, y: conv[x, y], m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 6, 5)
        kernel.compute_at(hw_output, xo)
        conv.compute_at(hw_output, xo)
        conv.update().unroll(r.x)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [6, 5]


def conv33_update_reordered_then_unrolled(m):
    """conv.update().reorder(r.y, r.x, x, y) and both RVars unrolled, kernel computed at the conv's x, 7x7."""
    inp, x, y, hw_input, kernel, r, conv = _conv33(m)
    hw_output, output = _outputs(m, lambda x, y: conv[x, y] >> 2, m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 7, 7)
        kernel.compute_at(conv, x)
        conv.compute_at(hw_output, xo)
        conv.update().reorder(r.y, r.x, x, y).unroll(r.y).unroll(r.x)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [7, 7]


def conv33_two_lanes_round_up(m):
    """conv_3_3 at 2 lanes (init, update, output and input), RoundUp as seed 002's example, 12x6."""
    inp, x, y, hw_input, kernel, r, conv = _conv33(m)
    hw_output, output = _outputs(m, lambda x, y: conv[x, y], m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 12, 6)
        rup = m.TailStrategy.RoundUp
        kernel.compute_at(hw_output, xo)
        conv.compute_at(hw_output, xo).unroll(x, 2, rup)
        conv.update().unroll(r.x).unroll(r.y).unroll(x, 2, rup)
        hw_output.unroll(xi, 2, rup)
        hw_input.stream_to_accelerator()
        hw_input.in_().unroll(x, 2, rup)
    return output, {"input": inp}, [12, 6]


def conv33_store_at_xo_compute_at_yi(m):
    """conv stored at xo and computed at yi (a row at a time), unrolled, 8x6."""
    inp, x, y, hw_input, kernel, r, conv = _conv33(m)
    hw_output, output = _outputs(m, lambda x, y: conv[x, y] / 64, m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 6)
        kernel.compute_at(hw_output, xo)
        conv.store_at(hw_output, xo).compute_at(hw_output, yi)
        conv.update().unroll(r.x).unroll(r.y)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


# ---- accumulation -----------------------------------------------------------------------------------------------


def _accumulation(m, ksize=3):
    inp, x, y, hw_input = _hw_in(m)
    kernel, conv = m.Func("kernel"), m.Func("conv")
    r = m.RDom([(0, ksize), (0, ksize)], "r")
    kernel[x] = x
    conv[x, y] = m.u16(0)
    conv[x, y] += m.u16(kernel[r.x + ksize * r.y]) * hw_input[x + r.x, y + r.y]
    return inp, x, y, hw_input, kernel, conv, r


def accumulation_clockwork_serial_8x6(m):
    """accumulation's Clockwork branch at 8x6: conv serial (9 cycles a pixel), kernel at conv's x unrolled by 9."""
    inp, x, y, hw_input, kernel, conv, r = _accumulation(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(conv[x, y]), m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 6)
        conv.store_at(hw_output, xo).compute_at(hw_output, xo)
        kernel.compute_at(conv, x).unroll(x, 9)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


def accumulation_coreir_ry_unrolled_at_xi(m):
    """accumulation's CoreIR branch: r.y unrolled, conv stored at xo computed at xi, kernel at yi, 7x5."""
    inp, x, y, hw_input, kernel, conv, r = _accumulation(m)
    hw_output, output = _outputs(m, lambda x, y: m.u8(conv[x, y]), m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 7, 5)
        conv.update().unroll(r.y)
        conv.store_at(hw_output, xo).compute_at(hw_output, xi)
        kernel.store_at(hw_output, yi).compute_at(hw_output, yi)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [7, 5]


def accumulation_ksize2_fully_unrolled(m):
    """accumulation with ksize 2, fully unrolled, 10x3 (a 2x2 kernel 0 1 2 3)."""
    inp, x, y, hw_input, kernel, conv, r = _accumulation(m, 2)
    hw_output, output = _outputs(m, lambda x, y: conv[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 10, 3)
        conv.compute_at(hw_output, xo)
        conv.update().unroll(r.x).unroll(r.y)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [10, 3]


# ---- cascade ----------------------------------------------------------------------------------------------------

_CASCADE = ((0, 0, 1), (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 1, 4), (1, 2, 2), (2, 0, 1), (2, 1, 2), (2, 2, 1))


def _cascade(m, rdom=True):
    inp, x, y, hw_input = _hw_in(m)
    kernel = m.Func("kernel")
    kernel[x, y] = 0
    for i, j, v in _CASCADE:
        kernel[i, j] = v
    r, r2 = m.RDom([(0, 3), (0, 3)], "r"), m.RDom([(0, 3), (0, 3)], "r2")
    conv1, conv1_shift, conv2 = m.Func("conv1"), m.Func("conv1_shift"), m.Func("conv2")
    if rdom:
        conv1[x, y] = m.u16(0)
        conv1[x, y] += m.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    else:
        conv1[x, y] = sum(m.u16(kernel[i, j]) * hw_input[x + i, y + j] for i, j, _ in _CASCADE)
    conv1_shift[x, y] = conv1[x, y] / 16
    if rdom:
        conv2[x, y] = m.u16(0)
        conv2[x, y] += m.u16(kernel[r2.x, r2.y]) * conv1_shift[x + r2.x, y + r2.y]
    else:
        conv2[x, y] = sum(m.u16(kernel[i, j]) * conv1_shift[x + i, y + j] for i, j, _ in _CASCADE)
    hw_output, output = _outputs(m, lambda x, y: conv2[x, y] / 16, m.u8)
    return inp, x, y, hw_input, kernel, r, r2, conv1, conv2, hw_output, output


def cascade_schedule1_7x6(m):
    """cascade's schedule 1 at 7x6: both convolutions unrolled, stored and computed at xo, conv1_shift inlined."""
    inp, x, y, hw_input, kernel, r, r2, conv1, conv2, hw_output, output = _cascade(m)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 7, 6)
        conv2.store_at(hw_output, xo).compute_at(hw_output, xo)
        conv2.update().unroll(r2.x).unroll(r2.y)
        conv1.store_at(hw_output, xo).compute_at(hw_output, xo)
        conv1.update().unroll(r.x).unroll(r.y)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [7, 6]


def cascade_schedule2_glb_small(m):
    """cascade's schedule 2 (GLB copies of input and output, in_().in_() as the memory tile) at 8x6: a GLB tile
    of 8x6, array tiles of 4x3."""
    inp, x, y, hw_input, kernel, r, r2, conv1, conv2, hw_output, output = _cascade(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 8).bound(y, 0, 6)
        hw_output.in_().compute_root().tile(x, y, xo, yo, xi, yi, 8, 6).hw_accelerate(xi, xo) \
            .store_in(m.MemoryType.GLB)
        hw_output.tile(x, y, xio, yio, xii, yii, 4, 3).compute_at(hw_output.in_(), xo)
        conv2.compute_at(hw_output, xio)
        conv2.update().unroll(r2.x).unroll(r2.y)
        conv1.compute_at(hw_output, xio)
        conv1.update().unroll(r.x).unroll(r.y)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(hw_output.in_(), xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
        kernel.compute_at(hw_output, xio)
    return output, {"input": inp}, [8, 6]


def cascade_explicit_sums_two_lanes(m):
    """cascade's schedule 0 (the sums written out), conv1 and conv2 at 2 lanes, 10x4."""
    inp, x, y, hw_input, kernel, r, r2, conv1, conv2, hw_output, output = _cascade(m, rdom=False)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 10, 4)
        conv1.compute_at(hw_output, xo).unroll(x, 2)
        conv2.compute_at(hw_output, xo).unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.stream_to_accelerator()
        hw_input.in_().unroll(x, 2)
    return output, {"input": inp}, [10, 4]


# ---- gaussian ---------------------------------------------------------------------------------------------------


def _gaussian(m, block=3):
    inp, x, y, hw_input = _hw_in(m)
    kernel_f = m.Func("kernel_f")
    sigma = 1.5
    kernel_f[x] = m.exp(-x * x / (2 * sigma * sigma)) / m.f32(2.5066282746310002 * sigma)
    total = None
    for i in range(block):
        for j in range(block):
            term = kernel_f[i - block // 2] * kernel_f[j - block // 2]
            total = term if total is None else term + total
    kernel = m.Func("kernel")
    kernel[x, y] = m.u16(kernel_f[x - block // 2] * kernel_f[y - block // 2] * 256.0 / total)
    win = m.RDom([(0, block), (0, block)], "win")
    bu, blur = m.Func("blur_unnormalized"), m.Func("blur")
    bu[x, y] = m.u16(0)
    bu[x, y] += kernel[win.x, win.y] * hw_input[x + win.x, y + win.y]
    blur[x, y] = bu[x, y] / 256
    hw_output, output = _outputs(m, lambda x, y: blur[x, y], m.u8)
    return inp, x, y, hw_input, kernel, win, bu, blur, hw_output, output


def gaussian_glb_two_lanes_host_tiles(m):
    """gaussian's schedule 1 shrunk: GLB tiles of 8x8 in 2 host tiles (16x8), array tiles of 4x4, 2 lanes."""
    inp, x, y, hw_input, kernel, win, bu, blur, hw_output, output = _gaussian(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 16).bound(y, 0, 8)
        hw_output.in_().compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
        hw_output.in_().unroll(xi, 2)
        hw_output.tile(x, y, xo, yo, xi, yi, 4, 4)
        hw_output.compute_at(hw_output.in_(), xo)
        hw_output.store_in(m.MemoryType.GLB)
        hw_output.unroll(xi, 2)
        bu.update().unroll(win.x, 3).unroll(win.y, 3)
        bu.update().unroll(x, 2)
        bu.compute_at(hw_output, xo)
        blur.compute_at(hw_output, xo).unroll(x, 2)
        hw_input.in_().compute_at(hw_output.in_(), xo)
        hw_input.in_().store_in(m.MemoryType.GLB)
        hw_input.in_().unroll(x, 2)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [16, 8]


def gaussian_block5_11x6(m):
    """gaussian with a 5x5 block at 11x6, unrolled, blur_unnormalized at xo, kernel inlined."""
    inp, x, y, hw_input, kernel, win, bu, blur, hw_output, output = _gaussian(m, 5)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 11, 6)
        bu.compute_at(hw_output, xo)
        bu.update().unroll(win.x).unroll(win.y)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [11, 6]


def gaussian_blur_at_yi_store_at_xo(m):
    """gaussian with blur_unnormalized stored at xo, computed at yi, blur computed at xi, 8x5."""
    inp, x, y, hw_input, kernel, win, bu, blur, hw_output, output = _gaussian(m)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 8, 5)
        bu.store_at(hw_output, xo).compute_at(hw_output, yi)
        bu.update().unroll(win.x).unroll(win.y)
        blur.compute_at(hw_output, xi)
        kernel.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [8, 5]


def gaussian_estimates_on_output_bound_on_hw_output(m):
    """gaussian with set_estimates on the output and bound on hw_output in its place, 6x6."""
    inp, x, y, hw_input, kernel, win, bu, blur, hw_output, output = _gaussian(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.set_estimates([(0, 6), (0, 6)])
        hw_output.bound(x, 0, 6).bound(y, 0, 6)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 6).hw_accelerate(xi, xo)
        bu.compute_at(hw_output, xo)
        bu.update().unroll(win.x).unroll(win.y)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [6, 6]


# ---- down_sample and up_sample ------------------------------------------------------------------------------------


def maxpool_stride2_9x5(m):
    """down_sample (a 2x2 max pool, maximum over an RDom) at 9x5 out (18x10 in), max_pool at xo."""
    inp, x, y, hw_input = _hw_in(m)
    r = m.RDom([(0, 2), (0, 2)], "r")
    max_pool = m.Func("max_pool")
    max_pool[x, y] = m.maximum(hw_input[x * 2 + r.x, y * 2 + r.y])
    hw_output, output = _outputs(m, lambda x, y: max_pool[x, y], m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 9, 5)
        max_pool.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [9, 5]


def minpool_stride3_unrolled(m):
    """A 3x3 min pool at stride 3 written as an update, its RDom unrolled, 4x3 out."""
    inp, x, y, hw_input = _hw_in(m)
    r = m.RDom([(0, 3), (0, 3)], "r")
    pool = m.Func("pool")
    pool[x, y] = m.u16(65535)
    pool[x, y] = m.min(pool[x, y], hw_input[3 * x + r.x, 3 * y + r.y])
    hw_output, output = _outputs(m, lambda x, y: pool[x, y], m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 4, 3)
        pool.compute_at(hw_output, xo)
        pool.update().unroll(r.x).unroll(r.y)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [4, 3]


def upsample_h2h_bilinear_10x8(m):
    """up_sample's algorithm (hw_input at input(x+1, y+1), upx then the vertical pass with `_`), 10x8 out."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, upx, nn = m.Func("hw_input"), m.Func("upx"), m.Func("nearest_neighbor")
    hw_input[x, y] = m.u16(inp[x + 1, y + 1])
    upx[x, y, m._] = hw_input[(x / 2) - 1 + 2 * (x % 2), y, m._] / 4 + 3 * hw_input[x / 2, y, m._] / 4
    nn[x, y, m._] = upx[x, (y / 2) - 1 + 2 * (y % 2), m._] / 4 + 3 * upx[x, y / 2, m._] / 4
    hw_output, output = _outputs(m, lambda x, y: nn[x, y], m.u8)
    if on_hardware(m):
        _accel(m, output, hw_output, 10, 8)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [10, 8]


def upsample_nearest_by_three_three_lanes(m):
    """Nearest-neighbour up-sampling by 3 (x / 3, y / 3) at 3 lanes, 9x6."""
    inp, x, y, hw_input = _hw_in(m)
    hw_output, output = _outputs(m, lambda x, y: hw_input[x / 3, y / 3] + 1, m.u8)
    if on_hardware(m):
        xo, yo, xi, yi = _accel(m, output, hw_output, 9, 6)
        hw_output.unroll(xi, 3)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [9, 6]


CASES = {f.__name__: f for f in (
    pointwise_u16_out_two_lanes_10x7,
    pointwise_three_lanes_round_up_9x5,
    pointwise_signed_shift_i16,
    pointwise_renamed_tile_vars_host_tiles,
    pointwise_split_reorder_in_place_of_tile,
    pointwise_guard_with_if_tiles,
    pointwise_shift_inwards_tiles,
    pointwise_set_estimates_no_bound,
    pointwise_set_estimates_and_bound,
    conv33_i32_accumulator_9x7,
    conv33_only_rx_unrolled,
    conv33_update_reordered_then_unrolled,
    conv33_two_lanes_round_up,
    conv33_store_at_xo_compute_at_yi,
    accumulation_clockwork_serial_8x6,
    accumulation_coreir_ry_unrolled_at_xi,
    accumulation_ksize2_fully_unrolled,
    cascade_schedule1_7x6,
    cascade_schedule2_glb_small,
    cascade_explicit_sums_two_lanes,
    gaussian_glb_two_lanes_host_tiles,
    gaussian_block5_11x6,
    gaussian_blur_at_yi_store_at_xo,
    gaussian_estimates_on_output_bound_on_hw_output,
    maxpool_stride2_9x5,
    minpool_stride3_unrolled,
    upsample_h2h_bilinear_10x8,
    upsample_nearest_by_three_three_lanes)}
