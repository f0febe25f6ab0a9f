"""Probe17's schedule variations (session 33) on small stencils: tails (ShiftInwards, RoundUp, GuardWithIf on
splits inside the accelerator), fuse of host loops, reorder_storage, compute_at the innermost loop, store_at above
compute_at, unroll of y, hw_accelerate of an inner tile under two levels of host tiles, `.in_()` chains and
CPU calls on host loops; in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe17_programs import _input, _tiled
from probe_common import on_hardware, vars_of


def _box(m, w=8, h=6):
    """A 3x3 box: blur_x then blur_y in hw_output."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = m.Func("blur_x"), m.Func("hw_output"), m.Func("output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output[x, y] = m.u8((bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9)
    output[x, y] = hw_output[x, y]
    return inp, x, y, hw_input, bx, hw_output, output


def _plain(m, w, h, tail=None, tile=(4, 4)):
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, w).bound(y, 0, h)
        args = (tail,) if tail is not None else ()
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *tile, *args).hw_accelerate(xi, xo)
        bx.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [w, h]


def tiles_shift_inwards(m):
    """Host tiles of 5x4 over 12x7 with TailStrategy.ShiftInwards: the last tiles move back inside the image."""
    return _plain(m, 12, 7, m.TailStrategy.ShiftInwards, (5, 4))


def tiles_round_up(m):
    """Host tiles of 5x4 over 12x7 with TailStrategy.RoundUp: hw_output computed over 15x8."""
    return _plain(m, 12, 7, m.TailStrategy.RoundUp, (5, 4))


def tiles_auto_tail(m):
    """Host tiles of 5x4 over 10x8 with TailStrategy.Auto (dividing: no tail)."""
    return _plain(m, 10, 8, m.TailStrategy.Auto, (5, 4))


def inner_split_guard_with_if(m):
    """hw_output.split(xi, xi, xs, 3, GuardWithIf) inside a tile of 8x4: the last step of each row guarded."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        hw_output.split(xi, xi, m.Var("xs"), 3, m.TailStrategy.GuardWithIf)
    return output, {"input": inp}, [8, 4]


def inner_split_shift_inwards(m):
    """hw_output.split(xi, xi, xs, 3, ShiftInwards) inside a tile of 8x4."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        hw_output.split(xi, xi, m.Var("xs"), 3, m.TailStrategy.ShiftInwards)
    return output, {"input": inp}, [8, 4]


def producer_split_round_up(m):
    """blur_x.split(x, xo2, xi2, 3, RoundUp): the producer computes past the 8 columns its reader needs."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        bx.split(x, m.Var("bxo"), m.Var("bxi"), 3, m.TailStrategy.RoundUp)
    return output, {"input": inp}, [8, 4]


def fuse_host_loops(m):
    """tile 4x3 then fuse(xo, yo, t) and hw_accelerate(xi, t): one host loop over the 2 x 2 tiles."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi, t = vars_of(m, "xo yo xi yi t")
        output.bound(x, 0, 8).bound(y, 0, 6)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 3).fuse(xo, yo, t).hw_accelerate(xi, t)
        bx.compute_at(hw_output, t)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


def reorder_storage_producer(m):
    """blur_x.reorder_storage(y, x): stored column-major (a storage layout only, no value changes)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), inner=(bx,), inputs=(hw_input,))
        bx.reorder_storage(y, x)
    return output, {"input": inp}, [8, 6]


def producer_at_innermost(m):
    """blur_x.compute_at(hw_output, xi): recomputed for each output pixel (its 3 rows), no line buffer."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 4), inputs=(hw_input,))
        bx.compute_at(hw_output, xi)
    return output, {"input": inp}, [8, 4]


def store_at_host_compute_at_tile(m):
    """blur_x.store_at(hw_output, yo).compute_at(hw_output, xo): stored above the accelerator's loop."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 6), (4, 6), inputs=(hw_input,))
        bx.store_at(hw_output, yo).compute_at(hw_output, xo)
    return output, {"input": inp}, [8, 6]


def store_root_compute_at_tile(m):
    """blur_x.store_root().compute_at(hw_output, xo): Halide's sliding window over host tiles."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 6), (8, 3), inputs=(hw_input,))
        bx.store_root().compute_at(hw_output, xo)
    return output, {"input": inp}, [8, 6]


def unroll_rows(m):
    """hw_output.unroll(yi, 2) and blur_x.unroll(y, 2): two rows a cycle."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        hw_output.unroll(yi, 2)
        bx.unroll(y, 2)
    return output, {"input": inp}, [8, 4]


def unroll_rows_and_columns(m):
    """hw_output.unroll(xi, 2).unroll(yi, 2) with blur_x unrolled alike: a 2x2 block a cycle."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 4), inner=(bx,), inputs=(hw_input,))
        hw_output.unroll(xi, 2).unroll(yi, 2)
        bx.unroll(x, 2).unroll(y, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 4]


