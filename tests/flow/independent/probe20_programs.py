"""Probe20's hand schedules (session 35), part one: the blur/gaussian family of the h2h generators and seed 002 with
the schedule changed as a researcher changes it (compute and store levels apart, xi/yi reordered, tail strategies,
`bound`, partial RDom unrolls, rows a cycle); each in module m (`mainspring`, or `halide`, which gets no hardware
schedule), returning (output or [outputs], {name: ImageParam}, size)."""

from probe19_programs import _box, _in, _out, _sched
from probe_common import on_hardware, vars_of


def _blur3(m, wide=None):
    """blur_x (3 taps, weights 1 2 1) then blur_y (3 taps) / 16 between hw_input and hw_output."""
    inp, x, y, hw_input = _in(m, wide=wide)
    bx, by = m.Func("blur_x"), m.Func("blur_y")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    by[x, y] = bx[x, y] + bx[x, y + 1] * 2 + bx[x, y + 2]
    hw_output, output = _out(m, lambda x, y: m.u8(by[x, y] >> 4))
    return inp, x, y, hw_input, bx, by, hw_output, output


def blur_x_computed_at_rows_stored_at_tile(m):
    """blur_x.store_at(hw_output, xo).compute_at(hw_output, yi) and blur_y at yi: a sliding window of rows."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (9, 5), inputs=(hw_input,))
        bx.store_at(hw_output, xo).compute_at(hw_output, yi)
        by.compute_at(hw_output, yi)
    return output, {"input": inp}, [9, 5]


def blur_both_at_pixel_stored_at_tile(m):
    """blur_x and blur_y both stored at xo and computed at xi (the pixel loop)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (7, 6), inputs=(hw_input,))
        bx.store_at(hw_output, xo).compute_at(hw_output, xi)
        by.store_at(hw_output, xo).compute_at(hw_output, xi)
    return output, {"input": inp}, [7, 6]


def blur_reorder_yi_xi(m):
    """hw_output.reorder(yi, xi): the accelerator walks the tile column by column, producers at xo."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 5), inner=(bx, by), inputs=(hw_input,))
        hw_output.reorder(yi, xi, xo, yo)
    return output, {"input": inp}, [6, 5]


def blur_reorder_yi_xi_producers_too(m):
    """Column order everywhere: hw_output.reorder(yi, xi), blur_x and blur_y reorder(y, x)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (5, 7), inner=(bx, by), inputs=(hw_input,))
        hw_output.reorder(yi, xi, xo, yo)
        bx.reorder(y, x)
        by.reorder(y, x)
    return output, {"input": inp}, [5, 7]


def blur_host_tiles_shift_inwards_explicit(m):
    """Host tiles of 4x4 with TailStrategy.ShiftInwards written out over an 11x7 frame."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (11, 7), tile=(4, 4), inner=(bx, by), inputs=(hw_input,),
               tail=m.TailStrategy.ShiftInwards)
    return output, {"input": inp}, [11, 7]


def blur_host_tiles_round_up(m):
    """Host tiles of 4x3 RoundUp over 10x7: hw_output (compute_root) is allocated to 12x9, the output reads 10x7."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (10, 7), tile=(4, 3), inner=(bx, by), inputs=(hw_input,),
               tail=m.TailStrategy.RoundUp)
    return output, {"input": inp}, [10, 7]


def blur_host_split_y_only_guard(m):
    """hw_output.split(y, yo, yi, 3, GuardWithIf) over 8x7, whole rows per call, hw_accelerate(x, yo)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        yo, yi = m.Var("yo"), m.Var("yi")
        output.bound(x, 0, 8).bound(y, 0, 7)
        hw_output.compute_root().split(y, yo, yi, 3, m.TailStrategy.GuardWithIf).hw_accelerate(x, yo)
        bx.compute_at(hw_output, yo)
        by.compute_at(hw_output, yo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 7]


def blur_two_rows_a_cycle(m, input_rows=False):
    """Two rows a cycle: hw_output.unroll(yi, 2), blur_y and blur_x unroll(y, 2), the input streamed a word a
    transfer, 6x6."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (6, 6), inner=(bx, by), inputs=(hw_input,))
        hw_output.unroll(yi, 2)
        bx.unroll(y, 2)
        by.unroll(y, 2)
        if input_rows:
            hw_input.unroll(y, 2)
    return output, {"input": inp}, [6, 6]


