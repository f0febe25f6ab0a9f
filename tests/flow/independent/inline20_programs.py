"""Inline20's programs (session 35): reads of an inline Func at coordinates the memories cannot address as written
(a product or quotient of the coordinates, a value loaded from a Func), which the `inline_reads` pass
(hwlower/inline_reads.py) substitutes into the reader before the index and RAM passes serve them; each in module m
(`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

from probe19_programs import _in, _out, _sched
from probe_common import estimate, on_hardware


def product_modulo_u8(m):
    """g = hw_input + 1 (u8, inline) read at ((x * y) % 5, y) over 8x6 (the brief's first shape)."""
    inp, x, y, hw_input = _in(m, wide=m.u8)
    g = m.Func("g")
    g[x, y] = hw_input[x, y] + 1
    hw_output, output = _out(m, lambda x, y: g[(x * y) % 5, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 6), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def squared_u16_two_lanes(m):
    """g = hw_input * 3 (u16, inline) read at (x * x, y) and at (x, y), 8x4 at two lanes."""
    inp, x, y, hw_input = _in(m)
    g = m.Func("g")
    g[x, y] = hw_input[x, y] * 3
    hw_output, output = _out(m, lambda x, y: g[x * x, y] + g[x, y])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, (8, 4), inputs=(hw_input,))
        hw_output.unroll(xi, 2)
    return output, {"input": inp}, [8, 4]


def quotient_i16_through_two_inline(m):
    """h = hw_input * 2 - 3 and g = h(x + 1, y) + 5, both inline (i16), read at ((x * y) / 3, y) over 6x4."""
    inp, x, y, hw_input = _in(m, t=m.Int(16), wide=m.i16)
    g, h = m.Func("g"), m.Func("h")
    h[x, y] = hw_input[x, y] * 2 - 3
    g[x, y] = h[x + 1, y] + 5
    hw_output, output = _out(m, lambda x, y: g[(x * y) / 3, y] - hw_input[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def product_inside_the_inline_func(m):
    """g = hw_input(x * y, y) + 1 inline, read at (x, y) over 8x8 (the catalogue's non_affine_index, as written)."""
    inp, x, y, hw_input = _in(m)
    g = m.Func("g")
    g[x, y] = hw_input[x * y, y] + 1
    hw_output, output = _out(m, lambda x, y: g[x, y])
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 8), inputs=(hw_input,))
    return output, {"input": inp}, [8, 8]


def squared_in_host_tiles(m):
    """squared = hw_input(x * x, y) inline, read by hw_output = squared * 2 in host tiles 3 wide over 12 (the
    catalogue's squared_index_in_host_tiles, as written): the index is clamped to the frame's 0..121."""
    inp, x, y, hw_input = _in(m)
    squared = m.Func("squared")
    squared[x, y] = hw_input[x * x, y]
    hw_output, output = _out(m, lambda x, y: squared[x, y] * 2)
    if on_hardware(m):
        _sched(m, output, hw_output, (12, 4), tile=(3, 4), inputs=(hw_input,))
    return output, {"input": inp}, [12, 4]


def _gather(m, value_of, size, tile=None, idx_inline=False, t=None, wide=None, lanes=1):
    """hw_output = g(idx(x, y), y), g = value_of(hw_input, x, y) inline, idx = clamp(hw_input % 5, 0, 4) at xo (or
    inline), at `lanes` lanes."""
    inp, x, y, hw_input = _in(m, t=t, wide=wide)
    g, idx = m.Func("g"), m.Func("idx")
    g[x, y] = value_of(hw_input, x, y)
    idx[x, y] = m.clamp(m.i32(hw_input[x, y]) % 5, 0, 4)
    hw_output, output = _out(m, lambda x, y: g[idx[x, y], y])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, tile=tile, inputs=(hw_input,),
                                inner=() if idx_inline else (idx,))
        if lanes > 1:
            hw_output.unroll(xi, lanes)
            idx.unroll(x, lanes)
    return output, {"input": inp}, list(size)


