"""Probe22's hand schedules (session 36), part five: a three-stage chain with compute_at and store_at at each legal
level (tile, row, pixel, a producer's own loops), partial unrolls (of the output, of producers, of RVars split),
GLB levels (several GLB tiles, lanes, producers at the GLB loop), `bound`, `bound_extent`, `align_bounds` and
`align_extent`; each in module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe20e_programs import _glb3
from probe_common import on_hardware, vars_of


def _chain(m):
    """hw_input -> a (x taps) -> b (y taps) -> c (a 2x2 max) -> hw_output."""
    inp, x, y, hw_input = _in(m)
    a, b, c = m.Func("a"), m.Func("b"), m.Func("c")
    a[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    b[x, y] = (a[x, y] + a[x, y + 1]) >> 1
    c[x, y] = m.max(m.max(b[x, y], b[x + 1, y]), m.max(b[x, y + 1], b[x + 1, y + 1]))
    hw_output, output = _out(m, lambda x, y: m.u8(c[x, y] >> 2))
    return inp, x, y, hw_input, (a, b, c), hw_output, output


def _levels(m, size, placing, tile=None):
    """The chain with `placing(m, (a, b, c), hw_output, (xo, yo, xi, yi))` placing the stages."""
    inp, x, y, hw_input, abc, hw_output, output = _chain(m)
    if on_hardware(m):
        loops = _sched(m, output, hw_output, size, tile=tile, inputs=(hw_input,))
        placing(m, abc, hw_output, loops)
    return output, {"input": inp}, list(size)


def levels_row_row_pixel(m):
    """a and b at the output's rows (yi) stored at the tile, c at the pixel (xi) stored at the rows, 6x5."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        a, b, c = abc
        a.store_at(h, xo).compute_at(h, yi)
        b.store_at(h, xo).compute_at(h, yi)
        c.store_at(h, yi).compute_at(h, xi)
    return _levels(m, (6, 5), place)


def levels_all_pixel_stored_tile(m):
    """All three computed at the pixel (xi), stored at the tile (xo): sliding windows in both dimensions, 5x4."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        for f in abc:
            f.store_at(h, xo).compute_at(h, xi)
    return _levels(m, (5, 4), place)


def levels_producer_loops(m):
    """c at the tile, b at c's rows (compute_at(c, y)), a at b's pixels (compute_at(b, x)) stored at c's rows, 6x4."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        a, b, c = abc
        x, y = m.Var("x"), m.Var("y")
        c.compute_at(h, xo)
        b.compute_at(c, y)
        a.store_at(c, y).compute_at(b, x)
    return _levels(m, (6, 4), place)


def levels_row_store_pixel_compute_host_tiles(m):
    """Host tiles of 4x3 over 8x6, all three stored at the tile's rows and computed at the pixel."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        a, b, c = abc
        for f in abc:
            f.store_at(h, yi).compute_at(h, xi)
    return _levels(m, (8, 6), place, tile=(4, 3))


def levels_store_at_host_compute_at_row(m):
    """b.store_at(hw_output, yo) (a host loop outside the tile) computed at the rows, host tiles 3x3 over 6x6."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        a, b, c = abc
        a.compute_at(h, xo)
        b.store_at(h, yo).compute_at(h, yi)
        c.compute_at(h, yi)
    return _levels(m, (6, 6), place, tile=(3, 3))


def levels_a_inlined_c_at_pixel(m):
    """a inlined into b (compute_inline), b at the tile, c at the pixel stored at the tile, 7x4."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        a, b, c = abc
        a.compute_inline()
        b.compute_at(h, xo)
        c.store_at(h, xo).compute_at(h, xi)
    return _levels(m, (7, 4), place)


def partial_unroll_output_three_steps(m):
    """Tile 6x3 with the output at two lanes (three steps a row), every producer at two lanes, 6x3."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        h.unroll(xi, 2)
        for f in abc:
            f.compute_at(h, xo).unroll(m.Var("x"), 2)
    return _levels(m, (6, 3), place)


def partial_unroll_producer_two_consumer_four(m):
    """The output at four lanes, c at four, b and a at two (lanes that divide), 8x3."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        a, b, c = abc
        x = m.Var("x")
        h.unroll(xi, 4)
        c.compute_at(h, xo).unroll(x, 4)
        b.compute_at(h, xo).unroll(x, 2)
        a.compute_at(h, xo).unroll(x, 2)
    return _levels(m, (8, 3), place)


def partial_unroll_rows_of_producer(m):
    """b unrolled along y by 2 (two rows a cycle) while the rest runs a pixel a cycle, 6x4."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        a, b, c = abc
        for f in abc:
            f.compute_at(h, xo)
        b.unroll(m.Var("y"), 2)
    return _levels(m, (6, 4), place)


def _rdom_taps(m, n, size, split=None, lanes=1):
    inp, x, y, hw_input = _in(m)
    r = m.RDom([m.Range(0, n)], "r")
    s = m.Func("s")
    s[x, y] = m.u16(0)
    s[x, y] += hw_input[x + r.x, y] * m.u16(r.x + 1)
    hw_output, output = _out(m, lambda x, y: m.u8(s[x, y] >> 4))
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, inner=(s,), inputs=(hw_input,))
        ro, ri = m.RVar("ro"), m.RVar("ri")
        if split:
            s.update().split(r.x, ro, ri, split[0], *split[1:]).unroll(ri)
        if lanes > 1:
            hw_output.unroll(xi, lanes)
            s.unroll(x, lanes)
            s.update().unroll(x, lanes)
    return output, {"input": inp}, list(size)