def blur_two_rows_input_two_rows(m):
    """As blur_two_rows_a_cycle with hw_input.unroll(y, 2) too (refused: the host streams along x)."""
    return blur_two_rows_a_cycle(m, input_rows=True)


def blur_lanes_mismatched(m):
    """The output at 2 lanes, blur_y at 2, blur_x and the input at one pixel a cycle (a researcher's half-done
    unroll), over 8x4."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inner=(bx, by), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
        by.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def blur_input_four_lanes_output_two(m, lanes=2):
    """The input streamed 4 pixels a cycle, everything else at 2 (refused: the lanes must divide), over 8x3."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(bx, by), inputs=(hw_input,))
        hw_output.unroll(xi, lanes)
        bx.unroll(x, lanes)
        by.unroll(x, lanes)
        hw_input.unroll(x, 4)
    return output, {"input": inp}, [8, 3]


def blur_input_four_lanes_all_four(m):
    """The refusal's fix for blur_input_four_lanes_output_two: every stage at 4 lanes."""
    return blur_input_four_lanes_output_two(m, lanes=4)


def blur_bound_on_input_copy(m):
    """hw_input.bound(x, 0, 9).bound(y, 0, 7) (exactly what the 7x5 output needs) and blur_x.bound_extent."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 5), inner=(bx, by), inputs=(hw_input,))
        hw_input.bound(x, 0, 9).bound(y, 0, 7)
        bx.bound_extent(x, 7)
    return output, {"input": inp}, [7, 5]


def blur_bound_larger_than_needed(m):
    """hw_input.bound(x, 0, 12) wider than the 6-wide output needs (8): Halide computes the bound's region."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(bx, by), inputs=(hw_input,))
        hw_input.bound(x, 0, 12)
    return output, {"input": inp}, [6, 4]


def blur_producer_split_guard(m):
    """blur_x.split(x, bxo, bxi, 4, GuardWithIf) inside a 9-wide tile (a tail of 1 guarded)."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (9, 4), inner=(bx, by), inputs=(hw_input,))
        bxo, bxi = m.Var("bxo"), m.Var("bxi")
        bx.split(x, bxo, bxi, 4, m.TailStrategy.GuardWithIf)
    return output, {"input": inp}, [9, 4]


def blur_producer_tile_round_up(m):
    """blur_y.tile(x, y, ..., 3, 2, RoundUp) inside a 7x5 tile: its buffer grows to 9x6, the output reads 7x5."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 5), inner=(bx, by), inputs=(hw_input,))
        a, b, c, d = vars_of(m, "byo byy bxi2 byi2")
        by.tile(x, y, a, b, c, d, 3, 2, m.TailStrategy.RoundUp)
    return output, {"input": inp}, [7, 5]


def blur_rows_sliding_host_tiles_two_lanes(m):
    """blur_x stored at xo and computed at yi with blur_y at yi (a sliding window of rows), host tiles of 4x3 over
    8x6, two lanes everywhere."""
    inp, x, y, hw_input, bx, by, hw_output, output = _blur3(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 6), tile=(4, 3), inputs=(hw_input,))
        bx.store_at(hw_output, xo).compute_at(hw_output, yi)
        by.compute_at(hw_output, yi)
        hw_output.unroll(xi, 2)
        bx.unroll(x, 2)
        by.unroll(x, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 6]


# ---- seed 002's gaussian with its RDom unrolled partly -------------------------------------------------------

def _gauss_rdom(m, block, size, weights):
    inp, x, y, hw_input = _in(m)
    k, blur_un = m.Func("kernel"), m.Func("blur_unnormalized")
    r = m.RDom([m.Range(0, block), m.Range(0, block)], "win")
    k[x, y] = m.u16(weights[0]) + m.u16(x * weights[1] + y * weights[2])
    blur_un[x, y] = m.u16(0)
    blur_un[x, y] += k[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output, output = _out(m, lambda x, y: m.u8(blur_un[x, y] >> 6))
    return inp, x, y, hw_input, k, blur_un, r, hw_output, output


def gauss_rdom_x_unrolled_y_serial(m):
    """A 3x3 window with win.x unrolled and win.y serial (three cycles a pixel), kernel at xo, 6x4."""
    inp, x, y, hw_input, k, bu, r, hw_output, output = _gauss_rdom(m, 3, (6, 4), (1, 2, 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(bu, k), inputs=(hw_input,))
        bu.update().unroll(r.x)
    return output, {"input": inp}, [6, 4]


def gauss_rdom_y_unrolled_x_serial(m):
    """win.y unrolled and win.x serial (reorder so that win.x is the inner reduction loop), 5x5 window over 7x4."""
    inp, x, y, hw_input, k, bu, r, hw_output, output = _gauss_rdom(m, 5, (7, 4), (1, 1, 1))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 4), inner=(bu, k), inputs=(hw_input,))
        bu.update().unroll(r.y)
    return output, {"input": inp}, [7, 4]