def accelerate_inner_of_two_tilings(m):
    """tile 8x6 then tile the inner part 4x3 again, hw_accelerate(xii, xio): host loops xo, yo, xio, yio."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 16).bound(y, 0, 6)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6).tile(xi, yi, xio, yio, xii, yii, 4, 3)
        hw_output.hw_accelerate(xii, xio)
        bx.compute_at(hw_output, xio)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [16, 6]


def accelerate_inner_tiles_not_dividing(m):
    """tile 8x6 then the inner part 3x4 (neither divides: Halide shifts the last inner tile of each tile inward),
    the output a select on the coordinates, so that each tile's offsets matter."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = m.Func("blur_x"), m.Func("hw_output"), m.Func("output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output[x, y] = m.u8(m.select((x + 2 * y) % 3 == 0, bx[x, y] / 3, bx[x, y + 1] / 3 + m.u16(x)))
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 14).bound(y, 0, 6)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6).tile(xi, yi, xio, yio, xii, yii, 3, 4)
        hw_output.hw_accelerate(xii, xio)
        bx.compute_at(hw_output, xio)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [14, 6]


def accelerate_inner_split_x_only(m):
    """split(x, xo, xi, 8).split(xi, xio, xii, 4) and y whole inside: hw_accelerate(xii, xio)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, xi, xio, xii = vars_of(m, "xo xi xio xii")
        output.bound(x, 0, 16).bound(y, 0, 4)
        hw_output.compute_root().split(x, xo, xi, 8).split(xi, xio, xii, 4).reorder(xii, y, xio, xo)
        hw_output.hw_accelerate(xii, xio)
        bx.compute_at(hw_output, xio)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [16, 4]


def input_wrapper_for_one_reader(m):
    """hw_input.in_(blur_x): a wrapper only blur_x reads, computed at xo; hw_output reads hw_input directly."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = m.Func("blur_x"), m.Func("hw_output"), m.Func("output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output[x, y] = m.u8((bx[x, y] + bx[x, y + 1] + hw_input[x + 1, y + 1]) / 7)
    output[x, y] = hw_output[x, y]
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), inner=(bx, hw_input.in_(bx)), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def input_copy_chain_three(m):
    """hw_input.in_().in_().in_(): three copies, the outer two at xo, the innermost inline."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        c1 = hw_input.in_()
        c2 = c1.in_()
        _tiled(m, output, hw_output, (8, 6), inner=(bx, c1, c2), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def producer_copy_buffered(m):
    """blur_x.in_() computed at xo as well as blur_x: a copy of a buffered producer."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 6), inner=(bx, bx.in_()), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def output_copy_chain(m):
    """hw_output.in_() as the accelerated Func (no GLB), hw_output computed at its xo."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 8).bound(y, 0, 6)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 4, 6).hw_accelerate(xi, xo)
        hw_output.compute_at(g, xo)
        bx.compute_at(g, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


def cpu_calls_on_host_loops(m):
    """parallel(yo) and vectorize on the host's output, serial() and a rename inside: accepted as on a CPU."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, (8, 6), (4, 3), inner=(bx,), inputs=(hw_input,))
        hw_output.parallel(yo)
        output.compute_root().vectorize(x, 4)
        bx.serial(y)
    return output, {"input": inp}, [8, 6]


def reorder_inside_before_accelerate(m):
    """split x and y, reorder(yi, xi, yo, xo) (host loop order xo outer), hw_accelerate(yi, yo)."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        output.bound(x, 0, 8).bound(y, 0, 6)
        hw_output.compute_root().split(x, xo, xi, 4).split(y, yo, yi, 3).reorder(xi, yi, yo, xo)
        hw_output.hw_accelerate(xi, yo)
        bx.compute_at(hw_output, yo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 6]


def bound_extent_and_align(m):
    """blur_x.align_bounds(y, 2) inside a tile of 8x5 (its rows rounded to even), output.bound_extent."""
    inp, x, y, hw_input, bx, hw_output, output = _box(m)
    if on_hardware(m):
        _tiled(m, output, hw_output, (8, 5), inner=(bx,), inputs=(hw_input,))
        bx.align_bounds(y, 2)
    return output, {"input": inp}, [8, 5]


CASES = {f.__name__: f for f in (
    tiles_shift_inwards, tiles_round_up, tiles_auto_tail, inner_split_guard_with_if, inner_split_shift_inwards,
    producer_split_round_up, fuse_host_loops, reorder_storage_producer, producer_at_innermost,
    store_at_host_compute_at_tile, store_root_compute_at_tile, unroll_rows, unroll_rows_and_columns,
    accelerate_inner_of_two_tilings, accelerate_inner_tiles_not_dividing, accelerate_inner_split_x_only,
    input_wrapper_for_one_reader, input_copy_chain_three, producer_copy_buffered,
    output_copy_chain, cpu_calls_on_host_loops, reorder_inside_before_accelerate, bound_extent_and_align,
)}
# (Verilator: the tiles tiled again, the finding; Icarus the rest)
ICARUS_ONLY = tuple(c for c in CASES if c != "accelerate_inner_tiles_not_dividing")