def gather_pointwise_u16(m):
    """g = hw_input * 3 + 1 (u16) at a loaded coordinate, 5x3 (the catalogue's inline_func_read_at_a_loaded_coordinate
    as written)."""
    return _gather(m, lambda hw, x, y: hw[x, y] * 3 + 1, (5, 3))


def gather_u16_two_lanes(m):
    """g = hw_input * 3 + 1 (u16) at a loaded coordinate, 8x4 at two lanes (the RAM's two read ports)."""
    return _gather(m, lambda hw, x, y: hw[x, y] * 3 + 1, (8, 4), lanes=2)


def gather_two_taps_and_a_constant_u8(m):
    """g = hw_input(x, y) + hw_input(x + 1, y) * 2 + 7 (u8) at a loaded coordinate: two lookups, 8x6, idx inline."""
    return _gather(m, lambda hw, x, y: hw[x, y] + hw[x + 1, y] * 2 + 7, (8, 6), idx_inline=True, wide=m.u8)


def gather_two_funcs_and_a_table(m):
    """g = hw_input * 2 + mid + lut(x) at a loaded coordinate, 8x4: an input, a Func at xo and a constant table, each
    looked up at the loaded coordinate (two RAMs and a ROM)."""
    inp, x, y, hw_input = _in(m)
    g, idx, mid, lut = m.Func("g"), m.Func("idx"), m.Func("mid"), m.Func("lut")
    lut[x] = m.u16(x * x + 3)
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    g[x, y] = hw_input[x, y] * 2 + mid[x, y] + lut[x]
    idx[x, y] = m.clamp(m.i32(hw_input[x, y]) % 5, 0, 4)
    hw_output, output = _out(m, lambda x, y: g[idx[x, y], y])
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 4), inputs=(hw_input,), inner=(idx, mid))
    return output, {"input": inp}, [8, 4]


def gather_through_repeat_edge(m):
    """repeat_edge(hw_input) (an inline Func of clamps) read at a loaded column, -1 .. 9 over an 8x4 frame: the
    clamp runs on the loaded coordinate, and hw_input is looked up in a RAM at it."""
    inp, x, y, hw_input = _in(m)
    idx = m.Func("idx")
    edged = m.BoundaryConditions.repeat_edge(hw_input, [(0, 8), (0, 4)])
    idx[x, y] = m.i32(hw_input[x, y]) % 11 - 1
    hw_output, output = _out(m, lambda x, y: edged[idx[x, y], y])
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 4), inputs=(hw_input,), inner=(idx,))
    return output, {"input": inp}, [8, 4]


def gather_i16_host_tiles(m):
    """g = hw_input * hw_input - 9 (i16) at a loaded coordinate, in host tiles 5 wide over 10x6 (each tile reads
    hw_input's columns 0..4: the RAM's box the same in both)."""
    return _gather(m, lambda hw, x, y: hw[x, y] * hw[x, y] - 9, (10, 6), tile=(5, 6), t=m.Int(16), wide=m.i16)


def _periodic(m, size, index, tile=None, lanes=1, t=None, wide=None, inline=False):
    """hw_output(x, y) = hw_input(index(x, y)) (or through g = hw_input * 2 - 1 inline), a read at a periodic
    offset the `periodic` pass (hwlower/periodic_reads.py) makes a select of affine reads."""
    inp, x, y, hw_input = _in(m, t=t, wide=wide)
    g = m.Func("g")
    g[x, y] = hw_input[x, y] * 2 - 1
    src = g if inline else hw_input
    hw_output, output = _out(m, lambda x, y: src[index(x, y)])
    if on_hardware(m):
        xo, yo, xi, yi = _sched(m, output, hw_output, size, tile=tile, inputs=(hw_input,))
        if lanes > 1:
            hw_output.unroll(xi, lanes)
    return output, {"input": inp}, list(size)