def partial_unroll_rvar_by_three_of_six(m):
    """A 6-tap weighted sum, r.x split by 3 with the inner unrolled (two serial steps of three taps), 5x3."""
    return _rdom_taps(m, 6, (5, 3), split=(3,))


def partial_unroll_rvar_guard_not_dividing(m):
    """A 5-tap weighted sum, r.x split by 2 GuardWithIf, the inner unrolled (the last step one tap), 5x3."""
    return _rdom_taps(m, 5, (5, 3), split=(2, m.TailStrategy.GuardWithIf))


def partial_unroll_rvar_and_two_lanes(m):
    """A 4-tap weighted sum, r.x split by 2 unrolled inside and two pixel lanes, 6x2."""
    return _rdom_taps(m, 4, (6, 2), split=(2,), lanes=2)


def _blur_glb(m, size, glb, tile, n=1, inner_at_xo=False):
    inp, x, y, hw_input = _in(m)
    bx = m.Func("blur_x")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output, output = _out(m, lambda x, y: m.u8((bx[x, y] + bx[x, y + 1] * 2 + bx[x, y + 2]) >> 4))
    if on_hardware(m):
        _glb3(m, hw_output, output, hw_input, size, glb, tile, inner=(bx,), mem_at_xo=inner_at_xo)
        if n > 1:
            xii = m.Var("xii")
            hw_output.unroll(xii, n)
            bx.unroll(x, n)
    return output, {"input": inp}, list(size)


def glb_two_glb_tiles_across(m):
    """Two GLB tiles of 4x4 across an 8x4 frame (two accelerator calls), memory tiles of 2x4."""
    return _blur_glb(m, (8, 4), (4, 4), (2, 4))


def glb_four_glb_tiles_odd_memory(m):
    """Four GLB tiles of 6x3 over 12x6, memory tiles of 3x3 (two per GLB tile)."""
    return _blur_glb(m, (12, 6), (6, 3), (3, 3))


def glb_memory_tiles_two_lanes(m):
    """One GLB tile of 8x4, memory tiles of 4x2 at two lanes."""
    return _blur_glb(m, (8, 4), (8, 4), (4, 2), n=2)


def glb_producer_at_glb_loop(m):
    """One GLB tile of 6x4 with memory tiles of 3x2 and blur_x computed at the GLB loop (over the GLB tile)."""
    return _blur_glb(m, (6, 4), (6, 4), (3, 2), inner_at_xo=True)


def bound_on_producer_and_align_bounds(m):
    """a.align_bounds(x, 2) and b.bound_extent(y, 4) inside a 5x3 tile (a's columns rounded to even)."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        a, b, c = abc
        for f in abc:
            f.compute_at(h, xo)
        a.align_bounds(m.Var("x"), 2)
        b.bound_extent(m.Var("y"), 4)
    return _levels(m, (5, 3), place)


def align_bounds_with_remainder(m):
    """a.align_bounds(y, 2, 1) (its rows start at odd coordinates) and c.align_extent(x, 4), 6x4."""
    def place(m, abc, h, loops):
        xo, yo, xi, yi = loops
        a, b, c = abc
        for f in abc:
            f.compute_at(h, xo)
        a.align_bounds(m.Var("y"), 2, 1)
        c.align_extent(m.Var("x"), 4)
    return _levels(m, (6, 4), place)


def bound_on_input_copy_exact(m):
    """hw_input.bound(x, 0, 9).bound(y, 0, 6): exactly the region the 6x4 output reads through the chain."""
    def place(m, abc, h, loops):
        for f in abc:
            f.compute_at(h, loops[0])
    inp, x, y, hw_input, abc, hw_output, output = _chain(m)
    if on_hardware(m):
        loops = _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
        place(m, abc, hw_output, loops)
        hw_input.bound(x, 0, 9).bound(y, 0, 6)
    return output, {"input": inp}, [6, 4]


def bound_on_output_and_hw_output_tiles(m, extent_only=False):
    """output.bound, hw_output tiled 4x2 over 8x4 with its own bound(x, 0, 8)."""
    inp, x, y, hw_input, abc, hw_output, output = _chain(m)
    if on_hardware(m):
        xo, yo, xi, yi = vars_of(m, "xo yo xi yi")
        if extent_only:
            output.bound_extent(x, 8).bound_extent(y, 4)
        else:
            output.bound(x, 0, 8).bound(y, 0, 4)
        hw_output.bound(x, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 2).hw_accelerate(xi, xo)
        for f in abc:
            f.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8, 4]


def output_bound_extent_only(m):
    """output.bound_extent only: Halide takes the min from the realize, 0 for a realize of the output's size, as
    the compile does (hwlower/bounds.py)."""
    return bound_on_output_and_hw_output_tiles(m, extent_only=True)


CASES = {f.__name__: f for f in (
    levels_row_row_pixel, levels_all_pixel_stored_tile, levels_producer_loops,
    levels_row_store_pixel_compute_host_tiles,
    levels_store_at_host_compute_at_row, levels_a_inlined_c_at_pixel, partial_unroll_output_three_steps,
    partial_unroll_producer_two_consumer_four, partial_unroll_rows_of_producer, partial_unroll_rvar_by_three_of_six,
    partial_unroll_rvar_guard_not_dividing, partial_unroll_rvar_and_two_lanes, glb_two_glb_tiles_across,
    glb_four_glb_tiles_odd_memory, glb_memory_tiles_two_lanes, glb_producer_at_glb_loop,
    bound_on_producer_and_align_bounds, align_bounds_with_remainder, bound_on_input_copy_exact,
    bound_on_output_and_hw_output_tiles, output_bound_extent_only,
)}