def gauss_rdom_partial_unroll_4x4(m):
    """A 4x4 window, unroll(win.x, 2) (two taps a cycle, two cycles a row) and win.y unrolled, 6x4."""
    inp, x, y, hw_input, k, bu, r, hw_output, output = _gauss_rdom(m, 4, (6, 4), (1, 1, 0))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(bu, k), inputs=(hw_input,))
        bu.update().unroll(r.x, 2).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def gauss_rdom_serial_whole_window(m):
    """A 2x2 window fully serial (four cycles a pixel), no unroll at all, 5x3."""
    inp, x, y, hw_input, k, bu, r, hw_output, output = _gauss_rdom(m, 2, (5, 3), (3, 1, 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(bu, k), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def gauss_rdom_reorder_rvars(m):
    """The 3x3 window unrolled, the reduction's loops reordered (win.y inside win.x) before the unroll."""
    inp, x, y, hw_input, k, bu, r, hw_output, output = _gauss_rdom(m, 3, (6, 4), (2, 1, 1))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(bu, k), inputs=(hw_input,))
        bu.update().reorder(r.y, r.x, x, y).unroll(r.y).unroll(r.x)
    return output, {"input": inp}, [6, 4]


def gauss_kernel_at_consumer_row(m):
    """The kernel computed at blur_unnormalized's y (recomputed each row), the window unrolled, two lanes, 8x3."""
    inp, x, y, hw_input, k, bu, r, hw_output, output = _gauss_rdom(m, 3, (8, 3), (1, 1, 1))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 3), inner=(bu,), inputs=(hw_input,))
        k.compute_at(bu, y)
        bu.update().unroll(r.x).unroll(r.y).unroll(x, 2)
        bu.unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 3]


def gauss_kernel_inline(m):
    """The kernel left inline (a function of win.x, win.y: constants once unrolled), 7x5."""
    inp, x, y, hw_input, k, bu, r, hw_output, output = _gauss_rdom(m, 3, (7, 5), (1, 3, 1))
    if on_hardware(m):
        _sched(m, output, hw_output, (7, 5), inner=(bu,), inputs=(hw_input,))
        bu.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [7, 5]


def box_store_root_compute_xo(m):
    """blur_x.store_root().compute_at(hw_output, xo) inside the accelerator (store level outside the tile loop)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
        bx.store_root().compute_at(hw_output, m.Var("xo"))
    return output, {"input": inp}, [6, 4]


def box_input_copy_at_pixel(m):
    """hw_input.in_() computed at xi (a per-pixel copy) and blur_x at xo, 7x3."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (7, 3), inner=(bx,), inputs=(hw_input,))
        hw_input.in_().compute_at(hw_output, xo)
    return output, {"input": inp}, [7, 3]


CASES = {f.__name__: f for f in (
    blur_x_computed_at_rows_stored_at_tile, blur_both_at_pixel_stored_at_tile, blur_reorder_yi_xi,
    blur_reorder_yi_xi_producers_too, blur_host_tiles_shift_inwards_explicit, blur_host_tiles_round_up,
    blur_host_split_y_only_guard, blur_two_rows_a_cycle, blur_two_rows_input_two_rows, blur_lanes_mismatched,
    blur_input_four_lanes_output_two, blur_input_four_lanes_all_four, blur_bound_on_input_copy,
    blur_bound_larger_than_needed, blur_producer_split_guard, blur_producer_tile_round_up,
    gauss_rdom_x_unrolled_y_serial, gauss_rdom_y_unrolled_x_serial, gauss_rdom_partial_unroll_4x4,
    gauss_rdom_serial_whole_window, gauss_rdom_reorder_rvars, gauss_kernel_at_consumer_row, gauss_kernel_inline,
    box_store_root_compute_xo, box_input_copy_at_pixel, blur_rows_sliding_host_tiles_two_lanes,
)}