def periodic_rows_u16(m):
    """in(x, y + (x / 4) % 2) over 8x6 (the brief's third shape): every other group of 4 columns a row down."""
    return _periodic(m, (8, 6), lambda x, y: (x, y + (x / 4) % 2))


def periodic_rows_u8_two_lanes(m):
    """in(x, y + (x / 4) % 2) (u8) over 16x4 at two lanes."""
    return _periodic(m, (16, 4), lambda x, y: (x, y + (x / 4) % 2), lanes=2, wide=m.u8)


def periodic_rows_i16_host_tiles(m):
    """in(x, y + (x / 4) % 2) (i16) through an inline Func, in host tiles 4 wide over 12x4 (each tile one group)."""
    return _periodic(m, (12, 4), lambda x, y: (x, y + (x / 4) % 2), tile=(4, 4), t=m.Int(16), wide=m.i16,
                     inline=True)


def periodic_columns_of_three(m):
    """in(x + (y / 2) % 3, y) over 9x6: three values of the offset, three reads."""
    return _periodic(m, (9, 6), lambda x, y: (x + (y / 2) % 3, y))


def periodic_through_repeat_edge(m):
    """repeat_edge(hw_input) read at (x, y + (x / 4) % 2) over 8x6: the last row's lower groups read the edge."""
    inp, x, y, hw_input = _in(m)
    edged = m.BoundaryConditions.repeat_edge(hw_input, [(0, 8), (0, 6)])
    hw_output, output = _out(m, lambda x, y: edged[x, y + (x / 4) % 2])
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 6), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def periodic_inside_an_inline_func(m):
    """g(x, y) = hw_input(x, y + (x / 4) % 2) * 2 inline, read at (x, y) over 8x6 (substituted, then a select)."""
    inp, x, y, hw_input = _in(m)
    g = m.Func("g")
    g[x, y] = hw_input[x, y + (x / 4) % 2] * 2
    hw_output, output = _out(m, lambda x, y: g[x, y] + 1)
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 6), inputs=(hw_input,))
    return output, {"input": inp}, [8, 6]


def periodic_columns_inside_an_inline_func_read_twice(m):
    """g(x, y) = hw_input(x + (y / 2) % 3, y) * 2 inline (i16), read at (x, y) and (x, y + 1) over 9x6."""
    inp, x, y, hw_input = _in(m, t=m.Int(16), wide=m.i16)
    g = m.Func("g")
    g[x, y] = hw_input[x + (y / 2) % 3, y] * 2
    hw_output, output = _out(m, lambda x, y: g[x, y] - g[x, y + 1])
    if on_hardware(m):
        _sched(m, output, hw_output, (9, 6), inputs=(hw_input,))
    return output, {"input": inp}, [9, 6]


CASES = {f.__name__: f for f in (product_modulo_u8, squared_u16_two_lanes, quotient_i16_through_two_inline,
                                  product_inside_the_inline_func, squared_in_host_tiles, gather_pointwise_u16,
                                  gather_u16_two_lanes, gather_two_taps_and_a_constant_u8,
                                  gather_two_funcs_and_a_table, gather_through_repeat_edge, gather_i16_host_tiles,
                                  periodic_rows_u16, periodic_rows_u8_two_lanes, periodic_rows_i16_host_tiles,
                                  periodic_columns_of_three, periodic_through_repeat_edge,
                                  periodic_inside_an_inline_func, periodic_columns_inside_an_inline_func_read_twice)}


def gather_no_schedule(m, w, h):
    """out = g(clamp(in % 5, 0, 4), y), g = u16(in) * 3 + 1, with no schedule (for apply_autoscheduler, which
    leaves g inline)."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = m.Var("x"), m.Var("y")
    g, out = m.Func("g"), m.Func("out")
    g[x, y] = m.u16(inp[x, y]) * 3 + 1
    out[x, y] = g[m.clamp(m.i32(inp[x, y]) % 5, 0, 4), y]
    estimate(out, w, h)
    return out, {"inp": inp}
